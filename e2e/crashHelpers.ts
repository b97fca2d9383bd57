/**
 * Helpers for e2e/crash.test.ts: a seeded PRNG, a workspace whose scripted agent and test command
 * behave as a pure function of the iteration number (so a re-run iteration does exactly what the
 * lost one did), the built CLI run as a child process with its NDJSON events parsed as they
 * arrive, and the clean-up of every process a SIGKILLed run leaves behind.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, promises as fs, readFileSync, readdirSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const CLI = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'cli', 'index.js');

// --- randomness ----------------------------------------------------------------------------------

/** mulberry32: a tiny seeded PRNG, uniform in [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** An integer in [lo, hi]. */
export const randInt = (rand: () => number, lo: number, hi: number): number => lo + Math.floor(rand() * (hi - lo + 1));

export function shuffle<T>(rand: () => number, items: readonly T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

// --- the scripted work ---------------------------------------------------------------------------

/** What the agent (and then the test command) does at iteration n. */
export type Step = 'progress' | 'fail' | 'done-fail' | 'done-pass';

/**
 * The plan repeats every 8 iterations: two cycles complete (at 6 and 8), one test run fails (3),
 * two agent runs fail transiently (2, 7), the rest make progress.
 */
const PATTERN: readonly Step[] = [
  'progress',
  'fail',
  'done-fail',
  'progress',
  'progress',
  'done-pass',
  'fail',
  'done-pass',
];
export const stepAt = (n: number): Step => PATTERN[(n - 1) % PATTERN.length] as Step;

export const ISSUE_IDS = Array.from({ length: 10 }, (_, i) => `cr-${String(i + 1).padStart(2, '0')}`);

/** The history record each iteration must end up with, derived from the plan alone. */
export interface ExpectedIteration {
  n: number;
  issueId: string;
  step: Step;
  outcome: 'continuing' | 'agent_failed' | 'tests_failed' | 'complete';
}

/** The whole run as the plan dictates it, kills or not: iteration n works on the first issue not yet completed. */
export function simulatePlan(issueIds: readonly string[]): ExpectedIteration[] {
  const out: ExpectedIteration[] = [];
  let closed = 0;
  for (let n = 1; closed < issueIds.length; n++) {
    const step = stepAt(n);
    const outcome =
      step === 'fail'
        ? 'agent_failed'
        : step === 'progress'
          ? 'continuing'
          : step === 'done-fail'
            ? 'tests_failed'
            : 'complete';
    out.push({ n, issueId: issueIds[closed] as string, step, outcome });
    if (outcome === 'complete') closed++;
  }
  return out;
}

/**
 * The agent. It notes the iteration for the test command, logs `agent-start n` / `agent-end n STEP`
 * in the marks log (outside the state dir), and when the hold file says `agent n`, creates
 * `held-agent-n` and blocks until it is killed (the sleep only bounds a broken test).
 */
const AGENT_SCRIPT = `#!/bin/sh
n="$AGENT_LOOP_ITERATION"
M="$CRASH_MARKS"
printf '%s\\n' "$n" > "$M/current-iteration"
echo "agent-start $n" >> "$M/log"
if [ "$(cat "$M/hold" 2>/dev/null)" = "agent $n" ]; then
  : > "$M/held-agent-$n"
  sleep 30
  exit 3
fi
step=$(sed -n "\${n}p" "$M/plan")
# Some work in the tree: in a git repository it is committed and merged when the cycle completes.
echo "iteration $n" >> "work-$AGENT_LOOP_ISSUE_IDS.txt"
echo "agent-end $n $step" >> "$M/log"
case "$step" in
  fail)
    echo "simulated agent crash at iteration $n" >&2
    exit 1 ;;
  progress)
    printf 'Worked on %s.\\nwork_remaining: the rest of %s after iteration %s\\nrequires_continuation: true\\n' "$AGENT_LOOP_ISSUE_IDS" "$AGENT_LOOP_ISSUE_IDS" "$n" ;;
  *)
    printf 'Finished %s.\\nwork_remaining: none\\nrequires_continuation: false\\nsummary: done at iteration %s\\n' "$AGENT_LOOP_ISSUE_IDS" "$n" ;;
esac
`;

/** The test command: passes exactly at the plan's done-pass iterations; holds like the agent on `tests n`. */
const TESTS_SCRIPT = `#!/bin/sh
M="$CRASH_MARKS"
# The baseline before each cycle's first agent run: green, and not one of the plan's test runs.
if [ "$AGENT_LOOP_TEST_PURPOSE" = baseline ]; then echo "baseline: all tests passed"; exit 0; fi
n=$(cat "$M/current-iteration")
echo "tests-start $n" >> "$M/log"
if [ "$(cat "$M/hold" 2>/dev/null)" = "tests $n" ]; then
  : > "$M/held-tests-$n"
  sleep 30
  exit 3
fi
step=$(sed -n "\${n}p" "$M/plan")
if [ "$step" = done-pass ]; then
  echo "tests-end $n pass" >> "$M/log"
  echo "all tests passed"
  exit 0
fi
echo "tests-end $n fail" >> "$M/log"
echo "1 failing test (simulated) at iteration $n"
exit 1
`;

export interface Workspace {
  root: string;
  /** Where the CLI runs: the beads file and the state dir. Not a git repository. */
  work: string;
  stateDir: string;
  checkpointsDir: string;
  /** The scripts' plan, log, hold and held-* files; outside the work dir. */
  marks: string;
  /** In the environment of the CLI and therefore of every process it starts. */
  token: string;
  /** Whether `work` is a git repository. */
  git: boolean;
  env: NodeJS.ProcessEnv;
  runArgs: string[];
  cleanup(): Promise<void>;
}

/** `git`: make the work dir a git repository on `main` (each cycle then runs on its own branch). */
export async function createWorkspace(
  issueIds: readonly string[],
  planLength: number,
  opts: { git?: boolean } = {},
): Promise<Workspace> {
  const root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'agent-loop-crash-')));
  const work = path.join(root, 'work');
  const marks = path.join(root, 'marks');
  await fs.mkdir(path.join(work, '.beads'), { recursive: true });
  await fs.mkdir(marks);
  const lines = issueIds.map((id, i) =>
    JSON.stringify({
      id,
      title: `Crash-safety issue ${i + 1}`,
      description: 'scripted',
      status: 'open',
      priority: 2,
      issue_type: 'task',
      created_at: `2026-11-01T09:${String(i).padStart(2, '0')}:00Z`,
      updated_at: '2026-11-01T09:00:00Z',
    }),
  );
  await fs.writeFile(path.join(work, '.beads', 'issues.jsonl'), `${lines.join('\n')}\n`);
  await fs.writeFile(
    path.join(marks, 'plan'),
    `${Array.from({ length: planLength }, (_, i) => stepAt(i + 1)).join('\n')}\n`,
  );
  await fs.writeFile(path.join(marks, 'log'), '');
  const agent = path.join(root, 'agent.sh');
  const tests = path.join(root, 'tests.sh');
  await fs.writeFile(agent, AGENT_SCRIPT);
  await fs.writeFile(tests, TESTS_SCRIPT);
  const token = `${process.pid}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: root,
    LANG: 'C',
    TMPDIR: os.tmpdir(),
    // Never let git discover a repository above the temp dir.
    GIT_CEILING_DIRECTORIES: root,
    CRASH_MARKS: marks,
    CRASH_TOKEN: token,
  };
  if (opts.git) {
    env.GIT_CONFIG_NOSYSTEM = '1';
    env.GIT_CONFIG_GLOBAL = '/dev/null';
    const git = (...args: string[]) =>
      gitOutput({ work, env }, '-c', 'user.name=crash', '-c', 'user.email=crash@example.invalid', ...args);
    git('init', '-q', '-b', 'main');
    git('add', '-A');
    git('commit', '-q', '-m', 'initial');
  }
  // Outside git the state directory is .agent-loop in the working directory; in git, under .git.
  const stateDir = opts.git ? path.join(work, '.git', 'agent-loop') : path.join(work, '.agent-loop');
  return {
    root,
    work,
    stateDir,
    checkpointsDir: path.join(stateDir, 'checkpoints'),
    marks,
    token,
    env,
    git: opts.git === true,
    runArgs: [
      'run',
      '--agent',
      'command',
      '--agent-command',
      `sh ${JSON.stringify(agent)}`,
      '--iteration-delay',
      '0',
      '--test-command',
      `sh ${JSON.stringify(tests)}`,
      '--issues-file',
      './.beads/issues.jsonl',
      '--json',
    ],
    cleanup: () => fs.rm(root, { recursive: true, force: true }),
  };
}

/** git's trimmed stdout; throws when git fails. */
export function gitOutput(ws: Pick<Workspace, 'work' | 'env'>, ...args: string[]): string {
  const r = spawnSync('git', args, { cwd: ws.work, env: ws.env, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')} failed (exit ${r.status}): ${r.stderr}`);
  return r.stdout.trim();
}

