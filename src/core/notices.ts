/**
 * The outbox's notices (the checkpoint's `loop.notices`: an escalation's label, a tick, a halt's
 * Discord post): recorded before they are sent, dropped once sent. One format and one bookkeeping
 * for every driver of the loop: the slice (src/core/slice.ts), and run --parallel's coordinator and
 * the action's reduce job, whose halts go through the same pipeline (src/loop/effects/notices.ts
 * haltThroughOutbox). Pure.
 */
import type { NoticeResult } from './events.js';
import type { LoopState, Notice } from './state.js';

/** `what` recorded at `at` (RFC 3339): the loop with the notice last in its outbox, and the notice. */
export function withNotice(loop: LoopState, what: Notice['what'], at: string): { loop: LoopState; notice: Notice } {
  const notice: Notice = {
    id: `${what.kind}-${loop.iteration}-${at}-${loop.notices.length}`,
    what,
    recordedAt: at,
    attempts: 0,
  };
  return { loop: { ...loop, notices: [...loop.notices, notice] }, notice };
}

/** The notices once sent: the done ones leave the outbox, the others stay for the next run, their attempts counted. */
export function afterNoticesSent(notices: readonly Notice[], results: readonly NoticeResult[]): Notice[] {
  const byId = new Map(results.map((r) => [r.id, r]));
  return notices
    .filter((n) => !byId.get(n.id)?.done)
    .map((n) => {
      const r = byId.get(n.id);
      return r ? { ...n, attempts: n.attempts + 1, ...(r.error ? { lastError: r.error } : {}) } : n;
    });
}
