/**
 * The bundled action's main and post steps across runs, as the runner runs them, with the real
 * @actions/cache and @actions/artifact clients against the local emulator of the Actions services:
 * three scheduled runs continue one loop (the state directory is gone between runs, as on a fresh
 * runner), the second restoring from the cache, the third (cache entry evicted) from the artifact.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { execFileSync, spawn } from 'node:child_process';
import { promises as fs, readFileSync } from 'node:fs';
import path from 'node:path';
import { DIST, parseFileCommands, runStep, workflowRun as run } from './actionRunner.js';
import { DONE_REPORT, type Sandbox, createSandbox, git, issue, writeAgent } from './helpers.js';
import { type ActionsServices, startActionsServices } from './support/actionsServices.js';

let services: ActionsServices;
let sb: Sandbox;
beforeEach(async () => {
  services = await startActionsServices();
  sb = await createSandbox([issue('bd-1', 'Make the value good')]);
  // Where source beads pushes finished cycles (on-success: merge): a bare origin.
  const origin = path.join(sb.root, 'origin.git');
  execFileSync('git', ['init', '-q', '--bare', '-b', 'main', origin], { env: sb.env });
  git(sb, 'remote', 'add', 'origin', origin);
  git(sb, 'push', '-q', 'origin', 'main');
});
afterEach(async () => {
  await services.close();
  await sb.cleanup();
});

/** One workflow run on a fresh runner, with this suite's inputs. */
async function workflowRun(runId: number, agent: string) {
  const runEnv = services.env({ runId, attempt: 1 });
  const inputs = {
    INPUT_SOURCE: 'beads',
    INPUT_AGENT: 'command',
    'INPUT_AGENT-COMMAND': agent,
    'INPUT_ITERATION-DELAY': '0',
    'INPUT_TEST-COMMAND': 'sh check.sh',
    'INPUT_ISSUES-FILE': './.beads/issues.jsonl',
    'INPUT_ON-SUCCESS': 'merge',
    'INPUT_SLICE-ITERATIONS': '1',
    INPUT_LABEL: 'agent-loop',
    'INPUT_GITHUB-TOKEN': runEnv.GITHUB_TOKEN ?? '',
  };
  const env: NodeJS.ProcessEnv = { ...sb.env, ...runEnv, ...inputs, RUNNER_TEMP: path.join(sb.root, 'tmp') };
  await fs.mkdir(env.RUNNER_TEMP as string, { recursive: true });
  return run({ runId, repo: sb.repo, scratch: sb.root, env });
}

const step = (script: 'main' | 'post', env: NodeJS.ProcessEnv) => runStep(script, env, sb.repo);
/** The action's state directory on this (simulated) runner: under RUNNER_TEMP, outside the checkout. */
const stateDir = () => path.join(sb.root, 'tmp', 'agent-loop');

/** A run's main step on a fresh runner; its post step is left to the test (postEnv). */
async function startRun(runId: number, agent: string) {
  await fs.rm(stateDir(), { recursive: true, force: true });
  const files = {
    GITHUB_OUTPUT: path.join(sb.root, `o${runId}`),
    GITHUB_STATE: path.join(sb.root, `s${runId}`),
    GITHUB_STEP_SUMMARY: path.join(sb.root, `m${runId}`),
  };
  for (const f of Object.values(files)) await fs.writeFile(f, '');
  const runEnv = services.env({ runId, attempt: 1 });
  const env: NodeJS.ProcessEnv = {
    ...sb.env,
    ...runEnv,
    ...files,
    GITHUB_WORKSPACE: sb.repo,
    RUNNER_TEMP: path.join(sb.root, 'tmp'),
    INPUT_SOURCE: 'beads',
    INPUT_AGENT: 'command',
    'INPUT_AGENT-COMMAND': agent,
    'INPUT_ITERATION-DELAY': '0',
    'INPUT_SLICE-ITERATIONS': '1',
    'INPUT_TEST-COMMAND': 'sh check.sh',
    'INPUT_ISSUES-FILE': './.beads/issues.jsonl',
    'INPUT_ON-SUCCESS': 'merge',
    'INPUT_GITHUB-TOKEN': runEnv.GITHUB_TOKEN ?? '',
  };
  const main = await step('main', env);
  const state = parseFileCommands(readFileSync(files.GITHUB_STATE, 'utf8'));
  return {
    main,
    postEnv: { ...env, ...Object.fromEntries(Object.entries(state).map(([k, v]) => [`STATE_${k}`, v])) },
    state,
  };
}

