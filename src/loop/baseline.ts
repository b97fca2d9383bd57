/**
 * A cycle's baseline: the suite run on the base branch's tree as the cycle starts (its `baseTip`),
 * before its first agent run (src/verdict/baseline.ts keeps it, keyed by that commit and the
 * command). Every verdict in the cycle compares the agent's work with it. A cycle that continues an
 * earlier cycle's branch (escalated, its rejected work kept as wip:) starts from a tree that holds
 * that work: its baseline is still the base tip's, so that what the earlier work broke is the
 * cycle's to mend, not a failure "before any change".
 */
import path from 'node:path';
import { surface } from '../config/surface.js';
import { type BaselineCheckout, baselineCheckoutFile } from '../safety/baselineCheckout.js';
import type { StateFiles } from '../persist/stateFiles.js';
import {
  BASELINES_DIR,
  LAST_FAILING_DIR,
  baselineDigest,
  baselineKey,
  baselineStore,
  confirmBaselineFailures,
  describeBaseline,
  failingDigest,
  lastFailingKey,
  needsConfirmation,
} from '../verdict/baseline.js';
import { type SuiteRun, emptyRun, failedIds, isReadable, unreadCount } from '../verdict/results.js';
import { VERDICT_MESSAGES } from '../verdict/messages.js';
import { type SliceDeps, type TestOutcome, filesOf } from './deps.js';
import type { BaselineDelta } from '../core/events.js';
import type { Git } from '../git/git.js';
import type { LoopState } from '../core/state.js';
import { cycleInFlight } from '../core/inFlight.js';

/**
 * A --fresh start forgets every recorded baseline: one recorded while the environment was broken (a
 * service down, a dependency missing) would otherwise go on excusing the same failures after the
 * work, under the same commit. Each cycle's suite then runs again on its base.
 */
export async function forgetBaselines(
  deps: Pick<SliceDeps, 'files' | 'stateDir' | 'redact' | 'logger'> & {
    settings?: Pick<SliceDeps['settings'], 'terms'>;
  },
): Promise<void> {
  const forgotten = await baselineStore(filesOf(deps)).forget();
  if (forgotten > 0)
    deps.logger.info(
      'tests.baseline',
      `${surface(deps.settings?.terms).given('fresh')}: ${forgotten} recorded baseline${forgotten === 1 ? '' : 's'}` +
        ` forgotten (${path.join(deps.stateDir, BASELINES_DIR)}); each cycle's suite runs again on its base.`,
      { forgotten },
    );
}

/**
 * The end of a slice: the baselines this run remembers that were rewritten or removed since (by the
 * agent: agent-loop never rewrites one). The one this slice holds (`held`, its current cycle's) is
 * written back as the run had it; any other rewritten one is removed, so that a later run, which
 * does not remember it, runs the suite again rather than trusting it. Returns what it did, by key.
 */
export async function mendBaselines(
  deps: Pick<SliceDeps, 'files' | 'stateDir' | 'redact' | 'logger'>,
  state: LoopState,
  held?: { key: string; run: SuiteRun },
): Promise<{ restored: string[]; removed: string[] }> {
  const store = baselineStore(filesOf(deps));
  const restored: string[] = [];
  const removed: string[] = [];
  for (const [key, digest] of Object.entries(state.baselines ?? {})) {
    const kept = await store.load(key);
    if (kept && baselineDigest(kept) === digest) continue;
    if (held?.key === key && baselineDigest(held.run) === digest) {
      await store.save(key, held.run);
      restored.push(key);
    } else if (kept) {
      await store.remove(key);
      removed.push(key);
    }
  }
  const where = path.join(deps.stateDir, BASELINES_DIR);
  if (restored.length > 0)
    deps.logger.warn(
      'tests.baseline',
      `The baseline of this cycle (${restored.join(', ')}) in ${where} was changed or removed during this ` +
        `slice, not by agent-loop (most likely by the agent): written back as this run recorded it.`,
      { keys: restored },
    );
  if (removed.length > 0)
    deps.logger.warn(
      'tests.baseline',
      `${removed.length} recorded baseline${removed.length === 1 ? '' : 's'} in ${where} changed during ` +
        `this slice, not by agent-loop (most likely by the agent): removed, so that no later run trusts ${removed.length === 1 ? 'it' : 'them'}` +
        `: ${removed.join(', ')}.`,
      { keys: removed },
    );
  return { restored, removed };
}

/**
 * The current cycle's baseline: read from the state directory when the base tip's was kept, else
 * run now (only while the cycle has not changed the tree: a resumed cycle whose baseline is gone is
 * judged by the exit code alone, and says so). When the checkout holds more than the base tip (an
 * earlier cycle's branch, merged with the base), the suite runs with the base tip checked out
 * (detached), and the cycle's branch is checked out again after. What it came to goes to the core
 * (src/core/baseline.ts), which folds it into the loop state, halts on one that gives no verdict,
 * and asks for one run now to be kept (`keepBaseline`). undefined: interrupted.
 */
