/**
 * The action's inputs and outputs as action.yml declares them and the README's table shows them,
 * generated from the one schema (src/config/options.ts): each input is the option of its input name
 * (`checkpoint-id` is --resume, `resume` is --resume-halted), its description the option's help in
 * the action's words (src/config/surface.ts: other options named as inputs), or the action's own
 * wording where the action differs from the CLI, and its default as the action
 * has it. __tests__/action/manifest.test.ts holds action.yml and the README to it; `npm run docs`
 * (scripts/action-docs.mjs) rewrites both. Pure: no I/O.
 */
import { type OptionInfo, optionsFor } from '../config/options.js';
import { sourcesSaid } from '../issues/catalog.js';
import { helpText } from '../config/surface.js';

export interface ActionInput {
  name: string;
  description: string;
  /** The default as the action has it, for people; `none` when there is none. */
  defaultText: string;
  /** action.yml's `default:`, when the runner supplies one. */
  default?: string;
}

export interface ActionOutput {
  name: string;
  description: string;
}

/** Options that are not inputs: the action writes no NDJSON and has no --config of its own. */
const NOT_INPUTS = new Set(['json', 'config']);

/** Where the action's wording differs from the CLI's (another default, an input's name for a flag). */
const ACTION_HELP: Record<string, { help?: string; defaultText?: string; default?: string }> = {
  source: {
    help: `Where issues come from: ${sourcesSaid('action', 'github')}.`,
    defaultText: 'github',
  },
  'on-success': {
    help:
      'What becomes of a finished cycle with source beads: pull-request pushes its branch agent-loop/<issue-id> ' +
      'and opens a pull request naming the issue (one per cycle); merge pushes the work to the base branch ' +
      'on GitHub (merging the base if it moved meanwhile). With source github the work is always a pull request.',
    defaultText: 'pull-request',
  },
  'state-dir': {
    help: 'Where checkpoints, logs and errors.jsonl live, outside the working tree (never committed).',
    defaultText: '$RUNNER_TEMP/agent-loop',
  },
  'checkpoint-id': {
    help: "Resume this checkpoint (a UUID v4 from a previous run's checkpoint-id output or job summary) instead of the newest one.",
    defaultText: 'the newest',
  },
  resume: {
    help:
      'Resume a halted run. A halt stands otherwise: later runs end at once with a warning (no agent, no ' +
      'Discord post) until this, fresh, or a change of its cause.',
  },
  'github-token': { defaultText: 'the workflow token', default: '${{ github.token }}' },
  'workflow-token': { defaultText: 'the workflow token', default: '${{ github.token }}' },
};

/** The action's inputs, in the schema's order. */
export function actionInputs(options: readonly OptionInfo[] = optionsFor('action')): ActionInput[] {
  return options
    .filter((o) => !NOT_INPUTS.has(o.flag))
    .map((o) => {
      const name = o.input;
      const own = ACTION_HELP[name] ?? {};
      return {
        name,
        description: own.help ?? helpText(o.help, 'action'),
        defaultText: own.defaultText ?? o.defaultValue ?? 'none',
        ...(own.default !== undefined ? { default: own.default } : {}),
      };
    });
}

