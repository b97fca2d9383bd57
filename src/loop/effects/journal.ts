/** The log, the checkpoint and errors.jsonl: what the slice writes down. */
import path from 'node:path';
import { filesOf } from '../deps.js';
import { branchLeft, issueDigests } from '../parking.js';
import type { Handler } from './context.js';

export const log: Handler<'log'> = async (effect, { deps }) => {
  deps.logger[effect.level](effect.event, effect.message, effect.data);
  return undefined;
};

export const save: Handler<'save'> = async (effect, ctx) => {
  const { git, source, publisher } = ctx.deps;
  // A halt keeps the base branch's tip of its time: new commits there lift some halts.
  let saved = effect.loop;
  if (saved.halt && !saved.halt.baseTip && git && saved.baseBranch) {
    const baseTip = await git.tipOf(saved.baseBranch).catch(() => undefined);
    if (baseTip) saved = { ...saved, halt: { ...saved.halt, baseTip } };
  }
  // A halt that leaves a cycle's branch checked out keeps the issues as it leaves them (its
  // last save: after the escalation's label): what a person changes there is carried (parking.ts).
  const left = saved.halt && git && !publisher ? branchLeft(saved) : undefined;
  if (left && source.openRecords && (await git?.currentRef().catch(() => undefined)) === left) {
    const records = await source.openRecords().catch(() => undefined);
    if (records) saved = { ...saved, halt: { ...saved.halt!, issues: issueDigests(records) } };
  }
  await ctx.save(effect.status, saved, effect.errors);
  return undefined;
};

export const appendError: Handler<'appendError'> = async (effect, { deps }) => {
  await filesOf(deps).append(path.join(deps.stateDir, 'errors.jsonl'), `${JSON.stringify(effect.entry)}\n`);
  return undefined;
};
