/** The top of the loop and the waits: answered with the time (and whether the run was asked to stop). */
import type { Handler } from './context.js';

export const next: Handler<'next'> = async (_effect, { deps }) => ({
  type: 'tick',
  now: deps.clock.now().getTime(),
  aborted: deps.signal?.aborted ?? false,
});

export const sleep: Handler<'sleep'> = async (effect, { deps }) => {
  await deps.clock.sleep(effect.ms, deps.signal);
  return { type: 'woke', now: deps.clock.now().getTime() };
};
