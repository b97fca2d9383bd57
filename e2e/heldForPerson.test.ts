/**
 * Issue 42: work held for a person, on GitHub. An agent whose fix passes the maintainer's tests but
 * that also changed what the maintainer owns (here check.sh, protected by the protected-paths input)
 * is never merged: the bundled action opens a draft pull request labelled agent-loop:tests-changed,
 * its body saying why with the diff of that path, and leaves the issue open, labelled, with one
 * comment; later runs leave it alone. Where the repository has no draft pull requests (GitHub's 422),
 * the work goes in a regular pull request, labelled all the same, and the log says so. The GitHub
 * REST stand-in, real git over smart HTTP, the Actions services emulator (e2e/githubRig.ts).
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { DONE_REPORT, hasBranch, writeAgent } from './helpers.js';
import { type GitHubRig, LABEL, startGitHubRig } from './githubRig.js';

let rig: GitHubRig;
beforeEach(async () => {
  rig = await startGitHubRig();
});
afterEach(async () => {
  await rig.close();
});

const originFile = (branch: string, file: string) =>
  execFileSync('git', ['--git-dir', rig.origin, 'show', `${branch}:${file}`], { encoding: 'utf8' });

/** Fixes the value, and rewrites the maintainer's check too (a comment line: it still checks the same). */
const agentBody = `echo "issue $AGENT_LOOP_ISSUE_IDS" >> "$NOTES/worked"
echo good > value.txt
printf '# relaxed by the agent\\n' >> check.sh
${DONE_REPORT}`;

describe('issue 42: work that changed the maintainer’s tests goes to a person (GitHub)', () => {
  it('a draft pull request labelled agent-loop:tests-changed with the diff in its body; the issue open, labelled, commented once; nothing merged; not worked again', async () => {
    const { gh, sb } = rig;
    gh.addIssue({ title: 'Make the value good', body: 'value.txt must say good', labels: [LABEL] });
    const agent = await writeAgent(sb, 'fixer-and-test-editor', agentBody);
    const mainBefore = execFileSync('git', ['--git-dir', rig.origin, 'rev-parse', 'main'], { encoding: 'utf8' });

    const r = await rig.scheduledRun(701, agent, { 'protected-paths': 'check.sh', 'on-success': 'merge' });
    expect(r.main.code).toBe(0);
    expect(r.outputs).toMatchObject({
      status: 'complete',
      'issues-closed': '',
      'issues-held': '1',
      'loop-issues-held': '1',
    });
    // Never merged: origin's main is where it was; the work is on its pushed branch.
    expect(execFileSync('git', ['--git-dir', rig.origin, 'rev-parse', 'main'], { encoding: 'utf8' })).toBe(mainBefore);
    expect(hasBranch(rig.origin, 'agent-loop/issue-1')).toBe(true);
    expect(originFile('agent-loop/issue-1', 'value.txt')).toBe('good\n');
    expect(originFile('agent-loop/issue-1', 'check.sh')).toContain('# relaxed by the agent');

    const prs = gh.pulls();
    expect(prs).toHaveLength(1);
    const pr = prs[0]!;
    expect(pr).toMatchObject({
      state: 'open',
      labels: ['agent-loop:tests-changed'],
      pull: { head: 'agent-loop/issue-1', base: 'main', draft: true, merged: false },
    });
    expect(r.outputs['pull-requests']).toBe(`https://github.com/${gh.owner}/${gh.repo}/pull/${pr.number}`);
    expect(pr.body).toContain('### Held for a person (`agent-loop:tests-changed`)');
    expect(pr.body).toContain('agent-loop does not merge this pull request');
    expect(pr.body).toContain('- `check.sh`');
    expect(pr.body).toMatch(/```diff\ndiff --git a\/check\.sh b\/check\.sh[^]*\n\+# relaxed by the agent\n/);

    // The issue: open, labelled tests-changed (not pr-open), one comment saying why and what to do.
    const issue = gh.issue(1);
    expect(issue?.state).toBe('open');
    expect(issue?.labels).toEqual([LABEL, 'agent-loop:tests-changed']);
    const held = (issue?.comments ?? []).filter((c) => c.body.includes('agent-loop:held'));
    expect(held).toHaveLength(1);
    expect(held[0]?.body).toContain("agent-loop held this issue's work for a person");
    expect(held[0]?.body).toContain("the work changed the maintainer's tests");
    expect(held[0]?.body).toContain('remove the `agent-loop:tests-changed` label');
    expect(r.summary).toContain('| held for a person, never merged (left open, `agent-loop:tests-changed`) |');
    expect(r.main.log).toMatch(/held for a person \(tests-changed\)/);

    // The next scheduled run leaves it to a person: no agent run, nothing new.
    const again = await rig.scheduledRun(702, agent, { 'protected-paths': 'check.sh' });
    expect(again.main.code).toBe(0);
    expect(await fs.readFile(path.join(sb.root, 'worked'), 'utf8')).toBe('issue 1\n');
    expect(gh.pulls()).toHaveLength(1);
    expect(gh.issue(1)?.state).toBe('open');
  });

  it('a repository without draft pull requests (GitHub 422): a regular pull request, labelled, the log saying why', async () => {
    const { gh, sb } = rig;
    gh.settings.draftPullRequests = false;
    gh.addIssue({ title: 'Make the value good', body: 'value.txt must say good', labels: [LABEL] });
    const agent = await writeAgent(sb, 'fixer-and-test-editor', agentBody);

    const r = await rig.scheduledRun(711, agent, { 'protected-paths': 'check.sh' });
    expect(r.main.code).toBe(0);
    expect(r.outputs).toMatchObject({ status: 'complete', 'issues-held': '1', 'issues-closed': '' });
    const prs = gh.pulls();
    expect(prs).toHaveLength(1);
    expect(prs[0]).toMatchObject({ labels: ['agent-loop:tests-changed'], pull: { draft: false, merged: false } });
    expect(r.main.log).toMatch(
      /has no draft pull requests \(GitHub answered: [^)]*Draft pull requests are not supported in this repository[^]*goes in a regular pull request instead, labelled so; agent-loop does not merge it/,
    );
    expect(gh.issue(1)).toMatchObject({ state: 'open', labels: [LABEL, 'agent-loop:tests-changed'] });
  });
});
