// Fan-out (issue 16) simulated as the runner runs it: the reusable workflow's plan, work and reduce
// jobs as processes (the bundled dist/main then dist/post, each job a fresh runner with its own clone
// and RUNNER_TEMP), the work jobs of a wave at the same time, against the GitHub REST stand-in and the
// Actions cache and artifact emulator. A backlog of 12 labelled issues, each fixed by a scripted agent
// that takes a fixed time; parallel 1 is today's single job working them one after another (the
// baseline), 2, 4 and 8 run waves until none is left. Measured: wall time, speed-up, jobs run, and the
// GitHub API calls per wave (the stand-in counts every request, by job kind).
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { sliceRepo } from './githubCalls.mjs';
import { actionStep as step, fileCommands, loadBundled, round, tempDir } from './lib/common.mjs';

const OUT = path.join('build', 'bench-matrix');
const ISSUES = 12;
const AGENT_SECONDS = 3;
const PARALLEL = [1, 2, 4, 8];

async function oneBacklog(stand, parallel) {
  const dir = tempDir(`matrix-${parallel}`);
  const { repo, origin, env: base } = sliceRepo(dir);
  writeFileSync(
    path.join(dir, 'agent.sh'),
    `sleep ${AGENT_SECONDS}\necho good > value.txt\nprintf 'Done.\\n\`\`\`yaml\\nwork_remaining: 0\\nrequires_continuation: false\\n\`\`\`\\n'\n`,
  );
  const options = {};
  const services = await stand.startActionsServices(options);
  const [owner, name] = services.repository.split('/');
  const gh = await stand.startGitHubServer({ owner, repo: name, token: services.githubToken, gitDir: origin });
  options.restFallback = gh.url;
  gh.addIssues(ISSUES, (i) => ({ title: `Issue ${i + 1}`, labels: ['agent-loop'] }));
  const runners = new Map();
  /** A runner's checkout: a clone of origin (the first is the repository itself). */
  const checkout = (k) => {
    if (k === 0) return repo;
    if (!runners.has(k)) {
      const dest = path.join(dir, `runner-${k}`);
      const r = spawnSync('git', ['clone', '-q', origin, dest], { env: base, encoding: 'utf8' });
      if (r.status !== 0) throw new Error(`git clone failed: ${r.stderr}`);
      runners.set(k, dest);
    }
    return runners.get(k);
  };
  let jobs = 0;
  const job = async (tag, runId, inputs, k) => {
    jobs++;
    const cwd = checkout(k);
    spawnSync('git', ['checkout', '-q', 'main'], { cwd, env: base });
    const temp = path.join(dir, `tmp-${k}`);
    mkdirSync(temp, { recursive: true });
    const files = Object.fromEntries(
      ['GITHUB_OUTPUT', 'GITHUB_STATE', 'GITHUB_STEP_SUMMARY'].map((f) => [f, path.join(dir, `${f}-${tag}`)]),
    );
    for (const f of Object.values(files)) writeFileSync(f, '');
    const env = {
      ...base,
      ...services.env({ runId, attempt: 1 }),
      ...files,
      HOME: dir,
      RUNNER_TEMP: temp,
      GITHUB_WORKSPACE: cwd,
      no_proxy: 'github.localhost',
      NO_PROXY: 'github.localhost',
      'INPUT_GITHUB-TOKEN': services.githubToken,
      INPUT_AGENT: 'command',
      'INPUT_AGENT-COMMAND': `sh ${JSON.stringify(path.join(dir, 'agent.sh'))}`,
      'INPUT_TEST-COMMAND': 'sh check.sh',
      'INPUT_ITERATION-DELAY': '0',
      ...Object.fromEntries(Object.entries(inputs).map(([n, v]) => [`INPUT_${n.toUpperCase()}`, v])),
    };
    const main = await step('main', env, cwd);
    const state = fileCommands(files.GITHUB_STATE);
    const post = await step(
      'post',
      { ...env, ...Object.fromEntries(Object.entries(state).map(([n, v]) => [`STATE_${n}`, v])) },
      cwd,
    );
    const outputs = fileCommands(files.GITHUB_OUTPUT);
    if (main.code !== 0)
      throw new Error(`${tag}: exit ${main.code}\n${main.log.slice(-3000)}\n${post.log.slice(-1000)}`);
    return outputs;
  };
  const since = (mark) => gh.requests.length - mark;
  const waves = [];
  const t0 = performance.now();
  try {
    if (parallel === 1) {
      const mark = gh.requests.length;
      const out = await job('single', 1000, {}, 0);
      if (out['issues-closed'].split(',').length !== ISSUES)
        throw new Error(`the single job closed ${out['issues-closed']}`);
      waves.push({ issues: ISSUES, plan: 0, work: since(mark), reduce: 0 });
    } else {
      for (let runId = 1000; ; runId++) {
        let mark = gh.requests.length;
        const plan = await job(`plan-${runId}`, runId, { 'fan-out': 'plan', parallel: String(parallel) }, 0);
        const planned = since(mark);
        if (Number(plan.jobs) === 0) break;
        const issues = JSON.parse(plan.matrix).include.map((m) => m.issue);
        mark = gh.requests.length;
        await Promise.all(
          issues.map((issue, k) =>
            job(`work-${runId}-${issue}`, runId, { 'fan-out': 'work', issue, wave: plan.wave }, k + 1),
          ),
        );
        const worked = since(mark);
        mark = gh.requests.length;
        const reduce = await job(`reduce-${runId}`, runId, { 'fan-out': 'reduce', wave: plan.wave }, 0);
        waves.push({
          issues: issues.length,
          plan: planned,
          work: worked,
          reduce: since(mark),
          iterations: Number(reduce.iterations),
        });
      }
      if (waves.at(-1)?.iterations !== ISSUES)
        throw new Error(`the waves ran ${waves.at(-1)?.iterations} iterations, not ${ISSUES}`);
    }
    const seconds = (performance.now() - t0) / 1000;
    return { parallel, seconds, jobs, waves, requests: gh.requests.length, pulls: gh.pulls().length };
  } finally {
    await gh.close();
    await services.close();
  }
}

