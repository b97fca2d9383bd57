/**
 * Short commands (git, bd): run through @actions/exec, silent, their whole output collected within a
 * bound. Agents and test runs do not come here: they keep src/agents/process.ts (process groups,
 * timeouts, bounded tails, line streaming).
 *
 * What the adapter adds to @actions/exec, each for a reason found in its code (3.0.0):
 * - the command is looked up here, on the PATH of the environment it runs with, as child_process
 *   does, and where it was found is remembered (the toolkit's io.which reads this process's PATH and
 *   scans every directory of it on each call: about 2 ms a git call on a busy machine);
 * - each stream is kept up to `maxOutputBytes`, like execFile's maxBuffer (getExecOutput keeps all);
 * - an argument or variable holding a NUL byte is refused here (the toolkit's spawn would throw
 *   inside an async Promise executor: an unhandled rejection, and a promise that never settles);
 * - no stdin input is offered: the toolkit writes it with no error listener, so a command that exits
 *   without reading it raises EPIPE as an uncaught exception. stdin stays an open pipe, as with execFile.
 */
import { exec } from '@actions/exec';
import path from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { findOnPath } from './onPath.js';

export interface ShortCommandOptions {
  cwd: string;
  /** The command's environment (default this process's); its PATH is where `file` is looked up. */
  env?: NodeJS.ProcessEnv;
  /**
   * The most kept of each stream, in bytes (default 1 MiB, execFile's). A command printing more fails
   * with ERR_CHILD_PROCESS_STDIO_MAXBUFFER after it ends; what it printed past the bound is dropped.
   */
  maxOutputBytes?: number;
}

export interface ShortCommandResult {
  /** The exit code; null when a signal ended the command (@actions/exec does not say which). */
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The command could not be run, or printed more than the bound. */
export class ShortCommandError extends Error {
  constructor(
    message: string,
    /** ENOENT (not found, or no such working directory), ERR_CHILD_PROCESS_STDIO_MAXBUFFER, a spawn errno. */
    readonly code: string,
    /** What was collected before the failure (the output within the bound). */
    readonly stdout = '',
    readonly stderr = '',
  ) {
    super(message);
    this.name = 'ShortCommandError';
  }
}

const DEFAULT_MAX_OUTPUT_BYTES = 1024 * 1024;

/** Where each command was found, by `where`'s key: a lookup costs a stat per PATH directory. */
const located = new Map<string, string>();

/**
 * Runs `file` with `args` (no shell) in `cwd` and resolves with its exit code and output, also when
 * the code is not 0. Rejects with a ShortCommandError only when the command cannot be run at all or
 * prints more than the bound. Prints nothing itself.
 */
export async function runShort(
  file: string,
  args: string[],
  options: ShortCommandOptions,
): Promise<ShortCommandResult> {
  const env = definedEnv(options.env ?? process.env);
  if ([file, ...args, ...Object.entries(env).flat()].some((s) => s.includes('\0')))
    throw new ShortCommandError(
      `Cannot run ${file}: an argument or variable holds a NUL byte`,
      'ERR_INVALID_ARG_VALUE',
    );
  const run = (executable: string) =>
    runFound(executable, args, { cwd: options.cwd, env, limit: options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES });
  const { key, find } = where(file, options.cwd, env.PATH);
  const remembered = located.get(key);
  if (remembered !== undefined) {
    try {
      return await run(remembered);
    } catch (error) {
      // The file found before is gone (the toolkit checks it exists): look for it again.
      if (!(error instanceof ShortCommandError && error.message.startsWith(UNABLE_TO_LOCATE))) throw error;
      located.delete(key);
    }
  }
  const found = await find();
  if (found === undefined) throw new ShortCommandError(`${file}: command not found`, 'ENOENT');
  located.set(key, found);
  return run(found);
}

/** The start of @actions/io's message when `which` finds no executable file. */
const UNABLE_TO_LOCATE = 'Unable to locate executable file';

/** Runs the executable at `executable` through @actions/exec, silent, each stream bounded. */
async function runFound(
  executable: string,
  args: string[],
  options: { cwd: string; env: Record<string, string>; limit: number },
): Promise<ShortCommandResult> {
  const stdout = boundedText(options.limit);
  const stderr = boundedText(options.limit);
  let code: number | null;
  try {
    code = await exec(executable, args, {
      cwd: options.cwd,
      env: options.env,
      silent: true,
      ignoreReturnCode: true,
      listeners: { stdout: stdout.push, stderr: stderr.push },
    });
  } catch (error) {
    throw new ShortCommandError((error as Error).message, failureCode(error), stdout.text(), stderr.text());
  }
  const over = stdout.over ? 'stdout' : stderr.over ? 'stderr' : undefined;
  if (over)
    throw new ShortCommandError(
      `${over} maxBuffer length exceeded`,
      'ERR_CHILD_PROCESS_STDIO_MAXBUFFER',
      stdout.text(),
      stderr.text(),
    );
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}

/**
 * Where `file` is looked for, as the child's exec would: a name with a path separator relative to
 * `cwd`, a bare name in the PATH directories (relative ones taken from `cwd`). `key` names that
 * place; `find` looks there (undefined when there is no executable file).
 */
function where(file: string, cwd: string, envPath: string | undefined) {
  if (file.includes('/') || (process.platform === 'win32' && file.includes('\\'))) {
    const resolved = path.resolve(cwd, file);
    return { key: resolved, find: () => findOnPath(resolved) };
  }
  const dirs = (envPath ?? '')
    .split(path.delimiter)
    .filter((dir) => dir !== '')
    .map((dir) => path.resolve(cwd, dir))
    .join(path.delimiter);
  return { key: `${file}\0${dirs}`, find: () => findOnPath(file, dirs) };
}

/** The variables with a value (ProcessEnv allows undefined; spawn leaves those out anyway). */
function definedEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined));
}

/** The code for what @actions/exec threw: its not-found and no-cwd messages, or the spawn errno it quotes. */
function failureCode(error: unknown): string {
  const { code } = error as NodeJS.ErrnoException;
  if (typeof code === 'string') return code;
  const message = (error as Error).message ?? '';
  if (message.startsWith(UNABLE_TO_LOCATE) || /^The cwd: .* does not exist!$/.test(message)) return 'ENOENT';
  return /\b(E[A-Z0-9]+)$/.exec(message)?.[1] ?? 'ESPAWN';
}

/** UTF-8 text of a stream's first `limit` bytes; `over` once more came. */
function boundedText(limit: number) {
  const decoder = new StringDecoder('utf8');
  let text = '';
  let bytes = 0;
  let whole: string | undefined;
  const collector = {
    over: false,
    push: (chunk: Buffer) => {
      if (collector.over) return;
      const room = limit - bytes;
      bytes += chunk.length;
      if (chunk.length > room) collector.over = true;
      text += decoder.write(chunk.length > room ? chunk.subarray(0, room) : chunk);
    },
    text: () => (whole ??= text + decoder.end()),
  };
  return collector;
}
