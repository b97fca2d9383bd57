/**
 * Preflight before paying (issue 40): the bundled action, before the first agent run of a run that
 * lands work, reads what GitHub lets its token see of the landing (the GitHub REST stand-in answers
 * as GitHub documents it: e2e/support/githubServer.ts) and halts publish_refused with no agent run
 * when GitHub will refuse it; what the token may not read is said once in the job summary and the
 * run goes on as before. The scripted agent writes a line per invocation: the tests count them.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { commit, DONE_REPORT, git, hasBranch, issue, writeAgent } from './helpers.js';
import { type GitHubRig, LABEL, startGitHubRig } from './githubRig.js';

let rig: GitHubRig;
afterEach(async () => {
  await rig.close();
});

const SETTING = 'Allow GitHub Actions to create and approve pull requests';
const NOT_CHECKED = '### Not checked before the agent ran';
/** How many times the scripted agent ran (a line each). */
const agentRuns = async () =>
  (await fs.readFile(path.join(rig.sb.root, 'worked'), 'utf8').catch(() => '')).split('\n').filter(Boolean).length;
const fixer = () =>
  writeAgent(rig.sb, 'fixer', `echo "$AGENT_LOOP_ISSUE_IDS" >> "$NOTES/worked"\necho good > value.txt\n${DONE_REPORT}`);
const count = (text: string, part: string) => text.split(part).length - 1;

describe('GitHub issues landed as pull requests with the workflow token', () => {
  it('the setting refused and readable: no agent run, a halt publish_refused naming the setting and where it is; resumed while still off, again no agent; once on, the run works the issue and opens its pull request', async () => {
    rig = await startGitHubRig();
    const { gh } = rig;
    gh.addIssue({ title: 'Make the value good', labels: [LABEL] });
    const agent = await fixer();
    gh.settings.actionsCanCreatePullRequests = false;
    // GitHub never grants the workflow token Administration read (on GitHub this read is refused:
    // the next test). Granted here, the setting can be read, as the preflight reads it wherever it can.
    gh.access.administration = true;

    const refused = await rig.scheduledRun(701, agent);
    expect(refused.main.code).toBe(1);
    expect(await agentRuns()).toBe(0);
    expect(refused.outputs).toMatchObject({ status: 'halted', 'halt-reason': 'publish_refused', iterations: '0' });
    expect(refused.main.log).toMatch(
      /::error::agent-loop halted \(publish_refused\): PUBLISH REFUSED: GitHub does not let GitHub Actions open pull requests in [^:]+: its setting "Allow GitHub Actions to create and approve pull requests"/,
    );
    expect(refused.summary).toContain(SETTING);
    expect(refused.summary).toContain('Settings → Actions → General → Workflow permissions');
    expect(refused.summary).toContain('read before any agent ran');
    expect(refused.main.log).not.toContain('Cycle for');
    expect(gh.pulls()).toEqual([]);
    expect(gh.requests.filter((r) => r.path.endsWith('/actions/permissions/workflow'))).toHaveLength(1);

    // The next scheduled run: the halt stands, quietly, nothing read of the setting again.
    const quiet = await rig.scheduledRun(702, agent);
    expect(quiet.main.code).toBe(0);
    expect(quiet.summary).toContain('still halted (publish_refused)');
    expect(gh.requests.filter((r) => r.path.endsWith('/actions/permissions/workflow'))).toHaveLength(1);

    // Resumed while the setting is still off: checked again, halted again, still no agent run.
    const again = await rig.scheduledRun(703, agent, { resume: 'true' });
    expect(again.main.code).toBe(1);
    expect(again.main.log).toContain('Resuming the halted run: asked to resume it.');
    expect(again.outputs).toMatchObject({ status: 'halted', 'halt-reason': 'publish_refused', iterations: '0' });
    expect(await agentRuns()).toBe(0);

    gh.settings.actionsCanCreatePullRequests = true;
    const landed = await rig.scheduledRun(704, agent, { resume: 'true' });
    expect(landed.main.code).toBe(0);
    expect(await agentRuns()).toBe(1);
    expect(landed.outputs).toMatchObject({ status: 'complete', iterations: '1' });
    expect(gh.pulls()).toHaveLength(1);
    // Read, the setting is no note (what the workflow token's push permission is, GitHub does not say).
    expect(landed.summary).not.toContain('Whether GitHub Actions may open pull requests');
  });

  it('the setting unreadable (as GitHub answers the workflow token): said once in the summary, no warning; the run goes on as before: one agent run, the refusal recorded; once the loop has landed a pull request, it is not said again', async () => {
    rig = await startGitHubRig();
    const { gh } = rig;
    gh.addIssue({ title: 'Make the value good', labels: [LABEL] });
    const agent = await fixer();
    gh.settings.actionsCanCreatePullRequests = false;

    const refused = await rig.scheduledRun(711, agent);
    expect(gh.requests.find((r) => r.path.endsWith('/actions/permissions/workflow'))?.status).toBe(403);
    expect(await agentRuns()).toBe(1);
    expect(refused.main.code).toBe(1);
    expect(refused.outputs).toMatchObject({ status: 'halted', 'halt-reason': 'publish_refused', iterations: '1' });
    expect(refused.main.log).toMatch(/PUBLISH REFUSED: GitHub does not let GitHub Actions open pull requests/);
    expect(hasBranch(rig.origin, 'agent-loop/issue-1')).toBe(true);
    expect(count(refused.summary, NOT_CHECKED)).toBe(1);
    expect(count(refused.summary, 'the workflow token may not read the repository')).toBe(1);
    expect(refused.summary).toContain('403 Resource not accessible by integration');
    expect(refused.main.log).not.toMatch(/::warning::.*not checked/i);

    gh.settings.actionsCanCreatePullRequests = true;
    const landed = await rig.scheduledRun(712, agent, { resume: 'true' });
    // The kept work lands without the agent: this run's iterations 0, the loop's 1; the issue is this run's.
    expect(landed.outputs).toMatchObject({
      status: 'complete',
      iterations: '0',
      'loop-iterations': '1',
      'issues-closed': '1',
    });
    expect(await agentRuns()).toBe(1);
    expect(gh.pulls()).toHaveLength(1);

    gh.addIssue({ title: 'Make the other value good', labels: [LABEL] });
    const next = await rig.scheduledRun(713, agent);
    expect(next.outputs.status).toBe('complete');
    expect(await agentRuns()).toBe(2);
    expect(next.summary).not.toContain(NOT_CHECKED);
  });
});

