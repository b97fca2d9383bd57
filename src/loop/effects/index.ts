/**
 * The table of the slice's effect handlers: one per kind of effect the core asks for
 * (src/core/events.ts `Effect`). The type makes it whole: an effect added to the core's
 * vocabulary does not compile until it has a handler here.
 */
import type { Effect, Event } from '../../core/events.js';
import { readCycleIssues, runAgent } from './agent.js';
import { done, rethrow } from './end.js';
import { enterCycleBranch, leaveCycle, openCycle } from './branches.js';
import { claimIssues, holdClaim, releaseClaim, renewClaim } from './claims.js';
import { next, sleep } from './clock.js';
import type { Handler, Handlers, SliceContext } from './context.js';
import { checkSource, readIssues, updateIssues } from './issues.js';
import { appendError, log, save } from './journal.js';
import { readBaseTip, readLeftIssues } from './haltReads.js';
import { commitCycle, finishCycle } from './landing.js';
import { recordHalt, sendNotice } from './notices.js';
import { keepOpenCycle, shelveCycle, verifyLane } from './shelve.js';
import { commit, readChangedFiles, readHead, readWork, reset } from './git.js';
import { judge, readClosed } from './judge.js';
import { readNotes, writeNote } from './notes.js';
import { runTests } from './tests.js';
import { keepBaseline, runBaseline } from './work.js';

export type { Handler, Handlers, Ports, SliceContext, SliceRun } from './context.js';

export const handlers: Handlers = {
  log,
  save,
  readBaseTip,
  readLeftIssues,
  appendError,
  next,
  sleep,
  readIssues,
  checkSource,
  updateIssues,
  openCycle,
  enterCycleBranch,
  leaveCycle,
  runBaseline,
  keepBaseline,
  readCycleIssues,
  runAgent,
  readClosed,
  judge,
  readNotes,
  readHead,
  readWork,
  readChangedFiles,
  runTests,
  commit,
  reset,
  writeNote,
  verifyLane,
  commitCycle,
  finishCycle,
  shelveCycle,
  keepOpenCycle,
  sendNotice,
  recordHalt,
  claimIssues,
  holdClaim,
  renewClaim,
  releaseClaim,
  done,
  rethrow,
};

/** Performs one effect through its handler; what it asks of the world comes back as the next event. */
export function perform(effect: Effect, ctx: SliceContext): Promise<Event | undefined> {
  const handler = handlers[effect.kind] as Handler<Effect['kind']>;
  return handler(effect, ctx);
}
