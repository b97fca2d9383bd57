/**
 * Issue 43: "A landing against an origin that never answers: the job ends within its timeout, the
 * landing failure recorded, the next run lands it." The bundled action as a scheduled workflow runs
 * it (e2e/githubRig.ts: real git over smart HTTP to a bare origin, the GitHub REST stand-in, the
 * Actions services emulator), with git-timeout-seconds 1.5, against two origins that never answer a
 * push: (1) one whose pre-receive hook does not end (it waits for the test to release it, up to a
 * minute), (2) a loopback server that accepts the push's connection and never answers (fetches pass
 * through to the real origin). Both landings: a pull request (the push precedes it) and on-success
 * merge (pushed onto main). The next run comes after the landing's backoff (its clock a few minutes
 * ahead, as a later scheduled run's is), with the origin answering again.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { existsSync, promises as fs, readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import path from 'node:path';
import { DONE_REPORT, commit, git, hasBranch, issue, writeAgent } from './helpers.js';
import { type GitHubRig, LABEL, startGitHubRig } from './githubRig.js';

let rig: GitHubRig;
/** The silent origin of the test, closed after it even when the test timed out (its push then ends). */
let silent: { url: string; close(): Promise<void> } | undefined;
beforeEach(async () => {
  rig = await startGitHubRig();
});
afterEach(async () => {
  await silent?.close();
  silent = undefined;
  await fs.writeFile(released(), ''); // a hook still waiting ends (and its receive-pack with it)
  await rig.close();
});

const TIMEOUT_S = 1.5;
/** A minute: what a hung hook waits at most, so that the old code's hang ends with the test's timeout. */
const HOOK_WAIT_TENTHS = 600;
const released = () => path.join(rig.sb.root, 'release-hook');

/** A pre-receive hook that does not end until released (then declines), as a sleeping hook does. */
function hangingHook(): Promise<string> {
  return rig.preReceiveHook(
    'i=0',
    `while [ ! -e '${released()}' ] && [ $i -lt ${HOOK_WAIT_TENTHS} ]; do sleep 0.1; i=$((i+1)); done`,
    "echo 'released by the test' >&2",
    'exit 1',
  );
}

/**
 * A loopback origin that accepts a push's connection and never answers it; fetches and ls-remote
 * are passed through to the real origin with the token (the action's header is keyed to the real
 * server). Its URL, and close.
 */
