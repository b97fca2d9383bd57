import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, fstatSync, openSync, readSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import type { Readable } from 'node:stream';
import { LineSplitter } from './lines.js';

/** Present when a line reached onLine in pieces: which edges are cuts inside the line. */
export interface LineCut {
  before: boolean;
  after: boolean;
}
import { TailBuffer } from './tail.js';
import type { SecretRedactor } from '../secrets/redact.js';
import { createOutputMasker } from '../secrets/outputMasker.js';

export interface ProcessRequest {
  command: string;
  /** Arguments; with `shell`, they become the script's positional parameters ($1, $2, ...). */
  args?: string[];
  /** Run `command` as a script via `/bin/sh -c`. */
  shell?: boolean;
  cwd: string;
  env?: NodeJS.ProcessEnv;
  /** Written to the child's stdin, which is then closed (absent: stdin is /dev/null). */
  stdin?: string;
  /**
   * A file that holds exactly `stdin` (the prompt file): when it does, the child reads it as its
   * stdin, opened read-only, instead of a pipe the engine writes (no pipe, no write the child may
   * refuse). Otherwise `stdin` goes through a pipe as usual.
   */
  stdinFile?: string;
  timeoutMs?: number;
  /** How long after SIGTERM to send SIGKILL to the group. Default 5000. */
  killGraceMs?: number;
  /** Size of each tail kept. Default 64 KiB. */
  tailBytes?: number;
  /** Lines longer than this reach onLine in pieces. Default 16 KiB. */
  maxLineBytes?: number;
  /** Each line as it comes (long lines arrive in pieces). Errors thrown here are ignored. */
  onLine?: (line: string, stream: 'stdout' | 'stderr', cut?: LineCut) => void;
  /** Aborting ends the whole process group, like a timeout. */
  signal?: AbortSignal;
  /** Told the pid of the process group's leader once it is spawned (the run records it). */
  onSpawn?: (pid: number) => void;
  /**
   * Masks secrets where the output enters the engine: every line (and the tails) pass through it
   * before anyone sees them, a secret split across two lines or two streams included.
   */
  mask?: SecretRedactor;
}

export interface ProcessResult {
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  aborted: boolean;
  durationMs: number;
  /** stdout and stderr interleaved as their chunks arrived. */
  tail: string;
  stderrTail: string;
  /** Bytes read from stdout and stderr together. */
  bytes: number;
  spawnError?: string;
}

export const DEFAULT_KILL_GRACE_MS = 5000;
export const DEFAULT_TAIL_BYTES = 64 * 1024;
/** The longest delay Node's timers hold (about 24.8 days). */
const MAX_TIMER_MS = 2 ** 31 - 1;
/** After SIGKILL, how long to wait for the pipes to close before giving up on them. */
const PIPE_DRAIN_MS = 1000;

/** Send `sig` to the process group led by `pid`; false when the group is gone. */
function killGroup(pid: number, sig: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pid, sig);
    return true;
  } catch {
    // ESRCH: nothing left in the group. EPERM cannot happen for our own children.
    return false;
  }
}

/** `file` opened read-only when it holds exactly `text` (compared byte for byte, read at offset 0); undefined otherwise. */
function openHolding(file: string, text: string): number | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const want = Buffer.from(text);
    const st = fstatSync(fd);
    if (!st.isFile() || st.size !== want.length) throw new Error('not the same text');
    const got = Buffer.alloc(want.length);
    if (readSync(fd, got, 0, want.length, 0) !== want.length || !got.equals(want)) throw new Error('not the same text');
    return fd;
  } catch {
    if (fd !== undefined) closeSync(fd);
    return undefined;
  }
}

function describeSpawnError(err: NodeJS.ErrnoException, req: ProcessRequest): string {
  if (err.code === 'ENOENT' && !existsSync(req.cwd)) return `working directory does not exist: ${req.cwd}`;
  if (err.code === 'ENOENT') return `command not found: ${req.shell ? '/bin/sh' : req.command}`;
  return err.message || String(err);
}

/**
 * Run a command in its own process group, streaming its output line by line into
 * `onLine` and two bounded tails. Never rejects: a spawn failure resolves with `spawnError`.
 */
