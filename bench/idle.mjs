// An idle scheduled run (issue 14, target < 10 s in the action): the bundled action's main then
// post, as the runner runs them (inputs as INPUT_* variables, main's saved state handed to post),
// over a backlog with no labelled issue (source github, against the GitHub REST stand-in), on a
// fresh runner whose cache and artifact emulators hold the state an earlier run published, so the
// restore is included. Measured: the runner time of both steps, the GitHub API requests, the
// cache/artifact service calls, and whether anything was uploaded.
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { sliceRepo } from './githubCalls.mjs';
import { actionStep as step, fileCommands, loadBundled, round, stats, tempDir, verdict } from './lib/common.mjs';

export const IDLE_TARGET_MS = 10_000;
const RUNS = 5;

/** One workflow run on a fresh runner (the state directory gone): main, then post; its wall time. */
async function workflowRun(ctx, runId) {
  const { dir, repo, env: baseEnv, services } = ctx;
  rmSync(path.join(dir, 'tmp', 'agent-loop'), { recursive: true, force: true });
  const files = {
    GITHUB_OUTPUT: path.join(dir, `out-${runId}`),
    GITHUB_STATE: path.join(dir, `state-${runId}`),
    GITHUB_STEP_SUMMARY: path.join(dir, `summary-${runId}`),
  };
  for (const f of Object.values(files)) writeFileSync(f, '');
  const runEnv = services.env({ runId, attempt: 1 });
  const env = {
    ...baseEnv,
    ...runEnv,
    ...files,
    HOME: dir,
    GITHUB_WORKSPACE: repo,
    RUNNER_TEMP: path.join(dir, 'tmp'),
    INPUT_AGENT: 'command',
    'INPUT_AGENT-COMMAND': `sh ${JSON.stringify(path.join(dir, 'agent.sh'))}`,
    'INPUT_TEST-COMMAND': 'sh check.sh',
    'INPUT_ITERATION-DELAY': '0',
    'INPUT_GITHUB-TOKEN': runEnv.GITHUB_TOKEN,
  };
  const t0 = performance.now();
  const main = await step('main', env, repo);
  const state = fileCommands(files.GITHUB_STATE);
  const post = await step(
    'post',
    { ...env, ...Object.fromEntries(Object.entries(state).map(([k, v]) => [`STATE_${k}`, v])) },
    repo,
  );
  const ms = performance.now() - t0;
  if (main.code !== 0 || post.code !== 0)
    throw new Error(
      `run ${runId} failed (main ${main.code}, post ${post.code}):\n${main.log.slice(-2000)}${post.log.slice(-1000)}`,
    );
  return { ms, outputs: fileCommands(files.GITHUB_OUTPUT), main, post };
}

export async function benchIdle() {
  const { startGitHubServer, startActionsServices } = await loadBundled('bench/idle-entry.ts', 'build/bench-idle');
  const dir = tempDir('idle');
  const { repo, origin, env } = sliceRepo(dir);
  const servicesOptions = {};
  const services = await startActionsServices(servicesOptions);
  const gh = await startGitHubServer({
    owner: services.repository.split('/')[0],
    repo: services.repository.split('/')[1],
    token: services.githubToken,
    gitDir: origin,
  });
  servicesOptions.restFallback = gh.url;
  const ctx = { dir, repo, env, services };
  try {
    // The earlier run: one issue worked into a pull request, its state published; then merged and closed.
    gh.addIssue({ title: 'Make the value good', labels: ['agent-loop'] });
    const earlier = await workflowRun(ctx, 1);
    if (earlier.outputs.status !== 'complete')
      throw new Error(`the earlier run did not complete:\n${earlier.main.log.slice(-2000)}`);
    gh.updateIssue(1, { state: 'closed' });
    const checkpointId = earlier.outputs['checkpoint-id'];

    const samples = [];
    for (let i = 0; i < RUNS; i++) {
      const requests = gh.requests.length;
      const calls = services.calls().length;
      const r = await workflowRun(ctx, 100 + i);
      if (
        r.outputs.status !== 'complete' ||
        r.outputs['checkpoint-id'] !== checkpointId ||
        !/restored/i.test(r.main.log)
      )
        throw new Error(
          `idle run ${i} did not restore and report checkpoint ${checkpointId}:\n${r.main.log.slice(-2000)}`,
        );
      const serviceCalls = services.calls().slice(calls);
      samples.push({
        ms: r.ms,
        github: gh.requests.length - requests,
        githubByKind: gh.requests
          .slice(requests)
          .map((q) => `${q.method} ${q.path.replace(/^\/repos\/[^/]+\/[^/]+/, '')} ${q.status}`),
        // The artifact listing is a GitHub REST call the emulator answers itself.
        artifactRest: serviceCalls.filter((c) => c.path.startsWith('/repos/')).length,
        storage: serviceCalls.filter((c) => !c.path.startsWith('/repos/') || c.path.includes('/actions/')),
        uploads: serviceCalls.filter((c) => c.method === 'PUT' || /CreateCacheEntry|CreateArtifact/.test(c.path))
          .length,
      });
    }
    const t = stats(samples.map((s) => s.ms));
    const last = samples.at(-1);
    const storageKinds = last.storage.map(
      (c) =>
        `${c.method} ${c.path
          .replace(/^\/twirp\/github\.actions\.results\.api\.v1\./, '')
          .replace(/^\/repos\/[^/]+\/[^/]+/, '')
          .replace(/\/devstoreaccount1\/.*/, ' (blob)')}`,
    );
    const uploads = Math.max(...samples.map((s) => s.uploads));
    return {
      rows: [
        [
          'idle run',
          `main + post, ${RUNS} runs, no labelled issue, state restored from the cache`,
          'runner time of the action (both steps, node start to exit, restore included)',
          `median ${round(t.median / 1000, 2)} s, max ${round(t.max / 1000, 2)} s`,
          `< ${IDLE_TARGET_MS / 1000} s`,
          verdict(t.max < IDLE_TARGET_MS),
        ],
        [
          'idle run',
          'the same',
          'GitHub API requests (issues; the artifact listing counted below)',
          `${last.github}`,
          'the listing only',
          verdict(last.github <= 1),
        ],
        [
          'idle run',
          'the same',
          'cache and artifact calls (restore in main; post publishes nothing)',
          `${last.storage.length}: ${storageKinds.join(', ')}`,
          '–',
          '–',
        ],
        ['idle run', 'the same', 'uploads (cache entries, artifacts)', `${uploads}`, '0', verdict(uploads === 0)],
      ],
      notes: [
        `idle run: GitHub requests ${last.githubByKind.join(', ')}; the state restored is the earlier run's (checkpoint ${checkpointId}), reported unchanged; no agent is installed or started.`,
      ],
      data: {
        medianMs: round(t.median, 0),
        maxMs: round(t.max, 0),
        githubRequests: last.github,
        storageCalls: last.storage.length,
        storage: storageKinds,
        uploads,
      },
    };
  } finally {
    await gh.close();
    await services.close();
  }
}
