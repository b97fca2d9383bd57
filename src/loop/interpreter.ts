/**
 * The slice's interpreter: steps the pure core (src/core/slice.ts) and performs each effect it asks
 * for through its handler (src/loop/effects/), feeding back what happened as the next event, until
 * the core says done. A thrown error is told to the core once (a refusal of git's, or a crash).
 */
import type { Event, Halt } from '../core/events.js';
import type { RunResult } from '../core/result.js';
import { step } from '../core/slice.js';
import { SecretInChangeError } from '../git/git.js';
import { RepositoryMovedError } from '../git/lane.js';
import { type SliceContext, perform } from './effects/index.js';

export async function interpretSlice(ctx: SliceContext): Promise<RunResult> {
  const { run } = ctx;
  let event: Event = { type: 'started', now: ctx.deps.clock.now().getTime() };
  for (;;) {
    const stepped = step(run.model, event, ctx.config);
    run.model = stepped.model;
    let answer: Event | undefined;
    try {
      for (const effect of stepped.effects) {
        const r = await perform(effect, ctx);
        if (run.result) {
          await tellSent(ctx);
          return run.result;
        }
        if (r) answer = r;
      }
      await tellSent(ctx);
    } catch (error) {
      // Caught once, as the slice always did: a second failure while halting propagates.
      if (run.crash !== undefined) throw error;
      run.crash = error;
      answer = await refusal(error, ctx.unreadableSource);
    }
    if (!answer)
      throw new Error(
        `agent-loop: the core's effects (${stepped.effects.map((e) => e.kind).join(', ')}) asked nothing`,
      );
    event = answer;
  }
}

/** The notices sent in the step just performed, told to the core (noticesSent), and what it asks then performed. */
async function tellSent(ctx: SliceContext): Promise<void> {
  const { run } = ctx;
  if (run.sent.length === 0) return;
  const results = run.sent;
  run.sent = [];
  const stepped = step(run.model, { type: 'noticesSent', results }, ctx.config);
  run.model = stepped.model;
  for (const effect of stepped.effects) await perform(effect, ctx);
}

/** What a thrown error means to the core: a refusal of git's, or a crash the source's health may explain. */
async function refusal(error: unknown, unreadableSource: () => Promise<Halt | undefined>): Promise<Event> {
  // The agent moved the repository, or its change holds a secret: halt, committing and merging nothing more.
  if (error instanceof RepositoryMovedError)
    return { type: 'refused', reason: 'repository_moved', message: error.message };
  if (error instanceof SecretInChangeError)
    return { type: 'refused', reason: 'secret_in_change', message: error.message };
  // The source failing because the agent garbled it is a halt with a diagnostic, not a crash.
  const unreadable = await unreadableSource().catch(() => undefined);
  return { type: 'crashed', ...(unreadable ? { unreadable } : {}) };
}
