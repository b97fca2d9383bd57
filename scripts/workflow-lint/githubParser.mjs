// GitHub's own workflow parser (@actions/workflow-parser, from actions/languageservices: the parser of
// GitHub's Actions language service), on one unit: parseWorkflow (the schema: keys, types, where each
// context may be used), then convertWorkflowTemplate (events, cron, jobs, needs, concurrency) with
// the called reusable workflows fetched one level down, which checks a caller's `with:` and
// `secrets:` against the called workflow's declared inputs and secrets, and reports the called
// workflow's own problems for each caller, as GitHub does when it starts the caller.
import { NoOperationTraceWriter, convertWorkflowTemplate, parseWorkflow } from '@actions/workflow-parser';
import { convertActionTemplate, parseAction } from '@actions/workflow-parser/actions/index';
import { ErrorPolicy } from '@actions/workflow-parser/model/convert';

/**
 * The problems GitHub's parser finds in `unit` (sources.mjs). `called(ref)` gives the text of a
 * reusable workflow a job calls (`ref`: `{ owner?, repository?, path, version? }`), as
 * `{ name, content }`, or undefined when it is not one the lint knows: GitHub's parser then reports
 * that it cannot find it.
 */
export async function githubParserProblems(unit, called) {
  if (unit.kind === 'action') return actionProblems(unit);
  const fetched = new Map();
  const fileProvider = {
    async getFileContent(ref) {
      const file = called(ref);
      if (!file) throw new Error(`not a workflow the lint knows: ${JSON.stringify(ref)}`);
      fetched.set(file.name, ref);
      return file;
    },
  };
  const parsed = parseWorkflow({ name: unit.name, content: unit.text }, new NoOperationTraceWriter());
  if (parsed.value)
    await convertWorkflowTemplate(parsed.context, parsed.value, fileProvider, {
      fetchReusableWorkflowDepth: 1,
      errorPolicy: ErrorPolicy.TryConversion,
    });
  const seen = new Set();
  const problems = [];
  for (const error of parsed.context.errors.getErrors()) {
    const problem = toProblem(unit, error, fetched);
    const key = `${problem.line}:${problem.column}:${problem.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    problems.push(problem);
  }
  return problems;
}

/** An action's metadata file (action.yml) against GitHub's action schema (parseAction, convertActionTemplate). */
function actionProblems(unit) {
  const parsed = parseAction({ name: unit.name, content: unit.text }, new NoOperationTraceWriter());
  if (parsed.value) convertActionTemplate(parsed.context, parsed.value);
  return parsed.context.errors.getErrors().map((error) => toProblem(unit, error, new Map()));
}

/** A parser error as a problem at the unit file's own line and column; one in a called workflow at the job that calls it. */
function toProblem(unit, error, fetched) {
  const start = error.range?.start;
  const name = [...fetched.keys()].find((n) => error.prefix?.startsWith(`${n} (`));
  const base = { file: unit.file, linter: 'github', kind: unit.kind ?? 'workflow' };
  if (!name)
    return {
      ...base,
      line: unit.line + (start?.line ?? 1),
      column: (start?.line ? unit.column : 0) + (start?.column ?? 1),
      message: error.rawMessage,
    };
  const at = callLine(unit.text, fetched.get(name));
  return {
    ...base,
    line: unit.line + at.line,
    column: unit.column + at.column,
    message: `in the called workflow ${name}${start ? ` (line ${start.line}, column ${start.column})` : ''}: ${error.rawMessage}`,
  };
}

/** Where the unit's first job calling `ref` names it (its `uses:` value). */
function callLine(text, ref) {
  const path = ref.path;
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const column = lines[i].search(/\buses:\s*\S/);
    if (column >= 0 && lines[i].includes(path)) return { line: i + 1, column: lines[i].indexOf(':', column) + 3 };
  }
  return { line: 1, column: 1 };
}
