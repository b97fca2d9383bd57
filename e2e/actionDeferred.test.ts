/**
 * A failed listing is not "no issues" (issue 40): the bundled action, as a scheduled workflow runs
 * it, against the GitHub REST stand-in answering the issue listing (GitHub issues), or the open
 * pull requests' listing (beads issues, whose pull requests say which are in review), with GitHub's
 * own error answers: a 502 on every attempt (the client's 3 retries included), then a 404. Each
 * such run is deferred: the step green with one warning naming what failed, status deferred, no
 * issue started, nothing published, every issue as it was; once GitHub answers, the next run works
 * them. (The 502 cases wait out the client's own backoff, 1 + 4 + 9 s: it is what is tested.)
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { existsSync, promises as fs } from 'node:fs';
import path from 'node:path';
import type { WorkflowRun } from './actionRunner.js';
import { DONE_REPORT, commit, hasBranch, issue, writeAgent } from './helpers.js';
import { type GitHubRig, LABEL, startGitHubRig } from './githubRig.js';

let rig: GitHubRig;
beforeEach(async () => {
  rig = await startGitHubRig();
});
afterEach(async () => {
  await rig.close();
});

/** GitHub's failures of one listing, in turn: every attempt of a run answered 502, then 404. */
const FAILURES = [
  { runId: 1, status: 502 as const, message: 'Server Error', says: 'GitHub failed while' },
  { runId: 2, status: 404 as const, message: 'Not Found', says: 'Not found while' },
];