describe('the action across workflow runs', () => {
  it('three runs continue one loop: restored from the cache, then (evicted) from the artifact; post publishes each', async () => {
    const agent = await writeAgent(
      sb,
      'third-time',
      `if [ "$AGENT_LOOP_ITERATION" -ge 3 ]; then
  echo good > value.txt
  ${DONE_REPORT}
else
  echo "still working (iteration $AGENT_LOOP_ITERATION)"
fi
`,
    );
    const r1 = await workflowRun(101, agent);
    expect(r1.main.code).toBe(0);
    expect(r1.main.log).toContain('agent-loop: ');
    expect(r1.outputs).toMatchObject({ status: 'continuing', iterations: '1' });
    expect(r1.post.code).toBe(0);
    expect(r1.post.log).toMatch(/published generation 1/);
    const id = r1.outputs['checkpoint-id'];
    expect(services.caches().map((c) => c.key)).toEqual([expect.stringMatching(/^agent-loop-.*-101-1$/)]);

    const r2 = await workflowRun(102, agent);
    expect(r2.main.log).toMatch(/restored .*cache/i);
    expect(r2.outputs).toMatchObject({
      status: 'continuing',
      iterations: '1',
      'loop-iterations': '2',
      'checkpoint-id': id,
    });
    expect(r2.post.log).toMatch(/published generation 2/);

    services.evictCache();
    const r3 = await workflowRun(103, agent);
    expect(r3.main.log).toMatch(/restored .*artifact/i);
    expect(r3.outputs).toMatchObject({
      status: 'complete',
      iterations: '1',
      'loop-iterations': '3',
      'issues-closed': 'bd-1',
      'checkpoint-id': id,
    });
    expect(r3.post.log).toMatch(/published generation 3/);
  });

  it('SIGINT mid-iteration: main writes the checkpoint within 5 s and ends; post publishes it; the next run resumes', async () => {
    const agent = await writeAgent(
      sb,
      'slow-then-fix',
      `if [ "$AGENT_LOOP_ITERATION" -ge 3 ]; then
  echo good > value.txt
  ${DONE_REPORT}
elif [ "$AGENT_LOOP_ITERATION" = 2 ] && [ ! -f "$NOTES/blocked-once" ]; then
  : > "$NOTES/blocked-once"
  echo $$ > "$NOTES/agent.pid"
  exec sleep 300
else
  echo "iteration $AGENT_LOOP_ITERATION"
fi
`,
    );
    // Run 1: iteration 1 is recorded, then iteration 2 blocks and the runner cancels the job.
    await fs.rm(stateDir(), { recursive: true, force: true });
    const files = {
      GITHUB_OUTPUT: path.join(sb.root, 'o'),
      GITHUB_STATE: path.join(sb.root, 's'),
      GITHUB_STEP_SUMMARY: path.join(sb.root, 'm'),
    };
    for (const f of Object.values(files)) await fs.writeFile(f, '');
    const runEnv = services.env({ runId: 301, attempt: 1 });
    const env: NodeJS.ProcessEnv = {
      ...sb.env,
      ...runEnv,
      ...files,
      GITHUB_WORKSPACE: sb.repo,
      RUNNER_TEMP: path.join(sb.root, 'tmp'),
      INPUT_SOURCE: 'beads',
      INPUT_AGENT: 'command',
      'INPUT_AGENT-COMMAND': agent,
      'INPUT_ITERATION-DELAY': '0',
      'INPUT_TEST-COMMAND': 'sh check.sh',
      'INPUT_ISSUES-FILE': './.beads/issues.jsonl',
      'INPUT_ON-SUCCESS': 'merge',
      'INPUT_GITHUB-TOKEN': runEnv.GITHUB_TOKEN ?? '',
    };
    const child = spawn(process.execPath, [path.join(DIST, 'main', 'index.js')], {
      cwd: sb.repo,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let mainLog = '';
    child.stdout.on('data', (c: Buffer) => {
      mainLog += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      mainLog += c.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    const pidFile = path.join(sb.root, 'agent.pid');
    for (let i = 0; i < 1000; i++) {
      try {
        await fs.access(pidFile);
        break;
      } catch {
        await new Promise((r) => setTimeout(r, 10));
      }
    }
    const signalled = Date.now();
    child.kill('SIGINT');
    const exitTimer = setTimeout(() => {
      process.stderr.write(`main did not end:\n${mainLog}\n`);
      child.kill('SIGKILL');
    }, 8000);
    await exited;
    clearTimeout(exitTimer);
    expect(Date.now() - signalled).toBeLessThan(5000);
    const outputs = parseFileCommands(readFileSync(files.GITHUB_OUTPUT, 'utf8'));
    expect(outputs).toMatchObject({ status: 'continuing', iterations: '1' });

    const state = parseFileCommands(readFileSync(files.GITHUB_STATE, 'utf8'));
    const post = await step('post', {
      ...env,
      ...Object.fromEntries(Object.entries(state).map(([k, v]) => [`STATE_${k}`, v])),
    });
    expect(post.log).toMatch(/published generation 1/);

    // The next scheduled run resumes the same checkpoint at iteration 2 and finishes.
    const r2 = await workflowRun(302, agent);
    expect(r2.outputs).toMatchObject({
      'checkpoint-id': outputs['checkpoint-id'],
      iterations: '1',
      'loop-iterations': '2',
      status: 'continuing',
    });
  }, 60_000);

  it('a corrupt cached checkpoint is a warning, skipped for the artifact; the loop goes on with its counters', async () => {
    const agent = await writeAgent(sb, 'busy', 'echo "still working"');
    const r1 = await workflowRun(801, agent);
    expect(r1.outputs).toMatchObject({ status: 'continuing', iterations: '1' });
    const [entry] = services.caches();
    services.corruptCache(entry!.key, (archive) =>
      Buffer.concat([archive.subarray(0, 64), Buffer.from('garbage, not zstd or gzip')]),
    );

    const r2 = await workflowRun(802, agent);
    expect(r2.main.code).toBe(0);
    expect(r2.main.log).toMatch(
      /::warning::Cache entry agent-loop-.*-801-1 is not usable: the archive could not be downloaded or extracted/,
    );
    expect(r2.main.log).toMatch(/restored .*artifact/i);
    expect(r2.outputs).toMatchObject({
      status: 'continuing',
      iterations: '1',
      'loop-iterations': '2',
      'checkpoint-id': r1.outputs['checkpoint-id'],
    });
  });

  it('an incompatible checkpoint in the restored state is skipped with a warning, never a crash', async () => {
    const agent = await writeAgent(sb, 'busy', 'echo "still working"');
    const { postEnv } = await startRun(811, agent);
    // What run 811 publishes holds a checkpoint from a later version of agent-loop.
    const dir = path.join(stateDir(), 'checkpoints');
    const [name] = (await fs.readdir(dir)).filter((f) => f.endsWith('.json'));
    await fs.writeFile(
      path.join(dir, name as string),
      JSON.stringify({ version: 99, id: name?.replace('.json', ''), phase: 'from-the-future' }),
    );
    expect((await step('post', postEnv)).log).toMatch(/published generation 1/);

    git(sb, 'checkout', '-q', 'main'); // a fresh runner's checkout
    const r = await workflowRun(812, agent);
    expect(r.main.code).toBe(0);
    expect(r.main.log).toMatch(/restored .*cache/i);
    expect(r.main.log).toMatch(/::warning::Skipped checkpoint .*\.json: phase "from-the-future" is not/);
    expect(r.outputs).toMatchObject({ status: 'continuing', iterations: '1' });
    expect(r.outputs['checkpoint-id']).not.toBe(name?.replace('.json', ''));
  });

  it('two runs racing: the one that restored an older generation refuses to publish over the newer one, and warns', async () => {
    const agent = await writeAgent(sb, 'busy', 'echo "still working"');
    await workflowRun(901, agent); // generation 1
    // Runs 902 and 903 both restore generation 1; 903 publishes first.
    const a = await startRun(902, agent);
    const aDir = path.join(sb.root, 'state-902');
    await fs.cp(stateDir(), aDir, { recursive: true }); // each run has its own runner
    const b = await startRun(903, agent);
    expect(a.state.generation).toBe('1');
    expect(b.state.generation).toBe('1');
    expect((await step('post', b.postEnv)).log).toMatch(/published generation 2/);
    await fs.rm(stateDir(), { recursive: true, force: true });
    await fs.cp(aDir, stateDir(), { recursive: true });
    const late = await step('post', a.postEnv);
    expect(late.code).toBe(0);
    expect(late.log).toMatch(/::warning::.*generation 2.*newer/i);
    expect(services.caches().map((c) => c.key)).not.toContainEqual(expect.stringMatching(/-902-1$/));
  });

  it('with neither a cache entry nor an artifact the first run starts fresh with a notice, not a warning (issue 40)', async () => {
    const agent = await writeAgent(sb, 'busy', 'echo "still working"');
    const r = await workflowRun(201, agent);
    expect(r.main.log).toMatch(
      /::notice::No saved state to restore \(no cache entry agent-loop-.*\*; no artifact agent-loop-checkpoint-.*\); starting fresh\./,
    );
    expect(r.main.log).not.toMatch(/::warning::No saved state/);
    expect(r.outputs).toMatchObject({ status: 'continuing', iterations: '1' });
  });
});