export async function cycleBaseline(
  deps: SliceDeps,
  state: LoopState,
  checkpointId: string,
): Promise<BaselineDelta | undefined> {
  const { settings, logger, git } = deps;
  const cycle = cycleInFlight(state);
  const store = baselineStore(filesOf(deps));
  const junit = settings.junitFile;
  // The base tip, recorded when the cycle opened; else (no branches, an older checkpoint) HEAD.
  const baseTip = git ? cycle.baseTip : undefined;
  const key =
    cycle.baselineKey ??
    baselineKey(
      baseTip ?? (git ? await git.head() : `${checkpointId}:${cycle.startedAtIteration}`),
      settings.testCommand,
      junit,
    );
  const where = path.join(deps.stateDir, BASELINES_DIR);

  const kept = await trustedKept(deps, state, store, key);
  if (kept) {
    if (!cycle.baselineKey)
      logger.info('tests.baseline', `Baseline for this tree already known (${where}): ${describeBaseline(kept)}.`, {
        key,
      });
    return { key, source: 'kept', run: kept, digest: baselineDigest(kept) };
  }
  if (cycle.iterations > 0) {
    logger.warn('tests.baseline', BASELINE_TEXT.gone(key, where), { key });
    return { key, source: 'none' };
  }
  // The checkout holds more than the base tip: this cycle continues an earlier cycle's branch.
  const onBase = git && baseTip && (await git.changedFiles(baseTip)).length > 0 ? { git, tip: baseTip } : undefined;
  if (onBase && (await onBase.git.hasWorkSince(await onBase.git.head()))) {
    // Uncommitted changes (a run killed during the agent's first run, its baseline lost): the base
    // tip cannot be checked out without them, and the tree they are in is not the cycle's start.
    logger.warn('tests.baseline', BASELINE_TEXT.uncommitted(key, where, onBase.tip), { key });
    return { key, source: 'none' };
  }
  logger.info(
    'tests.baseline',
    onBase
      ? BASELINE_TEXT.onBase(state.baseBranch, onBase.tip, cycle.branch, settings.testCommand)
      : `Running the tests on the cycle's starting tree first (the baseline every verdict compares with): ${settings.testCommand}`,
    { command: settings.testCommand, ...(onBase ? { baseTip: onBase.tip } : {}) },
  );
  const tests = () => deps.runTests(settings.testCommand, deps.signal, 'baseline');
  const outcome = onBase
    ? await onTree(onBase.git, onBase.tip, tests, filesOf(deps), deps.stateDir)
    : await confirmedRun(deps, state, store, tests);
  if (deps.signal?.aborted) return undefined;
  const run = outcome.run ?? emptyRun(outcome.exitCode);
  logger.info('tests.baseline', `Baseline: ${describeBaseline(run)} (${(outcome.durationMs / 1000).toFixed(1)}s).`, {
    key,
    exitCode: outcome.exitCode,
    reader: run.reader ?? null,
  });
  warnUnread(deps, run);
  const ownTree = !onBase;
  const failing = ownTree && isReadable(run) && !run.cannotRun ? failedIds(run) : undefined;
  return {
    key,
    source: 'ran',
    run,
    digest: baselineDigest(run),
    ownTree,
    ...(failing ? { lastFailing: { key: lastFailingKey(settings.testCommand), digest: failingDigest(failing) } } : {}),
  };
}

/**
 * A baseline run now that gives a verdict (the core asked: `keepBaseline`), kept in the state
 * directory; on the cycle's own tree its failing tests recorded too, for the next red baseline.
 */
export async function keepBaseline(deps: SliceDeps, key: string, run: SuiteRun, ownTree: boolean): Promise<void> {
  const store = baselineStore(filesOf(deps));
  await store.save(key, run);
  if (ownTree && isReadable(run) && !run.cannotRun)
    await store.rememberFailing(deps.settings.testCommand, failedIds(run));
}

/** The baseline's longer log lines. */
const BASELINE_TEXT = {
  gone: (key: string, where: string) =>
    `The baseline of this cycle (${key}) is no longer in ${where} and the tree has moved on: ` +
    "the agent's work is judged by the test command's exit code alone.",
  uncommitted: (key: string, where: string, tip: string) =>
    `The baseline of this cycle (${key}) is not in ${where} and the checkout has uncommitted changes, ` +
    `so the base tip (${tip.slice(0, 12)}) cannot be checked out to run it: the agent's work is judged by the test command's exit code alone.`,
  onBase: (baseBranch: string | undefined, tip: string, branch: string | undefined, command: string) =>
    `Running the tests on ${baseBranch ?? 'the base branch'} as this cycle found it first (${tip.slice(0, 12)}, ` +
    `checked out for the run; the baseline every verdict compares with): ${branch ?? 'the branch'} holds an earlier cycle's work, ` +
    `and what it breaks is this cycle's to mend: ${command}`,
};

