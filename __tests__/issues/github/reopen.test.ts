/**
 * Issue 42: GitHubIssueSource.reopenClosedByToken against the REST stand-in: a cycle's issue closed
 * by a token (a bot: the job's token, as an agent holding it closes) is reopened with one comment; a
 * person's close stands; an open issue is left alone.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { closeServers, LABEL, setup } from './setup.js';

afterEach(closeServers);

const NOTE = 'agent-loop: closed during its cycle: reopened.';

describe('reopenClosedByToken (issue 42)', () => {
  it('an issue a bot closed is reopened, with one comment naming who closed it', async () => {
    const { server, source } = await setup();
    const issue = server.addIssue({ labels: [LABEL] });
    server.updateIssue(issue.number, { state: 'closed', closedBy: 'github-actions[bot]' });

    expect(await source.reopenClosedByToken(String(issue.number), NOTE)).toBe('github-actions[bot]');
    expect(server.issue(issue.number)).toMatchObject({ state: 'open', stateReason: 'reopened' });
    const comments = server.issue(issue.number)?.comments ?? [];
    expect(comments).toHaveLength(1);
    expect(comments[0]?.body).toContain(`${NOTE} It was closed by github-actions[bot].`);
  });

  it("a person's close stands: nothing is sent but the read", async () => {
    const { server, source } = await setup();
    const issue = server.addIssue({ labels: [LABEL] });
    server.updateIssue(issue.number, { state: 'closed', closedBy: 'maintainer' });
    const before = server.requests.length;

    expect(await source.reopenClosedByToken(String(issue.number), NOTE)).toBeUndefined();
    expect(server.issue(issue.number)).toMatchObject({ state: 'closed', comments: [] });
    expect(server.requests.slice(before).map((r) => r.method)).toEqual(['GET']);
  });

  it('an open issue is left alone', async () => {
    const { server, source } = await setup();
    const issue = server.addIssue({ labels: [LABEL] });
    expect(await source.reopenClosedByToken(String(issue.number), NOTE)).toBeUndefined();
    expect(server.issue(issue.number)).toMatchObject({ state: 'open', comments: [] });
  });
});
