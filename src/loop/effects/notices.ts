/**
 * The one halt pipeline, and the outbox's notices performed (an escalation's label, a tick, a halt's
 * Discord post). A halt is recorded in halt.md (writeHaltFile: masked by the state directory's one
 * writer) and its Discord post goes through the checkpoint's outbox: recorded with the halt, saved,
 * then posted (sendHaltPost) and dropped once done: the slice through its effects (recordHalt,
 * sendNotice), the wave machine's drivers through haltThroughOutbox, the same functions in order.
 */
import path from 'node:path';
import type { Halt, NoticeResult } from '../../core/events.js';
import { afterNoticesSent, withNotice } from '../../core/notices.js';
import type { LoopState, Notice } from '../../core/state.js';
import { type HaltDiagnostic, renderMarkdown } from '../../report/diagnostic.js';
import type { StateFiles } from '../../persist/stateFiles.js';
import { rfc3339 } from '../../util/clock.js';
import { filesOf } from '../deps.js';
import { labelEscalated, tickNotice } from '../issueWork.js';
import { putBackOwnIssues } from '../ownIssues.js';
import { claimWarning } from './claims.js';
import type { Handler } from './context.js';

/** Posts a halt's diagnostic (Discord); warns on failure and never throws. */
export type Notify = (diagnostic: HaltDiagnostic) => Promise<void>;

/** The halt's diagnostic in the state directory. */
export const HALT_FILE = 'halt.md';

/** Writes halt.md (masked by the state directory's writer, as everything it writes); returns the diagnostic. */
export async function writeHaltFile(files: StateFiles, markdown: string): Promise<string> {
  await files.write(path.join(files.dir, HALT_FILE), markdown);
  return markdown;
}

/** A halt's Discord post sent: done whatever Discord answered (a failure is `notify`'s warning; a killed run's is resent). */
export async function sendHaltPost(notify: Notify | undefined, notice: Notice): Promise<NoticeResult> {
  if (notice.what.kind === 'notify') await notify?.(notice.what.diagnostic as unknown as HaltDiagnostic);
  return { id: notice.id, done: true };
}

/** What a driver that is not a slice gives the halt pipeline. */
export interface HaltOutbox {
  /** The state directory's writer (halt.md). */
  files: StateFiles;
  /** Writes the loop's checkpoint with this loop (halted). */
  save: (loop: LoopState) => Promise<void>;
  /** Discord, when a webhook is set. */
  notify?: Notify;
  now: Date;
}

/**
 * A halt of run --parallel's coordinator or the action's reduce job, as the slice records it: halt.md
 * written, the Discord post recorded in the outbox and saved with the halt (a driver killed before
 * the post leaves it for the next run: sendLeftPosts), posted, then dropped. Returns the loop as it
 * stands after (the caller saves it with the run's end) and halt.md's text.
 */
export async function haltThroughOutbox(
  loop: LoopState,
  diagnostic: HaltDiagnostic,
  markdown: string,
  out: HaltOutbox,
): Promise<{ loop: LoopState; written: string }> {
  const written = await writeHaltFile(out.files, markdown);
  if (!out.notify) return { loop, written };
  const recorded = withNotice(loop, { kind: 'notify', diagnostic: { ...diagnostic } }, rfc3339(out.now));
  await out.save(recorded.loop);
  const sent = await sendHaltPost(out.notify, recorded.notice);
  return { loop: { ...recorded.loop, notices: afterNoticesSent(recorded.loop.notices, [sent]) }, written };
}

/**
 * The Discord posts a killed driver left in the outbox, sent first as the slice's start sends its
 * left notices (other notices are not the driver's to send). The loop without them; unchanged
 * (the same object) when there were none.
 */
export async function sendLeftPosts(loop: LoopState, notify: Notify | undefined): Promise<LoopState> {
  const left = loop.notices.filter((n) => n.what.kind === 'notify');
  if (left.length === 0) return loop;
  const sent: NoticeResult[] = [];
  for (const notice of left) sent.push(await sendHaltPost(notify, notice));
  return { ...loop, notices: afterNoticesSent(loop.notices, sent) };
}

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
  else {
    run.sent.push(await sendHaltPost(deps.notify, notice));
    return undefined;
  }
  run.sent.push({
    id: notice.id,
    done: failures.length === 0,
    ...(failures.length ? { error: failures.join('; ') } : {}),
  });
  return undefined;
};

/** What the slice says of its halt. */
const HALTED = {
  jobLocal: (h: Halt) =>
    `Job ended (${h.reason}): ${h.message}. Its share or its issue ended here; the run goes on, and this worktree is removed ` +
    "at the wave's end (an escalated cycle's work stays on its wip: branch).",
  waveJob: (h: Halt) =>
    `HALT (${h.reason}): ${h.message}. Nothing was reset. This is a job of run --parallel: the run halts with it, and removes ` +
    "this worktree at the wave's end after keeping its work as a wip: commit on agent-loop-halted/<issue>-<wave> " +
    "(unless its change holds a secret: then it is discarded) and this diagnostic as the run's halt.md " +
    '(and in <state-dir>/parallel/halts/).',
  run: (h: Halt, checkpointId: string, file: string) =>
    `HALT (${h.reason}): ${h.message}. Nothing was reset: checkpoint ${checkpointId}, branch and working tree are left ` +
    `for inspection; the diagnostic is in ${file}.`,
};

export const recordHalt: Handler<'recordHalt'> = async (effect, ctx) => {
  const { deps, run } = ctx;
  const { logger } = deps;
  const { halt } = effect;
  // Masked where its parts entered the engine; halt.md and the log mask what they write besides.
  const diagnostic = await writeHaltFile(filesOf(deps), renderMarkdown(effect.diagnostic));
  run.diagnostic = diagnostic;
  if (effect.jobLocal) {
    // Not the run's halt: a warning, without the diagnostic (the run's own, if it halts, is the coordinator's).
    logger.warn('run.halted', HALTED.jobLocal(halt), { haltReason: halt.reason, jobLocal: true });
    return undefined;
  }
  const said = deps.waveJob
    ? HALTED.waveJob(halt)
    : HALTED.run(halt, ctx.checkpointId, path.join(deps.stateDir, HALT_FILE));
  logger.error('run.halted', said, { haltReason: halt.reason, diagnostic });
  logger.info('halt.diagnostic', diagnostic.trimEnd());
  return undefined;
};
