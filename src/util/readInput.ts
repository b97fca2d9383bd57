/**
 * The one way agent-loop reads a file it is given (a checkpoint, the issues file, the config, a
 * plan, a prompt, a goal, a JUnit report): a regular file within a size cap. A FIFO would block the
 * read forever (ignoring SIGTERM), `/dev/zero` would grow the process without end, a directory or a
 * device is no input: each is refused at once, naming the path and what it is. The file is stat'ed
 * before it is opened (a stat never blocks), opened non-blocking, checked again on the open file
 * (it may have been swapped), and read up to the cap only (a /proc file says it is empty).
 */
import { closeSync, constants, fstatSync, openSync, readSync, statSync, type Stats } from 'node:fs';
import { printable } from './printable.js';

export const MiB = 1024 * 1024;

export class InputError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
    this.name = 'InputError';
  }
}

function kind(stats: Stats): string {
  if (stats.isFIFO()) return 'a FIFO (named pipe)';
  if (stats.isDirectory()) return 'a directory';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  if (stats.isSocket()) return 'a socket';
  return 'not a regular file';
}

/** The file's bytes; throws InputError (code ENOENT, ENOTREG, EFBIG, or the system's) otherwise. */
export function readInputBytes(file: string, maxBytes: number): Buffer {
  let stats: Stats;
  try {
    stats = statSync(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'EIO';
    throw new InputError(`cannot read '${printable(file)}' (${code})`, code);
  }
  if (!stats.isFile()) throw new InputError(`'${printable(file)}' is ${kind(stats)}, not a regular file`, 'ENOTREG');
  if (stats.size > maxBytes)
    throw new InputError(
      `'${printable(file)}' is ${stats.size} bytes, over the ${maxBytes}-byte limit for this input`,
      'EFBIG',
    );
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'EIO';
    throw new InputError(`cannot read '${printable(file)}' (${code})`, code);
  }
  try {
    const opened = fstatSync(fd);
    if (!opened.isFile())
      throw new InputError(`'${printable(file)}' is ${kind(opened)}, not a regular file`, 'ENOTREG');
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(64 * 1024, maxBytes + 1 - total));
      const n = readSync(fd, chunk, 0, chunk.length, null);
      if (n === 0) break;
      chunks.push(chunk.subarray(0, n));
      total += n;
      if (total > maxBytes)
        throw new InputError(`'${printable(file)}' holds more than the ${maxBytes}-byte limit for this input`, 'EFBIG');
    }
    return Buffer.concat(chunks, total);
  } finally {
    closeSync(fd);
  }
}

/** Why `file` cannot be an input (not a regular file, over the cap), by a stat alone; undefined when it can, or does not exist. */
export function inputProblem(file: string, maxBytes: number): string | undefined {
  let stats: Stats;
  try {
    stats = statSync(file);
  } catch {
    return undefined;
  }
  if (!stats.isFile()) return `'${printable(file)}' is ${kind(stats)}, not a regular file`;
  if (stats.size > maxBytes)
    return `'${printable(file)}' is ${stats.size} bytes, over the ${maxBytes}-byte limit for this input`;
  return undefined;
}

export function readInput(file: string, maxBytes: number): string {
  return readInputBytes(file, maxBytes).toString('utf8');
}