// --- the CLI as a child process ------------------------------------------------------------------

export interface LoopEvent {
  event?: string;
  iteration?: number;
  checkpointId?: string;
  resumed?: boolean;
  [field: string]: unknown;
}

/** The run result, the last line with --json. */
export interface RunResultLine {
  status: string;
  iterations: number;
  failedIterations: number;
  successfulIterations: number;
  testFailures: number;
  issuesClosed: string[];
  completedIterations: number[];
  checkpointId: string;
  history: { n: number }[];
  /** The loop's totals across runs (the fields above are this run's). */
  loop: Pick<
    RunResultLine,
    'iterations' | 'failedIterations' | 'successfulIterations' | 'testFailures' | 'issuesClosed' | 'completedIterations'
  >;
}

/** The events after which the iteration's checkpoint is written (and nothing else happens first). */
export const BOUNDARY_EVENTS = new Set(['iteration.end', 'iteration.failed', 'tests.failed', 'cycle.complete']);

export class CliRun {
  readonly child: ChildProcess;
  readonly events: LoopEvent[] = [];
  readonly unparsed: string[] = [];
  result: RunResultLine | undefined;
  stderr = '';
  /** Called synchronously for each event as it is parsed, so a kill can follow within microseconds. */
  onEvent: ((event: LoopEvent) => void) | undefined;
  exited = false;
  readonly closed: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private buffer = '';

