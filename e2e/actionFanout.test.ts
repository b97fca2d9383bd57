/**
 * Fan-out (issue 16), the GitHub Actions half: the reusable workflow's plan → work → reduce jobs as
 * the runner runs them, each job a fresh runner running the bundled action's main then post (the
 * work jobs of a wave at the same time, each on its own clone), against the GitHub REST stand-in and
 * the Actions cache and artifact emulator (the real @actions/cache and @actions/artifact clients).
 * All the jobs of one workflow run share its run id, as on GitHub.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, promises as fs, readFileSync } from 'node:fs';
import path from 'node:path';
import { DIST, parseFileCommands, runStep } from './actionRunner.js';
import { waitFor } from './crashHelpers.js';
import { DONE_REPORT, type Sandbox, git, writeAgent } from './helpers.js';
import { type GitHubRig, LABEL, startGitHubRig } from './githubRig.js';
import type { GitHubServer } from './support/githubServer.js';
import type { RecordedCall } from './support/actionsServices.js';
import { startDiscordServer } from './support/discordServer.js';
import { cacheArchiveFiles, unzip } from './support/unpack.js';
import type { LoopState } from '../src/core/state.js';

let rig: GitHubRig;
let gh: GitHubServer;
let sb: Sandbox;

beforeEach(async () => {
  rig = await startGitHubRig();
  ({ gh, sb } = rig);
});
afterEach(async () => {
  await rig.close();
});

interface JobRun {
  code: number | null;
  log: string;
  outputs: Record<string, string>;
  summary: string;
  stateDir: string;
  /** The Actions services' requests (cache, artifacts, blobs, artifact REST) while its main and post ran. */
  calls: RecordedCall[];
}

/** A runner of its own: a clone of the repository (RUNNER_TEMP and the state directory its own too). */
function runner(name: string): string {
  const dir = path.join(sb.root, name);
  if (!existsSync(dir)) {
    execFileSync('git', ['clone', '-q', sb.repo, dir], { env: sb.env });
    git({ ...sb, repo: dir }, 'remote', 'set-url', 'origin', rig.remote.url);
  }
  return dir;
}

/** One job of a workflow run: the action's main, then its post with what main saved (unless `kill` stops main first). */
async function job(
  tag: string,
  runId: number,
  agent: string,
  inputs: Record<string, string>,
  checkout: string,
  kill?: { when: () => boolean; agentPid: () => number },
  extraEnv: NodeJS.ProcessEnv = {},
): Promise<JobRun> {
  const env = await rig.runnerEnv(runId, agent, inputs, extraEnv, checkout);
  const files = Object.fromEntries(
    ['GITHUB_OUTPUT', 'GITHUB_STATE', 'GITHUB_STEP_SUMMARY'].map((k) => [k, path.join(sb.root, `${k}-${tag}`)]),
  );
  for (const f of Object.values(files)) await fs.writeFile(f, '');
  const stepEnv = { ...env, ...files, GITHUB_WORKSPACE: checkout };
  const since = rig.services.calls().length;
  let main: { code: number | null; log: string };
  if (kill) {
    // SIGKILLed mid-cycle: no post step, nothing published.
    const child = spawn(process.execPath, [path.join(DIST, 'main', 'index.js')], {
      cwd: checkout,
      env: stepEnv,
      stdio: 'ignore',
    });
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    await waitFor('the agent run to kill', kill.when, { timeoutMs: 60_000 });
    child.kill('SIGKILL');
    await exited;
    process.kill(kill.agentPid(), 'SIGKILL');
    main = { code: null, log: '' };
  } else {
    main = await runStep('main', stepEnv, checkout);
    const state = parseFileCommands(readFileSync(files.GITHUB_STATE!, 'utf8'));
    const post = await runStep(
      'post',
      { ...stepEnv, ...Object.fromEntries(Object.entries(state).map(([k, v]) => [`STATE_${k}`, v])) },
      checkout,
    );
    main = { code: main.code, log: `${main.log}\n--- post ---\n${post.log}` };
  }
  return {
    ...main,
    outputs: parseFileCommands(readFileSync(files.GITHUB_OUTPUT!, 'utf8')),
    summary: readFileSync(files.GITHUB_STEP_SUMMARY!, 'utf8'),
    stateDir: path.join(env.RUNNER_TEMP as string, 'agent-loop'),
    calls: rig.services.calls().slice(since),
  };
}

interface WaveRun {
  plan: JobRun;
  work: JobRun[];
  reduce?: JobRun;
  issues: string[];
}

/** One workflow run with parallel N: the plan job, its matrix's work jobs at once (each on its runner), then the reduce. */
async function workflowRun(
  runId: number,
  agent: string,
  parallel: number,
  inputs: Record<string, string> = {},
  kill?: { issue: string; when: () => boolean; agentPid: () => number },
  extraEnv: NodeJS.ProcessEnv = {},
): Promise<WaveRun> {
  const plan = await job(
    `plan-${runId}`,
    runId,
    agent,
    { ...inputs, 'fan-out': 'plan', parallel: String(parallel) },
    sb.repo,
    undefined,
    extraEnv,
  );
  expect(plan.code).toBe(0);
  const matrix = JSON.parse(plan.outputs.matrix ?? '{"include":[]}') as { include: { issue: string }[] };
  const issues = matrix.include.map((m) => m.issue);
  // As the reusable workflow: the reduce runs once there is a wave, also one with no job (a new halt).
  if (Number(plan.outputs.jobs) === 0 && !plan.outputs.wave) return { plan, work: [], issues };
  const wave = plan.outputs.wave ?? '';
  const work = await Promise.all(
    issues.map((issue, k) =>
      job(
        `work-${runId}-${issue}`,
        runId,
        agent,
        { ...inputs, 'fan-out': 'work', issue, wave },
        runner(`runner-${k + 1}`),
        kill?.issue === issue ? kill : undefined,
        extraEnv,
      ),
    ),
  );
  const reduce = await job(
    `reduce-${runId}`,
    runId,
    agent,
    { ...inputs, 'fan-out': 'reduce', wave },
    sb.repo,
    undefined,
    extraEnv,
  );
  return { plan, work, reduce, issues };
}

