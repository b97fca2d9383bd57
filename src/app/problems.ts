/**
 * Why a run cannot start, typed, so that each entrypoint renders it its own way (the CLI on stderr
 * with its flags, the action as a failed step naming its inputs) and none reads the other's text.
 */
import { escapeControls } from '../util/printable.js';
export type StartProblemCode =
  /** --agent claude|codex whose CLI is not on PATH (the action can install it: install-agent). */
  | 'agent_not_on_path'
  /** An option or a file it names is unusable. */
  | 'invalid_input'
  /** The repository or the state directory is not fit to work in (dirty, detached, locked by another run …). */
  | 'repository';

export interface StartProblem {
  code: StartProblemCode;
  message: string;
}

export const problem =
  (code: StartProblemCode) =>
  (message: string): StartProblem => ({ code, message });

/**
 * Hands the problems (masked) to the caller that renders them (`cannotStart`: the action), else
 * renders them for the CLI on stderr: `agent-loop <command>: cannot start` and one line each.
 * Returns the exit code: 2.
 */
export function cannotStart(
  io: { cannotStart?: (problems: readonly StartProblem[]) => void; stderr: (text: string) => void },
  command: string,
  problems: readonly StartProblem[],
  redact: (text: string) => string,
): 2 {
  // One line each, whatever a value in it holds (a path or an id with a newline: src/util/printable.ts).
  const masked = problems.map((p) => ({ ...p, message: escapeControls(redact(p.message)) }));
  if (io.cannotStart) io.cannotStart(masked);
  else io.stderr(`agent-loop ${command}: cannot start\n${masked.map((p) => `  - ${p.message}`).join('\n')}\n`);
  return 2;
}
