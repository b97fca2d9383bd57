// The project's own uses checked against what they call, where neither linter can: a step using the
// action (`OWNER/REPO@REF`, or `./`) against action.yml's inputs, and the type of each value a job
// passes to the reusable workflow (`OWNER/REPO/.github/workflows/agent-loop.yml@REF`, or `./…`),
// a literal as written and an expression as GitHub's evaluator gives it for each event that starts
// the caller. (An unknown `with:` key or secret of a reusable-workflow call, and a required one
// missing, are GitHub's parser's to report: githubParser.mjs fetches the reusable workflow for it.)
import YAML from 'yaml';
import { evaluate, hasExpression } from './expressions.mjs';
import { findUses, WORKFLOW_PATH } from '../publish-ref.mjs';

/**
 * What a use of the project may call, from its texts: `repo` (OWNER/REPO, as the reusable
 * workflow's own step names the action: scripts/publish-ref.mjs writes it), the reusable workflow's
 * declared inputs and secrets, and action.yml's inputs.
 */
export function callTargets({ reusableText, actionText }) {
  const own = findUses(reusableText, WORKFLOW_PATH).find((u) => !u.path);
  const call = YAML.parse(reusableText)?.on?.workflow_call ?? {};
  const action = YAML.parse(actionText) ?? {};
  return {
    repo: own?.repo,
    workflowPath: WORKFLOW_PATH,
    workflow: { inputs: call.inputs ?? {}, secrets: call.secrets ?? {} },
    action: { inputs: action.inputs ?? {} },
  };
}

/** Whether `uses` names the project's reusable workflow. */
export const callsWorkflow = (uses, targets) =>
  uses === `./${targets.workflowPath}` ||
  (targets.repo !== undefined &&
    new RegExp(`^${escape(`${targets.repo}/${targets.workflowPath}`)}@[^\\s@]+$`).test(uses));

/** Whether `uses` names the project's action. */
export const usesAction = (uses, targets) =>
  uses === './' ||
  uses === '.' ||
  (targets.repo !== undefined && new RegExp(`^${escape(targets.repo)}@[^\\s@/]+$`).test(uses));

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The problems of the unit's uses of the action and of the reusable workflow. */
export function callProblems(unit, targets) {
  const lineCounter = new YAML.LineCounter();
  const doc = YAML.parseDocument(unit.text, { lineCounter });
  // A text that is not YAML is GitHub's parser's to report.
  if (doc.errors.length > 0 || !YAML.isMap(doc.contents)) return [];
  const problems = [];
  const report = (node, message) => {
    const pos = lineCounter.linePos(node?.range?.[0] ?? 0);
    problems.push({
      file: unit.file,
      line: unit.line + pos.line,
      column: unit.column + pos.col,
      message,
      linter: 'calls',
      kind: 'inputs',
    });
  };
  const events = eventContexts(doc.toJS().on);
  const jobs = doc.get('jobs');
  if (!YAML.isMap(jobs)) return problems;
  for (const { value: job } of jobs.items) {
    if (!YAML.isMap(job)) continue;
    const uses = job.get('uses');
    if (typeof uses === 'string' && callsWorkflow(uses, targets))
      checkWorkflowCall(job, uses, targets.workflow.inputs, events, report);
    const steps = job.get('steps');
    if (!YAML.isSeq(steps)) continue;
    for (const step of steps.items)
      if (YAML.isMap(step) && typeof step.get('uses') === 'string' && usesAction(step.get('uses'), targets))
        checkActionStep(step, targets.action.inputs, report);
  }
  return problems;
}