/** The baseline kept for `key` in the state directory, unless it changed since this run (or cycle) recorded it: then removed. */
async function trustedKept(
  deps: SliceDeps,
  state: LoopState,
  store: ReturnType<typeof baselineStore>,
  key: string,
): Promise<SuiteRun | undefined> {
  const { logger } = deps;
  const kept = await store.load(key);
  const cycle = cycleInFlight(state);
  // Kept in the state directory, where the agent can write: one that changed since this run had it
  // would excuse what the agent broke as "failing before any change" (in this cycle, or in a later
  // one on the same base tip: an escalated cycle leaves the base where it was).
  const digest = state.baselines?.[key] ?? cycle.baselineDigest;
  if (kept && digest !== undefined && baselineDigest(kept) !== digest) {
    logger.warn(
      'tests.baseline',
      `The baseline of this cycle (${key}) in ${path.join(deps.stateDir, BASELINES_DIR)} changed since ` +
        `this ${cycle.baselineKey === key ? 'cycle' : 'run'} recorded it, not by agent-loop (most likely ` +
        `by the agent): it is not trusted, and is removed.`,
      { key },
    );
    await store.remove(key);
    return undefined;
  }
  return kept;
}

/**
 * On the cycle's own starting tree, a red baseline is run once more (on an earlier cycle's branch,
 * where the base tip is checked out for the run, it is not: one run while detached).
 */
async function confirmedRun(
  deps: SliceDeps,
  state: LoopState,
  store: ReturnType<typeof baselineStore>,
  tests: () => Promise<TestOutcome>,
): Promise<TestOutcome> {
  const { settings, logger } = deps;
  const first = await tests();
  const failing = first.run && isReadable(first.run) && !first.run.cannotRun ? failedIds(first.run) : [];
  if (deps.signal?.aborted || !first.run || failing.length === 0) return first;
  // Kept for the commit, a failure here excuses that test in every cycle on it: a flake must not.
  // Failures the last baseline had too are not run again (a suite that stays red costs one run),
  // as this run recorded them: the record is in the state directory, where the agent can write, and
  // one it rewrote to list a test that only flaked now would keep that flake as "failing before any
  // change", excusing a real break of it (so is one this run did not write: a new run runs it twice).
  const recorded = await store.lastFailing(settings.testCommand);
  const vouched = state.lastFailing?.[lastFailingKey(settings.testCommand)];
  const known = recorded && vouched !== undefined && failingDigest(recorded) === vouched ? recorded : undefined;
  if (recorded && vouched !== undefined && !known)
    logger.warn(
      'tests.baseline',
      `The failing tests of the last baseline recorded in ${path.join(deps.stateDir, LAST_FAILING_DIR)}` +
        ` changed since this run recorded them, not by agent-loop (most likely by the agent): not trusted, ` +
        `so this baseline's failures are run again.`,
    );
  if (!needsConfirmation(failing, known)) return first;
  const fresh = known ? failing.filter((id) => !known.includes(id)) : failing;
  logger.info(
    'tests.confirm',
    `${fresh.length} test(s) fail before any change${known ? ' that did not fail in the last baseline' : ''}` +
      `: ${fresh.slice(0, 5).join(', ')}${fresh.length > 5 ? ', …' : ''}; running the tests once more to ` +
      `tell a failure that is there from a flaky one.`,
  );
  const second = await tests();
  if (deps.signal?.aborted) return first;
  const { run, flaky } = confirmBaselineFailures(first.run, second.run ?? emptyRun(second.exitCode));
  if (flaky.length)
    logger.warn(
      'tests.flaky',
      `Flaky before any change: ${flaky.join(', ')} failed once and passed on the second run; counted as ` +
        `passing at baseline, so the work must keep ${flaky.length === 1 ? 'it' : 'them'} passing.`,
      { flaky },
    );
  return { ...first, run };
}

/**
 * `run` with `commit` checked out (detached), then the branch (or commit) checked out before,
 * whatever `run` did: the checkout was clean when it began (cycleBaseline checks), so a change to a
 * tracked file since is the test run's (a snapshot, a report in the tree) and is thrown away, never
 * carried onto the branch nor left to stop the switch back. A marker says where the checkout was
 * while it is detached: a run killed in between is put back by the next (src/safety/baselineCheckout.ts).
 */
async function onTree<T>(
  git: Git,
  commit: string,
  run: () => Promise<T>,
  files: StateFiles,
  stateDir: string,
): Promise<T> {
  const back = await git.currentRef();
  const marker = baselineCheckoutFile(stateDir);
  await files.write(marker, JSON.stringify({ back, commit } satisfies BaselineCheckout));
  await git.checkout(commit);
  try {
    return await run();
  } finally {
    await git.checkout(back, { discard: true });
    await files.remove(marker);
  }
}

/**
 * Issue 42: a baseline with results the runner counted and agent-loop could not read one by one
 * (src/verdict/unverified.ts): said before any agent runs, where work is judged in a judge tree and
 * the maintainer does not land unverified work, that accepted work will be held for a person.
 */
function warnUnread(deps: SliceDeps, run: SuiteRun): void {
  const unread = unreadCount(run);
  if (unread === 0 || run.counted === undefined || !deps.judgeTrees || deps.settings.acceptUnverified) return;
  deps.logger.warn(
    'tests.unread',
    `${VERDICT_MESSAGES.unreadAhead(run.reader ?? 'the runner', run.counted, run.counted - unread, surface(deps.settings.terms))}.`,
    { counted: run.counted, read: run.counted - unread },
  );
}
