/**
 * Every option, in one zod schema: each field carries its flag, help text and what is expected, so
 * `--help`, the README's reference, the action's inputs and every error message come from the same
 * place. `OPTIONS` is the table the schema generates: flag, environment name (AGENT_LOOP_<OPTION>),
 * the default as shown, and where each option applies.
 */
import { z } from 'zod';
import { SOURCE_NAMES, sourcesSaid } from '../issues/catalog.js';
import {
  AGENT_CATALOG,
  AGENT_NAMES,
  CLI_AGENT_NAMES,
  COMMAND_AGENT,
  type AgentName,
  orList,
} from '../agents/catalog.js';

export const COMMANDS = ['run', 'plan', 'status', 'cleanup'] as const;
export type Command = (typeof COMMANDS)[number];
/** Where an option applies: a CLI command, or the GitHub Action's inputs. */
export type Scope = Command | 'action';

/**
 * Names another option (by its key, as OptionKey has it: the schema cannot refer to its own type) in
 * a help text, in the words of the surface the text is shown on: its flag in `--help`
 * (`--agent-command`), its input in action.yml (`the input agent-command`); given a value, the option
 * set to it (`--agent command`, `agent: command`). src/config/surface.ts renders it, and refuses a key
 * that is no option (__tests__/config/surface.test.ts renders every help text).
 */
export type NameOption = (key: string, value?: string) => string;

/** The surface that ran: the CLI (`agent-loop …`) or the GitHub Action (src/config/surface.ts words it). */
export type Terms = 'cli' | 'action';

/** A help text: plain, or naming other options (and saying other things) in the surface's words. */
export type HelpText = string | ((name: NameOption, terms: Terms) => string);

interface OptionMeta {
  /** kebab-case flag without dashes. */
  flag: string;
  /** The action's input, where it is not named as the flag. */
  input?: string;
  /** One sentence for --help and action.yml (src/config/surface.ts's helpText renders it for each). */
  help: HelpText;
  /** What a valid value looks like, for errors and --help. */
  expected: HelpText;
  commands: readonly Scope[];
  /** Placeholder in --help; absent for switches. */
  arg?: string;
  /** Masked in every log line and diagnostic. */
  secret?: boolean;
  /** Shown in --help when the schema has no default. */
  defaultText?: string;
}

const registry = z.registry<OptionMeta>();

/** The options of a run of the loop: `run`, `plan` (whose last phase is the loop) and the action. */
const RUN = ['run', 'plan', 'action'] as const;
const ALL = ['run', 'plan', 'status', 'cleanup', 'action'] as const;
const PLAN = ['plan', 'action'] as const;
const ACTION = ['action'] as const;

// Raw values arrive as strings (flags, environment) or as YAML scalars: coerce those that are clear.
const toNumber = (v: unknown) => (typeof v === 'string' && /^\s*-?(\d+\.?\d*|\.\d+)\s*$/.test(v) ? Number(v) : v);
const toBoolean = (v: unknown) => {
  if (typeof v !== 'string') return v;
  const s = v.trim().toLowerCase();
  if (['true', '1', 'yes', 'on'].includes(s)) return true;
  if (['false', '0', 'no', 'off', ''].includes(s)) return false;
  return v;
};
const toUndefinedIfEmpty = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

// Every number has an upper bound: a duration Node's timers cannot hold (over 2^31-1 ms, about 24.8
// days) would fire at once, and a count nobody means is a typo.
const int = (min: number, max = 1_000_000) => z.preprocess(toNumber, z.number().int().min(min).max(max));
const positive = (max: number) => z.preprocess(toNumber, z.number().positive().finite().max(max));
const nonNegative = (max: number) => z.preprocess(toNumber, z.number().min(0).finite().max(max));
const flagSwitch = () => z.preprocess(toBoolean, z.boolean()).default(false);
const text = () => z.preprocess(toUndefinedIfEmpty, z.string().trim().min(1).optional());
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