/** A pre-receive hook on origin refusing pushes of `branch` as GitHub refuses a token without write access; its path (remove it to lift). */
async function refusePushOf(branch: string): Promise<string> {
  const hook = path.join(rig.origin, 'hooks', 'pre-receive');
  await fs.writeFile(
    hook,
    [
      '#!/bin/sh',
      'while read old new ref; do',
      `  if [ "$ref" = refs/heads/${branch} ]; then`,
      "    echo 'Permission to o/r.git denied to github-actions[bot].' >&2",
      '    exit 1',
      '  fi',
      'done',
      '',
    ].join('\n'),
    { mode: 0o755 },
  );
  return hook;
}

/**
 * What a reduce job asked of GitHub's artifact REST endpoints (other runs' artifacts: the listing
 * `artifacts?name=…` and the download `artifacts/{id}/zip`), for the wave's partial states and for
 * the loop's own state, and where its log says each partial state came from. The requests are the
 * emulator's, recorded while the job's main and post ran (no other job runs beside a reduce).
 */
function reduceCalls(r: JobRun) {
  const prefix = `/repos/${rig.services.repository}/actions/`;
  const partial = (name: string) => name.startsWith('agent-loop-checkpoint-wave-');
  const names = new Map(rig.services.artifacts().map((a) => [String(a.id), a.name]));
  const requests = r.calls
    .filter((c) => c.path.startsWith(`${prefix}artifacts`))
    .map((c) => {
      const what = `${c.method} ${c.path.slice(prefix.length)}${c.query ? `?${c.query.replace(/&.*$/, '')}` : ''}`;
      const name =
        new URLSearchParams(c.query).get('name') ?? names.get(/artifacts\/(\d+)/.exec(c.path)?.[1] ?? '') ?? '';
      return { what, partial: partial(name) };
    });
  const from = (where: RegExp) =>
    [...r.log.matchAll(where)].map((m) => m[1] as string).sort((a, b) => Number(a) - Number(b));
  return {
    /** For the partial states: listings and downloads. */
    partialRequests: requests.filter((q) => q.partial).map((q) => q.what),
    /** For the loop's own state (its restore in main, the generation check in post). */
    loopRequests: requests.filter((q) => !q.partial).map((q) => q.what),
    partials: {
      fromCache: from(/Restored the state from cache entry agent-loop-wave-[^-]+-\d+-\d+-(\d+)-/g),
      fromArtifact: from(/Restored the state from artifact agent-loop-checkpoint-wave-[^-]+-\d+-\d+-(\d+)-/g),
    },
  };
}

/** The loop's checkpoint as the reduce published it. */
function checkpointOf(r: JobRun): LoopState {
  const id = r.outputs['checkpoint-id'];
  return JSON.parse(readFileSync(path.join(r.stateDir, 'checkpoints', `${id}.json`), 'utf8')).state.loop;
}

/** Agent runs per issue, from the scripted agent's own log. */
const runsPerIssue = () =>
  readFileSync(path.join(sb.root, 'worked'), 'utf8')
    .trim()
    .split('\n')
    .reduce<Record<string, number>>((n, id) => ({ ...n, [id]: (n[id] ?? 0) + 1 }), {});

/** The fix: the value made good, a file of the issue's own, and a report that says it is done. */
const FIX = ['echo good > value.txt', 'echo "fixed" > "fixed-$AGENT_LOOP_ISSUE_IDS.txt"', DONE_REPORT];

const fixer = () => writeAgent(sb, 'fixer', ['echo "$AGENT_LOOP_ISSUE_IDS" >> "$NOTES/worked"', ...FIX].join('\n'));

/**
 * An agent that, on `issue` while `more` holds (a shell test of its run number $n on the issue),
 * notes a step in progress-<issue>.txt and prints `report` (work remains); otherwise the fix.
 */
const partway = (name: string, issue: string, more: string, report: string) =>
  writeAgent(
    sb,
    name,
    [
      'echo "$AGENT_LOOP_ISSUE_IDS" >> "$NOTES/worked"',
      'n=$(grep -c "^$AGENT_LOOP_ISSUE_IDS$" "$NOTES/worked")',
      `if [ "$AGENT_LOOP_ISSUE_IDS" = ${issue} ] && ${more}; then`,
      `  echo "step $n" >> progress-${issue}.txt`,
      `  ${report}`,
      '  exit 0',
      'fi',
      ...FIX,
    ].join('\n'),
  );