  constructor(ws: Workspace) {
    this.child = spawn(process.execPath, [CLI, ...ws.runArgs], {
      cwd: ws.work,
      env: ws.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child.stdout?.setEncoding('utf8');
    this.child.stderr?.setEncoding('utf8');
    this.child.stdout?.on('data', (chunk: string) => this.take(chunk));
    this.child.stderr?.on('data', (chunk: string) => {
      this.stderr += chunk;
    });
    this.closed = new Promise((resolve) => {
      this.child.on('close', (code, signal) => {
        this.take('\n');
        this.exited = true;
        resolve({ code, signal });
      });
    });
    this.child.on('exit', () => {
      this.exited = true;
    });
  }

  kill(): void {
    if (!this.exited) this.child.kill('SIGKILL');
  }

  /** The highest iteration among events named `name`; 0 when there is none. */
  maxIteration(names: ReadonlySet<string> | string): number {
    const set = typeof names === 'string' ? new Set([names]) : names;
    return this.events.reduce(
      (max, e) => (e.event && set.has(e.event) && typeof e.iteration === 'number' ? Math.max(max, e.iteration) : max),
      0,
    );
  }

  find(name: string): LoopEvent | undefined {
    return this.events.find((e) => e.event === name);
  }

  /** The last few events, for failure messages. */
  describe(): string {
    const tail = this.events.filter((e) => e.event !== 'agent.output' && e.event !== 'tests.output').slice(-8);
    return `events: ${tail.map((e) => `${e.event}${e.iteration !== undefined ? `#${e.iteration}` : ''}`).join(', ') || 'none'}; exited: ${this.exited}; stderr: ${this.stderr.slice(-400) || '(empty)'}`;
  }

  private take(chunk: string): void {
    this.buffer += chunk;
    let cut: number;
    while ((cut = this.buffer.indexOf('\n')) !== -1) {
      const line = this.buffer.slice(0, cut);
      this.buffer = this.buffer.slice(cut + 1);
      if (line.trim() === '') continue;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        this.unparsed.push(line);
        continue;
      }
      if (typeof value !== 'object' || value === null) {
        this.unparsed.push(line);
        continue;
      }
      const record = value as Record<string, unknown>;
      if (typeof record.event === 'string') {
        const event = record as LoopEvent;
        this.events.push(event);
        this.onEvent?.(event);
      } else if (typeof record.status === 'string' && typeof record.checkpointId === 'string') {
        this.result = record as unknown as RunResultLine;
      } else {
        this.unparsed.push(line);
      }
    }
  }
}

export const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Polls `condition` every `intervalMs` until it holds. Throws when `run` ends first (the moment
 * waited for can no longer come) or after `timeoutMs`, which only bounds a broken test.
 */
export async function waitFor(
  what: string,
  condition: () => boolean,
  opts: { run?: CliRun; timeoutMs?: number; intervalMs?: number } = {},
): Promise<void> {
  const deadline = Date.now() + (opts.timeoutMs ?? 20_000);
  for (;;) {
    if (condition()) return;
    if (opts.run?.exited) {
      await opts.run.closed;
      if (condition()) return;
      throw new Error(`waiting for ${what}: the run ended first (${opts.run.describe()})`);
    }
    if (Date.now() > deadline)
      throw new Error(
        `waiting for ${what}: gave up after ${opts.timeoutMs ?? 20_000} ms${opts.run ? ` (${opts.run.describe()})` : ''}`,
      );
    await pause(opts.intervalMs ?? 5);
  }
}

/** Busy-waits `micros` microseconds: for kills a fraction of a millisecond after an event. */
export function spinMicros(micros: number): void {
  const end = process.hrtime.bigint() + BigInt(Math.round(micros * 1000));
  while (process.hrtime.bigint() < end) {
    // spin
  }
}

/**
 * A probe for the next checkpoint write in `dir`: each call returns 'temp' once a temp file not in
 * `known` exists (the write is under way), 'renamed' once a checkpoint file has been replaced or
 * created (the write was missed: it is over), else undefined. Cheap enough to call in a busy loop.
 */
export function watchWrite(dir: string, known: ReadonlySet<string>): () => 'temp' | 'renamed' | undefined {
  const inodes = new Map<string, number>();
  const list = () => (existsSync(dir) ? readdirSync(dir) : []);
  for (const name of list()) if (name.endsWith('.json')) inodes.set(name, statSync(path.join(dir, name)).ino);
  return () => {
    const names = list();
    if (names.some((name) => name.endsWith('.tmp') && !known.has(name))) return 'temp';
    for (const name of names) {
      if (!name.endsWith('.json')) continue;
      const ino = statSync(path.join(dir, name), { throwIfNoEntry: false })?.ino;
      if (ino !== undefined && ino !== inodes.get(name)) return 'renamed';
    }
    return undefined;
  };
}

// --- processes left behind -----------------------------------------------------------------------

interface ProcInfo {
  pid: number;
  pgrp: number;
}

function procStat(pid: number | 'self'): { state: string; pgrp: number } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state: fields[0] ?? '', pgrp: Number(fields[2]) };
  } catch {
    return undefined;
  }
}

