/**
 * The iteration's git (the workflow's sub-machine asks, src/core/iteration.ts; --workflow tdd):
 * HEAD, whether anything changed since a commit, which files, a phase's commit and a rollback.
 */
import type { Git } from '../../git/git.js';
import type { SliceContext } from './context.js';
import type { Handler } from './context.js';

/** The repository; a workflow that asks for git where there is none is a bug. */
export function repo(ctx: SliceContext): Git {
  if (!ctx.deps.git) throw new Error('agent-loop: an iteration asked for git where there is none');
  return ctx.deps.git;
}

export const readHead: Handler<'readHead'> = async (_effect, ctx) => ({
  type: 'headRead',
  head: await repo(ctx).head(),
});

export const readWork: Handler<'readWork'> = async (effect, ctx) => ({
  type: 'workRead',
  changed: await repo(ctx).hasWorkSince(effect.since),
});

export const readChangedFiles: Handler<'readChangedFiles'> = async (effect, ctx) => ({
  type: 'filesRead',
  files: await repo(ctx).changedFiles(effect.since),
});

export const commit: Handler<'commit'> = async (effect, ctx) => {
  await repo(ctx).commitAll(effect.message, { allowEmpty: true });
  return undefined;
};

export const reset: Handler<'reset'> = async (effect, ctx) => {
  await repo(ctx).resetHard(effect.to);
  return undefined;
};
