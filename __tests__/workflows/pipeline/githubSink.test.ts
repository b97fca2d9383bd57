/** The phase issues as GitHub issues (the action's workflow: pipeline), against the GitHub REST stand-in. */
import { afterEach, describe, expect, it } from '@jest/globals';
import { startGitHubServer, type GitHubServer } from '../../../e2e/support/githubServer.js';
import { createOctokit } from '../../../src/issues/github/client.js';
import { GitHubIssueSource } from '../../../src/issues/github/issueSource.js';
import { GitHubPhaseIssueSink } from '../../../src/workflows/pipeline/githubSink.js';

let server: GitHubServer;
afterEach(async () => {
  await server?.close();
});

const phases = [
  {
    number: 1,
    name: 'value',
    title: 'Phase 1: Make the value good',
    body: '# Make the value good\n\nvalue.txt reads good.',
  },
  { number: 2, name: 'note', title: 'Phase 2: Say so', body: '# Say so\n\nNOTE.md says so.' },
];

async function source() {
  server = await startGitHubServer();
  const octokit = createOctokit(server.token, { baseUrl: server.url, waitScaleMs: 0, writeSpacingMs: 0 });
  return new GitHubIssueSource({ octokit, owner: server.owner, repo: server.repo, label: 'agent-loop' });
}

describe('GitHubPhaseIssueSink', () => {
  it('opens one labelled issue per phase, N+1 "Blocked by #N", each with its key marker; ready() offers only phase 1 until it is closed', async () => {
    const github = await source();
    const planned: string[][] = [];
    const r = await new GitHubPhaseIssueSink(github).createPhaseIssues({
      phases,
      prefix: 'plan-0badcafe',
      now: new Date(),
      onPlanned: (k) => {
        planned.push([...k]);
      },
    });
    expect(planned).toEqual([['plan-0badcafe-p01', 'plan-0badcafe-p02']]);
    expect(r).toEqual({
      planned: planned[0],
      created: planned[0],
      alreadyPresent: [],
      ids: { 'plan-0badcafe-p01': '1', 'plan-0badcafe-p02': '2' },
    });
    expect(server.issue(2)?.body).toBe(
      '# Say so\n\nNOTE.md says so.\n\nBlocked by #1\n\n<!-- agent-loop:phase-issue plan-0badcafe-p02 -->\n',
    );
    expect(server.issue(1)?.labels).toEqual(['agent-loop']);

    // Written by the token's bot (association NONE): outsiders, unless agent-loop made them.
    expect(await github.ready()).toEqual([]);
    github.trust(['1', '2']);
    expect((await github.ready()).map((i) => i.id)).toEqual(['1']);
    expect(github.lastListing).toMatchObject({ blocked: 1 });
    server.updateIssue(1, { state: 'closed' });
    expect((await github.ready()).map((i) => i.id)).toEqual(['2']);
  });

  it('a re-run finds its issues by their markers and opens none again; a partial earlier run gets only the missing ones', async () => {
    const github = await source();
    const sink = new GitHubPhaseIssueSink(github);
    await sink.createPhaseIssues({ phases: phases.slice(0, 1), prefix: 'plan-0badcafe', now: new Date() });
    const r = await sink.createPhaseIssues({ phases, prefix: 'plan-0badcafe', now: new Date() });
    expect(r).toMatchObject({
      created: ['plan-0badcafe-p02'],
      alreadyPresent: ['plan-0badcafe-p01'],
      ids: { 'plan-0badcafe-p01': '1', 'plan-0badcafe-p02': '2' },
    });
    expect(server.issue(2)?.body).toContain('Blocked by #1');
    const again = await sink.createPhaseIssues({ phases, prefix: 'plan-0badcafe', now: new Date() });
    expect(again).toMatchObject({ created: [], alreadyPresent: ['plan-0badcafe-p01', 'plan-0badcafe-p02'] });
    expect(server.issues).toHaveLength(2);
  });
});