export const OptionsSchema = z.object({
  config: z.string().min(1).optional().register(registry, {
    flag: 'config',
    arg: 'FILE',
    commands: ALL,
    defaultText: '.agent-loop.yml if it exists',
    help: 'YAML file of options (kebab-case keys, same names as the flags).',
    expected: 'a path to a YAML file',
  }),
  source: z
    .enum(SOURCE_NAMES)
    .default('beads')
    .register(registry, {
      flag: 'source',
      arg: SOURCE_NAMES.join('|'),
      commands: RUN,
      help: `Where issues come from: ${sourcesSaid('cli')}.`,
      expected: `one of ${SOURCE_NAMES.join(', ')}`,
    }),
  issuesFile: z.string().min(1).default('.beads/issues.jsonl').register(registry, {
    flag: 'issues-file',
    arg: 'PATH',
    commands: RUN,
    help: 'The beads JSONL file, read and rewritten directly when bd is not on PATH.',
    expected: 'a path',
  }),
  agent: z
    .enum(AGENT_NAMES)
    .default('claude')
    .register(registry, {
      flag: 'agent',
      arg: AGENT_NAMES.join('|'),
      commands: RUN,
      help: (n) =>
        `The coding agent: ${AGENT_NAMES.map((name, i) => `${i > 0 && i === AGENT_NAMES.length - 1 ? 'or ' : ''}${AGENT_CATALOG[name].says}`).join(', ')} (${n('agentCommand')}, which alone means ${COMMAND_AGENT}).`,
      expected: `one of ${AGENT_NAMES.join(', ')}`,
    }),
  agentCommand: text().register(registry, {
    flag: 'agent-command',
    arg: 'CMD',
    commands: RUN,
    help: (n) =>
      `Shell command run as the agent (${n('agent', COMMAND_AGENT)}, implied when ${n('agent')} is not given; beside ${n('agent', orList(CLI_AGENT_NAMES))} it is refused); it gets the prompt on stdin and in $AGENT_LOOP_PROMPT_FILE, and $AGENT_LOOP_ISSUE_IDS, $AGENT_LOOP_ITERATION.`,
    expected: 'a non-empty shell command',
  }),
  agentModel: text().register(registry, {
    flag: 'agent-model',
    arg: 'MODEL',
    commands: RUN,
    defaultText: "the agent's own default",
    help: `Model for the ${orList(CLI_AGENT_NAMES)} agent (--model).`,
    expected: 'a model name',
  }),
  agentMaxTurns: int(1, 10_000).optional().register(registry, {
    flag: 'agent-max-turns',
    arg: 'N',
    commands: RUN,
    defaultText: "the agent's own limit",
    help: 'Turns one Claude Code invocation may take (--max-turns); reaching it is a max_turns failure.',
    expected: 'a whole number from 1 to 10000',
  }),
  agentPermissionMode: z
    .enum(['acceptEdits', 'auto', 'bypassPermissions', 'default', 'dontAsk', 'plan'])
    .default('acceptEdits')
    .register(registry, {
      flag: 'agent-permission-mode',
      arg: 'MODE',
      commands: RUN,
      help: "Claude Code's --permission-mode. bypassPermissions is refused by Claude Code when run as root.",
      expected: 'one of acceptEdits, auto, bypassPermissions, default, dontAsk, plan',
    }),
  agentAllowedTools: text().register(registry, {
    flag: 'agent-allowed-tools',
    arg: 'TOOLS',
    commands: RUN,
    defaultText: "the agent's own",
    help: 'Tools Claude Code may use without asking, as its --allowedTools takes them: "Bash Edit Write Read".',
    expected: 'a list of tool names',
  }),
  agentSandbox: z
    .enum(['read-only', 'workspace-write', 'danger-full-access'])
    .default('workspace-write')
    .register(registry, {
      flag: 'agent-sandbox',
      arg: 'MODE',
      commands: RUN,
      help: "Codex's --sandbox for the commands it runs.",
      expected: 'one of read-only, workspace-write, danger-full-access',
    }),
  agentArgs: text().register(registry, {
    flag: 'agent-args',
    arg: 'ARGS',
    commands: RUN,
    defaultText: 'none',
    help: `Extra arguments passed through to ${orList(CLI_AGENT_NAMES)}, split like a shell would ("--foo 'a b'").`,
    expected: 'arguments with balanced quotes',
  }),
  agentGithubToken: flagSwitch().register(registry, {
    flag: 'agent-github-token',
    commands: RUN,
    help: "Let the agent's environment keep GITHUB_TOKEN and GH_TOKEN (off: the agent never holds the workflow's token; the runner's ACTIONS_* tokens, file-command paths, inputs and the webhook it never holds at all).",
    expected: 'true or false',
  }),
  agentSession: z.enum(['fresh', 'continue']).default('fresh').register(registry, {
    flag: 'agent-session',
    arg: 'fresh|continue',
    commands: RUN,
    help: "continue resumes the cycle's previous Claude Code session on its next iteration, also after a rate limit, a timeout or a crash (the last good session); fresh after a failure tied to the issue or the environment (a failed resume falls back to a fresh one).",
    expected: 'one of fresh, continue',
  }),
  maxCostUsd: positive(1_000_000).optional().register(registry, {
    flag: 'max-cost-usd',
    arg: 'USD',
    commands: RUN,
    defaultText: 'no cap',
    help: "Halt (haltReason budget) before an iteration would start with the run's spend, across slices, at or over USD. Applies to agents that report cost (Claude Code); Codex reports tokens only.",
    expected: 'a number of dollars > 0, at most 1000000',
  }),
  testCommand: text().register(registry, {
    flag: 'test-command',
    arg: 'CMD',
    commands: RUN,
    defaultText: 'auto: npm test, pytest, go test ./..., cargo test or make test',
    help: "The test suite: run once on each cycle's starting tree (the baseline) and again when the agent says the work is done; the work is judged test by test against the baseline (a test that passed must still pass, the issue's tests must pass). Detected from package.json's test script, pytest's configuration or test_*.py files, go.mod, Cargo.toml, or a Makefile test target.",
    expected: 'a non-empty shell command',
  }),
  batch: flagSwitch().register(registry, {
    flag: 'batch',
    commands: RUN,
    help: 'Put all ready issues into one cycle with one prompt, instead of one issue per cycle.',
    expected: 'true or false',
  }),
  parallel: int(1, 256)
    .default(1)
    .register(registry, {
      flag: 'parallel',
      arg: 'N',
      commands: ['run', 'action'],
      help: 'Work up to N issues at once. run: each in its own git worktree, agent process and test run, finished issues merged into the base branch one at a time (a merge conflict works the issue again on the new base); at most 32. The action (fan-out plan): the most issues one wave works at the same time, one matrix job each (a GitHub matrix holds at most 256 jobs). 1: one issue after another.',
      expected: 'a whole number from 1 to 256 (32 for run)',
    }),
  issue: z
    .preprocess(
      (v) =>
        typeof v === 'string' && v.trim() !== ''
          ? v
              .split(',')
              .map((s) => s.trim())
              .filter((s) => s !== '')
          : toUndefinedIfEmpty(v),
      z
        .array(z.string().regex(/^[A-Za-z0-9._:-]{1,100}$/))
        .min(1)
        .optional(),
    )
    .register(registry, {
      flag: 'issue',
      arg: 'ID[,ID]',
      commands: ['run', 'action'],
      defaultText: 'every ready issue',
      help: "Work only these issues (comma-separated ids); the others are left alone. The action's fan-out work: the one issue this job works (the plan's matrix entry, matrix.issue; the entry outbox lands earlier waves' unlanded work without running the agent).",
      expected: 'issue ids separated by commas, e.g. bd-1,bd-2',
    }),
  onSuccess: z.enum(['merge', 'branch', 'pull-request']).default('merge').register(registry, {
    flag: 'on-success',
    arg: 'merge|branch|pull-request',
    commands: RUN,
    help: "In git: merge a finished cycle's branch into the base branch, or leave it on its branch (agent-loop/<id>; while it is not merged, no run works that issue again: merge it, or delete it to have the issue worked again). In the action with source beads: pull-request (its default: push the branch, open a pull request) or merge (push to the base branch on GitHub).",
    expected: 'one of merge, branch, pull-request',
  }),
  plan: text().register(registry, {
    flag: 'plan',
    arg: 'FILE',
    commands: RUN,
    defaultText: 'none',
    help: (n) =>
      `A plan included in every prompt; with ${n('workflow', 'tdd')}, the test list (a Markdown checklist) instead of the issue's.`,
    expected: 'a path to a readable file',
  }),
  goal: text().register(registry, {
    flag: 'goal',
    arg: 'TEXT',
    commands: PLAN,
    defaultText: 'none',
    help: (n) =>
      `What the planning pipeline works towards (or ${n('goalFile')}): research, decomposition, planning, phases, one issue per phase, then the loop on them.`,
    expected: 'a non-empty text',
  }),
  goalFile: text().register(registry, {
    flag: 'goal-file',
    arg: 'FILE',
    commands: PLAN,
    defaultText: 'none',
    help: (n) => `The goal, read from a file (instead of ${n('goal')}).`,
    expected: 'a path to a readable file',
  }),
  planPrompts: text().register(registry, {
    flag: 'plan-prompts',
    arg: 'DIR',
    commands: PLAN,
    defaultText: 'built in',
    help: 'A directory whose research.md, decomposition.md, planning.md or phase_decomposition.md replace the built-in prompt of that phase ({{goal}}, {{research}}, {{decomposition}}, {{plan}}, {{artifact}}, {{failure}}).',
    expected: 'a path to a directory',
  }),
  workflow: z
    .enum(['implement', 'tdd', 'pipeline'])
    .default('implement')
    .register(registry, {
      flag: 'workflow',
      arg: 'implement|tdd|pipeline',
      commands: RUN,
      help: (n) =>
        `implement: the agent works until the tests pass. tdd: red/green/refactor per item of the issue's checklist (or ${n('plan')}), a commit and a git note (refs/notes/agent-loop) per phase. pipeline (the action): the planning pipeline from ${n('goal')}, as \`agent-loop plan\`.`,
      expected: 'one of implement, tdd, pipeline',
    }),
  junitFile: text().register(registry, {
    flag: 'junit-file',
    arg: 'PATH',
    commands: RUN,
    defaultText: 'none',
    help: "A path inside the repository: the JUnit XML report the test command writes (jest-junit, pytest --junitxml, gotestsum), read for each test's outcome and message (the baseline, every verdict, TDD's phases); without it the runner's output is read (pytest, jest, vitest, mocha, node --test, go test, cargo test). Needed when the suite fails before any change and its output is none of those.",
    expected: 'a path relative to the repository',
  }),
  tddPrompts: text().register(registry, {
    flag: 'tdd-prompts',
    arg: 'DIR',
    commands: RUN,
    defaultText: 'built in',
    help: (n) =>
      `A directory whose red.md, green.md or refactor.md replace the built-in prompt of that agent ({{issue}}, {{test}}, {{tests}}, {{testCommand}}, {{testFile}}, {{failure}}, {{attempt}}), for ${n('workflow', 'tdd')}.`,
    expected: 'a path to a directory',
  }),
  maxIterations: int(1).default(100).register(registry, {
    flag: 'max-iterations',
    arg: 'N',
    commands: RUN,
    help: 'Agent invocations allowed in the whole run, counted across slices; then the run halts.',
    expected: 'a whole number from 1 to 1000000',
  }),
  sliceIterations: int(1).optional().register(registry, {
    flag: 'slice-iterations',
    arg: 'N',
    commands: RUN,
    defaultText: 'unbounded',
    help: 'End this invocation after N iterations with status continuing (exit 0); the next run resumes.',
    expected: 'a whole number from 1 to 1000000',
  }),
  sliceMinutes: positive(10_080).optional().register(registry, {
    flag: 'slice-minutes',
    arg: 'M',
    commands: RUN,
    defaultText: 'unbounded',
    help: 'Start no new iteration after M minutes; end with status continuing (exit 0).',
    expected: 'a number of minutes > 0, at most 10080 (a week)',
  }),
  iterationDelay: nonNegative(3600).optional().register(registry, {
    flag: 'iteration-delay',
    arg: 'SECONDS',
    commands: RUN,
    defaultText: delaysByAgent(),
    help: 'Least time between two agent invocations (the tests and any rate-limit wait in between count toward it); none before the first or after the last.',
    expected: 'a number of seconds from 0 to 3600',
  }),
  agentTimeoutMinutes: positive(1440).default(30).register(registry, {
    flag: 'agent-timeout-minutes',
    arg: 'M',
    commands: RUN,
    help: "Kill the agent's whole process group after M minutes (decimals allowed); also bounds the test gate.",
    expected: 'a number of minutes > 0, at most 1440 (a day)',
  }),
  maxRetriesPerStep: int(0, 100).default(3).register(registry, {
    flag: 'max-retries-per-step',
    arg: 'N',
    commands: RUN,
    help: 'Retries of a failing step (tests failing, transient agent failures), and step-back transitions allowed in one cycle, before the cycle is escalated.',
    expected: 'a whole number from 0 to 100',
  }),
  maxIterationsPerIssue: int(0, 1_000_000)
    .default(20)
    .register(registry, {
      flag: 'max-iterations-per-issue',
      arg: 'N',
      commands: RUN,
      help: (n) =>
        `Agent runs of one issue that may end with its work still remaining (a cycle of K issues, with ${n('batch')}, gets K times as many): at the N-th the cycle is escalated as stuck (its work kept as wip:), not run until ${n('maxIterations')}. Failed runs and rejected work do not count (${n('maxRetriesPerStep')} bounds those). 0: no limit. Not used by ${n('workflow', 'tdd')}, whose phases are judged by the tests each run.`,
      expected: 'a whole number from 0 to 1000000',
    }),
  maxConsecutiveEscalations: int(1, 100).default(2).register(registry, {
    flag: 'max-consecutive-escalations',
    arg: 'N',
    commands: RUN,
    help: 'Escalated cycles in a row, with no successful cycle between them, before the run halts (FAILURE LOOP DETECTED).',
    expected: 'a whole number from 1 to 100',
  }),
  stateDir: z.string().trim().min(1).optional().register(registry, {
    flag: 'state-dir',
    arg: 'DIR',
    commands: ALL,
    defaultText: '<git dir>/agent-loop in a git repository ($RUNNER_TEMP/agent-loop in the action), else .agent-loop',
    help: 'Where checkpoints, logs, the lock and errors.jsonl live; by default outside the working tree, where no commit can take it.',
    expected: 'a path',
  }),
  resume: z
    .string()
    .regex(UUID_V4)
    .optional()
    .register(registry, {
      flag: 'resume',
      arg: 'ID',
      commands: RUN,
      defaultText: 'the newest resumable checkpoint',
      help: 'Resume this checkpoint instead of the newest one.',
      input: 'checkpoint-id',
      expected: (_n, terms) =>
        terms === 'cli'
          ? 'a checkpoint id (UUID v4, see agent-loop status)'
          : "a checkpoint id (UUID v4, as a run's checkpoint-id output or job summary names it)",
    }),
  resumeHalted: flagSwitch().register(registry, {
    flag: 'resume-halted',
    commands: RUN,
    input: 'resume',
    help: (n) =>
      `Resume a halted run. A halt stands otherwise: later runs stop at once (no agent, no checkpoint written, no Discord post) until this, ${n('fresh')}, or a change of the halt's cause (an escalated issue's label removed or the issue edited, new commits on the base branch after a failure loop, a raised ${n('maxIterations')} or ${n('maxCostUsd')}).`,
    expected: 'true or false',
  }),
  fresh: flagSwitch().register(registry, {
    flag: 'fresh',
    commands: RUN,
    help: "Ignore existing checkpoints and start a new run; the recorded test baselines are forgotten too, so each cycle's suite runs again on its base.",
    expected: 'true or false',
  }),
  strict: flagSwitch().register(registry, {
    flag: 'strict',
    commands: RUN,
    help: "Halt when the agent's report contradicts itself, instead of overriding it and continuing.",
    expected: 'true or false',
  }),
  discordWebhook: z.preprocess(toUndefinedIfEmpty, z.url({ protocol: /^https?$/ }).optional()).register(registry, {
    flag: 'discord-webhook',
    arg: 'URL',
    commands: RUN,
    secret: true,
    defaultText: 'none',
    help: 'Discord webhook that receives the halt diagnostic (a secret: masked in every output).',
    expected: 'an http(s) URL',
  }),
  secretEnv: text().register(registry, {
    flag: 'secret-env',
    arg: 'NAMES',
    commands: RUN,
    defaultText: 'none',
    help: 'More environment variables whose values are secrets, comma-separated (ANTHROPIC_API_KEY, OPENAI_API_KEY, CODEX_API_KEY, GITHUB_TOKEN, GH_TOKEN and the webhook URL always are).',
    expected: 'environment variable names, comma-separated',
  }),
  githubToken: text().register(registry, {
    flag: 'github-token',
    arg: 'TOKEN',
    commands: ACTION,
    secret: true,
    defaultText: '${{ github.token }}',
    help: "Token for the GitHub API (issues, labels, comments, pull requests), artifacts, and agent-loop's own git push and fetch (given to those git commands only, never stored in .git/config nor given to the agent); masked everywhere.",
    expected: 'a GitHub token',
  }),
  workflowToken: text().register(registry, {
    flag: 'workflow-token',
    arg: 'TOKEN',
    commands: ACTION,
    secret: true,
    defaultText: '${{ github.token }}',
    help: 'Leave it at its default, the workflow token: compared with github-token only, so that the check before the first agent run knows whether pull requests are opened with the workflow token, which the repository setting "Allow GitHub Actions to create and approve pull requests" governs; never used for a request.',
    expected: 'the workflow token',
  }),
  paused: flagSwitch().register(registry, {
    flag: 'paused',
    commands: ACTION,
    help: 'Pause the loop: the run ends at once, green, before it reads, installs or publishes anything (output status paused). The reusable workflow sets it from the repository variable AGENT_LOOP_PAUSED.',
    expected: 'true or false',
  }),
  label: z.string().trim().min(1).default('agent-loop').register(registry, {
    flag: 'label',
    arg: 'LABEL',
    commands: ACTION,
    help: 'Only open issues carrying this label are worked on.',
    expected: 'a label name',
  }),
  allowedAuthors: z.string().trim().min(1).default('OWNER,MEMBER,COLLABORATOR').register(registry, {
    flag: 'allowed-authors',
    arg: 'ASSOCIATIONS',
    commands: ACTION,
    help: 'Author associations whose issues may be worked on (others are skipped and listed in the summary): an outsider cannot make the agent run their text.',
    expected: 'comma-separated author associations, e.g. OWNER,MEMBER,COLLABORATOR',
  }),
  installAgent: flagSwitch().register(registry, {
    flag: 'install-agent',
    commands: ACTION,
    help: 'Install the pinned Claude Code or Codex CLI when it is not on PATH.',
    expected: 'true or false',
  }),
  fanOut: z.preprocess(toUndefinedIfEmpty, z.enum(['plan', 'work', 'reduce']).optional()).register(registry, {
    flag: 'fan-out',
    arg: 'ROLE',
    commands: ACTION,
    defaultText: 'none (one slice, one job)',
    help: "This job's part in a wave of parallel jobs (the reusable workflow's parallel): plan picks and claims up to parallel ready issues (and a landing job, matrix entry outbox, when earlier waves left work unlanded) and outputs the matrix and the wave; work runs one slice on its matrix issue (the input issue) within its share and publishes its partial state; reduce merges the wave's partial states into the loop's checkpoint and publishes it. Empty: one slice in this job.",
    expected: 'one of plan, work, reduce, or empty',
  }),
  wave: z.preprocess(toUndefinedIfEmpty, z.string().max(65_536).optional()).register(registry, {
    flag: 'wave',
    arg: 'JSON',
    commands: ACTION,
    help: "fan-out work and reduce: the wave the plan job output (its wave output: the wave's id, its jobs and their shares).",
    expected: "the plan job's wave output (JSON)",
  }),
  draftPr: flagSwitch().register(registry, {
    flag: 'draft-pr',
    commands: ACTION,
    help: 'Open the pull request of a finished issue as a draft.',
    expected: 'true or false',
  }),
  commitAuthor: z
    .preprocess(
      toUndefinedIfEmpty,
      z
        .string()
        .trim()
        .regex(/^[^<>\n]*[^<>\s]\s*<[^<>\s@]+@[^<>\s@]+>$/)
        .optional(),
    )
    .register(registry, {
      flag: 'commit-author',
      arg: "'NAME <EMAIL>'",
      commands: RUN,
      defaultText:
        "git's own identity, else github-actions[bot] <41898282+github-actions[bot]@users.noreply.github.com>",
      help: "The author and committer of agent-loop's commits (the work, wip:, merges, notes). Unset: git's configured identity, or on a machine with none (a GitHub runner) the github-actions bot.",
      expected: "a name and an email address as 'Name <name@example.com>'",
    }),
  json: flagSwitch().register(registry, {
    flag: 'json',
    commands: ALL,
    help: 'stdout becomes NDJSON events; the last line is the result.',
    expected: 'true or false',
  }),
  olderThan: nonNegative(36_500)
    .optional()
    .register(registry, {
      flag: 'older-than',
      arg: 'DAYS',
      commands: ['cleanup'],
      help: 'Delete checkpoints older than DAYS days (the newest resumable one is kept).',
      expected: 'a number of days from 0 to 36500',
    }),
  all: flagSwitch().register(registry, {
    flag: 'all',
    commands: ['cleanup'],
    help: 'Delete every checkpoint, the resumable one included.',
    expected: 'true or false',
  }),
  dryRun: flagSwitch().register(registry, {
    flag: 'dry-run',
    commands: ['cleanup'],
    help: 'Print what would be deleted and delete nothing.',
    expected: 'true or false',
  }),
});

