// The action's start-up: time from starting dist/main/index.js (as the runner does, inputs as
// INPUT_* variables) to the first agent spawn, against actions that install their runtime at every
// run. The agent records the moment it starts; the slice is one iteration. Outside a runner there
// is no cache service, so this is the engine's own start: module load, inputs, git, checkpoint.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { gitInit, repoRoot, round, stats, tempDir, verdict, writeIssues } from './lib/common.mjs';

export const START_TARGET_MS = 300;
const RUNS = 15;

export async function benchActionStart() {
  const main = path.join(repoRoot, 'dist', 'main', 'index.js');
  const samples = [];
  for (let i = 0; i < RUNS; i++) {
    const dir = tempDir('action-start');
    const issuesFile = writeIssues(dir);
    gitInit(dir);
    // The runner's own files, outside the checkout (which must be clean to start), and the bare origin
    // source beads pushes each finished cycle onto (on-success: merge).
    const runner = tempDir('action-start-runner');
    const origin = path.join(runner, 'origin.git');
    spawnSync('git', ['init', '-q', '--bare', '-b', 'main', origin]);
    spawnSync('git', ['remote', 'add', 'origin', origin], { cwd: dir });
    spawnSync('git', ['push', '-q', 'origin', 'main'], { cwd: dir });
    const mark = path.join(runner, 'agent-started');
    // The agent (a shell: about a millisecond to start) writes the wall-clock time it started, in ns.
    writeFileSync(path.join(runner, 'agent.sh'), `date +%s%N > ${JSON.stringify(mark)}\n`);
    const env = {
      PATH: process.env.PATH,
      HOME: dir,
      RUNNER_TEMP: runner,
      GITHUB_WORKSPACE: dir,
      GITHUB_OUTPUT: path.join(runner, 'out'),
      GITHUB_STEP_SUMMARY: path.join(runner, 'summary'),
      GITHUB_REPOSITORY: 'bench/action-start',
      INPUT_SOURCE: 'beads',
      'INPUT_ON-SUCCESS': 'merge',
      'INPUT_GITHUB-TOKEN': 'ghs_bench000000000000000000000000000000',
      INPUT_AGENT: 'command',
      'INPUT_AGENT-COMMAND': `sh ${JSON.stringify(path.join(runner, 'agent.sh'))}`,
      'INPUT_ISSUES-FILE': issuesFile,
      'INPUT_TEST-COMMAND': 'true',
      'INPUT_ITERATION-DELAY': '0',
      'INPUT_SLICE-ITERATIONS': '1',
    };
    writeFileSync(env.GITHUB_OUTPUT, '');
    writeFileSync(env.GITHUB_STEP_SUMMARY, '');
    const started = performance.timeOrigin + performance.now();
    const r = spawnSync(process.execPath, [main], { cwd: dir, env, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`dist/main failed: ${r.stdout}${r.stderr}`);
    samples.push(Number(readFileSync(mark, 'utf8')) / 1e6 - started);
  }
  const s = stats(samples);
  return {
    rows: [
      [
        'action start',
        `dist/main, ${RUNS} runs`,
        'from starting dist/main/index.js to the agent process running (node start, bundle load, inputs, git, checkpoint, agent spawn); no cache service outside a runner',
        `median ${round(s.median, 0)} ms, p95 ${round(s.p95, 0)} ms`,
        `< ${START_TARGET_MS} ms`,
        verdict(s.median < START_TARGET_MS),
      ],
    ],
    notes: [
      `action start: the agent is a one-line shell script (its start is about a millisecond of the figure); on a runner, restoring the checkpoint from the cache comes on top (one archive download).`,
    ],
    data: { medianMs: round(s.median, 1), p95Ms: round(s.p95, 1) },
  };
}
