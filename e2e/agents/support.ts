/**
 * Shared helpers for the end-to-end tests that drive the real Claude Code and Codex CLIs
 * (npm run test:e2e): the sandbox with the agent CLIs on PATH, agent-loop's arguments for each
 * agent, scripts keyed by the loop's iteration, and a /proc scan for processes a test started.
 */
import { existsSync, promises as fs, readFileSync, readdirSync, readlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  CLI,
  type CliResult,
  type Sandbox,
  TEST_COMMAND,
  createSandbox,
  issue,
  processGone,
  runCli,
} from '../helpers.js';

export const TITLE = 'Make the value good';
export const oneIssue = () => [issue('bd-1', TITLE)];

/** Where scripts/install-agent-clis.mjs puts claude and codex (npm run test:e2e sets AGENT_LOOP_E2E_BIN to it). */
export const AGENT_BIN =
  process.env.AGENT_LOOP_E2E_BIN ??
  path.resolve(
    path.dirname(fileURLToPath(import.meta.url)),
    '..',
    '..',
    '.cache',
    'agent-clis',
    'node_modules',
    '.bin',
  );

/**
 * Runs `body` with a fresh sandbox (its root is the temporary HOME: Claude Code keeps its sessions
 * and config under it; `<root>/tmp` is TMPDIR) whose PATH starts with the pinned agent CLIs;
 * always removes it afterwards.
 */
export async function withAgentSandbox(body: (sb: Sandbox) => Promise<void>, beads = oneIssue()): Promise<void> {
  const sb = await createSandbox(beads);
  sb.env.PATH = `${AGENT_BIN}${path.delimiter}${sb.env.PATH ?? ''}`;
  // Claude Code keeps background task output and its cwd files under TMPDIR: keep them in the sandbox.
  sb.env.TMPDIR = path.join(sb.root, 'tmp');
  await fs.mkdir(sb.env.TMPDIR);
  try {
    await body(sb);
  } finally {
    await sb.cleanup();
  }
}

/** The options every run shares: JSON, no delay, the sandbox's test, the beads file used directly. */
const COMMON = [
  'run',
  '--json',
  '--iteration-delay',
  '0',
  '--test-command',
  TEST_COMMAND,
  '--issues-file',
  './.beads/issues.jsonl',
];

/** `agent-loop run` with Claude Code (acceptEdits: we run as root, where bypassPermissions is refused). */
export function claudeArgs(...extra: string[]): string[] {
  return [
    ...COMMON,
    '--agent',
    'claude',
    '--agent-permission-mode',
    'acceptEdits',
    '--agent-allowed-tools',
    'Bash Write Edit Read',
    ...extra,
  ];
}

/** `agent-loop run` with the Codex CLI. */
export function codexArgs(...extra: string[]): string[] {
  return [...COMMON, '--agent', 'codex', '--agent-sandbox', 'workspace-write', ...extra];
}

/**
 * The built CLI, copied once per test file: `node scripts/bundle.mjs` (run by `npm test` too)
 * deletes dist/cli before rebuilding it, so a bundle started while this suite runs would otherwise
 * pull the CLI away from under a test. The bundle is one file (plus its package.json).
 */
let snapshot: Promise<{ dir: string; cli: string }> | undefined;

function cliSnapshot(): Promise<{ dir: string; cli: string }> {
  snapshot ??= (async () => {
    if (!existsSync(CLI)) throw new Error(`${CLI} is missing: build it with \`node scripts/bundle.mjs\``);
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'agent-loop-e2e-cli-'));
    await fs.copyFile(path.join(path.dirname(CLI), 'package.json'), path.join(dir, 'package.json'));
    await fs.copyFile(CLI, path.join(dir, 'index.js'));
    return { dir, cli: path.join(dir, 'index.js') };
  })();
  return snapshot;
}

/** Removes this file's copy of the CLI (call from afterAll). */
export async function removeCliSnapshot(): Promise<void> {
  const taken = snapshot;
  snapshot = undefined;
  const dir = await taken?.then(
    (s) => s.dir,
    () => undefined,
  );
  if (dir) await fs.rm(dir, { recursive: true, force: true });
}

