// The slice runner and the test doubles the invocations benchmark (bench/invocations.mjs) drives it
// with, bundled by ncc into build/bench-invocations/index.js so that plain Node can import them.
// The doubles are typed against the engine's own interfaces; nothing here waits or spawns.
import type { Agent, AgentFailure, AgentResult, AgentRunRequest } from '../src/agents/types.js';
import type { Git } from '../src/git/git.js';
import { ESCALATED_LABEL, type Issue, type IssueSource } from '../src/issues/types.js';
import type { Clock } from '../src/util/clock.js';

export { FileCheckpointStore } from '../src/checkpoint/fileStore.js';
export { POLICIES, backoffMs } from '../src/failure/policy.js';
export { runSlice } from '../src/loop/slice.js';
export { implementWorkflow } from '../src/workflows/index.js';
export { createLogger } from '../src/report/logger.js';
export { createRedactor } from '../src/secrets/redact.js';
export { GitError } from '../src/git/git.js';
export { explainHttpError } from '../src/issues/github/errors.js';
export { createPullRequestPublisher } from '../src/publish/pullRequest.js';

/** Open issues in memory, most urgent first; closing and escalating change them in place. */
export class MemorySource implements IssueSource {
  readonly description = 'memory (bench)';
  readonly issues: Issue[];
  constructor(ids: string[]) {
    this.issues = ids.map((id, i) => ({
      id,
      title: `Issue ${id}`,
      body: `Do ${id}`,
      status: 'open',
      labels: [],
      dependencies: [],
      priority: i,
    }));
  }
  async ready(): Promise<Issue[]> {
    return this.issues.filter((i) => i.status === 'open').map((i) => ({ ...i }));
  }
  async get(id: string): Promise<Issue | undefined> {
    const i = this.issues.find((x) => x.id === id);
    return i ? { ...i } : undefined;
  }
  async close(id: string): Promise<void> {
    const i = this.issues.find((x) => x.id === id);
    if (i) i.status = 'closed';
  }
  async markEscalated(id: string): Promise<void> {
    const i = this.issues.find((x) => x.id === id);
    if (i && !i.labels.includes(ESCALATED_LABEL)) i.labels = [...i.labels, ESCALATED_LABEL];
  }
}

/** What one scripted agent run returns; `call` is 1 for the first invocation. */
export type Behaviour = (request: AgentRunRequest, call: number) => Partial<AgentResult>;

/** An agent whose every run is decided by `behaviour`; it counts its invocations and their targets. */
export class ScriptedAgent implements Agent {
  readonly displayName = 'ScriptedAgent';
  readonly calls: { issueIds: string[]; ok: boolean }[] = [];
  constructor(private readonly behaviour: Behaviour) {}
  async run(request: AgentRunRequest): Promise<AgentResult> {
    const partial = this.behaviour(request, this.calls.length + 1);
    const result: AgentResult = { ok: true, exitCode: 0, signal: null, durationMs: 0, outputTail: '', ...partial };
    this.calls.push({ issueIds: [...request.issueIds], ok: result.ok });
    return result;
  }
}

/** The agent says it is done (seed 004 report block with nothing remaining). */
export const done = (): Partial<AgentResult> => ({
  report: { workRemaining: '0', workRemainingEmpty: true, requiresContinuation: false, fields: {} },
  outputTail: 'Done.',
});

/** The agent run fails. */
export const failed = (failure: AgentFailure): Partial<AgentResult> => ({
  ok: false,
  exitCode: 1,
  failure,
  outputTail: `error: ${failure.message}`,
});

/** Time that moves only when the engine sleeps: `sleep` advances it at once and records the wait. */
export class ManualClock implements Clock {
  readonly start: number;
  readonly sleeps: number[] = [];
  private t: number;
  constructor(start = Date.parse('2026-11-21T10:00:00Z')) {
    this.start = start;
    this.t = start;
  }
  now(): Date {
    return new Date(this.t);
  }
  async sleep(ms: number): Promise<void> {
    this.sleeps.push(ms);
    this.t += Math.max(0, ms);
  }
  elapsedMs(): number {
    return this.t - this.start;
  }
}

/**
 * A git that runs nothing. `hasWork(branch)` says whether the checked-out branch has changes since
 * the base; by default never (a "done" that changed nothing: judged, and already satisfied when
 * nothing broke). Every branch points at one commit, so the lane guard sees nothing move.
 */
export function fakeGit(topLevel: string, hasWork: (branch: string) => boolean = () => false): Git {
  let current = 'main';
  return {
    topLevel,
    currentRef: async () => current,
    branchExists: async () => true,
    switchToBranch: async (branch) => {
      current = branch;
    },
    checkout: async (ref) => {
      current = ref;
    },
    commitAll: async () => hasWork(current),
    merge: async () => undefined,
    deleteBranch: async () => undefined,
    hasWorkSince: async () => hasWork(current),
    exclude: async () => undefined,
    fetchBranch: async () => false,
    push: async () => undefined,
    holds: async () => true,
    laneState: async () => ({ head: current, baseTip: '0'.repeat(40) }),
    head: async () => '0'.repeat(40),
    tipOf: async () => '0'.repeat(40),
    resetHard: async () => undefined,
    changedFiles: async () => [],
    untracked: async () => [],
    subjectsSince: async () => [],
    putBackStaging: async () => undefined,
  };
}