describe('fan-out in the action: plan → work → reduce (issue 16)', () => {
  it('12 issues, parallel 4: three waves of four jobs, no issue worked twice, the checkpoint the sum of the jobs, one summary per wave', async () => {
    gh.addIssues(12, (i) => ({ title: `Make the value good, ${i + 1}`, labels: [LABEL] }));
    const agent = await fixer();

    const waves: WaveRun[] = [];
    for (const runId of [801, 802, 803]) waves.push(await workflowRun(runId, agent, 4));

    // Three waves of four, oldest issues first, none twice.
    expect(waves.map((w) => w.issues)).toEqual([
      ['1', '2', '3', '4'],
      ['5', '6', '7', '8'],
      ['9', '10', '11', '12'],
    ]);
    expect(runsPerIssue()).toEqual(Object.fromEntries(Array.from({ length: 12 }, (_, i) => [String(i + 1), 1])));
    // One pull request per issue; each issue released and labelled pr-open.
    expect(
      gh
        .pulls()
        .map((p) => p.pull?.head)
        .sort(),
    ).toEqual(Array.from({ length: 12 }, (_, i) => `agent-loop/issue-${i + 1}`).sort());
    for (let n = 1; n <= 12; n++) expect(gh.issue(n)?.labels).toEqual([LABEL, 'agent-loop:pr-open']);

    // Each work job: green, its own slice (its share: 100 iterations over 4 jobs, 25 each).
    for (const w of waves) {
      // Every partial state from its cache entry (saved on another runner): no artifact listed or downloaded for one.
      expect(reduceCalls(w.reduce!).partialRequests).toEqual([]);
      expect(reduceCalls(w.reduce!).partials).toEqual({ fromCache: w.issues, fromArtifact: [] });
      expect(w.plan.summary).toBe(''); // the wave's one summary is the reduce's
      for (const r of w.work) {
        expect([r.code, r.outputs.status, r.outputs.iterations]).toEqual([0, 'complete', '1']);
        expect(r.log).toMatch(/published generation 1 \(cache agent-loop-wave-/);
      }
      expect(w.reduce?.code).toBe(0);
    }
    expect(
      JSON.parse(waves[0]!.plan.outputs.wave!).jobs.map((j: { maxIterations: number }) => j.maxIterations),
    ).toEqual([25, 25, 25, 25]);

    // The first wave starts the loop's checkpoint; the later ones continue it (their reduce restores the state holding it).
    expect(waves.map((w) => (JSON.parse(w.plan.outputs.wave!) as { resumed: boolean }).resumed)).toEqual([
      false,
      true,
      true,
    ]);
    expect(new Set(waves.map((w) => w.reduce!.outputs['checkpoint-id'])).size).toBe(1);

    // The final checkpoint: every count the sum of the jobs' counts.
    const final = checkpointOf(waves[2]!.reduce!);
    const jobs = waves.flatMap((w) => w.work);
    const sum = (name: string) => jobs.reduce((n, r) => n + Number(r.outputs[name]), 0);
    expect(final.iteration).toBe(sum('iterations'));
    expect(final.iteration).toBe(12);
    expect(final.successfulIterations).toBe(sum('successful-iterations'));
    expect(final.failedIterations).toBe(sum('failed-iterations'));
    expect(final.costUsd).toBeCloseTo(sum('cost-usd'));
    expect([...final.issuesClosed].sort()).toEqual(Array.from({ length: 12 }, (_, i) => String(i + 1)).sort());
    expect(final.waves).toBe(3);
    expect(final.completedIterations).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    // Each wave's reduce added to the one before (generations 1, 2, 3 of the loop's state).
    expect(waves.map((w) => /published generation (\d+)/.exec(w.reduce!.log)?.[1])).toEqual(['1', '2', '3']);
    // Each reduce's outputs are its wave's (issue 40); the loop's totals are loop-….
    expect(waves.map((w) => w.reduce!.outputs.iterations)).toEqual(['4', '4', '4']);
    expect(waves.map((w) => w.reduce!.outputs['loop-iterations'])).toEqual(['4', '8', '12']);
    expect(waves.map((w) => w.reduce!.outputs['issues-closed']!.split(',').sort())).toEqual(
      waves.map((w) => [...w.issues].sort()),
    );
    expect(waves.map((w) => w.reduce!.outputs['pull-requests']!.split(',').length)).toEqual([4, 4, 4]);
    expect(waves[2]!.reduce!.outputs['loop-issues-closed']!.split(',')).toHaveLength(12);

    // One summary per wave: a row per issue and the jobs' gantt.
    waves.forEach((w, k) => {
      const s = w.reduce!.summary;
      expect(s).toContain(`## 🔀 agent-loop: wave ${k + 1}, 4 jobs in parallel`);
      expect(s.match(/^\| \[#\d+\]/gm)).toHaveLength(4);
      for (const issue of w.issues) expect(s).toMatch(new RegExp(`^\\| \\[#${issue}\\]\\(.*\\| done \\| 1 `, 'm'));
      expect(s).toContain('```mermaid\ngantt');
      expect(s.match(/^ {2}\d+ · closed : done, \d+, \d+ms$/gm)).toHaveLength(4);
    });

    // The last reduce run again (GitHub's "Re-run failed jobs"): its wave is in the checkpoint, nothing added twice.
    const again = await job(
      'reduce-803-again',
      803,
      agent,
      { 'fan-out': 'reduce', wave: waves[2]!.plan.outputs.wave! },
      sb.repo,
    );
    expect(again.code).toBe(0);
    expect(again.log).toContain('is in checkpoint');
    expect(again.log).toContain('nothing to publish: this wave was reduced into the checkpoint before');
    expect(again.outputs).toMatchObject({ iterations: '0', 'issues-closed': '', 'loop-iterations': '12' });

    // A fourth run: nothing left, no wave.
    const idle = await workflowRun(804, agent, 4);
    expect(idle.plan.outputs).toMatchObject({ jobs: '0', status: 'complete', matrix: '{"include":[]}' });
  }, 300_000);

  it('two runs plan at the same moment while a wave is in flight: they take other issues, never the same; each wave reduced into the one checkpoint', async () => {
    gh.addIssues(8, (i) => ({ title: `Make the value good, ${i + 1}`, labels: [LABEL] }));
    const agent = await fixer();
    const first = await workflowRun(831, agent, 2);
    expect(first.issues).toEqual(['1', '2']);

    // Runs 832 and 833 plan at once, on two runners, while each other's wave is unclaimed or in flight.
    const plans = await Promise.all(
      [832, 833].map((runId) =>
        job(`plan-${runId}`, runId, agent, { 'fan-out': 'plan', parallel: '2' }, runner(`planner-${runId}`)),
      ),
    );
    const picked = plans.map((p) =>
      (JSON.parse(p.outputs.matrix!) as { include: { issue: string }[] }).include.map((m) => m.issue),
    );
    const all = picked.flat();
    expect(new Set(all).size).toBe(all.length); // never the same issue in two waves
    // A plan that lost an issue to the other plans again without it: between them, the next four.
    expect([...all].sort()).toEqual(['3', '4', '5', '6']);
    expect(plans.map((p) => p.outputs['checkpoint-id'])).toEqual([
      first.reduce!.outputs['checkpoint-id'],
      first.reduce!.outputs['checkpoint-id'],
    ]);

    // Each run's wave: its work jobs, then its reduce (one reduce at a time, as the concurrency group has it).
    let last: JobRun | undefined;
    for (const [k, runId] of [832, 833].entries()) {
      const wave = plans[k]!.outputs.wave ?? '';
      if (picked[k]!.length === 0) continue;
      const work = await Promise.all(
        picked[k]!.map((issue, n) =>
          job(`work-${runId}-${issue}`, runId, agent, { 'fan-out': 'work', issue, wave }, runner(`runner-${n + 1}`)),
        ),
      );
      expect(work.map((w) => w.outputs['issues-closed'])).toEqual(picked[k]);
      last = await job(`reduce-${runId}`, runId, agent, { 'fan-out': 'reduce', wave }, sb.repo);
      expect(last.code).toBe(0);
    }
    const final = checkpointOf(last!);
    expect(final.iteration).toBe(2 + all.length);
    expect([...final.issuesClosed].sort()).toEqual(['1', '2', ...all].sort());
    expect(runsPerIssue()).toEqual(Object.fromEntries(['1', '2', ...all].map((id) => [id, 1])));
  }, 240_000);

  it('a work job killed mid-cycle: its row lost, its issue left alone while its lease lives, then picked up by a later wave and counted once', async () => {
    gh.addIssues(3, (i) => ({ title: `Make the value good, ${i + 1}`, labels: [LABEL] }));
    const hung = path.join(sb.root, 'hung');
    const agent = await writeAgent(
      sb,
      'hangs-once',
      [
        'echo "$AGENT_LOOP_ISSUE_IDS" >> "$NOTES/worked"',
        // Issue 1's first agent run makes progress, its second hangs (its job is killed); every other run fixes its issue.
        'if [ "$AGENT_LOOP_ISSUE_IDS" = 1 ] && [ ! -f "$NOTES/went-once" ]; then touch "$NOTES/went-once"; printf \'Partway.\\n```yaml\\nwork_remaining: 1\\nrequires_continuation: true\\nstuck_detected: false\\nsummary: half\\n```\\n\'; exit 0; fi',
        'if [ "$AGENT_LOOP_ISSUE_IDS" = 1 ] && [ ! -f "$NOTES/hung-once" ]; then touch "$NOTES/hung-once"; echo $$ > "$NOTES/hung"; exec sleep 60; fi',
        'echo good > value.txt',
        DONE_REPORT,
      ].join('\n'),
    );
    const kill = { issue: '1', when: () => existsSync(hung), agentPid: () => Number(readFileSync(hung, 'utf8')) };

    const first = await workflowRun(811, agent, 2, {}, kill);
    expect(first.issues).toEqual(['1', '2']);
    expect(first.reduce!.code).toBe(0);
    expect(first.reduce!.log).toContain('no partial state from the job on issue 1');
    expect(first.reduce!.summary).toMatch(/^\| \[#1\].*\| lost: the job died before it saved/m);
    // Issue 2's, and the killed job's one finished iteration, as its claim comment recorded it (never a lost count).
    expect(first.reduce!.outputs.iterations).toBe('2');
    expect(first.reduce!.log).toContain('its claim comment says it ran 1 iteration(s), counted');
    expect(first.reduce!.summary).toMatch(/^\| \[#1\].*\| lost: .* \| 1 \(from its claim comment\) \|/m);
    expect(gh.issue(1)?.labels).toContain('agent-loop:in-progress'); // its lease lives on

    // The next run, while the lease lives: issue 1 is left to it.
    const second = await workflowRun(812, agent, 2);
    expect(second.issues).toEqual(['3']);
    expect(second.plan.log).toContain('is left to the run whose live lease holds it');

    // After the lease expired (GitHub's clock): a later wave takes issue 1 over and finishes it.
    rig.githubAhead = 3 * 3_600_000;
    const third = await workflowRun(813, agent, 2);
    expect(third.issues).toEqual(['1']);
    expect(third.work[0]!.outputs).toMatchObject({ status: 'complete', 'issues-closed': '1' });

    const final = checkpointOf(third.reduce!);
    expect(final.iteration).toBe(4); // one per issue, and the killed job's finished one (its hung run never finished)
    expect([...final.issuesClosed].sort()).toEqual(['1', '2', '3']);
    expect(final.waves).toBe(3);
    expect(runsPerIssue()).toEqual({ 1: 3, 2: 1, 3: 1 }); // issue 1: its first run, the killed one, then the one that finished it
    expect(gh.pulls()).toHaveLength(3);
  }, 240_000);

  it('no iteration left with an issue ready: the plan hands the halt to the reduce, which records it and posts it once; the next run stays halted', async () => {
    for (let k = 1; k <= 3; k++) gh.addIssue({ title: `Issue ${k}`, labels: [LABEL] });
    const agent = await fixer();
    const discord = await startDiscordServer();
    const limits = { 'max-iterations': '2', 'discord-webhook': discord.url() };
    try {
      const first = await workflowRun(831, agent, 2, limits);
      expect(first.issues).toEqual(['1', '2']);
      expect(first.reduce!.code).toBe(0);
      expect(checkpointOf(first.reduce!).iteration).toBe(2);
      expect(checkpointOf(first.reduce!).halt).toBeUndefined();

      // Issue 3 is ready and no iteration is left: a halt, found by the plan before any job.
      const second = await workflowRun(832, agent, 2, limits);
      expect(second.plan.outputs).toMatchObject({ jobs: '0', status: 'halted', 'halt-reason': 'max_iterations' });
      expect(second.work).toEqual([]);
      expect(second.reduce!.code).toBe(1);
      expect(second.reduce!.outputs).toMatchObject({ status: 'halted', 'halt-reason': 'max_iterations' });
      expect(second.reduce!.summary).toContain('## 🛑 agent-loop halted (max_iterations) before a wave');
      expect(checkpointOf(second.reduce!)).toMatchObject({ iteration: 2, halt: { reason: 'max_iterations' } });
      expect(discord.received).toHaveLength(1);

      // The halt stands: no wave, no reduce, no second post, issue 3 never worked.
      const third = await workflowRun(833, agent, 2, limits);
      expect(third.plan.outputs).toMatchObject({ jobs: '0', wave: '', status: 'halted' });
      expect(third.reduce).toBeUndefined();
      expect(discord.received).toHaveLength(1);
      expect(runsPerIssue()['3']).toBeUndefined();
    } finally {
      await discord.close();
    }
  }, 240_000);

  it('two jobs of one wave escalate, none succeeds: the reduce halts failure_loop, posts to Discord once, and the next run stays halted', async () => {
    gh.addIssue({ title: 'Unfixable one', body: 'value_is_good fails', labels: [LABEL] });
    gh.addIssue({ title: 'Unfixable two', body: 'value_is_good fails', labels: [LABEL] });
    gh.addIssue({ title: 'Fixable later', labels: [LABEL] });
    const agent = await writeAgent(
      sb,
      'hopeless',
      ['echo "$AGENT_LOOP_ISSUE_IDS" >> "$NOTES/worked"', 'echo "try" >> attempts.txt', DONE_REPORT].join('\n'),
    );
    const discord = await startDiscordServer();
    const limits = {
      'max-retries-per-step': '1',
      'max-consecutive-escalations': '2',
      'discord-webhook': discord.url(),
    };

    const r = await workflowRun(821, agent, 2, limits).finally(() => discord.close());
    expect(r.issues).toEqual(['1', '2']);
    // Each job alone saw one escalation (under its limit), and its one issue is escalated: a halt of
    // the job's own (all_escalated), a warning, green; the reduce decides for the run.
    expect(r.work.map((w) => [w.code, w.outputs['issues-escalated'], w.outputs['halt-reason']])).toEqual([
      [0, '1', 'all_escalated'],
      [0, '2', 'all_escalated'],
    ]);
    expect(r.work[0]!.log).toMatch(/::warning::agent-loop: this job's slice ended \(all_escalated\)/);
    // The reduce sees two escalations in one wave with no success: a failure loop.
    expect(r.reduce!.code).toBe(1);
    expect(r.reduce!.outputs).toMatchObject({
      status: 'halted',
      'halt-reason': 'failure_loop',
      'issues-escalated': '1,2',
    });
    expect(r.reduce!.log).toMatch(
      /::error::agent-loop halted \(failure_loop\): FAILURE LOOP DETECTED: 2 consecutive escalations/,
    );
    expect(r.reduce!.summary).toContain('## 🛑 agent-loop: wave 1 halted (failure_loop)');
    expect(readFileSync(path.join(r.reduce!.stateDir, 'halt.md'), 'utf8')).toContain('FAILURE LOOP DETECTED');
    // One Discord post for the wave's halt, from the reduce; none from the work jobs.
    expect(discord.received).toHaveLength(1);
    expect(JSON.stringify(discord.received[0])).toContain('FAILURE LOOP');
    const loop = checkpointOf(r.reduce!);
    expect(loop).toMatchObject({ consecutiveEscalations: 2, totalEscalations: 2, halt: { reason: 'failure_loop' } });

    // The next run's plan sees the halt: no wave, issue 3 untouched.
    const next = await workflowRun(822, agent, 2, { ...limits, 'discord-webhook': '' });
    expect(next.plan.outputs).toMatchObject({ jobs: '0', status: 'halted', 'halt-reason': 'failure_loop' });
    expect(next.plan.log).toMatch(/::warning::agent-loop is still halted \(failure_loop\)/);
    expect(runsPerIssue()['3']).toBeUndefined();
  }, 240_000);

  it('a push GitHub refuses in a work job: the wave halts with the work kept (outbox and bundle); resumed, the next wave’s landing job lands it without the agent, and works on', async () => {
    gh.addIssues(3, (i) => ({ title: `Make the value good, ${i + 1}`, labels: [LABEL] }));
    const agent = await fixer();
    // GitHub refuses issue 2's branch: the token may not push it (until the maintainer fixes that).
    const hook = await refusePushOf('agent-loop/issue-2');

    const first = await workflowRun(861, agent, 2);
    expect(first.issues).toEqual(['1', '2']);
    expect(first.reduce?.outputs).toMatchObject({ status: 'halted', 'halt-reason': 'publish_refused' });
    const halted = checkpointOf(first.reduce!);
    expect(halted.outbox.map((e) => e.cycle.issueIds)).toEqual([['2']]);
    expect(halted.issuesClosed).toEqual(['1']);
    // The work is nowhere on GitHub: only the bundle in the loop's published state holds it.
    expect(gh.pulls().map((p) => p.pull?.head)).toEqual(['agent-loop/issue-1']);
    expect(existsSync(path.join(first.reduce!.stateDir, 'outbox', 'agent-loop-issue-2.bundle'))).toBe(true);

    // Not resumed: the halt stands, nothing runs.
    const stands = await workflowRun(862, agent, 2);
    expect(stands.plan.outputs).toMatchObject({ jobs: '0', status: 'halted', 'halt-reason': 'publish_refused' });

    // The maintainer fixes the permission and resumes: the wave lands issue 2's work (the agent does not run for it) and works issue 3.
    await fs.rm(hook);
    const resumed = await workflowRun(863, agent, 2, { resume: 'true' });
    expect(resumed.issues).toEqual(['outbox', '3']);
    const lander = resumed.work[0]!;
    expect(lander.code).toBe(0);
    expect(lander.log).toMatch(/landing 1 finished cycle\(s\) of earlier waves: 2 \(agent-loop\/issue-2\)/);
    expect(lander.log).toMatch(/Landing the work on 2 .*recorded by an earlier run/);
    expect(runsPerIssue()).toEqual({ '1': 1, '2': 1, '3': 1 });
    expect(
      gh
        .pulls()
        .map((p) => p.pull?.head)
        .sort(),
    ).toEqual(['agent-loop/issue-1', 'agent-loop/issue-2', 'agent-loop/issue-3']);
    expect(
      execFileSync('git', ['--git-dir', rig.origin, 'show', 'agent-loop/issue-2:fixed-2.txt'], { encoding: 'utf8' }),
    ).toBe('fixed\n');
    expect(gh.issue(2)?.labels).toEqual([LABEL, 'agent-loop:pr-open']);

    expect(resumed.reduce?.code).toBe(0);
    expect(resumed.reduce?.summary).toContain(
      'Earlier work: 1 finished cycle(s) landed by the landing job, 0 still to land.',
    );
    const final = checkpointOf(resumed.reduce!);
    expect(final.outbox).toEqual([]);
    expect([...final.issuesClosed].sort()).toEqual(['1', '2', '3']);
    expect(final.iteration).toBe(3);
    expect(final.halt).toBeUndefined();
    // The bundle is gone from the published state once its work landed.
    expect(existsSync(path.join(resumed.reduce!.stateDir, 'outbox', 'agent-loop-issue-2.bundle'))).toBe(false);

    const done = await workflowRun(864, agent, 2);
    expect(done.plan.outputs).toMatchObject({ jobs: '0', status: 'complete' });
  }, 300_000);

  it("an escalated issue's label GitHub refuses in a work job: the issue is not worked again, and the next wave's landing job labels it, notes it and releases its claim", async () => {
    gh.addIssue({
      title: 'Unfixable',
      body: 'value_is_good fails',
      labels: [LABEL],
      createdAt: '2026-01-01T00:00:00Z',
    });
    gh.addIssues(2, (i) => ({
      title: `Make the value good, ${i + 2}`,
      labels: [LABEL],
      createdAt: `2026-01-0${i + 2}T00:00:00Z`,
    }));
    // Issue 1 is never fixed (escalated); the others are.
    const agent = await writeAgent(
      sb,
      'partial',
      [
        'echo "$AGENT_LOOP_ISSUE_IDS" >> "$NOTES/worked"',
        'if [ "$AGENT_LOOP_ISSUE_IDS" != 1 ]; then echo good > value.txt; echo fixed > "fixed-$AGENT_LOOP_ISSUE_IDS.txt"; fi',
        DONE_REPORT,
      ].join('\n'),
    );
    // Once issue 1's agent has run, GitHub refuses its labels (the token lost issues: write meanwhile).
    let lift: (() => void) | undefined;
    const stop = gh.observe(() => {
      const worked = existsSync(path.join(sb.root, 'worked')) ? readFileSync(path.join(sb.root, 'worked'), 'utf8') : '';
      if (!lift && /^1$/m.test(worked))
        lift = gh.refuse({
          method: 'POST',
          path: '/repos/:owner/:repo/issues/1/labels',
          status: 403,
          message: 'Resource not accessible by integration',
        });
    });
    const first = await workflowRun(881, agent, 2, { 'max-retries-per-step': '1' });
    stop();
    lift?.();
    expect(first.issues).toEqual(['1', '2']);
    expect(first.reduce?.outputs).toMatchObject({ status: 'continuing', 'issues-escalated': '1' });
    expect(gh.issue(1)?.labels).not.toContain('agent-loop:escalated');
    const owed = checkpointOf(first.reduce!).notices;
    expect(owed).toEqual([
      expect.objectContaining({ what: expect.objectContaining({ kind: 'markEscalated', issueIds: ['1'] }) }),
    ]);
    const runsOf1 = runsPerIssue()['1'];

    // The next run: issue 1 is not worked again; the wave's landing job labels it and posts the escalation note.
    const second = await workflowRun(882, agent, 2, { 'max-retries-per-step': '1' });
    expect(second.issues).toEqual(['outbox', '3']);
    expect(second.work[0]?.code).toBe(0);
    expect(runsPerIssue()['1']).toBe(runsOf1);
    expect(gh.issue(1)?.labels).toContain('agent-loop:escalated');
    expect(gh.issue(1)?.labels).not.toContain('agent-loop:in-progress');
    expect(gh.issue(1)?.comments.filter((c) => c.body.includes('agent-loop escalated this issue'))).toHaveLength(1);
    expect(checkpointOf(second.reduce!).notices).toEqual([]);

    // Nothing left but the escalated issue: the next run halts all_escalated, and sends nothing twice.
    const third = await workflowRun(883, agent, 2, { 'max-retries-per-step': '1' });
    expect(third.issues).toEqual([]);
    expect(third.reduce?.outputs).toMatchObject({ status: 'halted', 'halt-reason': 'all_escalated' });
    expect(gh.issue(1)?.comments.filter((c) => c.body.includes('agent-loop escalated this issue'))).toHaveLength(1);
    expect(runsPerIssue()['1']).toBe(runsOf1);
  }, 300_000);

  it('a job whose share runs out mid-issue: its wip is pushed, the reduce releases its claim, and the next wave continues its branch at once', async () => {
    gh.addIssues(3, (i) => ({ title: `Make the value good, ${i + 1}`, labels: [LABEL] }));
    // Issue 3 takes three agent runs (two steps, then the fix); the others one.
    const agent = await partway(
      'stepper',
      '3',
      '[ "$n" -lt 3 ]',
      "printf 'Partway.\\n```yaml\\nwork_remaining: %s\\nrequires_continuation: true\\nstuck_detected: false\\nsummary: step %s of 3\\n```\\n' $((3 - n)) $n",
    );

    // Six iterations over three jobs: two each; issue 3 needs three.
    const first = await workflowRun(871, agent, 3, { 'max-iterations': '6' });
    expect(first.issues).toEqual(['1', '2', '3']);
    expect(first.reduce?.outputs).toMatchObject({ status: 'continuing' });
    expect(first.reduce?.summary).toMatch(/^\| \[#3\].*\| unfinished \(a later wave goes on\).* \| 2 \(#3–#4\) \|/m);
    // Its work so far is on GitHub as wip:, and its claim is released saying so (no lease to wait out).
    expect(
      execFileSync('git', ['--git-dir', rig.origin, 'show', 'agent-loop/issue-3:progress-3.txt'], { encoding: 'utf8' }),
    ).toBe('step 1\nstep 2\n');
    expect(first.reduce?.log).toContain('issue 3 is unfinished: released for the next wave');
    expect(gh.issue(3)?.labels).toEqual([LABEL]);
    expect(gh.issue(3)?.comments.at(-1)?.body).toContain('Unfinished: the job’s share of the run ran out');

    // The next run takes issue 3 up at once and continues from its branch: one more agent run.
    const second = await workflowRun(872, agent, 3, { 'max-iterations': '6' });
    expect(second.issues).toEqual(['3']);
    expect(second.work[0]?.outputs).toMatchObject({ status: 'complete', iterations: '1' });
    expect(runsPerIssue()).toEqual({ '1': 1, '2': 1, '3': 3 });
    expect(
      execFileSync('git', ['--git-dir', rig.origin, 'show', 'agent-loop/issue-3:progress-3.txt'], { encoding: 'utf8' }),
    ).toBe('step 1\nstep 2\n');
    expect(
      execFileSync('git', ['--git-dir', rig.origin, 'show', 'agent-loop/issue-3:fixed-3.txt'], { encoding: 'utf8' }),
    ).toBe('fixed\n');
    const final = checkpointOf(second.reduce!);
    expect(final.iteration).toBe(5);
    expect([...final.issuesClosed].sort()).toEqual(['1', '2', '3']);
  }, 300_000);
  it('max-iterations-per-issue counts an issue’s runs across waves: the reduce keeps what its job counted, the next wave’s job starts from it and escalates it at the limit', async () => {
    gh.addIssues(2, (i) => ({ title: `Make the value good, ${i + 1}`, labels: [LABEL] }));
    // Issue 2 is never finished: its report's work_remaining moves on every run; issue 1 is fixed at once.
    const agent = await partway(
      'looper',
      '2',
      'true',
      "printf 'work_remaining: step %s\\nrequires_continuation: true\\n' $n",
    );
    const inputs = { 'max-iterations': '4', 'max-iterations-per-issue': '3' };

    // Wave 1: shares of 2; issue 2 runs twice, unfinished, and the reduce keeps its count.
    const first = await workflowRun(881, agent, 2, inputs);
    expect(first.issues).toEqual(['1', '2']);
    expect(checkpointOf(first.reduce!).issueCounts).toEqual({ '2': { unfinishedRuns: 2, silentIterations: 0 } });

    // Wave 2: issue 2 alone, given its count in the wave; its third run is its limit: escalated.
    const second = await workflowRun(882, agent, 2, inputs);
    expect(second.issues).toEqual(['2']);
    expect(JSON.parse(second.plan.outputs.wave ?? '{}').jobs[0]).toMatchObject({
      issueId: '2',
      counts: { unfinishedRuns: 2, silentIterations: 0 },
    });
    expect(second.work[0]?.outputs).toMatchObject({ 'issues-escalated': '2', 'halt-reason': 'all_escalated' });
    expect(second.work[0]?.log).toMatch(/3 agent runs on this cycle ended with work still remaining/);
    expect(runsPerIssue()).toEqual({ '1': 1, '2': 3 });
    const final = checkpointOf(second.reduce!);
    expect(final.issuesEscalated).toEqual(['2']);
    expect(final.issueCounts).toBeUndefined();
  }, 300_000);

  it('an agent that prints the API key and the tokens it finds in its ancestors’ environments: no published partial, state, summary, output or log holds them', async () => {
    gh.addIssues(2, (i) => ({ title: `Make the value good, ${i + 1}`, labels: [LABEL] }));
    const KEY = ['sk-ant-api03', 'Qw8Er7Ty6Ui5Op4As3Df2Gh1Jk0Lz'].join('-');
    const agent = await writeAgent(
      sb,
      'leaker',
      [
        'echo "key: $ANTHROPIC_API_KEY" >&2',
        // What the agent's environment lacks, a hostile agent reads from its ancestors' (same user).
        // (The braces silence the shell's own error for a process gone or a zombie: `2>/dev/null` after `<` came too
        // late, and on a machine with many zombies those lines crowded the tokens out of the kept output.)
        "for p in /proc/[0-9]*; do { tr '\\0' '\\n' < $p/environ; } 2>/dev/null; done | grep -E '^(INPUT_GITHUB-TOKEN|ACTIONS_RUNTIME_TOKEN|ANTHROPIC_API_KEY)=' | sort -u",
        'echo good > value.txt',
        'cat <<EOF',
        'Done.',
        '```yaml',
        'work_remaining: 0',
        'requires_continuation: false',
        'stuck_detected: false',
        'summary: made the value good with $ANTHROPIC_API_KEY',
        '```',
        'EOF',
      ].join('\n'),
    );
    const run = await workflowRun(861, agent, 2, {}, undefined, { ANTHROPIC_API_KEY: KEY });
    expect(run.issues).toEqual(['1', '2']);
    for (const r of run.work) expect([r.code, r.outputs.status]).toEqual([0, 'complete']);
    expect(run.reduce?.code).toBe(0);
    const runtime = rig.services.env({ runId: 861, attempt: 1 }).ACTIONS_RUNTIME_TOKEN ?? '';
    const needles = { key: KEY, token: gh.token, runtime };
    const places: { where: string; data: Buffer | string }[] = [
      ...rig.services.caches().flatMap((c) =>
        cacheArchiveFiles(rig.services.cacheArchive(c.key)).map((f) => ({
          where: `cache ${c.key}: ${f.name}`,
          data: f.data,
        })),
      ),
      ...rig.services
        .artifacts()
        .flatMap((a) =>
          unzip(rig.services.artifactZip(a.id)).map((f) => ({ where: `artifact ${a.name}: ${f.name}`, data: f.data })),
        ),
      ...[run.plan, ...run.work, run.reduce!].flatMap((r, k) => [
        { where: `job ${k} summary`, data: r.summary },
        { where: `job ${k} outputs`, data: JSON.stringify(r.outputs) },
        // The runner takes `::add-mask::` lines as commands: they never reach the log shown.
        { where: `job ${k} log`, data: r.log.replace(/^::add-mask::.*$/gm, '') },
      ]),
      ...gh.issues.map((i) => ({ where: `issue #${i.number}`, data: JSON.stringify(i) })),
    ];
    // (Each check lists what it looked at, so a failure says which part was missing.)
    expect(rig.services.caches().map((c) => c.key)).toContainEqual(expect.stringMatching(/^agent-loop-wave-/));
    const found = places.flatMap((p) =>
      Object.entries(needles)
        .filter(([, n]) => n.length >= 6 && p.data.includes(n))
        .map(([name]) => `${name} in ${p.where}`),
    );
    expect(found).toEqual([]);
    // The agent did see them: the scan is not vacuous.
    const sawToken = places.filter((p) => String(p.data).includes('INPUT_GITHUB-TOKEN=***')).map((p) => p.where);
    if (sawToken.length === 0)
      console.log(
        // What the agent said (its iteration logs, as published) and where the test looked: the scan's output is there.
        places.map((p) => p.where).join('\n'),
        places
          .filter((p) => /iteration-\d+\.log$/.test(p.where))
          .map((p) => `${p.where}:\n${String(p.data).slice(-3000)}`)
          .join('\n'),
      );
    expect(sawToken).not.toEqual([]);
  }, 180_000);

  it('two overlapping runs both plan the landing of the same unlanded work: one pull request, and their reduces leave the outbox empty, nothing recorded twice', async () => {
    gh.addIssues(3, (i) => ({ title: `Make the value good, ${i + 1}`, labels: [LABEL] }));
    const agent = await fixer();
    const hook = await refusePushOf('agent-loop/issue-2');
    const first = await workflowRun(871, agent, 2);
    expect(checkpointOf(first.reduce!).outbox.map((e) => e.cycle.issueIds)).toEqual([['2']]);
    await fs.rm(hook);

    // Run A plans (the landing and issue 3); run B's plan starts while A's wave is in flight (its reduce not run).
    const plans = [];
    for (const runId of [872, 873])
      plans.push(
        await job(`plan-${runId}`, runId, agent, { resume: 'true', 'fan-out': 'plan', parallel: '2' }, sb.repo),
      );
    const matrices = plans.map((p) => (JSON.parse(p.outputs.matrix!) as { include: { issue: string }[] }).include);
    expect(matrices.map((m) => m.map((e) => e.issue))).toEqual([['outbox', '3'], ['outbox']]);
    // Both waves' jobs at the same time, each on its own runner; then A's reduce, then B's (one at a time).
    let k = 0;
    const work = await Promise.all(
      plans.flatMap((p, w) =>
        matrices[w]!.map((e) =>
          job(
            `work-${872 + w}-${e.issue}`,
            872 + w,
            agent,
            { resume: 'true', 'fan-out': 'work', issue: e.issue, wave: p.outputs.wave! },
            runner(`runner-${++k}`),
          ),
        ),
      ),
    );
    for (const r of work) expect(r.code).toBe(0);
    const reduces = [];
    for (const [w, p] of plans.entries())
      reduces.push(
        await job(
          `reduce-${872 + w}`,
          872 + w,
          agent,
          { resume: 'true', 'fan-out': 'reduce', wave: p.outputs.wave! },
          sb.repo,
        ),
      );
    for (const r of reduces) expect(r.code).toBe(0);

    expect(
      gh
        .pulls()
        .map((p) => p.pull?.head)
        .sort(),
    ).toEqual(['agent-loop/issue-1', 'agent-loop/issue-2', 'agent-loop/issue-3']);
    const final = checkpointOf(reduces[1]!);
    expect(final.outbox).toEqual([]);
    expect([...final.issuesClosed].sort()).toEqual(['1', '2', '3']);
    expect(final.pullRequests.map((p) => p.url).sort()).toEqual(
      [...new Set(final.pullRequests.map((p) => p.url))].sort(),
    );
    expect(final.pullRequests).toHaveLength(3);
    expect(final.iteration).toBe(3);
    expect(final.waves).toBe(3);
    expect(runsPerIssue()).toEqual({ '1': 1, '2': 1, '3': 1 });
  }, 300_000);

  it('the reduce takes each partial state from the cache, saved on runners whose RUNNER_TEMP is not its own: no artifact listed or downloaded for it; one the cache evicted comes from its artifact', async () => {
    gh.addIssues(2, (i) => ({ title: `Make the value good, ${i + 1}`, labels: [LABEL] }));
    const agent = await fixer();
    const plan = await job('plan-891', 891, agent, { 'fan-out': 'plan', parallel: '2' }, sb.repo);
    const wave = plan.outputs.wave!;
    const work = await Promise.all(
      ['1', '2'].map((issue, k) =>
        job(`work-891-${issue}`, 891, agent, { 'fan-out': 'work', issue, wave }, runner(`runner-${k + 1}`)),
      ),
    );
    for (const r of work) expect(r.outputs.status).toBe('complete');
    // One cache version for every entry, whichever runner (RUNNER_TEMP, workspace) saved it.
    expect(new Set(rig.services.caches().map((c) => c.version)).size).toBe(1);
    // Issue 2's entry evicted (7 days unused) before the reduce runs.
    expect(rig.services.evictCache('agent-loop-wave-github-891-1-2-')).toHaveLength(1);

    const reduce = await job('reduce-891', 891, agent, { 'fan-out': 'reduce', wave }, sb.repo);
    // Each job on a runner of its own: the work jobs' RUNNER_TEMP and workspace are not the reduce's.
    expect(new Set([...work, reduce].map((r) => path.dirname(r.stateDir))).size).toBe(3);
    const calls = reduceCalls(reduce);
    // Issue 1's partial state: from the cache, no artifact request for it. Issue 2's: its artifact, listed and downloaded.
    expect(calls.partialRequests).toEqual([
      expect.stringMatching(/^GET artifacts\?name=agent-loop-checkpoint-wave-github-891-1-2-/),
      expect.stringMatching(/^GET artifacts\/\d+\/zip$/),
    ]);
    expect(calls.partials).toEqual({ fromCache: ['1'], fromArtifact: ['2'] });
    // The loop's own state, on its first wave: none to restore (one listing), none to check against in post (one more).
    expect(calls.loopRequests).toEqual([
      expect.stringMatching(/^GET artifacts\?name=agent-loop-checkpoint-main-/),
      expect.stringMatching(/^GET artifacts\?name=agent-loop-checkpoint-main-/),
    ]);
    expect(checkpointOf(reduce).iteration).toBe(2);
    expect([...checkpointOf(reduce).issuesClosed].sort()).toEqual(['1', '2']);
  }, 120_000);

  it('two first runs on no saved state overlap: both waves are reduced into one loop checkpoint, no count lost', async () => {
    gh.addIssues(4, (i) => ({ title: `Make the value good, ${i + 1}`, labels: [LABEL] }));
    const agent = await fixer();
    // Both plans find no state: each names a new checkpoint.
    const plans = await Promise.all(
      [881, 882].map((runId) =>
        job(`plan-${runId}`, runId, agent, { 'fan-out': 'plan', parallel: '2' }, runner(`planner-${runId}`)),
      ),
    );
    const waves = plans.map((p) => JSON.parse(p.outputs.wave!) as { checkpoint: string; resumed: boolean });
    expect(waves.map((w) => w.resumed)).toEqual([false, false]);
    expect(waves[0]!.checkpoint).not.toBe(waves[1]!.checkpoint);
    const reduces: JobRun[] = [];
    for (const [k, runId] of [881, 882].entries()) {
      const wave = plans[k]!.outputs.wave!;
      const issues = (JSON.parse(plans[k]!.outputs.matrix!) as { include: { issue: string }[] }).include.map(
        (m) => m.issue,
      );
      await Promise.all(
        issues.map((issue, n) =>
          job(`work-${runId}-${issue}`, runId, agent, { 'fan-out': 'work', issue, wave }, runner(`runner-${n + 1}`)),
        ),
      );
      reduces.push(await job(`reduce-${runId}`, runId, agent, { 'fan-out': 'reduce', wave }, sb.repo));
    }
    // The second reduce adds to the first's checkpoint instead of starting a loop of its own.
    expect(reduces[1]!.log).toMatch(
      /another run's first wave started the loop's checkpoint .* wave github-882-1 is added to it/,
    );
    expect(reduces.map((r) => r.outputs['checkpoint-id'])).toEqual([waves[0]!.checkpoint, waves[0]!.checkpoint]);
    const final = checkpointOf(reduces[1]!);
    expect(final.iteration).toBe(4);
    expect([...final.issuesClosed].sort()).toEqual(['1', '2', '3', '4']);
    expect(final.waves).toBe(2);
    // The next run resumes that one loop and finds nothing left.
    const next = await workflowRun(883, agent, 2);
    expect(next.plan.outputs).toMatchObject({ jobs: '0', status: 'complete', 'checkpoint-id': waves[0]!.checkpoint });
  }, 300_000);
});
