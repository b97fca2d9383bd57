/** An agent whose runs are scripted, and the outcomes scripts are made of. */
import type { Agent, AgentFailure, AgentResult, AgentRunRequest } from '../src/agents/types.js';

/** The parts of a result made of what the agent printed (its tail, a failure read from it), masked. */
function maskedOutput(result: AgentResult, mask: (text: string) => string): AgentResult {
  return {
    ...result,
    outputTail: mask(result.outputTail),
    ...(result.failure ? { failure: { ...result.failure, message: mask(result.failure.message) } } : {}),
  };
}

/** One run's outcome: what differs from a clean exit, or a function of the request and the call (1 for the first). */
export type Step = Partial<AgentResult> | ((req: AgentRunRequest, call: number) => Partial<AgentResult>);

/** Plays back one step per call; the last step repeats. It keeps every request it was given. */
export class ScriptedAgent implements Agent {
  readonly displayName: string;
  readonly requests: AgentRunRequest[] = [];
  /** Each call's targets and whether it succeeded, in order. */
  readonly calls: { issueIds: string[]; ok: boolean }[] = [];
  private readonly durationMs: number;

  constructor(
    private readonly steps: Step[],
    options: { displayName?: string; durationMs?: number } = {},
  ) {
    this.displayName = options.displayName ?? 'Claude';
    this.durationMs = options.durationMs ?? 1000;
  }

  async run(req: AgentRunRequest): Promise<AgentResult> {
    this.requests.push(req);
    const call = this.requests.length;
    const step = this.steps[Math.min(call - 1, this.steps.length - 1)] ?? {};
    const partial = typeof step === 'function' ? step(req, call) : step;
    const result: AgentResult = {
      ok: true,
      exitCode: 0,
      signal: null,
      durationMs: this.durationMs,
      outputTail: '',
      ...partial,
    };
    this.calls.push({ issueIds: [...req.issueIds], ok: result.ok });
    // Asked to mask (maskOutput), what it printed is masked as a real adapter's is where it enters (runProcess).
    return req.mask ? maskedOutput(result, req.mask) : result;
  }
}

/** The run fails with `failure`. */
export const failed = (failure: AgentFailure): Partial<AgentResult> => ({
  ok: false,
  exitCode: 1,
  failure,
  outputTail: `tail: ${failure.message}`,
});

/** The run fails, `transient` (exit code) or `permanent` (auth). */
export const fail = (message = 'boom', cls: 'transient' | 'permanent' = 'transient'): Partial<AgentResult> =>
  failed({ class: cls, reason: cls === 'transient' ? 'exit_code' : 'auth', message });

/** The agent says it is done (seed 004's report block, nothing remaining). */
export const done: Partial<AgentResult> = {
  report: { workRemaining: '0', workRemainingEmpty: true, requiresContinuation: false, fields: {} },
};

/** The agent says it is stuck on `id`: the cycle escalates at once. */
export const stuck = (id: string): Partial<AgentResult> => ({
  report: { workRemaining: id, workRemainingEmpty: false, requiresContinuation: true, stuckDetected: true, fields: {} },
});

/** The agent says `remaining` is left to do. */
export const working = (remaining: string): Partial<AgentResult> => ({
  report: { workRemaining: remaining, workRemainingEmpty: false, requiresContinuation: true, fields: {} },
});
