/**
 * Claims on GitHub issues (issue 14; src/issues/github/claimComments.ts) against the GitHub REST
 * stand-in, on its clock: the label and one claim comment found by its marker, renewed and released
 * in place, skipped by other runs while live, taken over once expired, and the race of two runs
 * claiming at once decided by the oldest claim. Issue 15: that comment is the issue's progress
 * comment (iterations, spend, the run's link), left at the release saying how the work ended.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { claimCommentBody, CLAIM_MARKER, parseClaimComment } from '../../../src/issues/github/claimComments.js';
import { IN_PROGRESS_LABEL } from '../../../src/issues/types.js';
import { closeServers, LABEL, setup } from './setup.js';

afterEach(closeServers);

const T0 = Date.parse('2026-11-25T10:00:00Z');
const at = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
const HOUR = 3_600_000;

async function world() {
  let clock = T0;
  const s = await setup({ server: { now: () => clock } });
  s.server.addIssue({ title: 'Fix it', labels: [LABEL] });
  const run = (runId: string) => s.another({ runId, now: () => clock });
  return { ...s, run, advance: (ms: number) => (clock += ms), now: () => clock };
}
const claimComments = <C extends { body: string }>(body: { comments: C[] }) =>
  body.comments.filter((c) => c.body.startsWith(CLAIM_MARKER));

describe('GitHub claims', () => {
  it('the comment: a hidden marker with the claim, then what a maintainer reads (how to free it); read back as written', () => {
    const claim = { run: 'github-7-1', checkpoint: 'cp', expires: '2026-11-25T11:05:00Z' };
    const body = claimCommentBody(claim);
    expect(body.split('\n')[0]).toBe(
      '<!-- agent-loop:claim {"run":"github-7-1","checkpoint":"cp","expires":"2026-11-25T11:05:00Z"} -->',
    );
    expect(body).toContain('remove the `agent-loop:in-progress` label');
    expect(parseClaimComment(body)).toEqual(claim);
    expect(parseClaimComment(claimCommentBody({ ...claim, released: true }))).toEqual({ ...claim, released: true });
    // The progress rides in the marker for a reduce to read back (a job that died before it saved).
    const working = claimCommentBody(claim, { state: 'working', iterations: 2, costUsd: 0.5 });
    expect(parseClaimComment(working)).toEqual({ ...claim, iterations: 2, costUsd: 0.5 });
    expect(parseClaimComment(working.replace('"iterations":2', '"iterations":-4'))).toEqual({ ...claim, costUsd: 0.5 });
    expect(parseClaimComment('<!-- agent-loop:escalation -->')).toBeUndefined();
    expect(parseClaimComment(`${CLAIM_MARKER} {broken -->`)).toBeUndefined();
  });

  it('issue 15: what the maintainer reads, while working and for each way the work ends (snapshot)', () => {
    const claim = { run: 'github-42-1', checkpoint: 'cp', expires: '2026-11-25T11:05:00Z', leaseSeconds: 3900 };
    const url = 'https://github.com/o/r/actions/runs/42';
    const released = { ...claim, released: true };
    const pullRequest = { number: 21, url: 'https://github.com/o/r/pull/21' };
    const bodies = {
      working: claimCommentBody(claim, { state: 'working', iterations: 2, costUsd: 0.4567 }, url),
      pullRequest: claimCommentBody(released, { state: 'pull_request', iterations: 3, costUsd: 1.2, pullRequest }, url),
      updated: claimCommentBody(
        released,
        { state: 'pull_request', iterations: 1, pullRequest: { ...pullRequest, reused: true } },
        url,
      ),
      escalated: claimCommentBody(released, { state: 'escalated', iterations: 5, costUsd: 0.004 }, url),
      noChange: claimCommentBody(released, { state: 'no_change', iterations: 1 }, url),
      done: claimCommentBody(released, { state: 'done', iterations: 2 }),
      lost: claimCommentBody(released, { state: 'lost', iterations: 2 }, url),
    };
    for (const body of Object.values(bodies)) expect(parseClaimComment(body)?.run).toBe('github-42-1');
    // Opened now or found open (a run re-landing after a crash finds its own): the same headline.
    expect(bodies.updated.split('\n')[1]).toBe(bodies.pullRequest.split('\n')[1]);
    expect(bodies).toMatchSnapshot();
  });

  it('claims with the label and one comment; renews by editing that comment in place; releasing edits it to how the work ended, marked released, and removes the label', async () => {
    const w = await world();
    const a = w.run('run-a');
    const me = { run: 'run-a', checkpoint: 'cp-a' };
    expect(await a.claim('1', me, at(T0 + HOUR), false)).toEqual({ won: true, adopted: [] });
    const issue = w.server.issue(1)!;
    expect(issue.labels).toContain(IN_PROGRESS_LABEL);
    expect(claimComments(issue)).toHaveLength(1);
    const id = issue.comments[0]!.id;

    w.advance(10 * 60_000);
    await a.renewClaim('1', me, at(w.now() + HOUR));
    expect(claimComments(issue)).toHaveLength(1);
    expect(issue.comments[0]!.id).toBe(id);
    expect(parseClaimComment(issue.comments[0]!.body)?.expires).toBe(at(T0 + 10 * 60_000 + HOUR));
    expect(w.server.requests.filter((r) => r.method === 'PATCH').map((r) => r.path)).toEqual([
      `/repos/${w.server.owner}/${w.server.repo}/issues/comments/${id}`,
    ]);

    const pullRequest = { number: 21, url: 'https://github.com/o/r/pull/21' };
    await a.releaseClaim('1', me, at(w.now()), { state: 'pull_request', iterations: 2, pullRequest });
    expect(issue.labels).not.toContain(IN_PROGRESS_LABEL);
    // One comment still, the same one: released, saying where the work is.
    expect(claimComments(issue).map((c) => c.id)).toEqual([id]);
    expect(parseClaimComment(issue.comments[0]!.body)).toMatchObject({ run: 'run-a', released: true });
    expect(issue.comments[0]!.body).toContain('**The work is in pull request [#21](https://github.com/o/r/pull/21)**');
    // Released twice (a person removed the label meanwhile): GitHub's 404 for the label is fine.
    await expect(a.releaseClaim('1', me, at(w.now()))).resolves.toBeUndefined();
    expect(claimComments(issue).map((c) => c.id)).toEqual([id]);
  });

  it('another run skips an issue whose lease is live (ready() names the holder), and takes it over once the lease expired on GitHub’s clock', async () => {
    const w = await world();
    await w.run('run-a').claim('1', { run: 'run-a', checkpoint: 'cp-a' }, at(T0 + HOUR), false);
    const b = w.run('run-b');
    const me = { run: 'run-b', checkpoint: 'cp-b' };
    expect((await b.ready())[0]?.claimedBy).toMatchObject({ run: 'run-a', expires: at(T0 + HOUR) });
    expect(await b.claim('1', me, at(T0 + HOUR), false)).toEqual({
      won: false,
      holder: { run: 'run-a', checkpoint: 'cp-a', expires: at(T0 + HOUR), leaseSeconds: 3600 },
    });
    expect((await w.run('run-a').ready())[0]?.claimedBy).toBeUndefined(); // its own claim holds nothing back

    w.advance(HOUR + 1000); // run-a died: nothing renewed it
    expect((await b.ready())[0]?.claimedBy).toBeUndefined();
    const took = await b.claim('1', me, at(w.now() + HOUR), false);
    expect(took).toMatchObject({ won: true, adopted: [{ run: 'run-a' }] });
    // The dead run's claim comment is gone: one claim on the issue, the taker's.
    expect(claimComments(w.server.issue(1)!).map((c) => parseClaimComment(c.body)?.run)).toEqual(['run-b']);
    expect((await w.run('run-c').ready())[0]?.claimedBy?.run).toBe('run-b');
  });

  it('issue 16: a fan-out work job reads the claims of its own issue only, not of the rest of its wave in flight', async () => {
    const w = await world();
    w.server.addIssue({ title: 'Fix that', labels: [LABEL] });
    const me = { run: 'run-a', checkpoint: 'cp' };
    for (const id of ['1', '2']) await w.run('run-a').claim(id, me, at(T0 + HOUR), false);
    const claimReads = () => w.server.requests.filter((r) => r.method === 'GET' && r.path.endsWith('/comments')).length;
    const before = claimReads();
    const ready = await w.another({ runId: 'run-a', now: w.now, claimsOf: ['2'] }).ready();
    expect(ready.map((i) => i.id)).toEqual(['1', '2']);
    expect(claimReads() - before).toBe(1);
    // Another run reads both, and leaves both alone.
    const other = await w.run('run-b').ready();
    expect(other.map((i) => i.claimedBy?.run)).toEqual(['run-a', 'run-a']);
  });

  it('a run still working when its lease ran out learns at its next renewal that another run took the issue over; a claim comment a person deleted is claimed again', async () => {
    const w = await world();
    const a = w.run('run-a');
    const meA = { run: 'run-a', checkpoint: 'cp-a' };
    await a.claim('1', meA, at(T0 + HOUR), false);
    w.advance(HOUR + 1000); // run-a is still in a long iteration: its lease ran out
    await w.run('run-b').claim('1', { run: 'run-b', checkpoint: 'cp-b' }, at(w.now() + HOUR), false);
    expect(await a.renewClaim('1', meA, at(w.now() + HOUR))).toMatchObject({ run: 'run-b' });
    // run-a wrote nothing: the one claim on the issue is run-b's.
    expect(claimComments(w.server.issue(1)!).map((c) => parseClaimComment(c.body)?.run)).toEqual(['run-b']);

    const c = w.run('run-c');
    const meC = { run: 'run-c', checkpoint: 'cp-c' };
    w.server.addIssue({ title: 'Another', labels: [LABEL] });
    await c.claim('2', meC, at(w.now() + HOUR), false);
    w.server.issue(2)!.comments.length = 0; // a person deleted the claim comment
    expect(await c.renewClaim('2', meC, at(w.now() + HOUR))).toBeUndefined();
    expect(claimComments(w.server.issue(2)!).map((x) => parseClaimComment(x.body)?.run)).toEqual(['run-c']);
  });

  it('two runs claiming at the same time: the older claim goes on, the other yields and deletes its comment', async () => {
    const w = await world();
    const a = w.run('run-a');
    const b = w.run('run-b');
    const outcomes = await Promise.all([
      a.claim('1', { run: 'run-a', checkpoint: 'cp-a' }, at(T0 + HOUR), false),
      b.claim('1', { run: 'run-b', checkpoint: 'cp-b' }, at(T0 + HOUR), false),
    ]);
    expect(outcomes.filter((o) => o.won)).toHaveLength(1);
    const claims = claimComments(w.server.issue(1)!).map((c) => parseClaimComment(c.body)!);
    expect(claims.map((c) => c.run)).toEqual([outcomes[0]!.won ? 'run-a' : 'run-b']);
    expect(w.server.issue(1)!.labels).toContain(IN_PROGRESS_LABEL);
  });

  it('a run landing work its loop finished in an earlier run releases that run’s claim: its comment says how it ended', async () => {
    const w = await world();
    await w.run('run-1').claim('1', { run: 'run-1', checkpoint: 'cp' }, at(T0 + HOUR), false);
    await w.run('run-2').releaseClaim('1', { run: 'run-2', checkpoint: 'cp' }, at(T0), { state: 'no_change' });
    const comments = w.server.issue(1)!.comments;
    expect(comments.map((c) => parseClaimComment(c.body))).toEqual([
      { run: 'run-2', checkpoint: 'cp', expires: at(T0), released: true },
    ]);
    expect(comments[0]!.body).toContain('No change needed');
    expect(w.server.issue(1)!.labels).toEqual([LABEL]);
  });

  it('a release with nothing to tell (a race lost, a batch let go) deletes the comment', async () => {
    const w = await world();
    const a = w.run('run-a');
    await a.claim('1', { run: 'run-a', checkpoint: 'cp' }, at(T0 + HOUR), false);
    await a.releaseClaim('1', { run: 'run-a', checkpoint: 'cp' }, at(T0));
    expect(w.server.issue(1)!.comments).toEqual([]);
    expect(w.server.issue(1)!.labels).toEqual([LABEL]);
  });

  it('issue 15: an issue worked again later gets a new progress comment; the earlier attempt’s last word stays as it was', async () => {
    const w = await world();
    const me = { run: 'run-1', checkpoint: 'cp' };
    await w.run('run-1').claim('1', me, at(T0 + HOUR), false);
    await w.run('run-1').releaseClaim('1', me, at(T0), { state: 'escalated', iterations: 5 });
    const first = w.server.issue(1)!.comments[0]!.body;

    // A person removed the escalated label: the same loop works it again, and lands it from a later run.
    w.advance(HOUR);
    await w.run('run-2').claim('1', { run: 'run-2', checkpoint: 'cp' }, at(w.now() + HOUR), false);
    const pullRequest = { number: 3, url: 'https://github.com/o/r/pull/3' };
    await w
      .run('run-3')
      .releaseClaim('1', { run: 'run-3', checkpoint: 'cp' }, at(w.now()), { state: 'pull_request', pullRequest });
    const bodies = claimComments(w.server.issue(1)!).map((c) => c.body);
    expect(bodies).toHaveLength(2);
    expect(bodies[0]).toBe(first);
    expect(bodies[0]).toContain('Escalated');
    expect(bodies[1]).toContain('The work is in pull request [#3](https://github.com/o/r/pull/3)');
  });

  it('issue 15: the comment tells the iterations and spend so far and links the workflow run, redacted like every comment', async () => {
    const w = await world();
    const secret = 'ghp_0123456789abcdefghijklmnopqrstuvwxyzAB';
    const a = w.another({
      runId: 'github-42-1',
      now: () => w.now(),
      runUrl: 'https://github.com/o/r/actions/runs/42',
      redact: (t) => t.split(secret).join('***'),
    });
    const me = { run: 'github-42-1', checkpoint: secret };
    await a.claim('1', me, at(T0 + HOUR), false, { state: 'working', iterations: 0 });
    const comment = () => claimComments(w.server.issue(1)!)[0]!.body;
    expect(comment()).toContain('**agent-loop is working on this issue.**');
    expect(comment()).toContain('Iterations so far: 0 · run [`github-42-1`](https://github.com/o/r/actions/runs/42)');
    expect(comment()).not.toContain(secret);

    await a.renewClaim('1', me, at(T0 + 2 * HOUR), { state: 'working', iterations: 2, costUsd: 0.4567 });
    expect(comment()).toContain('Iterations so far: 2 · cost so far: $0.46 · run [`github-42-1`]');
    expect(comment()).toContain(
      `other runs leave the issue alone until ${at(T0 + 2 * HOUR)}`.replace('other', 'Other'),
    );
  });

  it('a claim comment by an outsider (anyone may comment) is not a claim: the issue is not held by it', async () => {
    const w = await world();
    const forged = claimCommentBody({ run: 'x', checkpoint: 'y', expires: at(T0 + 100 * HOUR), leaseSeconds: 360_000 });
    w.server.updateIssue(1, { labels: [LABEL, IN_PROGRESS_LABEL] });
    w.server.issue(1)!.comments.push({
      id: 1,
      body: forged,
      user: 'drive-by',
      authorAssociation: 'NONE',
      createdAt: at(T0),
      updatedAt: at(T0),
    });
    const b = w.run('run-b');
    expect((await b.ready())[0]?.claimedBy).toBeUndefined();
    expect(await b.claim('1', { run: 'run-b', checkpoint: 'cp-b' }, at(T0 + HOUR), false)).toMatchObject({ won: true });
    // The same text by a member (a personal token's owner) is a claim.
    w.server.issue(1)!.comments[0]!.authorAssociation = 'MEMBER';
    expect((await w.run('run-c').ready())[0]?.claimedBy?.run).toBe('x');
  });

  it('the same loop’s next run (resuming its cycle) takes over its loop’s live claim in place; a fresh loop may not', async () => {
    const w = await world();
    await w.run('run-1').claim('1', { run: 'run-1', checkpoint: 'cp' }, at(T0 + HOUR), false);
    const next = w.run('run-2');
    expect(await next.claim('1', { run: 'run-2', checkpoint: 'cp' }, at(T0 + HOUR), false)).toMatchObject({
      won: false,
    });
    expect(await next.claim('1', { run: 'run-2', checkpoint: 'cp' }, at(T0 + 2 * HOUR), true)).toEqual({
      won: true,
      adopted: [],
    });
    const claims = claimComments(w.server.issue(1)!);
    expect(claims).toHaveLength(1);
    expect(parseClaimComment(claims[0]!.body)).toMatchObject({ run: 'run-2', expires: at(T0 + 2 * HOUR) });
  });
});
