/**
 * The one place agent-loop starts git (issue 41). Every git process, whatever asks (the Git of
 * git.ts, the preconditions' look at the repository, the state directory's lookup, the notes and
 * bundles), goes through execGit, on @actions/exec as actions/checkout's git-command-manager does:
 * git found once on PATH, then run with its arguments as an array (no shell), silent (nothing echoed
 * to the log), its exit code returned rather than thrown. The agents keep their own process-group
 * runner (src/agents/process.ts): @actions/exec cannot start a process group nor kill one. A call
 * given a timeout (the network calls: push, fetch, ls-remote; issue 43) is started here with
 * child_process instead, in a process group of its own, ended whole when the timeout expires (git's
 * transport helpers, ssh, a local remote's receive-pack and its hooks are in it).
 * `__tests__/git/oneRunner.test.ts` and the rule `one-git-runner` (.dependency-cruiser.cjs) fail on
 * a second way to start git.
 */
import { exec } from '@actions/exec';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { findOnPath } from '../util/onPath.js';
import { endGroup } from '../util/processGroup.js';

/** What one git call gave: its exit code and output. */
export interface GitResult {
  /** git's exit code; 1 when it was killed or its output ran over the bound; -1 when it could not be started. */
  code: number;
  stdout: string;
  stderr: string;
  /** Why git could not be started (`ENOENT`: no git on PATH; `EACCES`…), when it could not. */
  startError?: string;
  /** The call ran over its timeout (ExecGitOptions.timeoutMs) and its process group was ended: the timeout. */
  timedOutMs?: number;
}

export interface ExecGitOptions {
  /**
   * Bytes of stdout (and of stderr) read at most, 16 MiB unless given: a call whose output runs over
   * it fails (code 1) and its output is dropped, never read in part (the secret scan of a change too
   * large to read whole commits nothing: git.ts).
   */
  maxOutput?: number;
  /**
   * A look that must not write (GIT_OPTIONAL_LOCKS=0): `git status` then neither refreshes the index
   * nor takes its lock while the person's own git may be at work.
   */
  readOnly?: boolean;
  /** Written to git's standard input (`cat-file --batch`'s object names). */
  input?: Buffer;
  /**
   * Milliseconds the call may take: past them its whole process group is sent SIGTERM, then SIGKILL
   * (KILL_GRACE_MS later), and the call gives code 1 with `timedOutMs`. Unbounded unless given.
   */
  timeoutMs?: number;
}

/** After SIGTERM, how long a timed-out git's group has before SIGKILL (git removes its lock and temporary files on SIGTERM). */
export const KILL_GRACE_MS = 1000;

/** What one git call gave, its stdout as bytes (execGitBytes). */
export interface GitBytesResult {
  code: number;
  stdout: Buffer;
  stderr: string;
  startError?: string;
  timedOutMs?: number;
}

/**
 * No hook of the repository's runs in agent-loop's own git: an agent can write .git/hooks, and what
 * a hook did inside the engine's checkout or merge (a commit on the base) would be taken as the
 * engine's own move. Commits and pushes skip the checking hooks anyway (--no-verify). Nor does a
 * `core.fsmonitor` command (the agent can set one in .git/config), which git runs on every status and add.
 */
export const NO_HOOKS: readonly string[] = ['-c', 'core.hooksPath=/dev/null', '-c', 'core.fsmonitor=false'];

const MiB = 1024 * 1024;
const NUL_REFUSED = 'agent-loop did not start git: an argument or a variable of its environment holds a NUL byte';
export const DEFAULT_MAX_OUTPUT = 16 * MiB;

/** git's path by the PATH it was found on (a found one only: git installed later is found then). */
const found = new Map<string, string>();

async function gitOnPath(envPath: string): Promise<string | undefined> {
  const known = found.get(envPath);
  if (known !== undefined) return known;
  const file = await findOnPath('git', envPath);
  if (file !== undefined) found.set(envPath, path.resolve(file));
  return found.get(envPath);
}

/**
 * A listener that decodes what a stream gives up to `limit` bytes, and drops it all past them.
 *
 * Then it ends the chunk with a newline, in the toolkit's copy: @actions/exec (3.0.0) splits every
 * stream into lines after the listeners have had it, even when nobody listens to lines, and re-scans
 * the unfinished line with each chunk, so output without a newline (`status -z`, `ls-files -z`, the
 * secret scan's diff of a minified file) cost quadratic time there: 15 MiB on one line, 23.5 s
 * against 0.2 s with execFile (issue 13 took @actions/exec out for it); with the newline, 68–115 ms
 * against 79–117 ms. The text is read from the chunk first; no line listener is given, so the newline
 * is seen by nobody.
 */
function boundedText(limit: number) {
  const decoder = new StringDecoder('utf8');
  let text = '';
  let bytes = 0;
  return {
    listener(data: Buffer) {
      if (bytes <= limit) {
        bytes += data.length;
        text = bytes > limit ? '' : text + decoder.write(data);
      }
      if (data.length > 0) data[data.length - 1] = 0x0a;
    },
    get over() {
      return bytes > limit;
    },
    end: () => (bytes > limit ? '' : text + decoder.end()),
  };
}

/** A listener that keeps what a stream gives as bytes, up to `limit`, and drops it all past them (as boundedText). */
function boundedBytes(limit: number) {
  const chunks: Buffer[] = [];
  let bytes = 0;
  return {
    listener(data: Buffer) {
      if (bytes <= limit) {
        bytes += data.length;
        if (bytes > limit) chunks.length = 0;
        else chunks.push(Buffer.from(data));
      }
      if (data.length > 0) data[data.length - 1] = 0x0a;
    },
    get over() {
      return bytes > limit;
    },
    end: () => (bytes > limit ? Buffer.alloc(0) : Buffer.concat(chunks)),
  };
}

