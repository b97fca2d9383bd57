/**
 * Issue 14: every outside effect of a cycle is durable and idempotent. The bundled action works
 * three issues against the GitHub REST stand-in and git over smart HTTP, one cycle each: #1 is
 * fixed (its branch pushed, a pull request opened, the issue labelled agent-loop:pr-open), #2 needed
 * no change (labelled agent-loop:no-change, commented, closed: its `verify:` passes), #3 is stuck
 * (escalated: its wip: pushed, labelled agent-loop:escalated, commented). A clean run counts the
 * outside effects (the pushes and the mutating REST requests); then, for every k, a runner's main
 * is SIGKILLed when the k-th of them reaches the servers (which still perform it: the runner never
 * sees the answer), its post publishes the state directory as on GitHub (post runs after a killed
 * main), and a fresh runner runs again. Each time the end state is the clean run's: one pull
 * request, one comment per kind, the labels once, #2 closed, and each issue's agent ran once.
 * Issue 15: each issue keeps one progress comment (its claim comment, released), first on the issue,
 * saying how its work ended.
 */
import { afterAll, describe, expect, it } from '@jest/globals';
import { execFileSync, spawn } from 'node:child_process';
import { promises as fs, readFileSync } from 'node:fs';
import path from 'node:path';
import { DIST, parseFileCommands, runStep, workflowRun } from './actionRunner.js';
import { DONE_REPORT, type Sandbox, git, hasBranch, writeAgent } from './helpers.js';
import type { ActionsServices } from './support/actionsServices.js';
import type { GitHttpServer } from './support/gitHttpServer.js';
import type { GitHubServer } from './support/githubServer.js';
import { LABEL, startGitHubRig } from './githubRig.js';

const MUTATING = new Set(['POST', 'PATCH', 'PUT', 'DELETE']);

const STUCK_REPORT = `cat <<'EOF'
Cannot do this one.
\`\`\`yaml
work_remaining: 3
requires_continuation: true
stuck_detected: true
summary: stuck
\`\`\`
EOF
`;

interface World {
  services: ActionsServices;
  gh: GitHubServer;
  remote: GitHttpServer;
  sb: Sandbox;
  origin: string;
  agent: string;
  /** The outside effects the servers received, in order: `push <branch?>` or `METHOD path`. */
  effects: string[];
  close(): Promise<void>;
}

async function world(): Promise<World> {
  // The servers and the repository of the GitHub e2e rig; this file runs the action's steps itself.
  const rig = await startGitHubRig();
  const { services, gh, remote, sb, origin } = rig;
  gh.addIssue({ title: 'Make the value good', labels: [LABEL] });
  gh.addIssue({
    title: 'Check that check.sh exists',
    body: 'It should be there already.\n\n```agent-loop\nverify:\n  - test -f check.sh\n```\n',
    labels: [LABEL],
  });
  gh.addIssue({ title: 'Something impossible', labels: [LABEL] });
  const agent = await writeAgent(
    sb,
    'three',
    `echo "$AGENT_LOOP_ISSUE_IDS" >> "$NOTES/worked"
case "$AGENT_LOOP_ISSUE_IDS" in
  1) echo good > value.txt
${DONE_REPORT};;
  2) ${DONE_REPORT};;
  *) echo "tried" > notes.txt
${STUCK_REPORT};;
esac`,
  );
  const effects: string[] = [];
  gh.observe((r) => {
    if (MUTATING.has(r.method)) effects.push(`${r.method} ${r.path}`);
  });
  remote.observe((r) => {
    if (r.service === 'receive-pack' && r.method === 'POST') effects.push('push');
  });
  return {
    services,
    gh,
    remote,
    sb,
    origin,
    agent,
    effects,
    close: () => rig.close(),
  };
}

/** A fresh runner: the checkout at origin's main, no local cycle branch, nothing left in the work tree. */
function freshCheckout(w: World) {
  git(w.sb, 'checkout', '-q', '-f', 'main');
  git(w.sb, 'clean', '-q', '-fdx');
  for (const b of git(w.sb, 'for-each-ref', '--format=%(refname:short)', 'refs/heads/agent-loop/')
    .split('\n')
    .filter(Boolean))
    git(w.sb, 'branch', '-q', '-D', b);
}

function runEnv(w: World, runId: number): NodeJS.ProcessEnv {
  const env = w.services.env({ runId, attempt: 1 });
  return {
    ...w.sb.env,
    ...env,
    RUNNER_TEMP: path.join(w.sb.root, 'tmp'),
    GITHUB_SERVER_URL: w.remote.serverUrl,
    no_proxy: 'github.localhost',
    NO_PROXY: 'github.localhost',
    INPUT_AGENT: 'command',
    'INPUT_AGENT-COMMAND': w.agent,
    'INPUT_ITERATION-DELAY': '0',
    'INPUT_TEST-COMMAND': 'sh check.sh',
    INPUT_LABEL: LABEL,
    'INPUT_GITHUB-TOKEN': env.GITHUB_TOKEN ?? '',
  };
}

