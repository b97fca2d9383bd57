import { classifyCommandOutcome } from './classifyCommand.js';
import { DEFAULT_KILL_GRACE_MS, runProcess, type ProcessResult } from './process.js';
import { parseReportBlock } from './report.js';
import { LOG_MAX_BYTES, StreamLog, logFileFor } from './streamLog.js';
import type { Agent, AgentResult, AgentRunRequest } from './types.js';

export interface CommandAgentOptions {
  /** The shell command line (`--agent-command`), run via /bin/sh -c. */
  command: string;
  /** Used in log lines. Default "Command". */
  displayName?: string;
  /** Base environment. Default process.env. */
  env?: NodeJS.ProcessEnv;
  /** SIGTERM → SIGKILL grace period. Default 5000 ms. */
  killGraceMs?: number;
  /** Size of the output tail kept. Default 64 KiB. */
  tailBytes?: number;
  /** The cap of the iteration's log (logs/iteration-N.log). Default LOG_MAX_BYTES, as for claude and codex. */
  logMaxBytes?: number;
}

/**
 * The environment the command sees: the base env plus the AGENT_LOOP_* variables (docs/agents.md):
 * under --workflow tdd also the phase asked for and the checklist item's test; outside it neither
 * is set (a value the base environment had is not passed on as if it were this run's).
 */
export function commandEnv(base: NodeJS.ProcessEnv, request: AgentRunRequest): NodeJS.ProcessEnv {
  const { AGENT_LOOP_TDD_PHASE: _phase, AGENT_LOOP_TDD_TEST: _test, ...rest } = base;
  return {
    ...rest,
    AGENT_LOOP_PROMPT_FILE: request.promptFile,
    AGENT_LOOP_ISSUE_IDS: request.issueIds.join(','),
    AGENT_LOOP_ITERATION: String(request.iteration),
    ...(request.tdd ? { AGENT_LOOP_TDD_PHASE: request.tdd.phase, AGENT_LOOP_TDD_TEST: request.tdd.test } : {}),
  };
}

/** The AgentResult for a finished run. Pure. */
export function commandResult(result: ProcessResult, timeoutMs?: number, mask?: (text: string) => string): AgentResult {
  const failure = classifyCommandOutcome(result, timeoutMs);
  const out: AgentResult = {
    ok: failure === undefined,
    exitCode: result.exitCode,
    signal: result.signal,
    durationMs: result.durationMs,
    outputTail: result.tail,
  };
  if (failure) out.failure = failure;
  const report = parseReportBlock(result.tail, mask);
  if (report) out.report = report;
  return out;
}

/** `--agent command --agent-command "CMD"`: any command, prompt on stdin and in $AGENT_LOOP_PROMPT_FILE. */
export class CommandAgent implements Agent {
  readonly displayName: string;
  private readonly command: string;
  private readonly env: NodeJS.ProcessEnv;
  private readonly killGraceMs: number;
  private readonly tailBytes: number | undefined;
  private readonly logMaxBytes: number;

  constructor(options: CommandAgentOptions) {
    this.command = options.command;
    this.displayName = options.displayName ?? 'Command';
    this.env = options.env ?? process.env;
    this.killGraceMs = options.killGraceMs ?? DEFAULT_KILL_GRACE_MS;
    this.tailBytes = options.tailBytes;
    this.logMaxBytes = options.logMaxBytes ?? LOG_MAX_BYTES;
  }

  async run(request: AgentRunRequest): Promise<AgentResult> {
    // Its output as printed (stdout and stderr, masked as they arrive), kept as logs/iteration-N.log.
    const log = new StreamLog(logFileFor(request.logBase, 'text'), this.logMaxBytes, 'text');
    const onLine: AgentRunRequest['onLine'] = (line, stream, cut) => {
      log.write(line, !cut?.after);
      if (cut) request.onLine?.(line, stream, cut);
      else request.onLine?.(line, stream);
    };
    try {
      return commandResult(await this.runProcess(request, onLine), request.timeoutMs, request.mask);
    } finally {
      log.close();
    }
  }

  private runProcess(request: AgentRunRequest, onLine: NonNullable<AgentRunRequest['onLine']>): Promise<ProcessResult> {
    return runProcess({
      command: this.command,
      shell: true,
      cwd: request.cwd,
      env: commandEnv(this.env, request),
      stdin: request.prompt,
      stdinFile: request.promptFile,
      timeoutMs: request.timeoutMs,
      killGraceMs: this.killGraceMs,
      endEscaped: true,
      ...(this.tailBytes !== undefined ? { tailBytes: this.tailBytes } : {}),
      onLine,
      ...(request.signal ? { signal: request.signal } : {}),
      ...(request.onSpawn ? { onSpawn: request.onSpawn } : {}),
      ...(request.mask ? { mask: request.mask } : {}),
    });
  }
}
