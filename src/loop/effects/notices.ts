/** The outbox's notices performed (an escalation's label, a tick, a halt's Discord post), and the halt recorded (halt.md). */
import path from 'node:path';
import type { HaltDiagnostic } from '../../report/diagnostic.js';
import { renderMarkdown } from '../../report/diagnostic.js';
import { filesOf } from '../deps.js';
import { labelEscalated, tickNotice } from '../issueWork.js';
import { putBackOwnIssues } from '../ownIssues.js';
import { claimWarning } from './claims.js';
import type { Handler } from './context.js';

export const sendNotice: Handler<'sendNotice'> = async (effect, ctx) => {
  const { deps, run, me } = ctx;
  const { source } = deps;
  const { notice } = effect;
  let failures: string[] = [];
  if (notice.what.kind === 'markEscalated') {
    // Also where the halt leaves the cycle's branch checked out (no shelveCycle): labelled, not closed.
    await putBackOwnIssues(deps, run.atCycleStart, notice.what.issueIds);
    failures = await labelEscalated(ctx, notice.what.issueIds, notice.what.note, run.model.loop.baseBranch);
    // The claims go once labelled (the label keeps runs off the issues): by checkpoint, so a later run releases an earlier one's.
    if (notice.what.releaseClaims && failures.length === 0 && source.releaseClaim)
      for (const id of notice.what.issueIds)
        // The claim comment's last word (issue 15): escalated, with the cycle's iterations and spend.
        await source
          .releaseClaim(id, me, notice.recordedAt, { state: 'escalated', ...notice.what.progress })
          .catch((e: unknown) => {
            failures.push(`releasing the claim on ${id}: ${(e as Error).message}`);
            claimWarning(ctx, 'release', id, e);
          });
  } else if (notice.what.kind === 'tick') failures = await tickNotice(ctx, notice.what);
  // A Discord post that failed after its retries is a warning (deps.notify), not tried again by later runs.
  else await deps.notify?.(notice.what.diagnostic as unknown as HaltDiagnostic);
  run.sent.push({
    id: notice.id,
    done: failures.length === 0,
    ...(failures.length ? { error: failures.join('; ') } : {}),
  });
  return undefined;
};

export const recordHalt: Handler<'recordHalt'> = async (effect, ctx) => {
  const { deps, run } = ctx;
  const { logger } = deps;
  const { halt } = effect;
  // Masked where its parts entered the engine; halt.md and the log mask what they write besides.
  const diagnostic = renderMarkdown(effect.diagnostic);
  run.diagnostic = diagnostic;
  await filesOf(deps).write(path.join(deps.stateDir, 'halt.md'), diagnostic);
  if (effect.jobLocal) {
    // Not the run's halt: a warning, without the diagnostic (the run's own, if it halts, is the coordinator's).
    logger.warn(
      'run.halted',
      `Job ended (${halt.reason}): ${halt.message}. Its share or its issue ended here; the run goes on, and this worktree is removed at the wave's end (an escalated cycle's work stays on its wip: branch).`,
      { haltReason: halt.reason, jobLocal: true },
    );
    return undefined;
  }
  logger.error(
    'run.halted',
    deps.waveJob
      ? `HALT (${halt.reason}): ${halt.message}. Nothing was reset. This is a job of run --parallel: the run halts with it, and removes this worktree at the wave's end after keeping its work as a wip: commit on agent-loop-halted/<issue>-<wave> (unless its change holds a secret: then it is discarded) and this diagnostic as the run's halt.md (and in <state-dir>/parallel/halts/).`
      : `HALT (${halt.reason}): ${halt.message}. Nothing was reset: checkpoint ${ctx.checkpointId}, branch and working tree are left for inspection; the diagnostic is in ${path.join(deps.stateDir, 'halt.md')}.`,
    { haltReason: halt.reason, diagnostic },
  );
  logger.info('halt.diagnostic', diagnostic.trimEnd());
  return undefined;
};
