/**
 * Before a run starts (issue 14, "halted stays halted, quietly"): the checkpoint the run would
 * continue holds a halt; does it still stand? Reads only what the halt's cause depends on (the
 * ready issues, the base branch's tip) and lets the pure gate (src/core/haltGate.ts) decide. A halt
 * that stands ends the run at once: no agent installed or run, no checkpoint written, no Discord post.
 */
import { FileCheckpointStore } from '../checkpoint/fileStore.js';
import type { Options } from '../config/options.js';
import { haltGate } from '../core/haltGate.js';
import { NEEDS_BASE_TIP, NEEDS_ISSUES } from '../core/haltReasons.js';
import type { LoopState } from '../core/state.js';
import { openGit } from '../git/git.js';
import { toReadyIssue } from '../issues/fingerprint.js';
import type { IssueSource } from '../issues/types.js';
import { openCheckpoint } from '../loop/slice.js';
import type { Clock } from '../util/clock.js';

export type HaltCheck =
  /** No halt to honour: no checkpoint, a fresh start, or a checkpoint that is not halted. */
  | { kind: 'none' }
  /** The halt stands: the run ends at once. */
  | { kind: 'stands'; checkpointId: string; loop: LoopState }
  /** The run resumes the halted checkpoint, and why (--resume-halted, or its cause changed); `byHand`: --resume-halted. */
  | { kind: 'lifted'; checkpointId: string; because: string; byHand?: boolean };

export interface HaltCheckIO {
  cwd: string;
  env: NodeJS.ProcessEnv;
  stateDir: string;
  clock: Clock;
  /** The issue source, built only when the halt depends on the issues. */
  source: () => Promise<IssueSource>;
  /** The escalated label does not outlast the runner (beads in the action): the checkpoint's escalations decide. */
  labelsDoNotLast?: boolean;
}

export async function checkHalt(
  options: Pick<Options, 'fresh' | 'resume' | 'resumeHalted' | 'maxIterations' | 'maxCostUsd'>,
  io: HaltCheckIO,
): Promise<HaltCheck> {
  if (options.fresh) return { kind: 'none' };
  let opened;
  try {
    const store = new FileCheckpointStore(io.stateDir, { clock: io.clock });
    opened = await openCheckpoint({ settings: options, store, clock: io.clock }, () => {});
  } catch {
    // The run itself opens the checkpoint again and says what is wrong with it.
    return { kind: 'none' };
  }
  const loop = opened.state;
  if (!opened.resumed || !loop.halt) return { kind: 'none' };
  const checkpointId = opened.id;
  if (options.resumeHalted) return { kind: 'lifted', checkpointId, because: 'asked to resume it', byHand: true };
  const reason = loop.halt.reason;
  let ready;
  if (NEEDS_ISSUES.has(reason)) {
    try {
      const issues = await (await io.source()).ready();
      ready = issues.map(toReadyIssue);
    } catch {
      // Unreadable issues change nothing: the halt stands, and the run that resumes it reads them again.
    }
  }
  let baseTip;
  if (NEEDS_BASE_TIP.has(reason) && loop.baseBranch) {
    const git = await openGit(io.cwd, io.env);
    baseTip = await git?.tipOf(loop.baseBranch).catch(() => undefined);
  }
  const gate = haltGate(loop, {
    ...(ready ? { ready } : {}),
    ...(baseTip ? { baseTip } : {}),
    maxIterations: options.maxIterations,
    ...(options.maxCostUsd !== undefined ? { maxCostUsd: options.maxCostUsd } : {}),
    ...(io.labelsDoNotLast ? { labelsDoNotLast: true } : {}),
  });
  return gate.stands ? { kind: 'stands', checkpointId, loop } : { kind: 'lifted', checkpointId, because: gate.because };
}