/** A step using the action: each `with:` key is an input of action.yml, and each required one is given. */
function checkActionStep(step, inputs, report) {
  const uses = step.get('uses');
  const given = step.get('with');
  const pairs = YAML.isMap(given) ? given.items : [];
  const names = Object.keys(inputs);
  for (const pair of pairs) {
    const name = String(pair.key?.value ?? pair.key);
    if (!(name in inputs))
      report(
        pair.key,
        `${uses} has no input '${name}' (action.yml): the runner only warns "Unexpected input(s)" and the action never reads it. Its inputs: ${names.join(', ')}.`,
      );
  }
  for (const [name, def] of Object.entries(inputs))
    if (def?.required === true && def.default === undefined && !pairs.some((p) => String(p.key?.value) === name))
      report(
        step.get('uses', true),
        `${uses} needs the input '${name}' (required in action.yml), and this step does not give it.`,
      );
}

/**
 * A job calling the reusable workflow: each value given to a boolean or number input has that type,
 * as written (a literal) or as evaluated for each event that starts the caller (an expression that
 * reads only the inputs, vars and github contexts; repository variables taken as unset, as in a new
 * repository). GitHub refuses to start a run whose value has another type ("Unexpected value",
 * "Unexpected type of value '', expected type: Boolean").
 */
function checkWorkflowCall(job, uses, inputs, events, report) {
  const given = job.get('with');
  if (!YAML.isMap(given)) return;
  for (const pair of given.items) {
    const name = String(pair.key?.value ?? pair.key);
    const def = Object.entries(inputs).find(([n]) => n.toLowerCase() === name.toLowerCase())?.[1];
    const type = def?.type;
    if (type !== 'boolean' && type !== 'number') continue;
    const value = YAML.isScalar(pair.value) ? pair.value.value : pair.value?.toJSON?.();
    if (!hasExpression(value)) {
      if (typeof value !== type)
        report(
          pair.value ?? pair.key,
          `input '${name}' of ${uses} is a ${type}, and ${JSON.stringify(value)} is ${kindOf(value)}: GitHub refuses to start the run ("Unexpected value"). Write ${type === 'boolean' ? 'true or false' : 'a number'}, unquoted.`,
        );
      continue;
    }
    const wrong = [];
    for (const [event, contexts] of Object.entries(events)) {
      let result;
      try {
        result = evaluate(value, contexts);
      } catch {
        // It reads a context whose value is not known here (needs, matrix, …): not checkable.
        continue;
      }
      if (typeof result !== type) wrong.push(`${JSON.stringify(result)} (${kindOf(result)}) on ${event}`);
    }
    if (wrong.length > 0)
      report(
        pair.value,
        `input '${name}' of ${uses} is a ${type}, but ${value} gives ${wrong.join(', ')}: GitHub refuses to start that run ("Unexpected type of value"). ${
          type === 'boolean'
            ? "Compare, so that it is a boolean on every event: e.g. ${{ inputs.x == true }}, ${{ vars.X == 'true' }}."
            : "Convert: ${{ fromJSON(inputs.x || '0') }}."
        }`,
      );
  }
}

const kindOf = (v) => (v === null || v === undefined ? 'empty' : Array.isArray(v) ? 'a list' : `a ${typeof v}`);

/**
 * For each event that starts a workflow (its `on:`), the contexts a `with:` value may read, as
 * GitHub gives them: `inputs` holds a manual run's inputs (workflow_dispatch, workflow_call: each at
 * its default, with its type) and nothing on other events; `vars` is empty (no repository variable
 * set); `github.event_name` is the event.
 */
export function eventContexts(on) {
  const names = typeof on === 'string' ? [on] : Array.isArray(on) ? on : Object.keys(on ?? {});
  const contexts = {};
  for (const event of names) {
    const declared = (on && typeof on === 'object' && !Array.isArray(on) ? on[event]?.inputs : undefined) ?? {};
    const inputs =
      event === 'workflow_dispatch' || event === 'workflow_call'
        ? Object.fromEntries(Object.entries(declared).map(([n, d]) => [n, inputDefault(d)]))
        : {};
    contexts[event] = { inputs, vars: {}, github: { event_name: event } };
  }
  return contexts;
}

function inputDefault(def) {
  if (def?.default !== undefined) return def.default;
  return { boolean: false, number: 0, choice: def?.options?.[0] ?? '' }[def?.type] ?? '';
}