/** What every deferred run shows: green, one warning and no error, status deferred, nothing of this run's. */
function expectDeferred(r: WorkflowRun, failed: (typeof FAILURES)[number], what: string, listing: string): void {
  expect(r.main.code).toBe(0);
  expect(r.outputs).toMatchObject({
    status: 'deferred',
    'halt-reason': '',
    iterations: '0',
    'issues-closed': '',
    'pull-requests': '',
  });
  expect(JSON.parse(r.outputs['result-json'] ?? '{}')).toMatchObject({
    status: 'deferred',
    deferred: { what, status: failed.status },
  });
  // (A first run's "No saved state to restore" is the restore's own, not the deferral's: issue 40 makes it a notice.)
  const annotations = r.main.log
    .split('\n')
    .filter((l) => /^::(warning|error)::/.test(l) && !l.startsWith('::warning::No saved state to restore'));
  expect(annotations).toHaveLength(1);
  expect(
    annotations[0]?.startsWith(
      `::warning::agent-loop deferred: ${failed.says} ${listing} (${failed.status} ${failed.message})`,
    ),
  ).toBe(true);
  expect(annotations[0]).toContain('Nothing was started or lost; the next run lists the issues again.');
  expect(r.main.log).not.toContain('No ready issues left');
  expect(r.main.log).not.toMatch(/\[iteration \d/);
  expect(r.summary).toContain('## ⏳ agent-loop: deferred');
  expect(r.summary).toContain(`(${failed.status} ${failed.message})`);
  expect(r.post.code).toBe(0);
  expect(r.post.log).toContain('nothing to publish: this run was deferred');
}

describe('a listing GitHub does not answer defers the run (issue 40)', () => {
  it('GitHub issues: the issue listing answered 502 (every retry), then 404: deferred, green, nothing started or published; the next run works the issue', async () => {
    const { gh, services, sb } = rig;
    gh.addIssue({ title: 'Make the value good', labels: [LABEL] });
    const agent = await writeAgent(sb, 'fixer', `echo run >> "$NOTES/worked"\necho good > value.txt\n${DONE_REPORT}`);
    const listing = `listing open issues labelled ${LABEL} in ${gh.owner}/${gh.repo}`;
    const what = `listing the open issues labelled ${LABEL} in ${gh.owner}/${gh.repo}`;

    for (const failed of FAILURES) {
      const before = gh.requests.length;
      const lift = gh.refuse({
        method: 'GET',
        path: '/repos/:owner/:repo/issues',
        status: failed.status,
        message: failed.message,
        docs: 'https://docs.github.com/rest/issues/issues#list-repository-issues',
      });
      const r = await rig.scheduledRun(1500 + failed.runId, agent);
      lift();
      expectDeferred(r, failed, what, listing);
      // The client's own retries came first (5xx: 3 more attempts; a 404 is not retried).
      const listings = gh.requests.slice(before).filter((q) => q.path.endsWith('/issues'));
      expect(listings.map((q) => q.status)).toEqual(failed.status === 502 ? [502, 502, 502, 502] : [404]);
      // The issue as it was: open, unclaimed, uncommented; no branch, no pull request; no state published.
      expect(gh.issue(1)).toMatchObject({ state: 'open', labels: [LABEL], comments: [] });
      expect(gh.pulls()).toEqual([]);
      expect(services.caches()).toEqual([]);
      expect(services.artifacts()).toEqual([]);
      expect(existsSync(path.join(sb.root, 'worked'))).toBe(false);
    }

    // GitHub answers again: the next scheduled run works the issue.
    const worked = await rig.scheduledRun(1503, agent);
    expect(worked.main.code).toBe(0);
    expect(worked.outputs).toMatchObject({ status: 'complete', 'issues-closed': '1', iterations: '1' });
    expect(gh.pulls()).toHaveLength(1);
    expect(await fs.readFile(path.join(sb.root, 'worked'), 'utf8')).toBe('run\n');
  }, 180_000);

  it('beads issues: the open pull requests answered 502 (every retry), then 404: deferred, never "the work is done"; the issue stays open and is worked by the next run', async () => {
    const { gh, services, sb, origin } = rig;
    await fs.writeFile(path.join(sb.repo, '.beads', 'issues.jsonl'), `${JSON.stringify(issue('bd-1', 'Fix bd-1'))}\n`);
    commit(sb, 'the backlog', { tracked: true });
    await rig.remoteGit('push', '-q', 'origin', 'main');
    const agent = await writeAgent(sb, 'fixer', `echo run >> "$NOTES/worked"\necho good > value.txt\n${DONE_REPORT}`);
    const beads = { source: 'beads', 'issues-file': '.beads/issues.jsonl' };
    const listing = 'listing the open pull requests';
    const what = `listing the open pull requests of ${gh.owner}/${gh.repo}`;
    const onMain = () =>
      execFileSync('git', ['--git-dir', origin, 'show', 'main:.beads/issues.jsonl'], { encoding: 'utf8' });
    const backlog = onMain();

    for (const failed of FAILURES) {
      const lift = gh.refuse({
        method: 'GET',
        path: '/repos/:owner/:repo/pulls',
        status: failed.status,
        message: failed.message,
        docs: 'https://docs.github.com/rest/pulls/pulls#list-pull-requests',
      });
      const r = await rig.scheduledRun(1600 + failed.runId, agent, beads);
      lift();
      expectDeferred(r, failed, what, listing);
      // bd-1 as it was: open on main, no branch or pull request; no state published; no agent ran.
      expect(onMain()).toBe(backlog);
      expect(hasBranch(origin, 'agent-loop/bd-1')).toBe(false);
      expect(gh.pulls()).toEqual([]);
      expect(services.caches()).toEqual([]);
      expect(existsSync(path.join(sb.root, 'worked'))).toBe(false);
    }

    const worked = await rig.scheduledRun(1603, agent, beads);
    expect(worked.main.code).toBe(0);
    expect(worked.outputs).toMatchObject({ status: 'complete', 'issues-closed': 'bd-1', iterations: '1' });
    expect(gh.pulls().map((p) => p.pull?.head)).toEqual(['agent-loop/bd-1']);
    expect(await fs.readFile(path.join(sb.root, 'worked'), 'utf8')).toBe('run\n');
  }, 180_000);
});

describe('a token GitHub refuses is no deferral (issue 40)', () => {
  it("the issue listing answered 401 Bad credentials: the step fails with one error naming GitHub's message and the token, status stopped, nothing checked, written or published; the next run works the issue", async () => {
    const { gh, services, sb } = rig;
    gh.addIssue({ title: 'Make the value good', labels: [LABEL] });
    const agent = await writeAgent(sb, 'fixer', `echo run >> "$NOTES/worked"\necho good > value.txt\n${DONE_REPORT}`);
    const before = gh.requests.length;
    const lift = gh.refuse({
      method: 'GET',
      path: '/repos/:owner/:repo/issues',
      status: 401,
      message: 'Bad credentials',
      docs: 'https://docs.github.com/rest',
    });
    const r = await rig.scheduledRun(1701, agent);
    lift();
    expect(r.main.code).toBe(1);
    const errors = r.main.log.split('\n').filter((l) => l.startsWith('::error::'));
    expect(errors).toEqual([
      `::error::agent-loop: The run stopped before it started: GitHub rejected the token while listing open issues labelled ${LABEL} in ${gh.owner}/${gh.repo} (401 Bad credentials). Check the \`github-token\` input: it must be a valid token (the default \${{ github.token }}, or a personal access token) that has not expired or been revoked. Nothing was started or written; the next run starts once the token is fixed.`,
    ]);
    expect(r.main.log).not.toContain('..');
    expect(r.outputs.status).toBe('stopped');
    expect(JSON.parse(r.outputs['result-json'] ?? '{}')).toMatchObject({ status: 'stopped', unchanged: true });
    expect(r.summary).toContain('## 🛑 agent-loop: stopped');
    expect(r.summary).toContain('(401 Bad credentials)');
    // It stopped at the listing: no preflight read, no checkpoint, no agent; post publishes nothing.
    expect(gh.requests.slice(before).map((q) => `${q.method} ${q.path}`)).toEqual([
      `GET /repos/${gh.owner}/${gh.repo}/issues`,
    ]);
    expect(r.main.log).not.toContain('Starting run');
    expect(r.post.code).toBe(0);
    expect(r.post.log).toContain('nothing to publish: the run stopped before it started (GitHub refused the token)');
    expect(services.caches()).toEqual([]);
    expect(services.artifacts()).toEqual([]);
    expect(gh.issue(1)).toMatchObject({ state: 'open', labels: [LABEL], comments: [] });
    expect(existsSync(path.join(sb.root, 'worked'))).toBe(false);

    const worked = await rig.scheduledRun(1702, agent);
    expect(worked.main.code).toBe(0);
    expect(worked.outputs).toMatchObject({ status: 'complete', 'issues-closed': '1', iterations: '1' });
    expect(await fs.readFile(path.join(sb.root, 'worked'), 'utf8')).toBe('run\n');
  }, 120_000);
});
