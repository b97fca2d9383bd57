import type { SecretRedactor } from '../secrets/redact.js';

export type { AgentFailure, FailureClass } from '../failure/agentFailure.js';
import type { AgentFailure } from '../failure/agentFailure.js';

/** The agent's report block (seed 004), parsed from its final message. */
export interface ReportBlock {
  /** work_remaining as written, normalised to a string; undefined when absent. */
  workRemaining?: string;
  /** True when work_remaining is absent or empty: "", "0", "[]", whitespace, YAML null, empty list. */
  workRemainingEmpty: boolean;
  requiresContinuation?: boolean;
  stuckDetected?: boolean;
  summary?: string;
  /** Every key of the block, as parsed. */
  fields: Record<string, unknown>;
}

export interface AgentResult {
  ok: boolean;
  exitCode: number | null;
  signal: string | null;
  durationMs: number;
  failure?: AgentFailure;
  /** The last few KiB of what the agent printed (stdout and stderr interleaved). */
  outputTail: string;
  report?: ReportBlock;
  costUsd?: number;
  turns?: number;
  sessionId?: string;
  tokens?: { input: number; output: number };
  /** Tool uses the agent's permission settings refused. */
  permissionDenials?: number;
}

export interface AgentRunRequest {
  prompt: string;
  /** 1-indexed iteration number across slices. */
  iteration: number;
  issueIds: string[];
  cwd: string;
  /** A file that already holds the prompt ($AGENT_LOOP_PROMPT_FILE). */
  promptFile: string;
  timeoutMs: number;
  /** Each line the agent prints, as it comes (long lines arrive in pieces, with `cut` set). */
  onLine?: (line: string, stream: 'stdout' | 'stderr', cut?: { before: boolean; after: boolean }) => void;
  /** Aborting ends the agent's whole process group. */
  signal?: AbortSignal;
  /**
   * Where to keep the agent's full output (size-capped), without extension (`<state-dir>/logs/iteration-N`):
   * each adapter adds its own (`.ndjson` for an event stream, `.log` for plain output; streamLog.ts).
   */
  logBase?: string;
  /** Continue this earlier session of the same cycle (--agent-session continue). */
  resumeSessionId?: string;
  /** Told the pid of each process group the agent's run spawns (recorded so a killed run's agent can be ended). */
  onSpawn?: (pid: number) => void;
  /** Masks the agent's output where it enters the engine (see runProcess). */
  mask?: SecretRedactor;
  /** --workflow tdd: the phase this run is asked to do and the checklist item's test ($AGENT_LOOP_TDD_PHASE, $AGENT_LOOP_TDD_TEST). */
  tdd?: { phase: 'RED' | 'GREEN' | 'REFACTOR'; test: string };
}

export interface Agent {
  /** Used in log lines: "Claude iteration 3 failed: ...". */
  readonly displayName: string;
  run(request: AgentRunRequest): Promise<AgentResult>;
}
