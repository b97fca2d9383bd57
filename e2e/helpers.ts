/**
 * Helpers for the integration tests: temporary git repositories with a beads file, scripted
 * command agents, and the built CLI (dist/cli/index.js) run as a child process.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, promises as fs, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RunResult } from '../src/core/result.js';

export const CLI = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'cli', 'index.js');

export interface Sandbox {
  /** The temporary directory: scripted agents and their notes live here, outside the repository. */
  root: string;
  /** The git repository (root/repo) the CLI runs in. */
  repo: string;
  /** Environment for the CLI and git: no user or system git config, no AGENT_LOOP_* from outside. */
  env: NodeJS.ProcessEnv;
  cleanup(): Promise<void>;
}

export interface IssueLine {
  id: string;
  title: string;
  status?: string;
  [field: string]: unknown;
}

/** One open beads issue as beads writes it. */
export function issue(id: string, title: string, extra: Record<string, unknown> = {}): IssueLine {
  return {
    id,
    title,
    description: `${title}: value_is_good in check.sh fails`,
    status: 'open',
    priority: 1,
    issue_type: 'bug',
    created_at: '2026-11-01T09:00:00Z',
    updated_at: '2026-11-01T09:00:00Z',
    ...extra,
  };
}

/**
 * The repository's test, value_is_good (in TAP, so it is read per test): value.txt must read
 * "good". On failure it prints a recognisable line, which the loop must hand to the next iteration
 * as context. Issues name the test, so it is their target.
 */
export function valueCheckScript(error: string, afterFailure: string): string {
  return `#!/bin/sh
v=$(cat value.txt)
echo "TAP version 13"
if [ "$v" = good ]; then echo "ok 1 - value_is_good"; echo "1..1"; echo "check: ok"; exit 0; fi
echo "not ok 1 - value_is_good"
echo "  ---"
echo "  error: ${error}"
echo "  ..."
echo "1..1"
${afterFailure}
exit 1
`;
}
export const CHECK_SCRIPT = valueCheckScript(
  "value.txt is '$v', expected 'good'",
  `echo "ASSERTION FAILED: value.txt is '$v', expected 'good'"`,
);
export const TEST_COMMAND = 'sh check.sh';

/**
 * A temporary directory holding a git repository on `main` with one commit: check.sh, value.txt
 * ("bad": the test fails) and `.beads/issues.jsonl` (the given lines, or raw text).
 */
export async function createSandbox(
  beads: IssueLine[] | string = [issue('bd-1', 'Make the value good')],
): Promise<Sandbox> {
  // The real path: the CLI sees process.cwd() resolved, and its messages name paths under it.
  const root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'agent-loop-e2e-')));
  const repo = path.join(root, 'repo');
  await fs.mkdir(path.join(repo, '.beads'), { recursive: true });
  await fs.writeFile(path.join(repo, 'check.sh'), CHECK_SCRIPT);
  await fs.writeFile(path.join(repo, 'value.txt'), 'bad\n');
  const text = typeof beads === 'string' ? beads : beads.map((line) => JSON.stringify(line)).join('\n') + '\n';
  await fs.writeFile(path.join(repo, '.beads', 'issues.jsonl'), text);
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: root,
    LANG: 'C',
    TMPDIR: os.tmpdir(),
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
  };
  const sandbox: Sandbox = {
    root,
    repo,
    env,
    cleanup: () => fs.rm(root, { recursive: true, force: true }),
  };
  git(sandbox, 'init', '-q', '-b', 'main');
  git(sandbox, 'add', '-A');
  commit(sandbox, 'initial: value is bad');
  return sandbox;
}

/**
 * Commits what is staged (`tracked`: every change to a tracked file, `git commit -a`) as the test
 * setup (`e2e`) or as a person working beside the loop (`person`); the sandbox has no identity.
 */
export function commit(
  sandbox: Sandbox,
  message: string,
  options: { tracked?: boolean; by?: 'e2e' | 'person' } = {},
): void {
  const by = options.by ?? 'e2e';
  git(
    sandbox,
    '-c',
    `user.name=${by}`,
    '-c',
    `user.email=${by}@example.invalid`,
    'commit',
    '-q',
    options.tracked ? '-am' : '-m',
    message,
  );
}

/** Runs git in the sandbox's repository; returns stdout without trailing whitespace (leading kept: porcelain), throws on failure. */
export function git(sandbox: Sandbox, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd: sandbox.repo,
    env: sandbox.env,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  }).trimEnd();
}

