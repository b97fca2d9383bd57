/**
 * Where the test command runs when it judges (issue 42): in the judge tree, told where its report
 * goes. The environment gets AGENT_LOOP_REPORT_DIR (the judge tree's report directory, outside the
 * tree: a command can write there itself, `pytest --junitxml="$AGENT_LOOP_REPORT_DIR/junit.xml"`);
 * the JUnit file option, a path inside the repository, is made a symlink at that path in the judge
 * tree to the same path under the report directory, so that a command that writes it where it always
 * does (`--junitxml=reports/junit.xml`) writes it outside the tree, and whatever the agent's work
 * left at that path is gone first. The report is read from the report directory.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Finding } from './protectedPaths.js';
import { printable } from '../util/printable.js';

/** The judge tree the test command runs in (judgeTree.ts's JudgeTree). */
export interface TestPlace {
  cwd: string;
  reportDir: string;
}

/**
 * Issue 42 (--workflow tdd): a test run judged in a judge tree (src/loop/judgePlace.ts) of `base` (the
 * commit whose tests and infrastructure stand) holding the agent's work, every protected path the
 * work changed taken from `base` (or dropped); the agent's added tests run, or left out (`leftOut`:
 * the tests of `base` alone judge). `allowed`: the protected paths the issue lets change.
 */
export interface TreeJudge {
  base: string;
  addedTests: 'run' | 'leftOut';
  allowed: string[];
}

/** What a judge tree found of the agent's work: its changes to protected paths, the symlinks removed (none: absent). */
export interface TreeFindings {
  findings?: Finding[];
  removedLinks?: string[];
}

/** The environment variable that names the report directory to the test command. */
export const REPORT_DIR_VARIABLE = 'AGENT_LOOP_REPORT_DIR';

export class JudgeRunError extends Error {}

/**
 * The test command's directory and environment in `place`, and the JUnit report to read (absolute)
 * when `junitFile` (relative to the repository's top level, as the option is given) is.
 */
export async function judgeRun(
  place: TestPlace,
  env: NodeJS.ProcessEnv,
  junitFile: string | undefined,
): Promise<{ cwd: string; env: NodeJS.ProcessEnv; junitFile?: string }> {
  const run = { cwd: place.cwd, env: { ...env, [REPORT_DIR_VARIABLE]: place.reportDir } };
  if (junitFile === undefined) return run;
  const report = inside(place.reportDir, junitFile);
  const inTree = inside(place.cwd, junitFile);
  await fs.mkdir(path.dirname(report), { recursive: true });
  await fs.rm(report, { force: true });
  await fs.mkdir(path.dirname(inTree), { recursive: true });
  // Never through a symlink out of the tree (one of the base's: the work's own leaving ones are gone).
  const top = await fs.realpath(place.cwd);
  const parent = path.relative(top, await fs.realpath(path.dirname(inTree)));
  if (parent.startsWith('..') || path.isAbsolute(parent))
    throw new JudgeRunError(
      `the JUnit file '${printable(junitFile)}' is reached through a symbolic link out of the judge tree: ` +
        'give a path inside the repository that no link leads out of.',
    );
  await fs.rm(inTree, { recursive: true, force: true });
  await fs.symlink(report, inTree);
  return { ...run, junitFile: report };
}

/** `rel` under `dir`; a path that leaves it is refused (the option's check says so first: junitFileProblem). */
function inside(dir: string, rel: string): string {
  const abs = path.resolve(dir, rel);
  const back = path.relative(dir, abs);
  if (back === '' || back.startsWith('..') || path.isAbsolute(back))
    throw new JudgeRunError(
      `the JUnit file '${printable(rel)}' is not inside ${dir}: give a path inside the repository.`,
    );
  return abs;
}