/** Runs the built CLI (this file's copy) in the sandbox's repository with `env` over the sandbox's environment. */
export async function runLoop(sb: Sandbox, args: string[], env: Record<string, string>): Promise<CliResult> {
  return runCli(sb, args, { env, cli: (await cliSnapshot()).cli });
}

/** The report block an agent ends its final message with. */
export function report(workRemaining: string, requiresContinuation: boolean, summary = 'worked on it'): string {
  return [
    '```yaml',
    `work_remaining: ${workRemaining}`,
    `requires_continuation: ${requiresContinuation}`,
    'stuck_detected: false',
    `summary: ${summary}`,
    '```',
  ].join('\n');
}

const ITERATION = /\(iteration (\d+) of at most \d+\)/g;

/** The loop iteration whose prompt a request carries (the last one: a resumed session carries several). */
export function iterationIn(text: string): number | undefined {
  const all = [...text.matchAll(ITERATION)];
  const last = all[all.length - 1];
  return last ? Number(last[1]) : undefined;
}

/** agent.output lines (the compact tool-call and message lines the adapters print). */
export function outputLines(events: Array<Record<string, unknown>>): string[] {
  return events.filter((e) => e.event === 'agent.output').map((e) => String(e.line));
}

export interface SandboxProcess {
  pid: number;
  ppid: number;
  /** Process group and session: what a kill of the agent's process group reaches. */
  pgrp: number;
  sid: number;
  comm: string;
  state: string;
  cmdline: string;
}

/**
 * Live processes (not zombies) whose working directory is under `dir` or whose environment names
 * `dir` (HOME, CODEX_HOME…): what a test's agent-loop, claude/codex and their tools look like.
 * Processes that vanish while being read are skipped.
 */
export function processesUnder(dir: string): SandboxProcess[] {
  const found: SandboxProcess[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // "pid (comm) state ppid pgrp session …": the fields follow the last ')', since comm may contain anything.
      const [state = '?', ppid = '0', pgrp = '0', sid = '0'] = stat
        .slice(stat.lastIndexOf(')') + 1)
        .trim()
        .split(/\s+/);
      if (state === 'Z' || state === 'X') continue;
      let cwd = '';
      try {
        cwd = readlinkSync(`/proc/${name}/cwd`);
      } catch {
        // no access or gone: rely on the environment
      }
      const environ = readFileSync(`/proc/${name}/environ`, 'utf8');
      if (!(cwd === dir || cwd.startsWith(`${dir}/`) || environ.split('\0').some((v) => v.includes(dir)))) continue;
      found.push({
        pid: Number(name),
        ppid: Number(ppid),
        pgrp: Number(pgrp),
        sid: Number(sid),
        state,
        comm: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')),
        cmdline: readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0').join(' ').trim(),
      });
    } catch {
      // the process ended while we looked
    }
  }
  return found;
}

/**
 * The processes an agent-loop run had started, told apart by whether agent-loop's kill of the
 * agent's process group reaches them: `group` is the agent and what shares its process group;
 * `outside` is what the agent put into a process group or session of its own.
 */
export function agentProcesses(during: SandboxProcess[]): { group: SandboxProcess[]; outside: SandboxProcess[] } {
  const loop = during.find((p) => p.comm === 'node' && /index\.js run /.test(p.cmdline));
  const agent = loop ? during.find((p) => p.ppid === loop.pid) : undefined;
  if (!loop || !agent) throw new Error(`no agent-loop process with an agent child among ${JSON.stringify(during)}`);
  const rest = during.filter((p) => p !== loop);
  return { group: rest.filter((p) => p.pgrp === agent.pgrp), outside: rest.filter((p) => p.pgrp !== agent.pgrp) };
}

/**
 * Waits (bounded) until none of the processes is alive; returns those still alive at the deadline.
 * Polls /proc: orphans are reparented to a PID 1 that does not reap them, so they end as zombies
 * and cannot be waited for like children.
 */
export async function survivorsAfter<T extends { pid: number }>(processes: T[], ms: number): Promise<T[]> {
  const deadline = Date.now() + ms;
  for (;;) {
    const alive = processes.filter((p) => !processGone(p.pid));
    if (alive.length === 0 || Date.now() >= deadline) return alive;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Kills what a failed test left behind (only processes of that test's own sandbox). */
export function killAll(processes: SandboxProcess[]): void {
  for (const p of processes) {
    try {
      process.kill(p.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}
