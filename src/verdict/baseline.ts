/**
 * The baseline: the suite as it stood on a cycle's starting tree (the base branch's, also when the
 * cycle continues an earlier cycle's branch), per test, run before the cycle's first agent run.
 * Kept in `<state-dir>/baselines/<key>.json`, keyed by that commit and the test command, so that
 * a resumed slice, a retried cycle or a later cycle on the same tree reads it instead of running the
 * suite again.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import type { StateFiles } from '../persist/stateFiles.js';
import { GROUP_SEPARATOR, failedIds, isReadable, passedIn, type SuiteRun, unreadCount } from './results.js';
import { firstIds } from './messages.js';

export { BASELINES_REMEMBERED, baselineProblem, rememberBaseline } from './baselineRules.js';

export const BASELINES_DIR = 'baselines';
/** Per test command, the failing tests of its last recorded baseline (whatever the commit). */
export const LAST_FAILING_DIR = 'baselines-last-failing';

/**
 * How runs are read: a baseline kept by an earlier reading is run again, not compared with a run read
 * otherwise (2: issue 42, pytest's XFAIL is no longer read as passed).
 */
const READING = 2;

/** The key of a baseline: the tree it ran on (a commit, or a run-specific id without git), the command, and how runs are read. */
export function baselineKey(tree: string, command: string, junitFile?: string): string {
  return createHash('sha256')
    .update(`${tree}\0${command}\0${junitFile ?? ''}\0${READING}`)
    .digest('hex')
    .slice(0, 24);
}

/** A short digest of a value as JSON: the checkpoint holds one of each record kept where the agent can write. Pure. */
const digestOf = (value: unknown): string =>
  createHash('sha256').update(JSON.stringify(value)).digest('hex').slice(0, 24);

/** A digest of a baseline's run, as it is kept: the run's checkpoint holds it, so a kept file rewritten since is known. Pure. */
export const baselineDigest = (run: SuiteRun): string => digestOf(run);

export interface BaselineStore {
  load(key: string): Promise<SuiteRun | undefined>;
  save(key: string, run: SuiteRun): Promise<void>;
  /** Removes one kept baseline (one that cannot be trusted). */
  remove(key: string): Promise<void>;
  /** Removes every kept baseline (a --fresh start); returns how many there were. */
  forget(): Promise<number>;
  /** The failing tests of the last baseline recorded for `command` (on any commit), if any was. */
  lastFailing(command: string): Promise<string[] | undefined>;
  rememberFailing(command: string, failing: readonly string[]): Promise<void>;
}

/** The key of a test command's record in LAST_FAILING_DIR (its file's name) and in `LoopState.lastFailing`. Pure. */
export function lastFailingKey(command: string): string {
  return createHash('sha256').update(command).digest('hex');
}

/** A digest of a last-failing record, as this run wrote it: the checkpoint holds it (`LoopState.lastFailing`). Pure. */
export const failingDigest = (failing: readonly string[]): string => digestOf(failing);

