/**
 * run --parallel's escalation labels (issue 16): which issues a wave's jobs escalated, which labels
 * an earlier run still owes, and the loop once labels were tried. Pure; the labelling itself is
 * src/app/waveLanding.ts labelEscalations.
 */
import type { LoopState, Notice, Wave } from './state.js';

/** An issue a job of the wave escalated, with the note its job left on it. */
export interface EscalationToLabel {
  issueId: string;
  note: string;
}

/**
 * The issues the wave's jobs escalated, in the wave's order, each with the note of its job's last
 * escalation of it: to be labelled on the base branch, where later runs read the issues (a job's
 * own label commit is on its branch, which is not merged: its work is not done). Pure.
 */
export function escalationsToLabel(wave: Wave, ends: readonly { loop?: LoopState }[]): EscalationToLabel[] {
  const out: EscalationToLabel[] = [];
  for (const [k, job] of wave.jobs.entries()) {
    const part = ends[k]?.loop;
    if (!part || !part.issuesEscalated.includes(job.issueId) || part.issuesClosed.includes(job.issueId)) continue;
    const last = part.escalations.filter((e) => e.issueIds.includes(job.issueId)).at(-1);
    out.push({ issueId: job.issueId, note: last?.note ?? '' });
  }
  return out;
}

/**
 * The escalations whose label is still owed (the checkpoint's markEscalated notices: a label a
 * wave could not write on the base branch, or a job could not write on its own), one per issue,
 * the newest note. Pure.
 */
export function labelsOwed(loop: Pick<LoopState, 'notices'>): EscalationToLabel[] {
  const owed = new Map<string, string>();
  for (const n of loop.notices)
    if (n.what.kind === 'markEscalated') for (const id of n.what.issueIds) owed.set(id, n.what.note);
  return [...owed].map(([issueId, note]) => ({ issueId, note }));
}

/**
 * The loop after labels were tried (labelEscalations): the notices of the issues now labelled are
 * dropped; each issue not labelled keeps (or gets) a markEscalated notice, its attempts counted and
 * its last error kept, so that later runs leave the issue alone (selectTargets, the halt gate) and
 * label it (labelsOwed) instead of working it again. Pure.
 */
export function labelsNoted(
  loop: LoopState,
  tried: readonly EscalationToLabel[],
  failed: ReadonlyMap<string, string>,
  at: string,
): LoopState {
  const labelled = new Set(tried.map((t) => t.issueId).filter((id) => !failed.has(id)));
  const notices: Notice[] = [];
  const owed = new Set<string>();
  for (const n of loop.notices) {
    if (n.what.kind !== 'markEscalated') {
      notices.push(n);
      continue;
    }
    const issueIds = n.what.issueIds.filter((id) => !labelled.has(id));
    if (issueIds.length === 0) continue;
    const errors = issueIds.filter((id) => failed.has(id)).map((id) => `${id}: ${failed.get(id)}`);
    for (const id of issueIds) owed.add(id);
    notices.push({
      ...n,
      what: { ...n.what, issueIds },
      ...(errors.length ? { attempts: n.attempts + 1, lastError: errors.join('; ') } : {}),
    });
  }
  for (const { issueId, note } of tried) {
    const why = failed.get(issueId);
    if (why === undefined || owed.has(issueId)) continue;
    owed.add(issueId);
    notices.push({
      id: `markEscalated-${loop.iteration}-${at}-${notices.length}`,
      what: { kind: 'markEscalated', issueIds: [issueId], note },
      recordedAt: at,
      attempts: 1,
      lastError: why,
    });
  }
  return { ...loop, notices };
}