/** Live processes whose environment carries this workspace's token: the CLI and everything it started. */
export function tokenProcesses(token: string): ProcInfo[] {
  const needle = `\0CRASH_TOKEN=${token}\0`;
  const found: ProcInfo[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    let environ: string;
    try {
      environ = `\0${readFileSync(`/proc/${pid}/environ`, 'latin1')}`;
    } catch {
      continue;
    }
    if (!environ.includes(needle)) continue;
    const stat = procStat(pid);
    if (!stat || stat.state === 'Z' || stat.state === 'X') continue;
    found.push({ pid, pgrp: stat.pgrp });
  }
  return found;
}

/**
 * Cleans up after a killed run, by process id. The agent and the test command run in process groups
 * of their own (the CLI starts them detached), so a SIGKILL of the CLI leaves them running: those
 * groups are SIGKILLed. Children the CLI started in its own group (git) are what a real SIGKILL of
 * the CLI also leaves behind: they are let finish. Returns how many processes were killed.
 */
export async function killLeftovers(token: string): Promise<number> {
  const ownGroup = procStat('self')?.pgrp;
  const killed = new Set<number>();
  const deadline = Date.now() + 10_000;
  for (;;) {
    const left = tokenProcesses(token);
    if (left.length === 0) return killed.size;
    const overdue = Date.now() > deadline;
    for (const { pid, pgrp } of left) {
      if (pgrp === ownGroup && !overdue) continue;
      killed.add(pid);
      if (pgrp > 1 && pgrp !== ownGroup) {
        try {
          process.kill(-pgrp, 'SIGKILL');
        } catch {
          // the group is gone already
        }
      }
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone already
      }
    }
    if (overdue)
      throw new Error(
        `processes of the killed run still running after 10 s (killed now): ${left.map((p) => p.pid).join(', ')}`,
      );
    await pause(10);
  }
}

