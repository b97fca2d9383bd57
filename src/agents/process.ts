import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, fstatSync, openSync, readSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

/** Present when a line reached onLine in pieces: which edges are cuts inside the line. */
export interface LineCut {
  before: boolean;
  after: boolean;
}
import type { SecretRedactor } from '../secrets/redact.js';
import { createOutputMasker } from '../secrets/outputMasker.js';
import { createOutputSink, type OutputSink } from './processOutput.js';
import { PIPE_DRAIN_MS, PROCESS_MARK_VARIABLE, endGroup, endMarked, killGroup } from './processGroup.js';

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
  /**
   * Issue 42: also end, when the group is gone, every process that left it (`setsid`, `setpgid`)
   * but still carries the run's mark (PROCESS_MARK_VARIABLE, set in the child's environment, which
   * its descendants inherit unless they drop it). For the agents: nothing they start may outlive the turn.
   */
  endEscaped?: boolean;
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

const EMPTY_RESULT: ProcessResult = {
  exitCode: null,
  signal: null,
  timedOut: false,
  aborted: false,
  durationMs: 0,
  tail: '',
  stderrTail: '',
  bytes: 0,
};

/** Timers that can all be cleared at once when the run settles. */
interface Timers {
  later(ms: number, fn: () => void): void;
  clear(): void;
}

function createTimers(): Timers {
  const timers = new Set<NodeJS.Timeout>();
  return {
    later(ms, fn) {
      const t = setTimeout(() => {
        timers.delete(t);
        fn();
      }, ms);
      timers.add(t);
    },
    clear() {
      for (const t of timers) clearTimeout(t);
      timers.clear();
    },
  };
}

/** Spawn the child as the leader of its own process group; a synchronous spawn failure is described. */
function spawnChild(req: ProcessRequest, mark: string | undefined): { child: ChildProcess } | { spawnError: string } {
  const file = req.shell ? '/bin/sh' : req.command;
  const argv = req.shell ? ['-c', req.command, 'sh', ...(req.args ?? [])] : (req.args ?? []);
  const stdinFd =
    req.stdin !== undefined && req.stdinFile !== undefined ? openHolding(req.stdinFile, req.stdin) : undefined;
  try {
    const child = spawn(file, argv, {
      cwd: req.cwd,
      env:
        mark === undefined ? (req.env ?? process.env) : { ...(req.env ?? process.env), [PROCESS_MARK_VARIABLE]: mark },
      detached: true,
      stdio: [stdinFd ?? (req.stdin === undefined ? 'ignore' : 'pipe'), 'pipe', 'pipe'],
      windowsHide: true,
    });
    return { child };
  } catch (err) {
    return { spawnError: describeSpawnError(err as NodeJS.ErrnoException, req) };
  } finally {
    // The child has its own copy of the descriptor.
    if (stdinFd !== undefined) closeSync(stdinFd);
  }
}

/** What is known of a running child, written by its events and read when the run settles. */
interface RunState {
  settled: boolean;
  timedOut: boolean;
  aborted: boolean;
  terminating: boolean;
  exitCode: number | null;
  exitSignal: string | null;
}

function resultOf(state: RunState, output: OutputSink, durationMs: number, spawnError?: string): ProcessResult {
  const result: ProcessResult = {
    exitCode: state.exitCode,
    signal: state.exitSignal,
    timedOut: state.timedOut,
    aborted: state.aborted,
    durationMs,
    tail: output.tail.toString(),
    stderrTail: output.stderrTail.toString(),
    bytes: output.bytes(),
  };
  if (spawnError !== undefined) result.spawnError = spawnError;
  return result;
}

/** SIGTERM the group now, SIGKILL it after the grace period if anything is left. */
function terminateGroup(
  child: ChildProcess,
  state: RunState,
  timers: Timers,
  killGraceMs: number,
  finish: () => void,
): void {
  const pid = child.pid;
  if (state.terminating || pid === undefined) return;
  state.terminating = true;
  killGroup(pid, 'SIGTERM');
  timers.later(killGraceMs, () => {
    if (killGroup(pid, 0)) killGroup(pid, 'SIGKILL');
    // Something outside the group (setsid) may still hold our pipes: stop waiting on them.
    timers.later(PIPE_DRAIN_MS, () => {
      child.stdout?.destroy();
      child.stderr?.destroy();
      if (child.exitCode !== null || child.signalCode !== null) finish();
    });
  });
}