/** Whether the (bare) repository at `gitDir` has the branch. */
export function hasBranch(gitDir: string, branch: string): boolean {
  try {
    execFileSync('git', ['--git-dir', gitDir, 'rev-parse', '--verify', '--quiet', `refs/heads/${branch}`], {
      stdio: 'ignore',
    });
    return true;
  } catch {
    return false;
  }
}

/**
 * Writes a scripted agent (a /bin/sh script) into the sandbox root, outside the repository, and
 * returns the --agent-command that runs it. `$NOTES` in the script is the sandbox root, where the
 * agent may leave files for the test to read (prompts, pids).
 */
export async function writeAgent(sandbox: Sandbox, name: string, body: string): Promise<string> {
  const file = path.join(sandbox.root, `${name}.sh`);
  await fs.writeFile(file, `#!/bin/sh\nNOTES=${shellQuote(sandbox.root)}\n${body}`);
  return `sh ${shellQuote(file)}`;
}

/** A report block saying the work is done. */
export const DONE_REPORT = `cat <<'EOF'
Done.
\`\`\`yaml
work_remaining: 0
requires_continuation: false
stuck_detected: false
summary: made the value good
\`\`\`
EOF
`;

export function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs the built CLI in the sandbox's repository (or `cwd`) and waits for it to exit. */
export function runCli(
  sandbox: Sandbox,
  args: string[],
  opts: { env?: NodeJS.ProcessEnv; cwd?: string; cli?: string } = {},
): Promise<CliResult> {
  const cli = opts.cli ?? CLI;
  if (!existsSync(cli)) throw new Error(`${cli} is missing: build it with \`node scripts/bundle.mjs\``);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args], {
      cwd: opts.cwd ?? sandbox.repo,
      env: { ...sandbox.env, ...opts.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      resolve({
        code,
        signal,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
      });
    });
  });
}

/** `run --json` with the scripted agent, no delay, and nothing else: the test command and the issues are the run's to find. */
export function bareRunArgs(agentCommand: string, ...extra: string[]): string[] {
  return ['run', '--json', '--agent', 'command', '--agent-command', agentCommand, '--iteration-delay', '0', ...extra];
}

/**
 * `agent-loop run --json` with the scripted agent: the beads file named explicitly (so the file
 * source is used even where `bd` is installed), no delay between iterations.
 */
export function runArgs(agentCommand: string, ...extra: string[]): string[] {
  return agentArgs(['command', '--agent-command', agentCommand], extra);
}

/** `run --json --agent claude` with the sandbox's test command and beads file, no delay. */
export function claudeArgs(...extra: string[]): string[] {
  return agentArgs(['claude'], extra);
}

/** `run --json` of a command agent with `--workflow tdd`, the sandbox's TDD suite (run-tests.sh) and beads file, no delay. */
export function tddRunArgs(agentCommand: string): string[] {
  return [
    'run',
    '--json',
    '--agent',
    'command',
    '--agent-command',
    agentCommand,
    '--workflow',
    'tdd',
    '--iteration-delay',
    '0',
    '--test-command',
    'sh run-tests.sh',
    '--issues-file',
    './.beads/issues.jsonl',
  ];
}

function agentArgs(agent: string[], extra: string[]): string[] {
  return [
    'run',
    '--json',
    '--agent',
    ...agent,
    '--iteration-delay',
    '0',
    '--test-command',
    TEST_COMMAND,
    '--issues-file',
    './.beads/issues.jsonl',
    ...extra,
  ];
}

/** The run result the CLI prints last with --json: the engine's own type. */
export type RunResultJson = RunResult;

export interface LogEvent {
  event: string;
  level?: string;
  message?: string;
  [field: string]: unknown;
}

/** Every NDJSON line of stdout, parsed; throws naming the line that is not JSON. */
export function ndjson(stdout: string): unknown[] {
  return stdout
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line, i) => {
      try {
        return JSON.parse(line) as unknown;
      } catch {
        throw new Error(`stdout line ${i + 1} is not JSON: ${line}`);
      }
    });
}

/** The run result: the last NDJSON line. */
export function lastResult(stdout: string): RunResultJson {
  const lines = ndjson(stdout);
  const last = lines[lines.length - 1];
  if (typeof last !== 'object' || last === null || !('status' in last)) {
    throw new Error(`the last stdout line is not a run result:\n${stdout.slice(-2000)}`);
  }
  return last as RunResultJson;
}

/** The log events (every NDJSON line but the result). */
export function events(stdout: string): LogEvent[] {
  return ndjson(stdout).slice(0, -1) as LogEvent[];
}

/** A checkpoint file as written by the store. */
export interface CheckpointJson {
  id: string;
  phase: string;
  timestamp: string;
  sequence: number;
  state: { stage?: string; loop?: { iteration: number; history: Array<{ n: number }>; [k: string]: unknown } };
  errors?: string[];
}

