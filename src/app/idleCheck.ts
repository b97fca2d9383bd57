/**
 * Before a run prepares anything (issue 14, "idle runs cost nothing"): is there any work? Opens the
 * checkpoint the run would continue and reads the ready issues once, then lets the pure rule
 * (src/core/idle.ts) decide. An idle run writes no checkpoint, installs and prepares no agent, and
 * (in the action) publishes nothing; the issues read here are the run's first read when there is work.
 */
import { FileCheckpointStore } from '../checkpoint/fileStore.js';
import { newestFirst } from '../checkpoint/resume.js';
import type { Options } from '../config/options.js';
import { idleness } from '../core/idle.js';
import { type LoopState, initialLoopState, parseLoopState } from '../core/state.js';
import type { Issue, IssueSource } from '../issues/types.js';
import { GitHubSourceError } from '../issues/github/errors.js';
import { ListingError } from '../issues/listing.js';
import type { Deferral } from '../core/events.js';
import { openCheckpoint } from '../loop/slice.js';
import type { Clock } from '../util/clock.js';

export type IdleCheck =
  /**
   * Work (or a reason not to decide here: the run itself says what is wrong); the issues read when
   * the run's first step is to read them (its first read, then).
   */
  | { kind: 'work'; ready?: Issue[] }
  /** Nothing to do: the newest checkpoint as it is (none: ''), whose counters the result reports. */
  | { kind: 'idle'; checkpointId: string; loop: LoopState }
  /**
   * The issues could not be listed (GitHub did not answer, after the client's retries): whether
   * there is work is unknown, and the run is deferred before it writes or installs anything.
   */
  | { kind: 'deferred'; checkpointId: string; loop: LoopState; failed: Deferral }
  /**
   * GitHub refused the token the issues are listed with (401, or a 403 that is no rate limit): no
   * passing failure (src/issues/listing.ts), and nothing to defer. The run stops before it writes,
   * installs or checks anything else (issue 40: it went on, wrote a checkpoint and published it).
   */
  | { kind: 'refused'; message: string };

export async function checkIdle(
  options: Pick<Options, 'fresh' | 'resume' | 'maxIterations' | 'batch'>,
  io: {
    stateDir: string;
    clock: Clock;
    source: IssueSource;
    /** Of the ready issues, those a run would start (--on-success branch: not one finished on its branch). */
    startable?: (ready: Issue[]) => Promise<Issue[]>;
  },
): Promise<IdleCheck> {
  // fresh: a new checkpoint is what was asked for.
  if (options.fresh) return { kind: 'work' };
  const store = new FileCheckpointStore(io.stateDir, { clock: io.clock });
  let opened;
  try {
    opened = await openCheckpoint({ settings: options, store, clock: io.clock }, () => {});
  } catch {
    return { kind: 'work' };
  }
  // The planning pipeline's hand-over: the loop starts in that checkpoint.
  if (!opened.resumed && Object.keys(opened.extra ?? {}).length > 0) return { kind: 'work' };
  const loop = opened.state;
  // A cycle in flight, finished work in the outbox, a branch to park: work, whatever the issues say.
  if (!idleness(loop, [], { batch: options.batch }).idle) return { kind: 'work' };
  if (opened.sourceState !== undefined) io.source.importState?.(opened.sourceState);
  let ready: Issue[];
  try {
    ready = await io.source.ready();
  } catch (error) {
    // Not "no issues": unknown. Other failures are the run's to say (it reads them again).
    if (error instanceof GitHubSourceError && (error.kind === 'auth' || error.kind === 'permission'))
      return { kind: 'refused', message: error.message };
    if (!(error instanceof ListingError)) return { kind: 'work' };
    const failed = { what: error.what, status: error.status, message: error.message };
    return { kind: 'deferred', failed, ...(await reported(opened, store, options.maxIterations)) };
  }
  // No issue read from a file that has lines: a mistake for the run to refuse (prepareRun.ts), not "nothing to do".
  if (ready.length === 0) {
    const health = await io.source.health?.().catch(() => undefined);
    if (health && health.valid === 0 && health.unreadable > 0) return { kind: 'work' };
  }
  const startable = io.startable ? await io.startable(ready).catch(() => ready) : ready;
  // The issues read are the run's first read, unless it waits out a rate limit first (stale by then).
  if (!idleness(loop, startable, { batch: options.batch }).idle)
    return loop.rateLimitedUntil ? { kind: 'work' } : { kind: 'work', ready };
  return { kind: 'idle', ...(await reported(opened, store, options.maxIterations)) };
}

/** The checkpoint a run that does nothing reports: the one it would resume, else the newest (finished), else none (''). */
async function reported(
  opened: { id: string; state: LoopState; resumed: boolean },
  store: FileCheckpointStore,
  maxIterations: number,
): Promise<{ checkpointId: string; loop: LoopState }> {
  if (opened.resumed) return { checkpointId: opened.id, loop: opened.state };
  // The newest checkpoint is finished (not resumable): it is still the one this run reports.
  const newest = newestFirst((await store.list().catch(() => ({ checkpoints: [] }))).checkpoints)[0];
  const finished = newest ? parseLoopState(newest.state) : undefined;
  return newest && typeof finished === 'object'
    ? { checkpointId: newest.id, loop: finished }
    : { checkpointId: '', loop: initialLoopState(maxIterations) };
}