export function baselineStore(files: StateFiles): BaselineStore {
  const file = (key: string) => path.join(files.dir, BASELINES_DIR, `${key.replace(/[^0-9a-f]/g, '')}.json`);
  const last = (command: string) => path.join(files.dir, LAST_FAILING_DIR, `${lastFailingKey(command)}.json`);
  return {
    async load(key) {
      try {
        const text = await files.read(file(key));
        if (text === undefined) return undefined;
        const run = JSON.parse(text) as SuiteRun;
        // A file that is not a run (hand-edited, cut short) is run again, never trusted.
        if (
          !run ||
          typeof run !== 'object' ||
          typeof run.tests !== 'object' ||
          typeof run.groups !== 'object' ||
          typeof run.messages !== 'object'
        )
          return undefined;
        return run;
      } catch {
        return undefined;
      }
    },
    async save(key, run) {
      await files.write(file(key), `${JSON.stringify(run)}\n`);
    },
    async lastFailing(command) {
      try {
        const text = await files.read(last(command));
        const ids = text === undefined ? undefined : (JSON.parse(text) as unknown);
        return Array.isArray(ids) && ids.every((id) => typeof id === 'string') ? ids : undefined;
      } catch {
        return undefined;
      }
    },
    async rememberFailing(command, failing) {
      await files.write(last(command), `${JSON.stringify(failing)}\n`);
    },
    async remove(key) {
      await files.remove(file(key));
    },
    async forget() {
      // What the last baselines had failing goes too (not counted: they are not baselines); never through a link.
      const lastDir = (await files.list(files.dir)).find((e) => e.name === LAST_FAILING_DIR);
      if (lastDir && !lastDir.stamp.endsWith(':link'))
        for (const { name } of await files.list(path.join(files.dir, LAST_FAILING_DIR), { names: true }))
          if (name.endsWith('.json'))
            await files.remove(path.join(files.dir, LAST_FAILING_DIR, name)).catch(() => undefined);
      const dir = path.join(files.dir, BASELINES_DIR);
      // A symlink at the directory's name is not ours to read through: the link goes (and with it
      // every baseline read through it), never a file where it points.
      const entry = (await files.list(files.dir)).find((e) => e.name === BASELINES_DIR);
      if (entry?.stamp.endsWith(':link')) {
        await files.remove(dir);
        return 0;
      }
      let forgotten = 0;
      for (const { name } of await files.list(dir, { names: true })) {
        if (!name.endsWith('.json')) continue;
        try {
          await files.remove(path.join(dir, name));
          forgotten++;
        } catch (error) {
          // A directory made there was never a baseline (none is read from it): left alone.
          if (!['EISDIR', 'ERR_FS_EISDIR'].includes((error as NodeJS.ErrnoException).code ?? '')) throw error;
        }
      }
      return forgotten;
    },
  };
}

/** One line on a baseline for the log. Pure. */
export function describeBaseline(run: SuiteRun): string {
  if (!isReadable(run))
    return run.exitCode === 0 ? 'passes (read by its exit code only)' : `fails (exit code ${run.exitCode})`;
  const failing = failedIds(run);
  const total = Object.keys(run.tests).length;
  const failingNow = failing.length
    ? `, ${failing.length} failing before any change: ${firstIds(failing, 5)}`
    : ', none failing';
  // Issue 42: results the runner counted that were not read are said (the log said "470 test(s) read" against pytest's 473).
  const unread = unreadCount(run);
  const counted = unread
    ? `; ${run.reader} counted ${run.counted} result(s), ${unread} of them not read one by one`
    : '';
  return `${total} test(s) read (${run.reader}${counted})${failingNow}`;
}

/**
 * Whether a red baseline's failures need a second run to tell a flake from a failure that is there:
 * when one of them did not fail in the last baseline recorded for the same command (or none was
 * recorded). A suite that stays red the same way from commit to commit is run once per baseline, as
 * a green one is; a test that starts failing (a flake, or a real break on the base) is run again. Pure.
 */
export function needsConfirmation(failing: readonly string[], lastFailing: readonly string[] | undefined): boolean {
  if (failing.length === 0) return false;
  if (lastFailing === undefined) return true;
  const known = new Set(lastFailing);
  return failing.some((id) => !known.has(id));
}

/**
 * A red baseline checked by a second run on the same tree: a test that failed in the first and
 * passes in the second is flaky, and counts as passing at baseline (the work must keep it passing;
 * the verdict's own confirmation run tells a flake from a break there). Otherwise a flake at
 * baseline, kept for the commit, would excuse a real break of that test in every cycle on it. Pure.
 */
export function confirmBaselineFailures(first: SuiteRun, second: SuiteRun): { run: SuiteRun; flaky: string[] } {
  if (!isReadable(first) || !isReadable(second) || second.cannotRun) return { run: first, flaky: [] };
  const flaky = failedIds(first).filter((id) => passedIn(second, id));
  if (flaky.length === 0) return { run: first, flaky };
  const run: SuiteRun = {
    ...first,
    tests: { ...first.tests },
    groups: { ...first.groups },
    messages: { ...first.messages },
  };
  for (const id of flaky) {
    const group = id.endsWith(`${GROUP_SEPARATOR}*`) ? id.slice(0, -GROUP_SEPARATOR.length - 1) : undefined;
    if (group !== undefined) run.groups[group] = second.groups[group] ?? 'passed';
    else run.tests[id] = 'passed';
    delete run.messages[id];
  }
  return { run, flaky };
}
