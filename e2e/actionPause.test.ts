/**
 * The pause switch (issue 15): the bundled action, as a scheduled workflow runs it against the
 * GitHub REST stand-in and the Actions services emulator, with the repository variable
 * AGENT_LOOP_PAUSED passed as the input paused (the reusable workflow does) or set in the step's
 * environment. A paused run asks GitHub nothing, restores and publishes nothing, runs no agent and
 * ends green with status paused; unpaused, the next run works the issue as before.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { DONE_REPORT, writeAgent } from './helpers.js';
import { type GitHubRig, LABEL, startGitHubRig } from './githubRig.js';

let rig: GitHubRig;
beforeEach(async () => {
  rig = await startGitHubRig();
});
afterEach(async () => {
  await rig.close();
});

describe('the pause switch (issue 15)', () => {
  it('a paused run reads, runs and publishes nothing and says paused; the first run after the pause works the issue', async () => {
    const { gh, services, sb } = rig;
    gh.addIssue({ title: 'Make the value good', labels: [LABEL] });
    const agent = await writeAgent(sb, 'fixer', `echo run >> "$NOTES/worked"\necho good > value.txt\n${DONE_REPORT}`);
    const before = { requests: gh.requests.length, services: services.calls().length };

    // As the reusable workflow passes the variable (paused: ${{ vars.AGENT_LOOP_PAUSED }}), and as a
    // step of one's own would set it in env:. Both on a hosted runner without the agent, install-agent
    // on and an unreachable registry: any install attempt would fail the step.
    const hosted = { agent: 'claude', 'install-agent': 'true' };
    const offline = { npm_config_registry: 'http://127.0.0.1:9/' };
    for (const [runId, inputs, env, where] of [
      [2001, { ...hosted, paused: 'true' }, offline, 'the input paused is true'],
      [2002, hosted, { ...offline, AGENT_LOOP_PAUSED: 'true' }, "AGENT_LOOP_PAUSED is true in the step's environment"],
    ] as const) {
      const paused = await rig.scheduledRun(runId, agent, inputs, env);
      expect(paused.main.code).toBe(0);
      expect(paused.outputs).toEqual({ status: 'paused', 'result-json': '{"status":"paused","paused":true}' });
      expect(paused.main.log).toContain(`::warning::agent-loop is paused: ${where}`);
      expect(paused.main.log).toContain(
        'To resume, set the repository variable AGENT_LOOP_PAUSED to false or delete it',
      );
      expect(paused.main.log).not.toMatch(/install|restored|::error::/i);
      expect(paused.summary).toContain('## ⏯️ agent-loop: paused');
      expect(paused.state).toEqual({ unchanged: 'paused' });
      expect(paused.post.code).toBe(0);
      expect(paused.post.log).toContain('nothing to publish: the loop is paused');
      expect({ requests: gh.requests.length, services: services.calls().length }).toEqual(before);
    }
    await expect(fs.readFile(path.join(sb.root, 'worked'), 'utf8')).rejects.toThrow(/ENOENT/);
    expect(gh.issue(1)).toMatchObject({ state: 'open', labels: [LABEL] });

    // The variable set to false (or deleted): the next scheduled run works the issue.
    const resumed = await rig.scheduledRun(2003, agent, { paused: 'false' });
    expect(resumed.main.code).toBe(0);
    expect(resumed.outputs).toMatchObject({ status: 'complete', 'issues-closed': '1' });
    expect(await fs.readFile(path.join(sb.root, 'worked'), 'utf8')).toBe('run\n');
    expect(gh.pulls()).toHaveLength(1);
    expect(resumed.post.log).toMatch(/published generation 1/);
  });
});
