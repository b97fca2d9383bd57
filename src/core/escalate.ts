/**
 * An escalated cycle: recorded in the checkpoint and the source (a notice), its work shelved; a
 * failure or bounce loop halts. Part of the core (src/core/slice.ts).
 */
import { ESCALATED_LABEL } from '../issues/types.js';
import { OUTPUT_CHARS, issueRef } from '../report/diagnostic.js';
import { rfc3339 } from '../util/clock.js';
import { describeTargets } from './describe.js';
import { type Effect, type Halt, log } from './events.js';
import { cycleInFlight } from './inFlight.js';
import { type CoreConfig, type SliceModel, type Step } from './model.js';
import { recordNotice, releaseWithheld, save } from './finish.js';
import { cycleProgress } from './claims.js';
import {
  type AgentProblemCall,
  agentProblemAdvice,
  agentProblemCall,
  agentProblemMessage,
  withoutWithheld,
} from './agentProblem.js';
import type { CycleState } from './state.js';

/** Records an escalated cycle in the checkpoint and the source; a failure or bounce loop halts. */
export function escalate(
  model: SliceModel,
  reason: string,
  bounceLoop: boolean,
  config: CoreConfig,
): Step & { halt?: Halt; after?: Effect[]; givenUp?: CycleState } {
  const { settings } = config;
  const call = agentProblemCall(model.loop, cycleInFlight(model.loop), bounceLoop);
  if (call.kind === 'halt') return agentProblemHalt(model, call);
  // A label withheld for an earlier issue is sent now: the agent worked since, or failed otherwise.
  const released = releaseWithheld(model);
  let loop = released.model.loop;
  const cycle = cycleInFlight(loop);
  const record = escalationRecord(loop, cycle, reason, rfc3339(new Date(model.now)));
  const note = record.note;
  loop = {
    ...loop,
    issuesEscalated: [...loop.issuesEscalated, ...cycle.issueIds.filter((id) => !loop.issuesEscalated.includes(id))],
    consecutiveEscalations: loop.consecutiveEscalations + 1,
    totalEscalations: loop.totalEscalations + 1,
    escalations: [...loop.escalations, record].slice(-100),
  };
  const effects: Effect[] = [
    log(
      'error',
      'cycle.escalated',
      `Escalated ${describeTargets(cycle)}: ${reason} (${loop.consecutiveEscalations} escalation(s) in a row, limit ${settings.maxConsecutiveEscalations}).`,
      {
        issueIds: cycle.issueIds,
        reason,
        steps: record.steps,
        consecutiveEscalations: loop.consecutiveEscalations,
        bounceLoop,
      },
    ),
  ];
  const halt = escalationHalt(loop, cycle, reason, bounceLoop, settings.maxConsecutiveEscalations);
  const leased = config.leaseMs !== undefined;
  const what = {
    kind: 'markEscalated' as const,
    issueIds: cycle.issueIds,
    note,
    ...(leased ? { releaseClaims: true, progress: cycleProgress(loop, cycle, loop.iteration) } : {}),
  };
  if (call.kind === 'withhold' && !halt) {
    const m: SliceModel = {
      ...released.model,
      ...(leased ? { claimHeld: false } : {}),
      loop: { ...loop, currentCycle: undefined },
    };
    const w = withholdLabel(m, cycle, reason, call, what);
    return { model: w.model, effects: [...effects, ...w.effects, ...released.send] };
  }
  // The escalated cycle is over: its claim is released after the label (the escalated label keeps runs
  // off it), as part of the same notice, so a run killed before the release leaves it to the next run.
  const claimState = leased ? { claimHeld: false } : {};
  // The label and the note are a notice: recorded in the outbox, then sent (again by a later run until done).
  // Record before act: the escalation and its notice are saved (with the halt, when it halts) before
  // the wip: push and the label, so a run killed during either never works the cycle again.
  const l = recordNotice({ ...released.model, ...claimState, loop: { ...loop, currentCycle: undefined } }, what);
  const [recorded, labelled] = l.effects as [Effect, Effect];
  const send = [...released.send, labelled];
  const shelve: Effect[] = [{ kind: 'shelveCycle', cycle, reason, halting: !!halt }];
  if (halt && !config.publishes) {
    // Nothing moves on a halt: the label goes into the working tree as it is, and the cycle's
    // branch and edits stay for inspection (the next run parks them).
    const parked = { ...l.model, loop: { ...l.model.loop, parkedBranch: cycle.branch } };
    return { model: parked, effects, halt, after: send };
  }
  if (halt) return { model: l.model, effects, halt, after: [...shelve, ...send] };
  return { model: l.model, effects: [...effects, recorded, ...shelve, ...send] };
}

