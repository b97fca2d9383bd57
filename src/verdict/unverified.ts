/**
 * Whether work the verdict accepted is *unverified* (issue 42), and why, in words for a person: held
 * for a person (never merged nor closed by the loop) unless the maintainer lands such work with
 * --accept-unverified. Two reasons, one rule: nothing shows the work fixes its issue (evidence
 * `none`), or the judged run has results the runner counted in its summary that agent-loop could not
 * read one by one (`unreadCount`): those are not judged, so one of them could be a broken test.
 * Decided only where a judge tree ran (the run the agent never touched, the one place either can be
 * known). Pure.
 */
import type { Surface } from '../config/surface.js';
import type { Evidence } from './evidence.js';
import type { Verdict } from './judge.js';
import { VERDICT_MESSAGES as SAY } from './messages.js';
import { type SuiteRun, unreadCount } from './results.js';

export interface UnverifiedInput {
  /** The verdict on the work (only accepted work is held; rejected work is retried anyway). */
  verdict: Pick<Verdict, 'kind'>;
  /** Whether the verdict ran in a judge tree. */
  judged: boolean;
  /** The verdict's evidence, where one was made. */
  evidence?: Evidence;
  /** The judged run of the suite (the judge tree's), with the runner's count and the reader's. */
  run?: Pick<SuiteRun, 'counted' | 'read'>;
  say: Surface;
}

/** Why the accepted work is unverified (each reason, joined), or undefined when it is not. */
export function unverifiedBecause({ verdict, judged, evidence, run, say }: UnverifiedInput): string | undefined {
  if (!judged || verdict.kind !== 'accepted') return undefined;
  const reasons: string[] = [];
  if (evidence?.kind === 'none') reasons.push(evidence.said);
  const unread = run ? unreadCount(run) : 0;
  if (run?.counted !== undefined && unread > 0) reasons.push(SAY.unreadHeld(run.counted, run.counted - unread, say));
  return reasons.length > 0 ? reasons.join('; and ') : undefined;
}
