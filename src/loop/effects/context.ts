/**
 * What every effect handler of the slice's interpreter works with (src/loop/effects/): the ports,
 * the lane guard, the checkpoint writer, and the slice's own state, gathered in one typed object
 * (`run`) instead of variables scattered through one long function.
 */
import type { Deferral, Effect, Event, Halt, NoticeResult, Status } from '../../core/events.js';
import type { RunResult } from '../../core/result.js';
import type { CoreConfig, SliceModel } from '../../core/slice.js';
import type { LoopState } from '../../core/state.js';
import type { LaneGuard } from '../../git/lane.js';
import type { Claimant } from '../../issues/claims.js';
import type { OpenRecord } from '../../issues/types.js';
import type { SuiteRun } from '../../verdict/results.js';
import type { SliceDeps } from '../deps.js';

/** The ports and the masker: what the issue and git helpers (src/loop/issueWork.ts) need. */
export interface Ports {
  /** The ports, git behind the lane guard. */
  deps: SliceDeps;
  /** Masks secrets in what leaves the log (notes, commit messages, halt.md). */
  redact: (text: string) => string;
}

/** What the slice keeps between effects; written by the handlers, read by the interpreter. */
export interface SliceRun {
  /** The core's model, as of the last step. */
  model: SliceModel;
  /** Why the slice was deferred (a listing failed), once it is. */
  deferral?: Deferral;
  /** The halt's diagnostic (halt.md), masked, once written. */
  diagnostic: string | null;
  /** The current cycle's baseline as last read or run in this slice. */
  baselineSeen?: { key: string; run?: SuiteRun };
  /** Issues said to wait in an open pull request, once per slice. */
  toldInReview: Set<string>;
  /** Per issue, whether its work was finished on its own branch and waits there unmerged (--on-success branch), looked up once per slice. */
  onBranch: Map<string, string | undefined>;
  /** The current cycle's issues as the issues file held them when this slice entered the cycle (src/loop/ownIssues.ts). */
  atCycleStart?: ReadonlyMap<string, OpenRecord>;
  /** The notices sent in the current step: told to the core once its effects are done (noticesSent). */
  sent: NoticeResult[];
  /** The commits agent-loop left cycle branches at in the current step: told to the core once its effects are done (tipsLeft). */
  tipsLeft: Map<string, string>;
  /** The error that crashed the slice, once one did (caught once: a second failure propagates). */
  crash?: unknown;
  /** The slice's result, once the core said `done`. */
  result?: RunResult;
}

export interface SliceContext extends Ports {
  config: CoreConfig;
  checkpointId: string;
  /** This run in issue claims. */
  me: Claimant;
  guard?: LaneGuard;
  /** When the slice started (ms). */
  startedAt: number;
  /** The loop as this slice found it: the result's counts and lists are what the slice added to it. */
  found: LoopState;
  /** What the result counts from (`found`, or the planning pipeline's loop without its phases' agent runs). */
  start: LoopState;
  /** Writes the checkpoint (and quarantines checkpoint files something else wrote meanwhile). */
  save: (status: Status, loop: LoopState, errors: readonly string[]) => Promise<void>;
  /** The halt when the issues had readable records and have none now (the agent garbled the file). */
  unreadableSource: () => Promise<Halt | undefined>;
  run: SliceRun;
}

/** Performs one kind of effect; what it asks of the world comes back as the next event. */
export type Handler<K extends Effect['kind']> = (
  effect: Extract<Effect, { kind: K }>,
  ctx: SliceContext,
) => Promise<Event | undefined>;

/** One handler per kind of effect: a new effect cannot be left unhandled. */
export type Handlers = { [K in Effect['kind']]: Handler<K> };