export async function benchMatrix() {
  const stand = await loadBundled('bench/matrix-entry.ts', OUT);
  const runs = [];
  for (const n of PARALLEL) runs.push(await oneBacklog(stand, n));
  const baseline = runs[0].seconds;
  const rows = runs.map((r) => {
    const waves = r.waves.length;
    const perWave = r.waves.map((w) => w.plan + w.work + w.reduce);
    const mean = perWave.reduce((a, b) => a + b, 0) / waves;
    return [
      'matrix',
      r.parallel === 1
        ? `parallel 1 (the single job), ${ISSUES} issues`
        : `parallel ${r.parallel}, ${ISSUES} issues, ${waves} waves`,
      `wall time (agent ${AGENT_SECONDS} s per issue); jobs; GitHub API requests per wave (plan + work + reduce)`,
      `${r.seconds.toFixed(1)} s, ×${(baseline / r.seconds).toFixed(2)}; ${r.jobs} job(s); ${r.parallel === 1 ? `${r.requests} requests in all` : `${mean.toFixed(0)} per wave (${r.waves.map((w) => `${w.plan}+${w.work}+${w.reduce}`).join(', ')}), ${r.requests} in all`}`,
      'information',
      '–',
    ];
  });
  return {
    rows,
    notes: [
      `matrix: each job is a fresh runner (the bundled main and post as processes, a clone of origin, its own RUNNER_TEMP), against the GitHub REST stand-in and the Actions cache and artifact emulator; ${ISSUES} issues, each fixed by a scripted agent in ${AGENT_SECONDS} s; the requests per wave exclude the cache and artifact services' own protocol (the stand-in counts GitHub's REST API only; the artifact listing, when the cache misses, goes through it).`,
    ],
    data: {
      issues: ISSUES,
      agentSeconds: AGENT_SECONDS,
      runs: runs.map((r) => ({ ...r, seconds: round(r.seconds, 1), speedup: round(baseline / r.seconds, 2) })),
    },
  };
}