describe("a person's token", () => {
  it('whose account may not push: a halt publish_refused before the agent, naming the repository', async () => {
    rig = await startGitHubRig({ token: `ghp_${randomBytes(18).toString('hex')}`, tokenKind: 'user' });
    const { gh } = rig;
    gh.access.push = false;
    gh.addIssue({ title: 'Make the value good', labels: [LABEL] });

    const r = await rig.scheduledRun(721, await fixer(), {
      'workflow-token': `ghs_${randomBytes(18).toString('hex')}`,
    });
    expect(r.main.code).toBe(1);
    expect(await agentRuns()).toBe(0);
    expect(r.outputs).toMatchObject({ status: 'halted', 'halt-reason': 'publish_refused', iterations: '0' });
    expect(r.main.log).toContain(`PUBLISH REFUSED: the github-token may not push to ${gh.owner}/${gh.repo}`);
    expect(r.summary).toContain('Settings → Collaborators and teams');
    expect(gh.pulls()).toEqual([]);
  });
});

describe('beads issues with on-success: merge', () => {
  const beads = { source: 'beads', 'issues-file': '.beads/issues.jsonl', 'on-success': 'merge' };

  it('a ruleset on main that requires a pull request and that the token may not bypass: a halt before the agent naming the ruleset; once the token may bypass it, resume: true works and pushes the issue', async () => {
    rig = await startGitHubRig();
    const { gh, sb } = rig;
    await fs.writeFile(path.join(sb.repo, '.beads', 'issues.jsonl'), `${JSON.stringify(issue('bd-1', 'Fix bd-1'))}\n`);
    commit(sb, 'the backlog', { tracked: true });
    await rig.remoteGit('push', '-q', 'origin', 'main');
    const ruleset = gh.addRuleset({
      name: 'main needs review',
      rules: [{ type: 'deletion' }, { type: 'pull_request', parameters: { required_approving_review_count: 1 } }],
    });
    // What GitHub's git side does with the same ruleset (the stand-in's REST and git agree).
    const hook = await rig.preReceiveHook(
      'if [ "$ref" = refs/heads/main ]; then',
      "  echo 'error: GH013: Repository rule violations found for refs/heads/main.' >&2",
      "  echo '- Changes must be made through a pull request.' >&2",
      '  exit 1',
      'fi',
    );
    const agent = await fixer();

    const refused = await rig.scheduledRun(731, agent, beads);
    expect(refused.main.code).toBe(1);
    expect(await agentRuns()).toBe(0);
    expect(refused.outputs).toMatchObject({ status: 'halted', 'halt-reason': 'publish_refused', iterations: '0' });
    expect(refused.main.log).toContain(
      `PUBLISH REFUSED: the ruleset "main needs review" (#${ruleset.id}) on main in ${gh.owner}/${gh.repo} refuses the direct push that on-success: merge makes: it requires a pull request`,
    );
    expect(refused.summary).toContain('Settings → Rules → Rulesets → "main needs review" → Bypass list');
    expect(refused.summary).toContain('on-success: pull-request, the default');

    ruleset.bypass.workflow = 'always';
    await fs.rm(hook);
    git(sb, 'checkout', '-q', 'main');
    const landed = await rig.scheduledRun(732, agent, { ...beads, resume: 'true' });
    expect(landed.main.code).toBe(0);
    expect(await agentRuns()).toBe(1);
    expect(landed.outputs).toMatchObject({ status: 'complete', 'issues-closed': 'bd-1' });
    expect(execFileSync('git', ['--git-dir', rig.origin, 'show', 'main:value.txt'], { encoding: 'utf8' })).toBe(
      'good\n',
    );
  });
});
