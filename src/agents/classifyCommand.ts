import type { AgentFailure } from './types.js';
import type { ProcessResult } from './process.js';

const MAX_DETAIL_CHARS = 200;

/** Minutes with at most two decimals: 30, 0.5, 1.33. */
export function formatMinutes(ms: number): string {
  return String(Number((ms / 60_000).toFixed(2)));
}

/** The last non-blank line of a text, trimmed to 200 characters. */
export function lastLine(text: string): string {
  const lines = text.split(/\r?\n/);
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = (lines[i] ?? '').trim();
    if (line !== '') return line.length > MAX_DETAIL_CHARS ? `${line.slice(0, MAX_DETAIL_CHARS - 1)}…` : line;
  }
  return '';
}

/**
 * What a finished `--agent command` run means for the loop. Pure.
 * Interrupted runs (spawn failure, timeout, abort) are classified before the exit
 * code: a command that traps SIGTERM and exits 0 after a timeout still timed out.
 * `timeoutMs` (the configured limit) is used for the message; durationMs otherwise.
 */
export function classifyCommandOutcome(result: ProcessResult, timeoutMs?: number): AgentFailure | undefined {
  if (result.spawnError !== undefined) {
    return {
      class: 'permanent',
      reason: 'spawn_failed',
      message: `could not start the agent command: ${result.spawnError}`,
    };
  }
  if (result.timedOut) {
    return {
      class: 'transient',
      reason: 'timeout',
      message: `timed out after ${formatMinutes(timeoutMs ?? result.durationMs)} min`,
    };
  }
  if (result.aborted) {
    return { class: 'transient', reason: 'killed', message: 'aborted: the agent command was stopped' };
  }
  if (result.exitCode === 0) return undefined;
  if (result.signal !== null) {
    return { class: 'transient', reason: 'killed', message: `killed by signal ${result.signal}` };
  }
  if (result.exitCode === 127) {
    return {
      class: 'permanent',
      reason: 'not_found',
      message: 'exited with code 127: command not found (the agent command, or a program it runs)',
    };
  }
  if (result.exitCode === 126) {
    return {
      class: 'permanent',
      reason: 'not_executable',
      message:
        'exited with code 126: command not executable (the agent command, or a program it runs: check its file permissions)',
    };
  }
  if (result.exitCode === null) {
    return { class: 'transient', reason: 'crashed', message: 'ended without an exit code or signal' };
  }
  const detail = lastLine(result.stderrTail);
  return {
    class: 'transient',
    reason: 'exit_code',
    message: detail ? `exited with code ${result.exitCode}: ${detail}` : `exited with code ${result.exitCode}`,
  };
}