/** A checkpoint's seed 001 phase and the run's stage beside it (issue 41). */
export function phaseAndStage(cp: CheckpointJson): [string, string | undefined] {
  return [cp.phase, cp.state.stage];
}

export function checkpointPath(sandbox: Sandbox, id: string): string {
  return path.join(sandbox.repo, '.git', 'agent-loop', 'checkpoints', `${id}.json`);
}

export function readCheckpoint(sandbox: Sandbox, id: string): CheckpointJson {
  return JSON.parse(readFileSync(checkpointPath(sandbox, id), 'utf8')) as CheckpointJson;
}

/** The beads file's lines, parsed (the malformed ones as undefined). */
export function readIssues(sandbox: Sandbox): Array<Record<string, unknown> | undefined> {
  return readFileSync(path.join(sandbox.repo, '.beads', 'issues.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => {
      try {
        return JSON.parse(line) as Record<string, unknown>;
      } catch {
        return undefined;
      }
    });
}

/** A person's change to issue `id` in the beads file as it is checked out (not committed). */
export async function changeIssue(
  sandbox: Sandbox,
  id: string,
  change: (line: Record<string, unknown>) => void,
): Promise<void> {
  const file = path.join(sandbox.repo, '.beads', 'issues.jsonl');
  const lines = readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  for (const line of lines) if (line.id === id) change(line);
  await fs.writeFile(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
}

/** Describes a CLI run for failure messages. */
export function explain(r: CliResult): string {
  return `exit ${r.code}${r.signal ? ` (${r.signal})` : ''}\n--- stdout (tail)\n${r.stdout.slice(-3000)}\n--- stderr\n${r.stderr.slice(-3000)}`;
}

/**
 * Whether a process is gone: kill(pid, 0) fails with ESRCH, or it is a zombie / dead in
 * /proc/<pid>/stat (where PID 1 does not reap orphans, a killed process may stay a zombie).
 */
export function processGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return true;
    throw error;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (comm) S ...": the state follows the last ')', since comm may contain anything.
    const state = stat
      .slice(stat.lastIndexOf(')') + 1)
      .trim()
      .split(/\s+/)[0];
    return state === 'Z' || state === 'X';
  } catch {
    return true;
  }
}

/** Fails with the run's output when the exit code is not `code`. */
export function expectExit(r: CliResult, code: number): void {
  if (r.code !== code) throw new Error(`expected exit code ${code}, got ${explain(r)}`);
}

/** A TDD suite's runner: every tests/*.sh is a test case named for its file; the report goes to reports/junit.xml. */
const JUNIT_RUNNER = `#!/bin/sh
# Every tests/*.sh is a test case; the report goes to reports/junit.xml.
mkdir -p reports
cases=''; failures=0; total=0
for t in tests/*.sh; do
  [ -e "$t" ] || continue
  total=$((total + 1)); name=$(basename "$t" .sh)
  if out=$(sh "$t" 2>&1); then cases="$cases<testcase classname=\\"calc\\" name=\\"$name\\" time=\\"0.01\\"/>"
  else failures=$((failures + 1)); cases="$cases<testcase classname=\\"calc\\" name=\\"$name\\" time=\\"0.01\\"><failure message=\\"$out\\" type=\\"AssertionError\\">$out &amp; more</failure></testcase>"; fi
done
printf '<?xml version="1.0" encoding="UTF-8"?>\\n<testsuites tests="%s" failures="%s"><testsuite name="calc" tests="%s" failures="%s">%s</testsuite></testsuites>\\n' "$total" "$failures" "$total" "$failures" "$cases" > reports/junit.xml
echo "$failures of $total failed"
[ "$failures" = 0 ]
`;

/** A sandbox with one issue ("adds"), the runner above, no test yet and calc.sh answering 0, committed. */
export async function calcSandbox(): Promise<Sandbox> {
  const sb = await createSandbox([issue('bd-1', 'Calculator', { description: '- [ ] adds' })]);
  await fs.writeFile(path.join(sb.repo, 'run-tests.sh'), JUNIT_RUNNER);
  await fs.writeFile(path.join(sb.repo, '.gitignore'), 'reports/\n');
  await fs.mkdir(path.join(sb.repo, 'tests'));
  await fs.writeFile(path.join(sb.repo, 'calc.sh'), '#!/bin/sh\necho 0\n');
  git(sb, 'add', '-A');
  commit(sb, 'calc answers 0');
  return sb;
}

export { PYTHON } from './support/python.js';
