/**
 * The slice's end and its records: the checkpoint saved, a notice recorded in the outbox (saved
 * before it is sent), and the slice finished (a halt's diagnostic, halt.md and Discord post, the
 * open cycle kept where work is published). Part of the core (src/core/slice.ts).
 */
import { rfc3339 } from '../util/clock.js';
import { surface } from '../config/surface.js';
import { buildDiagnostic } from './diagnostic.js';
import { type Effect, type Halt, type Status, log } from './events.js';
import { LIMIT_HALTS } from './haltReasons.js';
import type { CycleState, Notice } from './state.js';
import { JOB_LOCAL_HALTS } from './haltReasons.js';
import { type CoreConfig, type SliceModel, type Step, haltPosted } from './model.js';
import { withNotice } from './notices.js';
import { withoutWithheld } from './agentProblem.js';

/** Records a notice in the outbox: saved before it is sent, dropped once `noticesSent` says it is done. */
export function recordNotice(model: SliceModel, what: Notice['what'], status?: Status): Step {
  const { loop, notice } = withNotice(model.loop, what, rfc3339(new Date(model.now)));
  const m = { ...model, loop };
  return { model: m, effects: [save(m, status), { kind: 'sendNotice', notice }] };
}

export function save(model: SliceModel, status: Status = 'continuing'): Effect {
  return { kind: 'save', status, loop: model.loop, errors: model.errors };
}

/** The slice ends: the halt's diagnostic, the checkpoint, the open cycle kept where work is published. */
export function finish(
  model: SliceModel,
  config: CoreConfig,
  status: Status,
  halt?: Halt,
  interrupted = false,
  before: Effect[] = [],
  /** Effects to perform right after the halt's save (an escalation's push and label, recorded in it). */
  after: Effect[] = [],
  /** A cycle the halt gave up before any agent worked on it: the diagnostic names it, the state no longer holds it. */
  givenUp?: CycleState,
): Step {
  const settled = settleWithheld(model, status, halt);
  let m = settled.model;
  const afterSave = [...after, ...settled.send];
  const effects: Effect[] = [...before];
  if (halt) {
    m = {
      ...m,
      loop: {
        ...m.loop,
        halt: {
          reason: halt.reason,
          message: halt.message,
          ...(halt.advice ? { advice: halt.advice } : {}),
          at: rfc3339(new Date(m.now)),
        },
      },
      errors: [...m.errors, halt.message],
    };
    const diagnostic = buildDiagnostic({
      reason: halt.reason,
      message: halt.message,
      state: givenUp ? { ...m.loop, currentCycle: givenUp } : m.loop,
      checkpointId: config.checkpointId,
      maxConsecutiveEscalations: config.settings.maxConsecutiveEscalations,
      advice: halt.advice,
      terms: config.settings.terms ?? 'cli',
    });
    // A wave job's share or issue ran out: its end, not the run's halt (the coordinator's reduce decides that).
    const jobLocal = config.waveJob === true && JOB_LOCAL_HALTS.has(halt.reason);
    effects.push({ kind: 'recordHalt', halt, diagnostic, ...(jobLocal ? { jobLocal } : {}) });
    if (haltPosted(m, config.settings)) {
      // The Discord post: recorded (saved with the halt), then sent.
      const posted = recordNotice({ ...m, ended: status }, { kind: 'notify', diagnostic: { ...diagnostic } }, status);
      m = posted.model;
      const [saved, post] = posted.effects as [Effect, Effect];
      effects.push(saved, ...afterSave, post);
    } else {
      m = { ...m, ended: status };
      effects.push(save(m, status), ...afterSave);
      if (config.settings.posts)
        effects.push(
          log(
            'info',
            'discord.skipped',
            `Not posted to Discord: this run was resumed by hand (${surface(config.settings.terms).given('resumeHalted')}` +
              `) and halted before any agent ran, so whoever resumed it reads the halt here; Discord was told of ` +
              `the halt it resumed.`,
          ),
        );
    }
  } else {
    m = { ...m, ended: status };
    effects.push(save(m, status), ...afterSave);
  }
  effects.push(...keepOpenCycle(m, config, status, halt), { kind: 'done', status, interrupted });
  return { model: m, effects };
}

/**
 * A label withheld (src/core/agentProblem.ts) when the loop ends otherwise than by a slice bound:
 * an agent_unavailable halt takes its escalation back (the agent was the problem), any other end
 * sends it (no other issue showed the agent failing the same way). A slice that continues keeps it.
 */
function settleWithheld(
  model: SliceModel,
  status: Status,
  halt: Halt | undefined,
): { model: SliceModel; send: Effect[] } {
  if (!model.loop.withheldEscalation || status === 'continuing') return { model, send: [] };
  if (halt?.reason === 'agent_unavailable') return { model: { ...model, loop: withoutWithheld(model.loop) }, send: [] };
  return releaseWithheld(model);
}

/** The withheld escalation's label, released: its notice recorded (saved with the next save) and the effect that sends it. */
export function releaseWithheld(model: SliceModel): { model: SliceModel; send: Effect[] } {
  const withheld = model.loop.withheldEscalation;
  if (!withheld) return { model, send: [] };
  const { withheldEscalation: _released, ...rest } = model.loop;
  const { loop, notice } = withNotice(rest, withheld.what, rfc3339(new Date(model.now)));
  return { model: { ...model, loop }, send: [{ kind: 'sendNotice', notice }] };
}

/**
 * A cycle still in flight at the slice's end: on a runner that is thrown away its branch is
 * pushed (work as wip:), and the next slice fetches it. Also when a bound ends it (iterations or
 * spend used up: a wave's job whose share ran out): the work is sound, the run resumes it.
 */
function keepOpenCycle(m: SliceModel, config: CoreConfig, status: Status, halt: Halt | undefined): Effect[] {
  const open = m.loop.currentCycle;
  const bound = status === 'halted' && halt !== undefined && LIMIT_HALTS.has(halt.reason);
  if (!config.publishes || !open?.branch || (status !== 'continuing' && !bound)) return [];
  const why = bound ? `${halt?.reason} reached` : 'slice ended';
  return [
    {
      kind: 'keepOpenCycle',
      branch: open.branch,
      message: `wip: ${open.issueIds.join(' ')} (${why} at iteration ${m.loop.iteration})`.slice(0, 120),
    },
  ];
}
