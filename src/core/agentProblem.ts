/**
 * An agent that fails the same way on every issue is an agent problem, not the issues' (issue 43):
 * a cycle whose every attempt failed in one way (the same class, reason, exit code and signal: a
 * crash, a missing program, a timeout each time) is escalated with its label withheld; when the next
 * issue's cycle fails in that same way, with no agent run working in between, the run halts
 * `agent_unavailable` and neither issue is labelled. Decisions over the loop's history. Pure. Part of
 * the core (src/core/escalate.ts).
 */
import { issueRef } from '../report/diagnostic.js';
import type { CycleState, IterationRecord, LoopState } from './state.js';

/** How an iteration's agent run failed, as one comparable string; undefined when the agent ran fine. */
export function failureSignature(record: IterationRecord): string | undefined {
  const { agent } = record;
  if (agent.ok || !agent.failure) return undefined;
  return [agent.failure.class, agent.failure.reason, `exit ${agent.exitCode ?? 'none'}`, agent.signal ?? ''].join('/');
}

/** What every attempt of a cycle had in common: its failure's signature and the last record. */
export interface SameFailure {
  signature: string;
  last: IterationRecord;
}

/**
 * The failure every one of the cycle's agent runs ended in, when they all ended in the same one
 * (at least one run); undefined when one ran fine or two failed differently.
 */
export function sameFailureThroughout(
  history: readonly IterationRecord[],
  cycle: Pick<CycleState, 'issueIds' | 'startedAtIteration'>,
): SameFailure | undefined {
  const runs = history.filter((r) => r.n > cycle.startedAtIteration && sameIds(r.issueIds, cycle.issueIds));
  const last = runs[runs.length - 1];
  if (!last) return undefined;
  const signatures = new Set(runs.map(failureSignature));
  const [only] = signatures;
  return signatures.size === 1 && only !== undefined ? { signature: only, last } : undefined;
}

/** Whether an agent run after iteration `n` ended fine (the agent works: a failure before was the issue's). */
export function agentWorkedSince(history: readonly IterationRecord[], n: number): boolean {
  return history.some((r) => r.n > n && r.agent.ok);
}

/** What the loop does with an escalation whose every attempt failed the same way. */
export type AgentProblemCall =
  /** The agent failed this way on the withheld issue too, and worked nowhere since: halt, label none. */
  | { kind: 'halt'; withheld: NonNullable<LoopState['withheldEscalation']>; same: SameFailure }
  /** The first issue it fails on this way: escalated, its label withheld until the agent is seen working. */
  | { kind: 'withhold'; same: SameFailure }
  /** An escalation as any other. */
  | { kind: 'escalate' };

/** The call for the escalation of `cycle`. A bounce loop is the workflow's, never the agent's. */
export function agentProblemCall(
  loop: Pick<LoopState, 'history' | 'withheldEscalation'>,
  cycle: Pick<CycleState, 'issueIds' | 'startedAtIteration'>,
  bounceLoop: boolean,
): AgentProblemCall {
  if (bounceLoop) return { kind: 'escalate' };
  const same = sameFailureThroughout(loop.history, cycle);
  if (!same) return { kind: 'escalate' };
  const withheld = loop.withheldEscalation;
  if (
    withheld &&
    withheld.signature === same.signature &&
    !withheld.issueIds.some((id) => cycle.issueIds.includes(id)) &&
    !agentWorkedSince(loop.history, withheld.iteration)
  )
    return { kind: 'halt', withheld, same };
  return { kind: 'withhold', same };
}

/**
 * The loop without the withheld escalation: its issues are no longer escalated (nothing was their
 * fault), its record and counts taken back.
 */
export function withoutWithheld(loop: LoopState): LoopState {
  const withheld = loop.withheldEscalation;
  if (!withheld) return loop;
  const ids = new Set(withheld.issueIds);
  const { withheldEscalation: _dropped, ...rest } = loop;
  const record = loop.escalations.findIndex(
    (e) => e.iteration === withheld.iteration && e.issueIds.some((id) => ids.has(id)),
  );
  return {
    ...rest,
    issuesEscalated: loop.issuesEscalated.filter((id) => !ids.has(id)),
    escalations: record >= 0 ? loop.escalations.filter((_, k) => k !== record) : loop.escalations,
    totalEscalations: Math.max(0, loop.totalEscalations - 1),
    consecutiveEscalations: Math.max(0, loop.consecutiveEscalations - 1),
  };
}

/** The halt's first line: the issues, how the agent failed on each, and that none was labelled. */
export function agentProblemMessage(
  withheld: NonNullable<LoopState['withheldEscalation']>,
  cycleIds: readonly string[],
  same: SameFailure,
): string {
  const failure = same.last.agent.failure;
  const how = [
    failure?.reason ?? 'failed',
    same.last.agent.exitCode !== null ? `exit ${same.last.agent.exitCode}` : undefined,
    same.last.agent.signal ? `signal ${same.last.agent.signal}` : undefined,
  ]
    .filter(Boolean)
    .join(', ');
  const ids = [...withheld.issueIds, ...cycleIds].map(issueRef).join(' and ');
  return (
    `AGENT UNAVAILABLE: the agent failed the same way (${how}) on every attempt at issues ${ids}, and nowhere ` +
    `worked in between: an agent problem, not the issues'; neither is labelled escalated. Last: ${failure?.message ?? 'no message'}`
  );
}

/** What to fix, and how to go on. */
export function agentProblemAdvice(): string {
  return (
    `Run the agent by hand in this repository with a short prompt and see why it fails; fix it (the command, ` +
    `its installation, its environment), then resume: the issues it failed on were not labelled and are worked again.`
  );
}

function sameIds(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((id, k) => id === b[k]);
}