/**
 * Every attempt at the cycle failed the same way: the agent's fault as likely as the issue's, and the
 * next issue tells (src/core/agentProblem.ts). Escalated, its label withheld; its work shelved.
 */
function withholdLabel(
  model: SliceModel,
  cycle: CycleState,
  reason: string,
  call: Extract<AgentProblemCall, { kind: 'withhold' }>,
  what: NonNullable<SliceModel['loop']['withheldEscalation']>['what'],
): Step {
  const withheld = { issueIds: cycle.issueIds, iteration: model.loop.iteration, signature: call.same.signature, what };
  const m: SliceModel = { ...model, loop: { ...model.loop, withheldEscalation: withheld } };
  return {
    model: m,
    effects: [
      log(
        'warn',
        'cycle.label_withheld',
        `Not labelled ${ESCALATED_LABEL} yet: every agent run on ${describeTargets(cycle)} failed the same way ` +
          `(${call.same.last.agent.failure?.reason ?? 'failed'}). If the agent fails so on the next issue too, the run ` +
          `halts agent_unavailable and labels neither; once it is seen working, the label is written.`,
        { issueIds: cycle.issueIds, signature: call.same.signature },
      ),
      save(m),
      { kind: 'shelveCycle', cycle, reason, halting: false },
    ],
  };
}

/**
 * The agent failed on this issue as it did on the one whose label was withheld, and worked nowhere in
 * between (src/core/agentProblem.ts): the run halts agent_unavailable, and neither issue is escalated
 * or labelled; the cycle is given up (its work kept on its branch as wip:, the base branch checked
 * out), so the resumed run works both issues afresh.
 */
function agentProblemHalt(
  model: SliceModel,
  call: Extract<AgentProblemCall, { kind: 'halt' }>,
): Step & { halt: Halt; givenUp: CycleState } {
  const cycle = cycleInFlight(model.loop);
  const message = agentProblemMessage(call.withheld, cycle.issueIds, call.same);
  const halt: Halt = { reason: 'agent_unavailable', message, advice: agentProblemAdvice() };
  const loop = { ...withoutWithheld(model.loop), currentCycle: undefined };
  return {
    model: { ...model, loop },
    effects: [
      log('error', 'agent.problem', message, {
        issueIds: [...call.withheld.issueIds, ...cycle.issueIds],
        signature: call.same.signature,
      }),
      { kind: 'shelveCycle', cycle, reason: 'the agent failed the same way on every issue', halting: true },
    ],
    halt,
    givenUp: cycle,
  };
}

type Cycle = ReturnType<typeof cycleInFlight>;

/** The escalation as the checkpoint keeps it, with the note the issue gets. */
function escalationRecord(loop: SliceModel['loop'], cycle: Cycle, reason: string, at: string) {
  const note =
    `agent-loop escalated this issue at iteration ${loop.iteration} (${at}): ${reason}. Remove the ${ESCALATED_LABEL}` +
    ` label to let agent-loop try it again.`;
  return {
    issueIds: cycle.issueIds,
    titles: cycle.titles,
    iteration: loop.iteration,
    steps: [...new Set(cycle.progress.trail)],
    reason,
    at,
    note,
    ...(cycle.lastFailure
      ? { lastFailure: { ...cycle.lastFailure, tail: cycle.lastFailure.tail.slice(-OUTPUT_CHARS) } }
      : {}),
    ...(cycle.fingerprints ? { fingerprints: cycle.fingerprints } : {}),
  };
}

/** The halt an escalation brings, if any: a bounce loop, or a failure loop at the escalations-in-a-row limit. */
function escalationHalt(
  loop: SliceModel['loop'],
  cycle: Cycle,
  reason: string,
  bounceLoop: boolean,
  maxConsecutiveEscalations: number,
): Halt | undefined {
  const refs = (ids: string[]) => ids.map(issueRef).join(', ');
  if (bounceLoop)
    return {
      reason: 'bounce_loop',
      message:
        `BOUNCE LOOP DETECTED: ${cycle.progress.bounces} step-back transitions in cycle for issue ${refs(cycle.issueIds)}` +
        ` (${cycle.progress.trail.join(', ')})`,
    };
  if (loop.consecutiveEscalations >= maxConsecutiveEscalations) {
    const recent = loop.escalations.slice(-loop.consecutiveEscalations).flatMap((e) => e.issueIds);
    return {
      reason: 'failure_loop',
      message: `FAILURE LOOP DETECTED: ${loop.consecutiveEscalations} consecutive escalations (issues ${refs(recent)}); last: ${reason}`,
    };
  }
  return undefined;
}
