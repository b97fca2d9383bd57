/** The slice's end: its result built (after the baselines and git's staging settings are put right), or its crash thrown on. */
import { buildResult } from '../../core/result.js';
import { mendBaselines } from '../baseline.js';
import type { Handler } from './context.js';

export const done: Handler<'done'> = async (effect, ctx) => {
  const { deps, run } = ctx;
  const { logger, git, clock } = deps;
  const seen = run.baselineSeen;
  // Best effort: a state directory that cannot be written now must not lose the slice's result.
  await mendBaselines(deps, run.model.loop, seen?.run ? { key: seen.key, run: seen.run } : undefined).catch(
    (error: unknown) =>
      logger.warn('tests.baseline', `Could not check the recorded baselines: ${(error as Error).message}.`),
  );
  // Not only before a commit: what an agent changed of what git stages (a filter, a remote
  // pointed elsewhere, an exclude, an index flag) must not outlive the slice in the person's
  // repository, nor be taken by the next run, which reads these settings as the person's.
  await git
    ?.putBackStaging()
    .catch((error: unknown) =>
      logger.warn(
        'git.staging_restored',
        `Could not put back what decides what git stages (.git/config, .git/info/attributes, .git/info/exclude, ` +
          `the index's flags): ${(error as Error).message}. Check them before the next run.`,
      ),
    );
  const { model } = run;
  run.result = buildResult({
    claimedElsewhere: model.claimedElsewhere ?? [],
    status: effect.status,
    state: model.loop,
    start: ctx.start,
    checkpointId: ctx.checkpointId,
    durationMs: clock.now().getTime() - ctx.startedAt,
    interrupted: effect.interrupted,
    diagnostic: run.diagnostic,
    ...(run.deferral ? { deferred: run.deferral } : {}),
    // Deferred before it did anything: the checkpoint's loop is the one this slice started from.
    unchanged: effect.status === 'deferred' && JSON.stringify(model.loop) === JSON.stringify(ctx.found),
  });
  return undefined;
};

export const rethrow: Handler<'rethrow'> = async (_effect, { run }) => {
  throw run.crash;
};
