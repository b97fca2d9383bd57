/** Test doubles for the slice runner: an in-memory issue source, a scripted agent, a manual clock. */
import type { Agent, AgentResult, AgentRunRequest } from '../../src/agents/types.js';
import type { Issue, IssueSource } from '../../src/issues/types.js';
import { tickItem } from '../../src/issues/checklist.js';
import type { SliceSettings } from '../../src/loop/deps.js';
import type { Clock } from '../../src/util/clock.js';

export class MemorySource implements IssueSource {
  readonly description = 'memory';
  readonly closedWith: Record<string, string> = {};
  constructor(public issues: Issue[]) {}
  static of(...ids: string[]): MemorySource {
    return new MemorySource(
      ids.map((id, i) => ({
        id,
        title: `Issue ${id}`,
        body: `Do ${id}`,
        status: 'open',
        labels: [],
        dependencies: [],
        priority: i,
      })),
    );
  }
  async ready() {
    return this.issues.filter((i) => i.status === 'open');
  }
  async get(id: string) {
    const i = this.issues.find((x) => x.id === id);
    return i ? { ...i } : undefined;
  }
  readonly escalatedWith: Record<string, string> = {};
  async markEscalated(id: string, note: string) {
    const i = this.issues.find((x) => x.id === id);
    if (i && !i.labels.includes('agent-loop:escalated')) i.labels = [...i.labels, 'agent-loop:escalated'];
    this.escalatedWith[id] = note;
  }
  async close(id: string, reason: string) {
    const i = this.issues.find((x) => x.id === id);
    if (i) i.status = 'closed';
    this.closedWith[id] = reason;
  }
  /** Ticks asked for, in order; `tickFailures` ticks throw first (a source that is down). */
  readonly ticks: string[] = [];
  tickFailures = 0;
  async tickChecklistItem(id: string, item: string) {
    if (this.tickFailures > 0) {
      this.tickFailures--;
      throw new Error('502 Bad Gateway');
    }
    const i = this.issues.find((x) => x.id === id);
    const body = i ? tickItem(i.body, item) : undefined;
    this.ticks.push(`${id}: ${item}`);
    if (!i || body === undefined) return false;
    i.body = body;
    return true;
  }
}

/** The parts of a result made of what the agent printed (its tail, a failure read from it), masked. */
function maskedOutput(result: AgentResult, mask: (text: string) => string): AgentResult {
  return {
    ...result,
    outputTail: mask(result.outputTail),
    ...(result.failure ? { failure: { ...result.failure, message: mask(result.failure.message) } } : {}),
  };
}

export type Step = Partial<AgentResult> | ((req: AgentRunRequest) => Partial<AgentResult>);

/** Plays back one step per call; the last step repeats. */
export class ScriptedAgent implements Agent {
  readonly displayName = 'Claude';
  readonly requests: AgentRunRequest[] = [];
  constructor(private readonly steps: Step[]) {}
  async run(req: AgentRunRequest): Promise<AgentResult> {
    this.requests.push(req);
    const step = this.steps[Math.min(this.requests.length - 1, this.steps.length - 1)] ?? {};
    const partial = typeof step === 'function' ? step(req) : step;
    const result: AgentResult = { ok: true, exitCode: 0, signal: null, durationMs: 1000, outputTail: '', ...partial };
    // Asked to mask (maskOutput), what it printed is masked as a real adapter's is where it enters (runProcess).
    return req.mask ? maskedOutput(result, req.mask) : result;
  }
}

export const fail = (message = 'boom', cls: 'transient' | 'permanent' = 'transient'): Partial<AgentResult> => ({
  ok: false,
  exitCode: 1,
  failure: { class: cls, reason: cls === 'transient' ? 'exit_code' : 'auth', message },
  outputTail: `tail: ${message}`,
});
export const done: Partial<AgentResult> = {
  report: { workRemaining: '0', workRemainingEmpty: true, requiresContinuation: false, fields: {} },
};
/** The agent says it is stuck on `id`: the cycle escalates at once. */
export const stuck = (id: string): Partial<AgentResult> => ({
  report: { workRemaining: id, workRemainingEmpty: false, requiresContinuation: true, stuckDetected: true, fields: {} },
});
export const working = (remaining: string): Partial<AgentResult> => ({
  report: { workRemaining: remaining, workRemainingEmpty: false, requiresContinuation: true, fields: {} },
});

export class ManualClock implements Clock {
  readonly sleeps: number[] = [];
  constructor(private t = Date.parse('2026-11-21T10:00:00Z')) {}
  now() {
    return new Date(this.t);
  }
  async sleep(ms: number) {
    this.sleeps.push(ms);
    this.t += ms;
  }
  advance(ms: number) {
    this.t += ms;
  }
}

/** The engine's settings the slice tests share (the CLI's defaults, no delay), with what a test changes. */
export function sliceSettings(over: Partial<SliceSettings> = {}): SliceSettings {
  return {
    maxIterations: 100,
    iterationDelaySeconds: 0,
    agentTimeoutMinutes: 30,
    batch: false,
    onSuccess: 'merge',
    strict: false,
    fresh: false,
    testCommand: 'npm test',
    maxRetriesPerStep: 3,
    maxIterationsPerIssue: 20,
    maxConsecutiveEscalations: 2,
    ...over,
  };
}