// --- reading what is on disk ---------------------------------------------------------------------

export interface HistoryRecord {
  n: number;
  issueIds: string[];
  outcome: string;
  agent: { ok: boolean };
  tests?: { passed: boolean };
  [field: string]: unknown;
}

export interface CheckpointFile {
  id: string;
  phase: string;
  sequence: number;
  state: {
    /** The run's stage (issue 41): working, complete, halted… */
    stage?: string;
    loop: {
      iteration: number;
      slices: number;
      history: HistoryRecord[];
      currentCycle?: unknown;
      [field: string]: unknown;
    };
  };
}

export interface CheckpointDir {
  checkpoints: CheckpointFile[];
  /** Names of the temporary files of interrupted atomic writes. */
  temps: string[];
  /** Anything else: must never appear. */
  others: string[];
}

/** Reads the checkpoints directory; every `<name>.json` must parse (a throw here is a corrupt checkpoint). */
export function readCheckpointDir(dir: string): CheckpointDir {
  const out: CheckpointDir = { checkpoints: [], temps: [], others: [] };
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir).sort()) {
    if (name.startsWith('.') && name.endsWith('.tmp')) out.temps.push(name);
    else if (!name.startsWith('.') && name.endsWith('.json')) {
      const text = readFileSync(path.join(dir, name), 'utf8');
      try {
        out.checkpoints.push(JSON.parse(text) as CheckpointFile);
      } catch (error) {
        throw new Error(
          `checkpoint ${name} does not parse (${(error as Error).message}); it holds ${text.length} characters`,
        );
      }
    } else out.others.push(name);
  }
  return out;
}

/** The one checkpoint in the directory (this test's runs share one id), or undefined before the first write. */
export function readOnlyCheckpoint(dir: string): CheckpointFile | undefined {
  const { checkpoints } = readCheckpointDir(dir);
  if (checkpoints.length > 1)
    throw new Error(`expected at most one checkpoint in ${dir}, found ${checkpoints.map((c) => c.id).join(', ')}`);
  return checkpoints[0];
}

export interface StatusJson {
  stateDir: string;
  resumable: string | null;
  checkpoints: {
    id: string;
    phase: string;
    stage: string | null;
    writtenAs: string | null;
    timestamp: string;
    resumable: boolean;
    loop: { iteration: number | null; issuesClosed: string[] | null } | null;
  }[];
  invalid: { path: string; reason: string }[];
}

export function runStatus(ws: Workspace): { code: number | null; stderr: string; json: StatusJson } {
  const r = spawnSync(process.execPath, [CLI, 'status', '--json'], {
    cwd: ws.work,
    env: ws.env,
    encoding: 'utf8',
    timeout: 20_000,
  });
  const last = r.stdout.trim().split('\n').pop() ?? '';
  let json: StatusJson;
  try {
    json = JSON.parse(last) as StatusJson;
  } catch {
    throw new Error(
      `agent-loop status --json printed no JSON (exit ${r.status}): ${r.stdout.slice(-300)} ${r.stderr.slice(-300)}`,
    );
  }
  return { code: r.status, stderr: r.stderr, json };
}

/** The marks log as `[kind, iteration, detail]` lines: agent-start, agent-end, tests-start, tests-end. */
export function readMarks(ws: Workspace): { kind: string; n: number; detail: string }[] {
  return readFileSync(path.join(ws.marks, 'log'), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const [kind = '', n = '', detail = ''] = line.split(' ');
      return { kind, n: Number(n), detail };
    });
}
