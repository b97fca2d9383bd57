// `run --parallel N` (issue 16): wall time to finish 40 issues with N = 1, 2, 4, 8 worktrees on this
// machine, and the speed-up against N = 1 (the serial loop, measured in the same run). The agent is
// a script that waits a fixed time per issue (as a real agent mostly waits on its model), then
// writes one file of its own and says it is done; the test command is a one-line TAP suite. Target:
// a speed-up of at least 0.8 × N while N is within the machine's cores (the agent waits, but each
// job is also a Node process, a worktree, a test run and a merge).
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { cliEnv, round, tempDir, verdict } from './lib/common.mjs';

export const ISSUES = 40;
export const AGENT_SECONDS = Number(process.env.BENCH_PARALLEL_AGENT_SECONDS ?? 2);
export const WIDTHS = (process.env.BENCH_PARALLEL_N ?? '1,2,4,8').split(',').map(Number);

const REPORT = `cat <<'EOF'
Done.
\`\`\`yaml
work_remaining: 0
requires_continuation: false
stuck_detected: false
summary: wrote my file
\`\`\`
EOF
`;

/** A beads repository with `ISSUES` independent open issues, a passing one-test suite and the agent beside it. */
function makeRepo(dir) {
  const repo = path.join(dir, 'repo');
  mkdirSync(path.join(repo, '.beads'), { recursive: true });
  const lines = Array.from({ length: ISSUES }, (_, i) =>
    JSON.stringify({
      id: `bd-${i + 1}`,
      title: `Write file ${i + 1}`,
      description: 'Write your own file.',
      status: 'open',
      priority: 1,
      issue_type: 'task',
      created_at: `2026-11-01T09:${String(Math.floor(i / 60)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}Z`,
      updated_at: '2026-11-01T09:00:00Z',
    }),
  );
  writeFileSync(path.join(repo, '.beads', 'issues.jsonl'), `${lines.join('\n')}\n`);
  writeFileSync(path.join(repo, 'check.sh'), 'echo "TAP version 13"\necho "ok 1 - fine"\necho "1..1"\n');
  const env = cliEnv(repo, { git: true });
  const git = (...args) => {
    const r = spawnSync('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@example.invalid', ...args], {
      cwd: repo,
      env,
      encoding: 'utf8',
    });
    if (r.status !== 0) throw new Error(`git ${args.join(' ')} failed: ${r.stderr}`);
    return r.stdout.trim();
  };
  git('init', '-q', '-b', 'main');
  git('config', 'user.name', 'bench');
  git('config', 'user.email', 'bench@example.invalid');
  git('add', '-A');
  git('commit', '-q', '-m', `bench: ${ISSUES} independent issues`);
  const agent = path.join(dir, 'agent.sh');
  writeFileSync(
    agent,
    `#!/bin/sh\necho "$AGENT_LOOP_ISSUE_IDS" >> '${path.join(dir, 'invocations')}'\nsleep ${AGENT_SECONDS}\necho "$AGENT_LOOP_ISSUE_IDS" > "file-$AGENT_LOOP_ISSUE_IDS.txt"\n${REPORT}`,
  );
  return { repo, agent, env, git };
}

/** One run to the end with --parallel n: its wall time, agent invocations and waves; fails unless every issue is closed on main. */
function runOnce(cli, n) {
  const dir = tempDir(`parallel-${n}`);
  const { repo, agent, env, git } = makeRepo(dir);
  const args = [
    cli,
    'run',
    '--json',
    '--agent',
    'command',
    '--agent-command',
    `sh ${agent}`,
    '--iteration-delay',
    '0',
    '--test-command',
    'sh check.sh',
    '--issues-file',
    './.beads/issues.jsonl',
    '--parallel',
    String(n),
  ];
  const t0 = performance.now();
  const child = spawn(process.execPath, args, { cwd: repo, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (c) => (out += c));
  child.stderr.on('data', (c) => (err += c));
  return new Promise((resolve, reject) =>
    child.on('close', (code) => {
      const ms = performance.now() - t0;
      let result;
      try {
        result = JSON.parse(out.trim().split('\n').at(-1) ?? '');
      } catch {
        return reject(new Error(`--parallel ${n}: no result (exit ${code}): ${err.slice(-500)}`));
      }
      const closedOnMain = git('show', 'main:.beads/issues.jsonl')
        .split('\n')
        .filter((l) => JSON.parse(l).status === 'closed').length;
      if (code !== 0 || result.status !== 'complete' || closedOnMain !== ISSUES)
        return reject(
          new Error(
            `--parallel ${n}: exit ${code}, ${result.status}, ${closedOnMain} closed on main: ${err.slice(-500)}`,
          ),
        );
      const invocations = readFileSync(path.join(dir, 'invocations'), 'utf8').trim().split('\n').length;
      resolve({ n, ms, invocations, waves: result.waves ?? null });
    }),
  );
}

export async function benchParallel({ cli }) {
  const cores = os.cpus().length;
  const runs = [];
  for (const n of WIDTHS) {
    process.stderr.write(`bench: parallel N=${n} …\n`);
    runs.push(await runOnce(cli, n));
  }
  const base = runs.find((r) => r.n === 1) ?? runs[0];
  const rows = runs.map((r) => {
    const speedUp = base.ms / r.ms;
    const targeted = r.n > 1 && r.n <= cores;
    return [
      'parallel',
      `${ISSUES} issues, agent ${AGENT_SECONDS} s each, --parallel ${r.n}${r.n === 1 ? ' (the serial loop)' : ''}`,
      'wall time; speed-up against N = 1; agent invocations; waves',
      `${round(r.ms / 1000, 1)} s; ×${round(speedUp, 2)}; ${r.invocations}; ${r.waves ?? '–'}`,
      targeted ? `≥ ×${round(0.8 * r.n, 1)} (N within ${cores} cores)` : '–',
      targeted ? verdict(speedUp >= 0.8 * r.n) : '–',
    ];
  });
  return {
    rows,
    notes: [
      `parallel: ${ISSUES} independent beads issues, a scripted agent that waits ${AGENT_SECONDS} s then writes its own file; every run closed all ${ISSUES} on main (checked in main's issue file). The floor is ${ISSUES} × ${AGENT_SECONDS} s / N; the rest is each job's own cost (a Node process, a worktree, a baseline and a final test run, a merge) and the wave barrier (a wave waits for its slowest job). This machine has ${cores} cores.`,
    ],
    data: Object.fromEntries(
      runs.map((r) => [
        `n${r.n}`,
        {
          seconds: round(r.ms / 1000, 2),
          speedUp: round(base.ms / r.ms, 2),
          invocations: r.invocations,
          waves: r.waves,
        },
      ]),
    ),
  };
}