/** Record how the child ended; the run settles on 'close' (or on a spawn 'error'). */
function watchChild(
  child: ChildProcess,
  req: ProcessRequest,
  state: RunState,
  on: { finish: (spawnError?: string) => void; terminate: () => void },
): void {
  child.on('error', (err: NodeJS.ErrnoException) => {
    if (child.pid === undefined) {
      on.finish(describeSpawnError(err, req));
    }
    // Otherwise a kill or pipe error on a running child: 'close' still comes.
  });
  child.on('exit', (code, sig) => {
    state.exitCode = code;
    state.exitSignal = sig;
    // Stray background processes would keep the pipes open and hang us.
    on.terminate();
  });
  child.on('close', (code, sig) => {
    if (state.exitCode === null && state.exitSignal === null) {
      state.exitCode = code;
      state.exitSignal = sig;
    }
    on.finish();
  });
}

/** Tell `req.onSpawn` the leader's pid; a throwing listener is ignored. */
function notifySpawn(req: ProcessRequest, pid: number): void {
  try {
    req.onSpawn?.(pid);
  } catch {
    // A faulty listener must not break the run.
  }
}

function armTimeout(req: ProcessRequest, state: RunState, timers: Timers, terminate: () => void): void {
  if (req.timeoutMs === undefined || !Number.isFinite(req.timeoutMs) || req.timeoutMs <= 0) return;
  // Node fires a delay over 2^31-1 ms at once: such a timeout is clamped, never instant.
  timers.later(Math.min(req.timeoutMs, MAX_TIMER_MS), () => {
    if (state.settled || state.terminating) return;
    state.timedOut = true;
    terminate();
  });
}

function writeStdin(child: ChildProcess, text: string | undefined): void {
  const stdin = child.stdin;
  if (!stdin) return;
  stdin.on('error', () => {
    /* EPIPE: the child does not read its stdin */
  });
  stdin.end(text);
}

/** Watch a spawned child until it settles: output, exit, timeout, abort; resolve once. */
function superviseChild(
  child: ChildProcess,
  req: ProcessRequest,
  elapsed: () => number,
  resolve: (result: ProcessResult) => void,
  mark: string | undefined,
): void {
  const killGraceMs = req.killGraceMs ?? DEFAULT_KILL_GRACE_MS;
  const timers = createTimers();
  const tailBytes = req.tailBytes ?? DEFAULT_TAIL_BYTES;
  // Masked output: the masker is made here, where an agent's output enters the engine.
  const mask = req.mask;
  const output = createOutputSink({ ...req, tailBytes }, (sink) => (mask ? createOutputMasker(mask, sink) : undefined));
  output.consume(child.stdout, 'stdout');
  output.consume(child.stderr, 'stderr');
  const state: RunState = {
    settled: false,
    timedOut: false,
    aborted: false,
    terminating: false,
    exitCode: null,
    exitSignal: null,
  };

  const finish = (spawnError?: string): void => {
    if (state.settled) return;
    state.settled = true;
    timers.clear();
    req.signal?.removeEventListener('abort', onAbort);
    output.flush();
    const settle = () => resolve(resultOf(state, output, elapsed(), spawnError));
    if (child.pid === undefined) settle();
    else
      void endGroup(child.pid, killGraceMs)
        .then(() => (mark === undefined ? undefined : endMarked(mark)))
        .then(settle);
  };
  const terminate = (): void => terminateGroup(child, state, timers, killGraceMs, finish);
  function onAbort(): void {
    // Once the child has exited on its own, an abort changes nothing.
    if (state.settled || state.exitCode !== null || state.exitSignal !== null) return;
    state.aborted = true;
    terminate();
  }

  watchChild(child, req, state, { finish, terminate });
  if (child.pid === undefined) {
    // Spawn failed; 'error' follows on the next tick.
    return;
  }
  notifySpawn(req, child.pid);
  armTimeout(req, state, timers, terminate);
  req.signal?.addEventListener('abort', onAbort, { once: true });
  writeStdin(child, req.stdin);
}

/**
 * Run a command in its own process group, streaming its output line by line into
 * `onLine` and two bounded tails. Never rejects: a spawn failure resolves with `spawnError`.
 */
export function runProcess(req: ProcessRequest): Promise<ProcessResult> {
  const started = performance.now();
  const elapsed = (): number => performance.now() - started;
  if (req.signal?.aborted) {
    return Promise.resolve({ ...EMPTY_RESULT, aborted: true, durationMs: elapsed() });
  }
  return new Promise<ProcessResult>((resolve) => {
    const mark = req.endEscaped ? randomBytes(12).toString('hex') : undefined;
    const spawned = spawnChild(req, mark);
    if ('spawnError' in spawned) {
      resolve({ ...EMPTY_RESULT, durationMs: elapsed(), spawnError: spawned.spawnError });
      return;
    }
    superviseChild(spawned.child, req, elapsed, resolve, mark);
  });
}