/** The action's outputs (src/action/summary.ts sets them), in action.yml's order. */
export const ACTION_OUTPUTS: readonly ActionOutput[] = [
  {
    name: 'status',
    description:
      'complete, continuing (the slice ended with work remaining; the next run resumes), halted, deferred ' +
      '(listing the issues or the open pull requests failed on GitHub after retries: nothing was started ' +
      'or lost, the next run retries; the step stays green with a warning), paused (the input paused: nothing ' +
      'was read or run, the other outputs are empty), or stopped (the run stopped on an error before it ' +
      'had a result, e.g. GitHub refused the token: the step fails with it, result-json holds it, the other outputs are empty).',
  },
  {
    name: 'halt-reason',
    description:
      'Why the run halted (failure_loop, bounce_loop, all_escalated, agent_unavailable, max_iterations, ' +
      'budget, contract_violation, publish_refused, …), or empty.',
  },
  {
    name: 'iterations',
    description:
      "Agent invocations in this run: a step's slice, or with fan-out this workflow run's wave as the reduce " +
      'job counts it (0 when the run had nothing to do, a halt stood or it was deferred). This run is what ' +
      'iterations, failed-iterations, successful-iterations, issues-*, preexisting-failures, pull-requests ' +
      "and cost-usd describe; the loop's totals across runs are the loop-… outputs.",
  },
  { name: 'failed-iterations', description: 'Iterations of this run whose agent run failed.' },
  { name: 'successful-iterations', description: 'Iterations of this run whose agent run succeeded.' },
  {
    name: 'issues-closed',
    description:
      'Issues this run finished, comma-separated: closed (beads), or with a pull request that closes them ' +
      "on merge (GitHub issues); empty when it finished none (an idle run, a halt that stands). The loop's " +
      'are loop-issues-closed.',
  },
  { name: 'issues-escalated', description: 'Issues this run escalated, comma-separated.' },
  {
    name: 'issues-no-change',
    description:
      'Issues this run found already satisfied (nothing changed, nothing broke) that name no test of their ' +
      'own: labelled agent-loop:no-change with the evidence and left open for a person to close, comma-separated.',
  },
  {
    name: 'issues-held',
    description:
      "Issues whose work this run held for a person, comma-separated: it changed the maintainer's tests " +
      '(labelled agent-loop:tests-changed) or is unverified: no evidence of the fix, or test results counted ' +
      'and not read (agent-loop:unverified); the work is in a draft pull request (pull-requests), never merged by agent-loop, the issue left open.',
  },
  {
    name: 'preexisting-failures',
    description:
      'Test ids that failed before their cycle started and still fail, targeted by no issue worked (this ' +
      "run's last verdict; reported, never blocking), comma-separated.",
  },
  {
    name: 'pull-requests',
    description:
      "URLs of the pull requests this run opened or reused for finished issues, comma-separated; empty when it opened none. The loop's are loop-pull-requests.",
  },
  { name: 'cost-usd', description: 'Agent spend of this run, in dollars (agents that report cost).' },
  {
    name: 'loop-iterations',
    description:
      "The loop's agent invocations across all its runs (what max-iterations bounds), since its checkpoint started.",
  },
  {
    name: 'loop-issues-closed',
    description: "Issues the loop finished across all its runs, comma-separated (issues-closed is this run's).",
  },
  { name: 'loop-issues-escalated', description: 'Issues the loop escalated across all its runs, comma-separated.' },
  {
    name: 'loop-issues-no-change',
    description: 'Issues the loop found already satisfied across all its runs, comma-separated.',
  },
  {
    name: 'loop-issues-held',
    description: 'Issues whose work the loop held for a person across all its runs, comma-separated.',
  },
  {
    name: 'loop-pull-requests',
    description: "URLs of the loop's pull requests across all its runs (the newest 100), comma-separated.",
  },
  {
    name: 'loop-cost-usd',
    description: "The loop's agent spend across all its runs (what max-cost-usd bounds), in dollars.",
  },
  { name: 'checkpoint-id', description: 'The checkpoint of this run: pass it as checkpoint-id to resume from it.' },
  {
    name: 'result-json',
    description:
      "The whole run result as JSON (secrets redacted): its counts and lists are this run's, its loop field the loop's totals.",
  },
  {
    name: 'matrix',
    description:
      'fan-out plan: the wave as strategy.matrix takes it, {"include":[{"issue":"12"},…]} (an empty include when there is no wave).',
  },
  {
    name: 'wave',
    description:
      "fan-out plan: the wave (its id, the loop's checkpoint, each job's issue and share) as JSON, for " +
      "the work and reduce jobs' input wave; empty when there is none.",
  },
  { name: 'jobs', description: 'fan-out plan: how many work jobs the wave has (0: nothing to do now).' },
];

/** An input's description as action.yml has it: the help, then its default. */
export const inputDescription = (input: ActionInput) =>
  input.default !== undefined ? input.description : `${input.description} Default: ${input.defaultText}.`;

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** The README's table of the action's inputs and outputs (between its action-inputs markers). */
export function renderActionTables(inputs = actionInputs(), outputs = ACTION_OUTPUTS): string {
  return [
    '| input | default | what it does |',
    '|---|---|---|',
    ...inputs.map((i) => `| \`${i.name}\` | ${cell(i.default ?? i.defaultText)} | ${cell(i.description)} |`),
    '',
    '| output | what it holds |',
    '|---|---|',
    ...outputs.map((o) => `| \`${o.name}\` | ${cell(o.description)} |`),
  ].join('\n');
}

export const TABLE_START = '<!-- action-inputs:start (generated by npm run docs from src/action/manifest.ts) -->';
export const TABLE_END = '<!-- action-inputs:end -->';

/** The README with its marked table replaced by `table`; throws when the markers are missing. */
export function withActionTables(readme: string, table = renderActionTables()): string {
  const start = readme.indexOf(TABLE_START);
  const end = readme.indexOf(TABLE_END);
  if (start < 0 || end < start) throw new Error(`README.md has no ${TABLE_START} … ${TABLE_END} section.`);
  return `${readme.slice(0, start + TABLE_START.length)}\n\n${table}\n\n${readme.slice(end)}`;
}

/** action.yml's `inputs:` and `outputs:`, as YAML (every input optional; descriptions double-quoted). */
export function renderActionYmlIO(inputs = actionInputs(), outputs = ACTION_OUTPUTS): string {
  const q = (text: string) => JSON.stringify(text);
  return [
    'inputs:',
    ...inputs.flatMap((i) => [
      `  ${i.name}:`,
      `    description: ${q(inputDescription(i))}`,
      '    required: false',
      ...(i.default !== undefined ? [`    default: ${q(i.default)}`] : []),
    ]),
    'outputs:',
    ...outputs.flatMap((o) => [`  ${o.name}:`, `    description: ${q(o.description)}`]),
    '',
  ].join('\n');
}

/** action.yml with its `inputs:` and `outputs:` (everything from `inputs:` to `runs:`) generated. */
export function withActionYmlIO(actionYml: string, io = renderActionYmlIO()): string {
  const start = actionYml.search(/^inputs:$/m);
  const end = actionYml.search(/^runs:$/m);
  if (start < 0 || end < start) throw new Error('action.yml has no inputs: … runs: section.');
  return `${actionYml.slice(0, start)}${io}${actionYml.slice(end)}`;
}
