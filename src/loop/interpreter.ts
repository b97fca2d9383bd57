/**
 * The one interpreter: steps a pure machine of the core and performs each effect it asks for
 * through its handler, feeding back what happened as the next event, until the machine's run has
 * a result. Every driver runs through it: the slice (src/core/slice.ts and its iteration
 * sub-machines), and whatever other machine the core gives the same shape.
 */
import type { Event, Halt } from '../core/events.js';
import type { RunResult } from '../core/result.js';
import { step } from '../core/slice.js';
import { SecretInChangeError } from '../git/git.js';
import { RepositoryMovedError } from '../git/lane.js';
import { type SliceContext, perform } from './effects/index.js';

/** A pure machine of the core: a model, and what an event makes of it and asks for. */
export interface Machine<M, E, F extends { kind: string }> {
  step(model: M, event: E): { model: M; effects: readonly F[] };
}

/** What a driver gives the interpreter: how to perform an effect, where the run's result is, and what a throw means. */
export interface Driver<M, E, F extends { kind: string }, R> {
  machine: Machine<M, E, F>;
  model: M;
  /** Performs one effect; what it asks of the world comes back as the next event. */
  perform(effect: F): Promise<E | undefined>;
  /** The run's result, once an effect has ended it. */
  result(): R | undefined;
  /** Events the world produced on the side while the effects ran (notices sent), told to the machine at once (what they ask in turn answered first). */
  aside?(): E | undefined;
  /** A thrown error told to the machine as an event; without it, or when it throws, the error propagates. */
  thrown?(error: unknown): Promise<E>;
}

/** Runs a machine from `first` until an effect gives it a result. */
export async function drive<M, E, F extends { kind: string }, R>(
  d: Driver<M, E, F, R>,
  first: E,
): Promise<{ result: R; model: M }> {
  let model = d.model;
  const stepOnce = (event: E): readonly F[] => {
    const stepped = d.machine.step(model, event);
    model = stepped.model;
    return stepped.effects;
  };
  // An event on the side may ask something in turn (a halt's reads before its save): answered until it asks nothing.
  const tellAside = async (): Promise<void> => {
    for (let side = d.aside?.(); side !== undefined;) {
      let answer: E | undefined;
      for (const effect of stepOnce(side)) answer = (await d.perform(effect)) ?? answer;
      // Answered: the next thing on the side, if any (notices sent, then branch tips left).
      side = answer ?? d.aside?.();
    }
  };
  let event = first;
  for (;;) {
    const effects = stepOnce(event);
    let answer: E | undefined;
    try {
      for (const effect of effects) {
        const r = await d.perform(effect);
        const result = d.result();
        if (result !== undefined) {
          await tellAside();
          return { result, model };
        }
        if (r) answer = r;
      }
      await tellAside();
    } catch (error) {
      if (!d.thrown) throw error;
      answer = await d.thrown(error);
    }
    if (!answer)
      throw new Error(`agent-loop: the core's effects (${effects.map((e) => e.kind).join(', ')}) asked nothing`);
    event = answer;
  }
}

/** The slice: the core's slice machine and its handlers (src/loop/effects/). A thrown error is told to the core once. */
export async function interpretSlice(ctx: SliceContext): Promise<RunResult> {
  const { run } = ctx;
  const { result } = await drive<typeof run.model, Event, Parameters<typeof perform>[0], RunResult>(
    {
      // The handlers read the model as it stands (ctx.run.model).
      machine: {
        step: (model, event) => {
          const stepped = step(model, event, ctx.config);
          run.model = stepped.model;
          return stepped;
        },
      },
      model: run.model,
      perform: (effect) => perform(effect, ctx),
      result: () => run.result,
      aside: () => {
        // Told once the core holds no save: a halt's reads come between its save and what follows it, sent notices too.
        if (run.model.pendingSave) return undefined;
        if (run.sent.length > 0) {
          const results = run.sent;
          run.sent = [];
          return { type: 'noticesSent', results };
        }
        if (run.tipsLeft.size === 0) return undefined;
        const tips = Object.fromEntries(run.tipsLeft);
        run.tipsLeft.clear();
        return { type: 'tipsLeft', tips };
      },
      thrown: async (error) => {
        // Caught once, as the slice always did: a second failure while halting propagates.
        if (run.crash !== undefined) throw error;
        run.crash = error;
        return refusal(error, ctx.unreadableSource);
      },
    },
    { type: 'started', now: ctx.deps.clock.now().getTime() },
  );
  return result;
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
