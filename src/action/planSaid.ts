/**
 * The plan job's words (src/action/planJob.ts): the wave machine's notes (src/core/wavePlanNotes.ts)
 * and the line that names the wave, rendered with the action's issue links and resume advice.
 */
import { describeResume, resumeWays } from '../core/resumeWays.js';
import type { WaveEffect } from '../core/waveTypes.js';
import type { PlanNote } from '../core/wavePlanNotes.js';
import { LANDING_JOB } from '../core/waveOutbox.js';
import { issueLink } from './summary.js';

const link = (id: string) => issueLink(id, undefined);

/** A note of the plan, and whether it is a warning. */
export function sayNote(note: PlanNote): { warn: boolean; text: string } {
  switch (note.kind) {
    case 'haltStands': {
      const { halt } = note;
      const resume = describeResume(resumeWays(halt), 'action', note.baseBranch);
      const text =
        `agent-loop is still halted (${halt.reason}) since ${halt.at ?? 'an earlier run'}: ${halt.message}` +
        `. No wave was planned. ${resume}`;
      return { warn: true, text };
    }
    case 'haltLifted':
      return { warn: false, text: `agent-loop plan: the halt (${note.reason}) is lifted: ${note.because}.` };
    case 'unlisted':
      return {
        warn: true,
        text:
          `agent-loop deferred: ${note.message?.replace(/\.$/, '') ?? 'the issues could not be listed'}` +
          `. No wave was planned and nothing was started or lost; the next run lists the issues again.`,
      };
    case 'outbox':
      return { warn: false, text: outboxLine(note) };
    case 'notices':
      return {
        warn: false,
        text:
          `agent-loop plan: ${note.count} notice(s) of earlier waves still to send (an escalated issue's label and note: ` +
          `${note.escalated.map(link).join(', ') || 'none'}; last failure: ${note.lastError ?? 'none'}).`,
      };
    case 'claimedElsewhere':
      return {
        warn: false,
        text: `agent-loop plan: ${link(note.issueId)} is left to the run whose live lease holds it.`,
      };
    case 'landFirst':
      return { warn: false, text: `agent-loop plan: ${note.message}; the earlier work is landed first.` };
    case 'newHalt':
      return { warn: true, text: `agent-loop plan: ${note.message}` };
  }
}

function outboxLine(note: Extract<PlanNote, { kind: 'outbox' }>): string {
  if (note.landing)
    return (
      `agent-loop plan: ${note.count} finished cycle(s) of earlier waves still to land (` +
      note.landing.map(link).join(', ') +
      `): this wave's landing job (matrix entry ${LANDING_JOB}) lands them.`
    );
  return (
    `agent-loop plan: ${note.count} finished cycle(s) of earlier waves wait to land; the next ` +
    `attempt is due at ${note.notBefore} (last failure: ${note.lastError ?? 'unknown'}).`
  );
}

export const PLAN_SAID = {
  lost: (issueId: string, run: string) =>
    `agent-loop plan: ${link(issueId)} was claimed by run ${run} meanwhile; left to it.`,
  noWave: (why: string) => `agent-loop plan: no wave: ${why}`,
};

/** The line that names the wave: its landing, its issues with their shares, and what is left for later. */
export function describeWave(wave: { id: string } & Extract<WaveEffect, { kind: 'handWave' }>): string {
  const { owed, deferred } = wave;
  const notices = (wave.landing ?? []).filter((k) => owed.includes(k)).length;
  const cycles = (wave.landing?.length ?? 0) - notices;
  const lands = wave.landing?.length
    ? `the landing of ${[cycles ? `${cycles} earlier cycle(s)` : '', notices ? `${notices} notice(s)` : ''].filter(Boolean).join(' and ')}`
    : '';
  const issues = wave.jobs.map(
    (j) =>
      `${link(j.issueId)} (${j.maxIterations} iteration(s)${j.maxCostUsd !== undefined ? `, $${j.maxCostUsd.toFixed(2)}` : ''})`,
  );
  const later = deferred.map((d) => `${link(d.issueId)} (${d.why})`).join(', ');
  return (
    `agent-loop plan: wave ${wave.id}: ${[lands, ...issues].filter((x) => x).join(', ') || 'no issue'}` +
    `${deferred.length > 0 ? `; left for a later wave: ${later}` : ''}.`
  );
}