async function silentForPushes(): Promise<{ url: string; close(): Promise<void> }> {
  const target = new URL(rig.remote.url);
  const auth = `Basic ${Buffer.from(`x-access-token:${rig.services.githubToken}`).toString('base64')}`;
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    if (/receive-pack/.test(req.url ?? '')) return; // accepted, never answered
    const forward = http.request(
      {
        host: '127.0.0.1',
        port: target.port,
        method: req.method,
        path: `${target.pathname}${req.url?.replace(/^\/[^/]+/, '') ?? ''}`,
        headers: { ...req.headers, host: target.host, authorization: auth },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    req.pipe(forward);
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://github.localhost:${(server.address() as AddressInfo).port}/origin.git`,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A later scheduled run's clock: `ms` ahead of now (Date and Date.now in the action's process), GitHub's too. */
async function clockAhead(ms: number): Promise<NodeJS.ProcessEnv> {
  const file = path.join(rig.sb.root, 'clock-ahead.mjs');
  await fs.writeFile(
    file,
    `const Real = Date;\nconst ahead = ${ms};\n` +
      'class Later extends Real {\n  constructor(...a) { if (a.length === 0) super(Real.now() + ahead); else super(...a); }\n' +
      '  static now() { return Real.now() + ahead; }\n}\nglobalThis.Date = Later;\n',
  );
  rig.githubAhead = ms;
  return { NODE_OPTIONS: `--import ${file}` };
}

const fixer = () =>
  writeAgent(
    rig.sb,
    'fixer',
    `echo "$AGENT_LOOP_ISSUE_IDS" >> "$NOTES/worked"\necho good > value.txt\necho fixed > "fixed-$AGENT_LOOP_ISSUE_IDS.txt"\n${DONE_REPORT}`,
  );
const worked = () => readFileSync(path.join(rig.sb.root, 'worked'), 'utf8');
const originFile = (ref: string, file: string) =>
  execFileSync('git', ['--git-dir', rig.origin, 'show', `${ref}:${file}`], { encoding: 'utf8' });

type Mode = 'pull-request' | 'merge';

/** The backlog and inputs of a mode: a labelled GitHub issue (a pull request), or beads bd-1 with on-success merge. */
async function backlog(mode: Mode): Promise<{ inputs: Record<string, string>; id: string }> {
  const timeout = { 'git-timeout-seconds': String(TIMEOUT_S) };
  if (mode === 'pull-request') {
    rig.gh.addIssue({ title: 'Make the value good', labels: [LABEL] });
    return { inputs: timeout, id: '1' };
  }
  await fs.writeFile(
    path.join(rig.sb.repo, '.beads', 'issues.jsonl'),
    `${JSON.stringify(issue('bd-1', 'Fix bd-1', { created_at: '2026-11-01T00:00:00Z' }))}\n`,
  );
  commit(rig.sb, 'the backlog', { tracked: true });
  await rig.remoteGit('push', '-q', 'origin', 'main');
  return {
    inputs: { ...timeout, source: 'beads', 'issues-file': '.beads/issues.jsonl', 'on-success': 'merge' },
    id: 'bd-1',
  };
}

/** The checkpoint a run wrote (its state directory stays until the next run on this runner). */
function checkpointOf(checkpointId: string | undefined) {
  const file = path.join(rig.sb.root, 'tmp', 'agent-loop', 'checkpoints', `${checkpointId}.json`);
  return JSON.parse(readFileSync(file, 'utf8')) as {
    state: { loop: { outbox: { attempts?: number; lastError?: string; notBefore?: string }[] } };
  };
}

describe.each<[string, Mode]>([
  ['a pull request', 'pull-request'],
  ['on-success merge', 'merge'],
])('a landing as %s against an origin that never answers (issue 43)', (_, mode) => {
  it.each(['a pre-receive hook that does not end', 'a server that accepts the push and never answers'])(
    '%s: the job ends within its timeout, the landing failure is recorded in the checkpoint, and the next run lands it without the agent',
    async (origin) => {
      const { inputs, id } = await backlog(mode);
      const agent = await fixer();
      silent = origin.startsWith('a server') ? await silentForPushes() : undefined;
      const hook = silent ? undefined : await hangingHook();
      if (silent) git(rig.sb, 'remote', 'set-url', 'origin', silent.url);

      const started = Date.now();
      const hung = await rig.scheduledRun(4301, agent, inputs);
      const took = Date.now() - started;
      if (silent) {
        git(rig.sb, 'remote', 'set-url', 'origin', rig.remote.url);
        await silent.close();
        silent = undefined;
      }
      expect(hung.main.code).toBe(0);
      expect(hung.outputs).toMatchObject({ status: 'continuing', iterations: '1', 'issues-closed': '' });
      // The agent and the tests take a few seconds; the landing at most 3 timeouts (4.5 s) and the kills.
      expect(took).toBeLessThan(30_000);
      expect(hung.main.log).toMatch(
        /Could not land the work on .* \(attempt 1\): could not push .*agent-loop ended `git push` to origin: /,
      );
      expect(hung.main.log).toContain(
        'A later run tries again; if the remote is only slow, raise the input git-timeout-seconds.',
      );
      const [entry] = checkpointOf(hung.outputs['checkpoint-id']).state.loop.outbox;
      expect(entry).toMatchObject({ attempts: 1 });
      expect(entry?.lastError).toContain('agent-loop ended `git push` to origin: ');
      expect(Date.parse(entry?.notBefore ?? '')).toBeGreaterThan(started);
      expect(hasBranch(rig.origin, `agent-loop/${mode === 'merge' ? id : `issue-${id}`}`)).toBe(false);
      expect(rig.gh.pulls()).toHaveLength(0);

      // The origin answers again; the next scheduled run comes after the landing's backoff (1 minute).
      if (hook) await fs.rm(hook);
      await fs.writeFile(released(), '');
      const landed = await rig.scheduledRun(4302, agent, inputs, await clockAhead(5 * 60_000));
      expect(landed.main.code).toBe(0);
      expect(landed.outputs).toMatchObject({ status: 'complete', iterations: '0', 'loop-iterations': '1' });
      expect(landed.main.log).toContain('the agent does not run again for it');
      expect(worked()).toBe(`${id}\n`);
      if (mode === 'merge') {
        expect(originFile('main', 'fixed-bd-1.txt')).toBe('fixed\n');
        expect(landed.outputs['issues-closed']).toBe('bd-1');
      } else {
        expect(originFile('agent-loop/issue-1', 'value.txt')).toBe('good\n');
        expect(rig.gh.pulls()).toHaveLength(1);
      }
      expect(existsSync(released())).toBe(true);
    },
    60_000,
  );
});