/** The errno name in @actions/exec's message when it has one (`spawn /usr/bin/git EACCES`), else the message. */
function startErrorOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return /\b(E[A-Z0-9]{2,})$/.exec(message)?.[1] ?? message;
}

/**
 * Runs `git <NO_HOOKS> <args>` in `cwd` with `env` (git taken from env's PATH, GIT_TERMINAL_PROMPT=0:
 * never a prompt for credentials). Never rejects: a git that cannot be started gives code -1 and
 * `startError`.
 */
export async function execGit(
  cwd: string,
  env: NodeJS.ProcessEnv,
  args: readonly string[],
  options: ExecGitOptions = {},
): Promise<GitResult> {
  const limit = options.maxOutput ?? DEFAULT_MAX_OUTPUT;
  const r = await runGit(cwd, env, args, options, boundedText(limit));
  return { ...r, stdout: r.stdout ?? '' };
}

/** execGit with stdout as bytes, never decoded (the blobs `cat-file --batch` gives: src/git/blobScan.ts). */
export async function execGitBytes(
  cwd: string,
  env: NodeJS.ProcessEnv,
  args: readonly string[],
  options: ExecGitOptions = {},
): Promise<GitBytesResult> {
  const limit = options.maxOutput ?? DEFAULT_MAX_OUTPUT;
  const r = await runGit(cwd, env, args, options, boundedBytes(limit));
  return { ...r, stdout: r.stdout ?? Buffer.alloc(0) };
}

interface Collector<T> {
  listener(data: Buffer): void;
  readonly over: boolean;
  end(): T;
}

async function runGit<T>(
  cwd: string,
  env: NodeJS.ProcessEnv,
  args: readonly string[],
  options: ExecGitOptions,
  stdout: Collector<T>,
): Promise<{ code: number; stdout?: T; stderr: string; startError?: string; timedOutMs?: number }> {
  // The toolkit's spawn would throw inside its Promise executor: a promise that never settles.
  if ([...args, ...Object.entries(env).flat()].some((s) => s?.includes('\0')))
    return { code: -1, stderr: NUL_REFUSED, startError: 'ERR_INVALID_ARG_VALUE' };
  const git = await gitOnPath(env.PATH ?? '');
  if (git === undefined) return { code: -1, stderr: 'agent-loop could not start git: ENOENT', startError: 'ENOENT' };
  const limit = options.maxOutput ?? DEFAULT_MAX_OUTPUT;
  const stderr = boundedText(limit);
  const childEnv: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) if (value !== undefined) childEnv[key] = value;
  childEnv.GIT_TERMINAL_PROMPT = '0';
  if (options.readOnly) childEnv.GIT_OPTIONAL_LOCKS = '0';
  let code: number | null;
  let timedOutMs: number | undefined;
  try {
    if (options.timeoutMs !== undefined) {
      const timed = await spawnTimed(git, cwd, childEnv, args, options, options.timeoutMs, stdout, stderr);
      code = timed.code;
      timedOutMs = timed.timedOutMs;
    } else
      code = await exec(`"${git}"`, [...NO_HOOKS, ...args], {
        cwd,
        env: childEnv,
        silent: true,
        ignoreReturnCode: true,
        ...(options.input !== undefined ? { input: options.input } : {}),
        listeners: { stdout: stdout.listener, stderr: stderr.listener },
      });
  } catch (error) {
    const startError = startErrorOf(error);
    return { code: -1, stderr: `agent-loop could not start git: ${startError}`, startError };
  }
  if (stdout.over || stderr.over) {
    const over = `agent-loop read none of git's output: it ran over ${Math.round(limit / MiB)} MiB`;
    return { code: 1, stderr: stderr.over ? over : `${stderr.end()}\n${over}` };
  }
  if (timedOutMs !== undefined) return { code: 1, stdout: stdout.end(), stderr: stderr.end(), timedOutMs };
  // A git killed by a signal has no exit code (@actions/exec resolves null): a failure all the same.
  return { code: code ?? 1, stdout: stdout.end(), stderr: stderr.end() };
}

/**
 * git started in a process group of its own (detached), its output given to the same bounded
 * listeners; at `timeoutMs` the whole group is ended (SIGTERM, SIGKILL after KILL_GRACE_MS) and the
 * call resolves once git has exited and its pipes have closed. Rejects only when git cannot be started.
 */
function spawnTimed(
  git: string,
  cwd: string,
  env: Record<string, string>,
  args: readonly string[],
  options: ExecGitOptions,
  timeoutMs: number,
  stdout: { listener(data: Buffer): void },
  stderr: { listener(data: Buffer): void },
): Promise<{ code: number | null; timedOutMs?: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(git, [...NO_HOOKS, ...args], {
      cwd,
      env,
      detached: true,
      stdio: [options.input !== undefined ? 'pipe' : 'ignore', 'pipe', 'pipe'],
    });
    let timedOut = false;
    let ended: Promise<void> = Promise.resolve();
    const timer = setTimeout(() => {
      timedOut = true;
      if (child.pid !== undefined) ended = endGroup(child.pid, KILL_GRACE_MS);
    }, timeoutMs);
    child.stdout?.on('data', (data: Buffer) => stdout.listener(data));
    child.stderr?.on('data', (data: Buffer) => stderr.listener(data));
    if (options.input !== undefined) {
      child.stdin?.on('error', () => undefined); // git gone before reading it all: its exit code says why
      child.stdin?.end(options.input);
    }
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      // The group's other members (a transport helper, a hook) are ended too before the call resolves.
      void ended.then(() => resolve(timedOut ? { code, timedOutMs: timeoutMs } : { code }));
    });
  });
}