export function runProcess(req: ProcessRequest): Promise<ProcessResult> {
  const started = performance.now();
  const killGraceMs = req.killGraceMs ?? DEFAULT_KILL_GRACE_MS;
  const tailBytes = req.tailBytes ?? DEFAULT_TAIL_BYTES;
  const tail = new TailBuffer(tailBytes);
  const stderrTail = new TailBuffer(tailBytes);
  const elapsed = (): number => performance.now() - started;

  const base: ProcessResult = {
    exitCode: null,
    signal: null,
    timedOut: false,
    aborted: false,
    durationMs: 0,
    tail: '',
    stderrTail: '',
    bytes: 0,
  };

  if (req.signal?.aborted) {
    return Promise.resolve({ ...base, aborted: true, durationMs: elapsed() });
  }

  return new Promise<ProcessResult>((resolve) => {
    const file = req.shell ? '/bin/sh' : req.command;
    const argv = req.shell ? ['-c', req.command, 'sh', ...(req.args ?? [])] : (req.args ?? []);

    const stdinFd =
      req.stdin !== undefined && req.stdinFile !== undefined ? openHolding(req.stdinFile, req.stdin) : undefined;
    let child: ChildProcess;
    try {
      child = spawn(file, argv, {
        cwd: req.cwd,
        env: req.env ?? process.env,
        detached: true,
        stdio: [stdinFd ?? (req.stdin === undefined ? 'ignore' : 'pipe'), 'pipe', 'pipe'],
        windowsHide: true,
      });
    } catch (err) {
      resolve({ ...base, durationMs: elapsed(), spawnError: describeSpawnError(err as NodeJS.ErrnoException, req) });
      return;
    } finally {
      // The child has its own copy of the descriptor.
      if (stdinFd !== undefined) closeSync(stdinFd);
    }

    let settled = false;
    let timedOut = false;
    let aborted = false;
    let exitCode: number | null = null;
    let exitSignal: string | null = null;
    let bytes = 0;
    const timers = new Set<NodeJS.Timeout>();
    const later = (ms: number, fn: () => void): void => {
      const t = setTimeout(() => {
        timers.delete(t);
        fn();
      }, ms);
      timers.add(t);
    };

    const splitters = { stdout: new LineSplitter(req.maxLineBytes), stderr: new LineSplitter(req.maxLineBytes) };
    const emitters = {
      stdout: (line: string, cutBefore: boolean, cutAfter: boolean) => deliver(line, 'stdout', cutBefore, cutAfter),
      stderr: (line: string, cutBefore: boolean, cutAfter: boolean) => deliver(line, 'stderr', cutBefore, cutAfter),
    };
    // Masked output: the tails are built from the masked lines, never from the raw bytes.
    const masker = req.mask
      ? createOutputMasker(req.mask, (line, stream, cut) => {
          const text = cut?.after ? line : `${line}\n`;
          tail.push(text);
          if (stream === 'stderr') stderrTail.push(text);
          forward(line, stream, cut?.before ?? false, cut?.after ?? false);
        })
      : undefined;
    function deliver(line: string, stream: 'stdout' | 'stderr', cutBefore: boolean, cutAfter: boolean): void {
      if (masker) masker.push(line, stream, cutBefore || cutAfter ? { before: cutBefore, after: cutAfter } : undefined);
      else forward(line, stream, cutBefore, cutAfter);
    }
    function forward(line: string, stream: 'stdout' | 'stderr', cutBefore: boolean, cutAfter: boolean): void {
      if (!req.onLine) return;
      try {
        if (cutBefore || cutAfter) req.onLine(line, stream, { before: cutBefore, after: cutAfter });
        else req.onLine(line, stream);
      } catch {
        // A faulty listener must not break the stream.
      }
    }
    const consume = (stream: Readable | null, name: 'stdout' | 'stderr'): void => {
      if (!stream) return;
      stream.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        // Unmasked, the tails take the raw bytes (copied into their rings): no per-line allocation.
        if (!masker) {
          tail.push(chunk);
          if (name === 'stderr') stderrTail.push(chunk);
        }
        splitters[name].pushEach(chunk, emitters[name]);
      });
      stream.on('end', () => splitters[name].flushEach(emitters[name]));
      stream.on('error', () => {
        /* the pipe broke; 'close' still follows */
      });
    };
    consume(child.stdout, 'stdout');
    consume(child.stderr, 'stderr');

    const finish = (spawnError?: string): void => {
      if (settled) return;
      settled = true;
      for (const t of timers) clearTimeout(t);
      timers.clear();
      req.signal?.removeEventListener('abort', onAbort);
      splitters.stdout.flushEach(emitters.stdout);
      splitters.stderr.flushEach(emitters.stderr);
      masker?.flush();
      const result: ProcessResult = {
        exitCode,
        signal: exitSignal,
        timedOut,
        aborted,
        durationMs: elapsed(),
        tail: tail.toString(),
        stderrTail: stderrTail.toString(),
        bytes,
      };
      if (spawnError !== undefined) result.spawnError = spawnError;
      resolve(result);
    };

    /** SIGTERM the group now, SIGKILL it after the grace period if anything is left. */
    let terminating = false;
    const terminate = (): void => {
      const pid = child.pid;
      if (terminating || pid === undefined) return;
      terminating = true;
      killGroup(pid, 'SIGTERM');
      later(killGraceMs, () => {
        if (killGroup(pid, 0)) killGroup(pid, 'SIGKILL');
        // Something outside the group (setsid) may still hold our pipes: stop waiting on them.
        later(PIPE_DRAIN_MS, () => {
          child.stdout?.destroy();
          child.stderr?.destroy();
          if (child.exitCode !== null || child.signalCode !== null) finish();
        });
      });
    };

    function onAbort(): void {
      // Once the child has exited on its own, an abort changes nothing.
      if (settled || exitCode !== null || exitSignal !== null) return;
      aborted = true;
      terminate();
    }

    child.on('error', (err: NodeJS.ErrnoException) => {
      if (child.pid === undefined) {
        finish(describeSpawnError(err, req));
      }
      // Otherwise a kill or pipe error on a running child: 'close' still comes.
    });

    child.on('exit', (code, sig) => {
      exitCode = code;
      exitSignal = sig;
      // Stray background processes would keep the pipes open and hang us.
      terminate();
    });

    child.on('close', (code, sig) => {
      if (exitCode === null && exitSignal === null) {
        exitCode = code;
        exitSignal = sig;
      }
      finish();
    });

    if (child.pid === undefined) {
      // Spawn failed; 'error' follows on the next tick.
      return;
    }
    try {
      req.onSpawn?.(child.pid);
    } catch {
      // A faulty listener must not break the run.
    }

    if (req.timeoutMs !== undefined && Number.isFinite(req.timeoutMs) && req.timeoutMs > 0) {
      // Node fires a delay over 2^31-1 ms at once: such a timeout is clamped, never instant.
      later(Math.min(req.timeoutMs, MAX_TIMER_MS), () => {
        if (settled || terminating) return;
        timedOut = true;
        terminate();
      });
    }
    req.signal?.addEventListener('abort', onAbort, { once: true });

    const stdin = child.stdin;
    if (stdin) {
      stdin.on('error', () => {
        /* EPIPE: the child does not read its stdin */
      });
      stdin.end(req.stdin);
    }
  });
}
