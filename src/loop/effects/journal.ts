/** The log, the checkpoint and errors.jsonl: what the slice writes down. */
import path from 'node:path';
import { filesOf } from '../deps.js';
import type { Handler } from './context.js';

export const log: Handler<'log'> = async (effect, { deps }) => {
  deps.logger[effect.level](effect.event, effect.message, effect.data);
  return undefined;
};

/** The checkpoint written as the core gives it (a halt with what was read for it: src/core/haltReads.ts). */
export const save: Handler<'save'> = async (effect, ctx) => {
  await ctx.save(effect.status, effect.loop, effect.errors);
  return undefined;
};

export const appendError: Handler<'appendError'> = async (effect, { deps }) => {
  await filesOf(deps).append(path.join(deps.stateDir, 'errors.jsonl'), `${JSON.stringify(effect.entry)}\n`);
  return undefined;
};
