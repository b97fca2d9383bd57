/**
 * Named checkpoints (issue 14): the action's checkpoint-id input is found in whichever published
 * state holds it, not only the newest: the bundled action against the GitHub REST stand-in and the
 * Actions services emulator (the real @actions/cache and @actions/artifact clients).
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { DONE_REPORT, writeAgent } from './helpers.js';
import { type GitHubRig, LABEL, startGitHubRig } from './githubRig.js';

let rig: GitHubRig;
beforeEach(async () => {
  rig = await startGitHubRig();
});
afterEach(async () => {
  await rig.close();
});

describe('checkpoint-id (issue 14)', () => {
  it('three runs, then the first run’s checkpoint-id is resumed from the artifact that holds it; an id found nowhere fails the step saying what was searched', async () => {
    const { gh, services, sb } = rig;
    const agent = await writeAgent(sb, 'fixer', `echo good > value.txt\n${DONE_REPORT}`);
    const ids: string[] = [];
    // Three stretches of work; the second and third start over (fresh), so the newest state holds
    // only the third's checkpoint.
    for (const [n, inputs] of [
      [1, {}],
      [2, { fresh: 'true' }],
      [3, { fresh: 'true' }],
    ] as const) {
      const { number } = gh.addIssue({ title: `Issue ${n}`, labels: [LABEL] });
      const r = await rig.scheduledRun(1300 + n, agent, inputs);
      expect(r.outputs).toMatchObject({ status: 'complete', 'issues-closed': String(number), iterations: '1' });
      ids.push(r.outputs['checkpoint-id'] ?? '');
    }
    expect(new Set(ids).size).toBe(3);
    expect(services.artifacts()).toHaveLength(3);

    // A fourth issue, worked in the first run's checkpoint, named as its job summary showed it.
    const fourth = gh.addIssue({ title: 'Issue 4', labels: [LABEL] });
    const resumed = await rig.scheduledRun(1304, agent, { 'checkpoint-id': ids[0] ?? '' });
    expect(resumed.main.code).toBe(0);
    expect(resumed.main.log).toMatch(
      /Restored the state from artifact agent-loop-checkpoint-\S+ \(id \d+, run 1301\) \(generation 1, after 2 newer artifact\(s\) without checkpoint/,
    );
    expect(resumed.main.log).toMatch(/it supersedes generation 3 \(cache entry \S+-1303-1\), the newest published/);
    expect(resumed.post.log).toMatch(/published generation 4/);
    expect(resumed.outputs).toMatchObject({
      status: 'complete',
      'checkpoint-id': ids[0],
      iterations: '1',
      'issues-closed': String(fourth.number),
      'loop-iterations': '2',
      'loop-issues-closed': `1,${fourth.number}`,
    });

    // An id no state holds: the step fails naming the input and what was searched; nothing runs or is published.
    const unknown = randomUUID();
    const caches = services.caches().length;
    const missing = await rig.scheduledRun(1305, agent, { 'checkpoint-id': unknown });
    expect(missing.main.code).toBe(1);
    expect(missing.main.log).toMatch(
      new RegExp(
        `::error::agent-loop: checkpoint-id ${unknown} is in no saved state \\(cache entry agent-loop-\\S+-1304-1 does not hold checkpoint ${unknown}; none of the 4 artifacts agent-loop-checkpoint-\\S+ \\(runs 1301 to 1304\\) holds checkpoint ${unknown}\\)\\. Check the id`,
      ),
    );
    expect(missing.outputs).toEqual({});
    expect(missing.post.log).toContain('nothing to publish');
    expect(services.caches()).toHaveLength(caches);
  });
});
