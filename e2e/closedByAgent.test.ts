/**
 * Issue 42: an agent holding the job's token (read from /proc, as issue 43 says it can) closes its
 * own GitHub issue instead of doing the work. Only agent-loop closes an issue, after its verdict: the
 * issue is reopened with a comment and judged as open. On the old code the issue stayed closed, with
 * no label, `in-progress` left on and the outputs empty. A person's close stands.
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

/** What an agent that found the token does with it: closes issue 1 through the REST API. */
async function closingAgent(body: string): Promise<string> {
  const { sb, gh, services } = rig;
  await fs.writeFile(path.join(sb.root, 'api'), gh.url);
  await fs.writeFile(path.join(sb.root, 'token'), services.githubToken);
  return writeAgent(
    sb,
    'closer',
    `curl -s -o /dev/null -X PATCH -H "Authorization: Bearer $(cat "$NOTES/token")" \\
  "$(cat "$NOTES/api")/repos/${rig.gh.owner}/${rig.gh.repo}/issues/1" -d '{"state":"closed","state_reason":"completed"}'
${body}
${DONE_REPORT}`,
  );
}

describe('issue 42: a GitHub issue closed during its own cycle by a token is reopened', () => {
  it('the agent closes its issue beside a real fix: reopened with a comment naming who closed it; the work goes to a pull request as usual', async () => {
    const { gh } = rig;
    gh.addIssue({ title: 'Make the value good', body: 'value.txt must say good', labels: [LABEL] });
    const agent = await closingAgent('echo good > value.txt');
    const r = await rig.scheduledRun(501, agent);
    expect(r.main.code).toBe(0);
    expect(r.main.log).toMatch(/Issue 1 was closed by github-actions\[bot\] during its cycle.*reopened/);
    const issue = gh.issue(1);
    expect(issue).toMatchObject({ state: 'open' });
    expect(issue?.comments.some((c) => c.body.includes('closed while agent-loop was working on it'))).toBe(true);
    expect(issue?.comments.some((c) => c.body.includes('It was closed by github-actions[bot].'))).toBe(true);
    expect(gh.pulls()).toHaveLength(1);
    expect(issue?.labels).toContain('agent-loop:pr-open');
  });

  it('the agent closes its issue and changes nothing: reopened, and nothing says it was done', async () => {
    const { gh } = rig;
    gh.addIssue({ title: 'Make the value good', body: 'value.txt must say good', labels: [LABEL] });
    const agent = await closingAgent(':');
    const r = await rig.scheduledRun(502, agent, { 'max-iterations': '2' });
    expect(gh.issue(1)).toMatchObject({ state: 'open' });
    expect(r.outputs['issues-closed']).toBe('');
    expect(r.main.log).toMatch(/reopened with a comment/);
  });
});