async function scheduledRun(w: World, runId: number) {
  freshCheckout(w);
  const env = runEnv(w, runId);
  await fs.mkdir(env.RUNNER_TEMP as string, { recursive: true });
  return workflowRun({ runId, repo: w.sb.repo, scratch: w.sb.root, env });
}

/**
 * A run whose main is SIGKILLed when the k-th outside effect reaches the servers (the request is
 * still performed), then its post, as the runner runs post after a killed main.
 */
async function killedRun(w: World, runId: number, k: number) {
  freshCheckout(w);
  const env = runEnv(w, runId);
  await fs.mkdir(env.RUNNER_TEMP as string, { recursive: true });
  await fs.rm(path.join(env.RUNNER_TEMP as string, 'agent-loop'), { recursive: true, force: true });
  const files = {
    GITHUB_OUTPUT: path.join(w.sb.root, `output-${runId}`),
    GITHUB_STATE: path.join(w.sb.root, `state-${runId}`),
    GITHUB_STEP_SUMMARY: path.join(w.sb.root, `summary-${runId}`),
  };
  for (const f of Object.values(files)) await fs.writeFile(f, '');
  const stepEnv = { ...env, ...files, GITHUB_WORKSPACE: w.sb.repo };
  const child = spawn(process.execPath, [path.join(DIST, 'main', 'index.js')], {
    cwd: w.sb.repo,
    env: stepEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout.on('data', (c: Buffer) => (log += c.toString()));
  child.stderr.on('data', (c: Buffer) => (log += c.toString()));
  const start = w.effects.length;
  let killedAt: string | undefined;
  const kill = () => {
    if (killedAt === undefined && w.effects.length - start >= k) {
      killedAt = w.effects.at(-1);
      child.kill('SIGKILL');
    }
  };
  const stops = [w.gh.observe(kill), w.remote.observe(kill)];
  const exit = await new Promise<NodeJS.Signals | null>((resolve) => child.on('close', (_c, s) => resolve(s)));
  for (const stop of stops) stop();
  if (exit !== 'SIGKILL') return { killedAt: undefined, log };
  const state = parseFileCommands(readFileSync(files.GITHUB_STATE, 'utf8'));
  const post = await runStep(
    'post',
    { ...stepEnv, ...Object.fromEntries(Object.entries(state).map(([n, v]) => [`STATE_${n}`, v])) },
    w.sb.repo,
  );
  return { killedAt, post };
}

/** An issue's progress comment (issue 15: its claim comment, released), saying how the work ended. */
const progress = (headline: string) =>
  expect.stringMatching(new RegExp(`^<!-- agent-loop:claim \\{.*"released":true[^}]*\\} -->\n\\*\\*${headline}`));

/** The end state every run must reach, killed or not. */
async function expectEndState(w: World) {
  const { gh } = w;
  const prs = gh.pulls();
  expect(prs.map((p) => p.pull?.head)).toEqual(['agent-loop/issue-1']);
  expect(gh.issue(1)).toMatchObject({ state: 'open', labels: [LABEL, 'agent-loop:pr-open'] });
  expect(gh.issue(1)?.comments.map((c) => c.body)).toEqual([
    progress(`The work is in pull request \\[#${prs[0]?.number}\\]\\(.*\\)\\*\\*`),
  ]);
  expect(gh.issue(2)).toMatchObject({ state: 'closed', labels: [LABEL, 'agent-loop:no-change'] });
  expect(gh.issue(2)?.comments.map((c) => c.body)).toEqual([
    progress('No change needed'),
    expect.stringContaining('no change was needed'),
  ]);
  const three = gh.issue(3);
  expect(three?.state).toBe('open');
  expect(three?.labels).toEqual([LABEL, 'agent-loop:escalated']);
  expect(three?.comments.map((c) => c.body)).toEqual([
    progress('Escalated'),
    expect.stringContaining('escalated this issue'),
  ]);
  expect(hasBranch(w.origin, 'agent-loop/issue-1')).toBe(true);
  expect(hasBranch(w.origin, 'agent-loop/issue-3')).toBe(true);
  expect(
    execFileSync('git', ['--git-dir', w.origin, 'show', 'agent-loop/issue-1:value.txt'], { encoding: 'utf8' }),
  ).toBe('good\n');
  // Each issue's agent ran once, across both runs.
  expect((await fs.readFile(path.join(w.sb.root, 'worked'), 'utf8')).split('\n').filter(Boolean)).toEqual([
    '1',
    '2',
    '3',
  ]);
}

/**
 * Two pushes (#1's work, #3's wip:), the pull request, each label, comment and close, and each
 * issue's claim (the in-progress label, the claim comment, its release: the comment edited to how
 * the work ended, issue 15, and the label deleted).
 */
const EFFECTS = 21;

/** Worlds killed and resumed at the same time in the every-k test. */
const CONCURRENT_WORLDS = 4;

describe('issue 14: a SIGKILL between every pair of outside effects of a cycle', () => {
  let count = 0;
  const hits: string[] = [];
  afterAll(() => {
    process.stdout.write(`outside effects: ${count}; killed at: ${hits.join(' | ')}\n`);
  });

  it('a clean run: three cycles, their effects counted', async () => {
    const w = await world();
    try {
      const r = await scheduledRun(w, 100);
      // Only the escalated #3 is left at the end: the run halts all_escalated (once; later runs are quiet).
      expect(r.main.code).toBe(1);
      expect(r.outputs).toMatchObject({ status: 'halted', 'halt-reason': 'all_escalated', iterations: '3' });
      await expectEndState(w);
      count = w.effects.length;
      expect(w.effects.filter((e) => e === 'push')).toHaveLength(2);
      expect(count).toBe(EFFECTS);
    } finally {
      await w.close();
    }
  }, 60_000);

  it('killed at the k-th effect for every k, a fresh runner ends in the same state: nothing twice, nothing lost, no agent run again', async () => {
    const failures: string[] = [];
    const killedAt: string[] = [];
    const tryKillingAt = async (k: number) => {
      const w = await world();
      try {
        const killed = await killedRun(w, 200 + k, k);
        killedAt[k - 1] = `${k}: ${killed.killedAt}`;
        if (!killed.post) {
          failures.push(`kill at effect ${k}: main ended before it (${w.effects.length} effects)`);
          return;
        }
        if (killed.post.code !== 0) {
          failures.push(
            `kill at effect ${k} (${killed.killedAt}): post exited ${killed.post.code}\n${killed.post.log}`,
          );
          return;
        }
        const r = await scheduledRun(w, 300 + k);
        if (r.outputs['halt-reason'] !== 'all_escalated')
          failures.push(
            `kill at effect ${k} (${killed.killedAt}): the next run ended ${r.outputs.status}\n${r.main.log.split('\n').slice(-30).join('\n')}`,
          );
        else
          await expectEndState(w).catch((error: unknown) =>
            failures.push(
              `kill at effect ${k} (${killed.killedAt}), effects ${w.effects.join(', ')}: ${(error as Error).message.split('\n').slice(0, 12).join('\n')}`,
            ),
          );
      } finally {
        await w.close();
      }
    };
    // Each k has its own servers and repository. A run mostly waits (GitHub's one second between
    // mutating requests, three between comments), so a few at a time overlap their waits.
    const ks = Array.from({ length: EFFECTS }, (_, i) => i + 1);
    await Promise.all(
      Array.from({ length: CONCURRENT_WORLDS }, async () => {
        for (let k = ks.shift(); k !== undefined; k = ks.shift())
          await tryKillingAt(k).catch((error: unknown) =>
            failures.push(`kill at effect ${k}: ${(error as Error).stack ?? String(error)}`),
          );
      }),
    );
    hits.push(...killedAt);
    // Every k is tried, and every failure told at once.
    expect(failures).toEqual([]);
  }, 900_000);
});

describe('issue 14: an issue gone after its pull request opened', () => {
  it('deleted while its pull request is opened: its label is dropped with a warning naming it, the run ends green, the next run is not halted', async () => {
    const w = await world();
    try {
      w.gh.updateIssue(2, { labels: [] });
      w.gh.updateIssue(3, { labels: [] });
      // A person deletes #1 as agent-loop opens its pull request: the label then answers 410 Gone.
      const stop = w.gh.observe((r) => {
        if (r.method === 'POST' && r.path.endsWith('/pulls')) w.gh.deleteIssue(1);
      });
      const r = await scheduledRun(w, 400);
      stop();
      expect(r.main.code).toBe(0);
      expect(r.outputs).toMatchObject({ status: 'complete', iterations: '1' });
      expect(r.main.log).toMatch(
        /::warning::.*issue #1 of .* is gone \(deleted or transferred\): it is not labelled agent-loop:pr-open/,
      );
      expect(w.gh.pulls().map((p) => p.pull?.head)).toEqual(['agent-loop/issue-1']);
      const next = await scheduledRun(w, 401);
      expect(next.main.code).toBe(0);
      expect(next.outputs).toMatchObject({ status: 'complete', 'halt-reason': '' });
    } finally {
      await w.close();
    }
  }, 60_000);
});