export type Options = z.infer<typeof OptionsSchema>;
export type OptionKey = keyof Options;

/** Subset of options the run command uses, for modules that should not see the rest. */
export type RunOptions = Options;

export interface OptionInfo extends OptionMeta {
  key: OptionKey;
  /** The action's input (action.yml): the flag, or the name the option has there. */
  input: string;
  /** The default as shown to users. */
  defaultValue?: string;
  env: string;
}

export const OPTIONS: readonly OptionInfo[] = Object.entries(OptionsSchema.shape).map(([key, schema]) => {
  const meta = registry.get(schema as z.ZodType);
  if (!meta) throw new Error(`option ${key} has no metadata`);
  const parsed = (schema as z.ZodType).safeParse(undefined);
  const dflt = parsed.success && parsed.data !== undefined ? String(parsed.data) : meta.defaultText;
  return {
    ...meta,
    key: key as OptionKey,
    input: meta.input ?? meta.flag,
    defaultValue: dflt,
    env: `AGENT_LOOP_${meta.flag.toUpperCase().replace(/-/g, '_')}`,
  };
});

/** The options by their flag, and by their key. */
export const byFlag = new Map(OPTIONS.map((o) => [o.flag, o]));
export const byKey = new Map(OPTIONS.map((o) => [o.key, o]));
export const optionsFor = (command: Scope) => OPTIONS.filter((o) => o.commands.includes(command));

/** --iteration-delay when it is not given: the agent's own (src/agents/catalog.ts says why). */
export function defaultIterationDelay(agent: Options['agent']): number {
  return AGENT_CATALOG[agent].iterationDelaySeconds;
}

/** "10 with claude or codex, 0 with command": each default delay and the agents it is theirs. */
function delaysByAgent(): string {
  const delays = [...new Set(AGENT_NAMES.map((name) => AGENT_CATALOG[name].iterationDelaySeconds))];
  const having = (delay: number) =>
    AGENT_NAMES.filter((name: AgentName) => AGENT_CATALOG[name].iterationDelaySeconds === delay);
  return delays.map((delay) => `${delay} with ${orList(having(delay))}`).join(', ');
}
