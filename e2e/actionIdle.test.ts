/**
 * Idle runs (issue 14): the bundled action over a backlog with nothing to do, as a schedule runs it
 * every half hour, against the GitHub REST stand-in and the Actions services emulator. Such a run
 * writes no checkpoint, publishes nothing and installs nothing; it still says `complete` with the
 * checkpoint it restored.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { FileCheckpointStore } from '../src/checkpoint/fileStore.js';
import { initialLoopState } from '../src/core/state.js';
import { KEPT_CHECKPOINTS } from '../src/action/prune.js';
import { ManualClock } from '../fakes/index.js';
import { DONE_REPORT, writeAgent } from './helpers.js';
import { type GitHubRig, LABEL, startGitHubRig } from './githubRig.js';

let rig: GitHubRig;
beforeEach(async () => {
  rig = await startGitHubRig();
});
afterEach(async () => {
  await rig.close();
});

/** The checkpoint files the action's state directory holds after a run (RUNNER_TEMP/agent-loop). */
const checkpointFiles = async () =>
  (await fs.readdir(path.join(rig.sb.root, 'tmp', 'agent-loop', 'checkpoints')).catch(() => [])).sort();

describe('idle runs (issue 14)', () => {
  it('a run with nothing to do writes no checkpoint and publishes nothing; it says complete with the checkpoint it restored', async () => {
    const { gh, services, sb } = rig;
    gh.addIssue({ title: 'Make the value good', labels: [LABEL] });
    const agent = await writeAgent(sb, 'fixer', `echo run >> "$NOTES/worked"\necho good > value.txt\n${DONE_REPORT}`);
    const worked = await rig.scheduledRun(1001, agent);
    expect(worked.outputs).toMatchObject({ status: 'complete', 'issues-closed': '1' });
    const id = worked.outputs['checkpoint-id'];
    expect(await checkpointFiles()).toEqual([`${id}.json`]);
    const published = { caches: services.caches().length, artifacts: services.artifacts().length };
    expect(published).toEqual({ caches: 1, artifacts: 1 });

    // The issue's pull request waits for review: two scheduled runs find nothing to do. The second
    // as a hosted runner has it: no Claude Code on PATH, install-agent on, and a registry that cannot
    // be reached, so that any install attempt fails the step.
    // The rig's agent-command left empty, as the reusable workflow does (beside agent claude it is refused).
    const hosted = { agent: 'claude', 'agent-command': '', 'install-agent': 'true' };
    const offline = { npm_config_registry: 'http://127.0.0.1:9/' };
    for (const [runId, inputs, env] of [
      [1002, {}, {}],
      [1003, hosted, offline],
    ] as const) {
      const idle = await rig.scheduledRun(runId, agent, inputs, env);
      expect(idle.main.log).not.toContain('installing');
      expect(idle.main.code).toBe(0);
      expect(idle.main.log).toMatch(/restored .*cache/i);
      expect(idle.outputs).toMatchObject({ status: 'complete', 'checkpoint-id': id, 'halt-reason': '' });
      expect(JSON.parse(idle.outputs['result-json'] ?? '{}')).toMatchObject({ idle: true, sliceIterations: 0 });
      expect(idle.main.log).toContain('Nothing to do');
      expect(await checkpointFiles()).toEqual([`${id}.json`]);
      expect(idle.summary).toContain('nothing to do');
      expect(idle.post.code).toBe(0);
      expect(idle.post.log).toContain('nothing to publish: this run had nothing to do');
      expect({ caches: services.caches().length, artifacts: services.artifacts().length }).toEqual(published);
    }
    expect(await fs.readFile(path.join(sb.root, 'worked'), 'utf8')).toBe('run\n');
  });

  it('issue 40: ten idle scheduled runs after three issues were landed as pull requests: issues-closed and pull-requests empty in each, the loop totals still 3', async () => {
    const { gh, sb } = rig;
    for (const n of [1, 2, 3]) gh.addIssue({ title: `Make value ${n} good`, labels: [LABEL] });
    const agent = await writeAgent(sb, 'fixer', `echo run >> "$NOTES/worked"\necho good > value.txt\n${DONE_REPORT}`);
    const url = (n: number) => `https://github.com/${gh.owner}/${gh.repo}/pull/${n}`;

    // Three scheduled runs, one issue each: each run's outputs are its own issue and pull request.
    const landed: string[] = [];
    for (const n of [1, 2, 3]) {
      const r = await rig.scheduledRun(1400 + n, agent, { 'slice-iterations': '1' });
      expect(r.main.code).toBe(0);
      const pr = gh.pulls().at(-1)!.number;
      landed.push(url(pr));
      expect(r.outputs).toMatchObject({
        'issues-closed': String(n),
        'pull-requests': url(pr),
        iterations: '1',
        'loop-issues-closed': ['1', '2', '3'].slice(0, n).join(','),
        'loop-pull-requests': landed.join(','),
        'loop-iterations': String(n),
      });
    }
    expect(gh.pulls()).toHaveLength(3);

    // Ten idle scheduled runs (the pull requests wait for review): a notification step keyed on
    // issues-closed or pull-requests stays quiet; the loop's totals are where they were.
    for (let k = 1; k <= 10; k++) {
      const idle = await rig.scheduledRun(1410 + k, agent);
      expect(idle.main.code).toBe(0);
      expect(idle.main.log).toContain('Nothing to do');
      expect(idle.outputs).toMatchObject({
        status: 'complete',
        'issues-closed': '',
        'pull-requests': '',
        'issues-escalated': '',
        'issues-no-change': '',
        iterations: '0',
        'cost-usd': '0.0000',
        'loop-issues-closed': '1,2,3',
        'loop-pull-requests': landed.join(','),
        'loop-iterations': '3',
      });
      expect(JSON.parse(idle.outputs['result-json'] ?? '{}')).toMatchObject({
        idle: true,
        issuesClosed: [],
        pullRequests: [],
        loop: { issuesClosed: ['1', '2', '3'], iterations: 3 },
      });
    }
    expect(await fs.readFile(path.join(sb.root, 'worked'), 'utf8')).toBe('run\nrun\nrun\n');
  }, 240_000);

  it('the first run over an empty backlog writes no checkpoint and publishes nothing; the first issue is then worked as before', async () => {
    const { gh, services, sb } = rig;
    const agent = await writeAgent(sb, 'fixer', `echo good > value.txt\n${DONE_REPORT}`);
    const empty = await rig.scheduledRun(1101, agent);
    expect(empty.main.code).toBe(0);
    expect(empty.outputs).toMatchObject({ status: 'complete', 'checkpoint-id': '', iterations: '0' });
    expect(await checkpointFiles()).toEqual([]);
    expect(empty.post.log).toContain('nothing to publish');
    expect(services.caches()).toEqual([]);
    expect(services.artifacts()).toEqual([]);

    gh.addIssue({ title: 'Make the value good', labels: [LABEL] });
    const worked = await rig.scheduledRun(1102, agent);
    expect(worked.outputs).toMatchObject({ status: 'complete', 'issues-closed': '1', iterations: '1' });
    expect(await checkpointFiles()).toEqual([`${worked.outputs['checkpoint-id']}.json`]);
    expect(worked.post.log).toMatch(/published generation 1/);
    expect(gh.pulls()).toHaveLength(1);
  });

  it(`post publishes the newest ${KEPT_CHECKPOINTS} checkpoints and the one in use, pruned from what it found`, async () => {
    const { gh, sb } = rig;
    gh.addIssue({ title: 'Make the value good', labels: [LABEL] });
    const agent = await writeAgent(sb, 'fixer', `echo good > value.txt\n${DONE_REPORT}`);
    // The state directory as earlier stretches of work left it: 11 finished checkpoints, a day apart.
    const older: string[] = [];
    const seed = async () => {
      const clock = new ManualClock(Date.parse('2026-10-01T00:00:00Z'));
      const store = new FileCheckpointStore(path.join(sb.root, 'tmp', 'agent-loop'), { clock });
      for (let n = 0; n < KEPT_CHECKPOINTS + 1; n++) {
        const id = `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
        await store.write({ id, phase: 'implementation-complete', state: { loop: initialLoopState(10) } });
        older.push(id);
        clock.advance(86_400_000);
      }
    };
    const worked = await rig.scheduledRun(1201, agent, {}, {}, undefined, seed);
    const id = worked.outputs['checkpoint-id'] ?? '';
    expect(worked.outputs.status).toBe('complete');
    expect(worked.post.log).toContain(`Pruned 2 older checkpoint(s) before publishing (${older[1]}, ${older[0]})`);
    expect(worked.post.log).toMatch(/published generation 1/);

    // What the next run restores is what post published.
    const next = await rig.scheduledRun(1202, agent);
    expect(next.outputs).toMatchObject({ status: 'complete', 'checkpoint-id': id });
    expect(await checkpointFiles()).toEqual([id, ...older.slice(2)].map((c) => `${c}.json`).sort());
  });
});
