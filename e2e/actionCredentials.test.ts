/**
 * The action's git credentials (issue 11): the checkout keeps none (the reusable workflow's
 * `persist-credentials: false`), agent-loop authenticates its own push and fetch with a header in
 * that git process's environment, and the agent can neither read the token nor push. The remote is
 * real git over smart HTTP (git http-backend) that refuses requests without the token, as GitHub
 * does for a private repository.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { DONE_REPORT, type Sandbox, git, writeAgent, hasBranch } from './helpers.js';
import { type GitHttpServer, startGitHttpServer } from './support/gitHttpServer.js';
import type { GitHubServer } from './support/githubServer.js';
import { type GitHubRig, LABEL, startGitHubRig } from './githubRig.js';

let rig: GitHubRig;
let gh: GitHubServer;
let remote: GitHttpServer;
let sb: Sandbox;
let origin: string;
let token: string;
const basic = (t: string) => `AUTHORIZATION: basic ${Buffer.from(`x-access-token:${t}`).toString('base64')}`;

beforeEach(async () => {
  rig = await startGitHubRig();
  ({ gh, remote, sb, origin } = rig);
  token = rig.services.githubToken;
});
afterEach(async () => {
  await rig.close();
});

/** A scheduled run with the rig's inputs (the workflow token, allowed authors, the command agent). */
const scheduledRun = (runId: number, agent: string) => rig.scheduledRun(runId, agent);

const originHas = (branch: string) => hasBranch(origin, branch);

/** An agent that tries to push by itself and keeps what it could see, then does the work. */
const TRESPASSER = [
  'git push origin HEAD:refs/heads/agent-pushed > "$NOTES/push.out" 2>&1; echo "exit $?" >> "$NOTES/push.out"',
  'cat .git/config > "$NOTES/config"',
  'env > "$NOTES/env"',
  'echo good > value.txt',
  DONE_REPORT,
].join('\n');

describe("the action's git credentials", () => {
  it("pushes the finished branch with its own header; the checkout holds no credential and the agent's own push is refused", async () => {
    gh.addIssue({ title: 'Make the value good', body: 'value.txt must say good', labels: [LABEL] });
    const agent = await writeAgent(sb, 'trespasser', TRESPASSER);

    const r = await scheduledRun(701, agent);
    expect(r.main.code).toBe(0);
    expect(r.outputs).toMatchObject({ status: 'complete', 'issues-closed': '1' });
    expect(r.main.log).not.toMatch(/persist-credentials/); // nothing persisted: no warning

    // agent-loop's push landed, authenticated; the agent's did not.
    expect(originHas('agent-loop/issue-1')).toBe(true);
    expect(originHas('agent-pushed')).toBe(false);
    const pushOut = await fs.readFile(path.join(sb.root, 'push.out'), 'utf8');
    expect(pushOut).toMatch(/terminal prompts disabled|Authentication failed|could not read Username/);
    expect(pushOut).not.toMatch(/^exit 0$/m);
    expect(remote.requests.some((q) => q.service === 'receive-pack' && q.authorized)).toBe(true);
    expect(remote.requests.some((q) => q.service === 'receive-pack' && !q.authorized)).toBe(true); // the agent's try

    // Neither the agent's configuration nor its environment held the token in any form.
    const b64 = Buffer.from(`x-access-token:${token}`).toString('base64');
    for (const file of ['config', 'env']) {
      const seen = await fs.readFile(path.join(sb.root, file), 'utf8');
      expect(seen).not.toContain(token);
      expect(seen).not.toContain(b64);
      expect(seen).not.toMatch(/extraheader/i);
    }
    expect(git(sb, 'config', '--list')).not.toMatch(/extraheader/i); // nor is it left behind
  });

  it('warns about a checkout that persisted credentials, and still pushes with one Authorization header', async () => {
    // A stale token persisted by a checkout with the default persist-credentials: a second header
    // next to agent-loop's would make GitHub answer 400.
    git(sb, 'config', `http.${remote.serverUrl}/.extraheader`, basic('ghs_stale0000000000000000000000000000000'));
    gh.addIssue({ title: 'Make the value good', body: 'value.txt must say good', labels: [LABEL] });
    const agent = await writeAgent(sb, 'fixer', `echo good > value.txt\n${DONE_REPORT}`);

    const r = await scheduledRun(702, agent);
    expect(r.main.code).toBe(0);
    expect(r.main.log).toMatch(
      new RegExp(
        `::warning::agent-loop: the checkout keeps git credentials in its configuration \\(http\\.${remote.serverUrl.replace(/[.:/]/g, '\\$&')}/\\.extraheader\\).*persist-credentials: false`,
      ),
    );
    expect(originHas('agent-loop/issue-1')).toBe(true);
    expect(remote.requests.filter((q) => q.service === 'receive-pack').every((q) => q.authorized)).toBe(true);
  });

  it('never sends the token to another server: an agent that points origin elsewhere has .git/config put back before the commit, and the work goes to origin', async () => {
    const elsewhere = await startGitHttpServer({ gitDir: origin, token });
    try {
      gh.addIssue({ title: 'Make the value good', body: 'value.txt must say good', labels: [LABEL] });
      const agent = await writeAgent(
        sb,
        'redirector',
        `git remote set-url origin '${elsewhere.url}'\necho good > value.txt\n${DONE_REPORT}`,
      );
      const r = await scheduledRun(703, agent);
      expect(r.main.code).toBe(0);
      expect(r.main.log).toMatch(/changed what git stages: \.git\/config\. Put back as it was before the agent ran/);
      // Until 2026-11-28 the push went to the agent's server, unauthenticated (the header is scoped to
      // GitHub's), and was refused there; now nothing reaches it.
      expect(elsewhere.requests).toEqual([]);
      expect(originHas('agent-loop/issue-1')).toBe(true);
      expect(remote.requests.filter((q) => q.service === 'receive-pack').every((q) => q.authorized)).toBe(true);
    } finally {
      await elsewhere.close();
    }
  });
});
