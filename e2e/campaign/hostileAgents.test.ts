/**
 * Campaign, hostile agents (issue 11): agents that move branches, reset, rewrite history, garble or
 * truncate the issues file, stage the state directory, or write tokens into the tree. A case holds
 * when main holds no commit the engine did not intend (nothing merged after a move, no state file
 * and no planted token in any commit) and the run ends with the documented exit code and reason.
 */
import { afterAll, describe, expect, it } from '@jest/globals';
import {
  type Sandbox,
  DONE_REPORT,
  createSandbox,
  git,
  issue,
  lastResult,
  runArgs,
  runCli,
  writeAgent,
} from '../helpers.js';
import { campaign } from './tally.js';

const tally = campaign('hostile-agents');
const sandboxes: Sandbox[] = [];
afterAll(async () => {
  await Promise.all(sandboxes.map((s) => s.cleanup()));
});

const TOKEN = `ghp_${'Zz9Yy8Xx7W'.repeat(4)}`;
const COMMIT = 'git -c user.name=a -c user.email=a@b commit -q';

interface Case {
  name: string;
  script: string;
  haltReason: string | undefined;
  /** Whether main may gain the cycle's merge. */
  mergeAllowed: boolean;
  args?: string[];
}

const CASES: Case[] = [
  {
    name: 'switches to a new branch',
    script: 'git checkout -q -b elsewhere',
    haltReason: 'repository_moved',
    mergeAllowed: false,
  },
  { name: 'detaches HEAD', script: 'git checkout -q --detach', haltReason: 'repository_moved', mergeAllowed: false },
  {
    name: 'resets main to an unrelated commit',
    script: `git checkout -q --orphan tmp && ${COMMIT} --allow-empty -m unrelated && git branch -f main HEAD && git checkout -q agent-loop/bd-1`,
    haltReason: 'repository_moved',
    mergeAllowed: false,
  },
  {
    name: 'commits on the cycle branch, then resets it away',
    script: `${COMMIT} --allow-empty -m mine && git reset -q --hard HEAD~1 && echo good > value.txt`,
    haltReason: undefined,
    mergeAllowed: true,
  },
  {
    name: 'deletes the cycle branch (checks out main)',
    script: 'git stash -q -u; git checkout -q main; git branch -D agent-loop/bd-1 -q; git stash pop -q',
    haltReason: 'repository_moved',
    mergeAllowed: false,
  },
  { name: 'renames main', script: 'git branch -m main trunk', haltReason: 'repository_moved', mergeAllowed: false },
  {
    name: 'rewrites the issues file with junk',
    script: "printf 'junk\\n' > .beads/issues.jsonl",
    haltReason: 'source_unreadable',
    mergeAllowed: false,
  },
  {
    name: 'truncates the issues file to zero bytes',
    script: ': > .beads/issues.jsonl',
    haltReason: 'source_unreadable',
    mergeAllowed: false,
  },
  {
    name: 'stages an in-tree state directory with git add -f',
    script: "sed -i '/agent-loop/d' .git/info/exclude; git add -f .agent-loop",
    haltReason: undefined,
    mergeAllowed: true,
    args: ['--state-dir', '.agent-loop'],
  },
  {
    name: 'writes a GitHub token into a file',
    script: `echo 'TOKEN=${TOKEN}' > .env.local`,
    haltReason: 'secret_in_change',
    mergeAllowed: false,
  },
];

/** Cases of an agent that edits the issues it was not given; the run holds when each is worked in its own cycle. */
const OTHER_ISSUE_CASES = [
  {
    name: 'closes another issue it was not given, in the issues file',
    script: `sed -i '/"id":"bd-2"/s/"status":"open"/"status":"closed"/' .beads/issues.jsonl`,
  },
  {
    name: 'removes another issue it was not given from the issues file',
    script: `[ "$AGENT_LOOP_ISSUE_IDS" = bd-1 ] && sed -i '/"id":"bd-2"/d' .beads/issues.jsonl`,
  },
  {
    name: 'sets another issue it was not given to tombstone (deleted) in the issues file',
    script: `sed -i '/"id":"bd-2"/s/"status":"open"/"status":"tombstone"/' .beads/issues.jsonl`,
  },
  {
    name: 'blocks another issue it was not given on itself in the issues file',
    script: `sed -i '/"id":"bd-2"/s/"status":"open"/"status":"open","dependencies":[{"issue_id":"bd-2","depends_on_id":"bd-2","type":"blocks"}]/' .beads/issues.jsonl`,
  },
  {
    name: 'sets another issue it was not given to blocked in the issues file',
    script: `sed -i '/"id":"bd-2"/s/"status":"open"/"status":"blocked"/' .beads/issues.jsonl`,
  },
];

describe('campaign: hostile agents', () => {
  it.each(OTHER_ISSUE_CASES)('an agent that $name', async (c) => {
    const sandbox = await createSandbox([issue('bd-1', 'First'), issue('bd-2', 'Second')]);
    sandboxes.push(sandbox);
    const agent = await writeAgent(
      sandbox,
      'hostile',
      `echo good > value.txt\necho "$AGENT_LOOP_ISSUE_IDS" >> work.txt\n${c.script}\n${DONE_REPORT}`,
    );
    const r = await runCli(sandbox, runArgs(agent));
    const result = lastResult(r.stdout);
    const merges = git(sandbox, 'log', 'main', '--format=%s');
    const reinstated = r.stdout
      .split('\n')
      .filter((line) => line.includes('"event":"issue.reinstated"') && line.includes('"issueId":"bd-2"'));
    // bd-2 was put back after bd-1's agent run, then worked in its own cycle and closed by the engine.
    const held =
      r.code === 0 &&
      result.status === 'complete' &&
      JSON.stringify([...result.issuesClosed].sort()) === '["bd-1","bd-2"]' &&
      /^Merge agent-loop\/bd-1/m.test(merges) &&
      /^Merge agent-loop\/bd-2/m.test(merges) &&
      reinstated.length === 1 &&
      git(sandbox, 'show', 'main:work.txt') === 'bd-1\nbd-2';
    expect(tally.record(c.name, held)).toBe(true);
  });

  it('an agent that closes another issue it was not given, then interrupts agent-loop', async () => {
    const sandbox = await createSandbox([issue('bd-1', 'First'), issue('bd-2', 'Second')]);
    sandboxes.push(sandbox);
    // Once: closes bd-2, then sends SIGINT to the agent-loop process above it (the run stops, resumable).
    const agent = await writeAgent(
      sandbox,
      'hostile',
      [
        'echo good > value.txt',
        'echo "$AGENT_LOOP_ISSUE_IDS" >> work.txt',
        'if [ ! -e ../interrupted ]; then',
        '  touch ../interrupted',
        `  sed -i '/"id":"bd-2"/s/"status":"open"/"status":"closed"/' .beads/issues.jsonl`,
        '  P=$PPID',
        '  while [ "$(cat /proc/$P/comm)" != node ] && [ "$P" != 1 ]; do P=$(cut -d" " -f4 /proc/$P/stat); done',
        '  kill -INT "$P"; sleep 2; exit 1',
        'fi',
        DONE_REPORT,
      ].join('\n'),
    );
    const first = await runCli(sandbox, runArgs(agent));
    const stopped = lastResult(first.stdout);
    const r = await runCli(sandbox, runArgs(agent));
    const result = lastResult(r.stdout);
    const merges = git(sandbox, 'log', 'main', '--format=%s');
    const held =
      stopped.status !== 'complete' &&
      first.stdout.includes('"event":"issue.reinstated"') &&
      r.code === 0 &&
      result.status === 'complete' &&
      /^Merge agent-loop\/bd-2/m.test(merges) &&
      git(sandbox, 'show', 'main:work.txt').split('\n').includes('bd-2');
    expect(tally.record('closes another issue it was not given, then interrupts agent-loop', held)).toBe(true);
  });

  it.each(CASES)('an agent that $name', async (c) => {
    const sandbox = await createSandbox([issue('bd-1', 'First')]);
    sandboxes.push(sandbox);
    const mainBefore = git(sandbox, 'rev-parse', 'main');
    const agent = await writeAgent(sandbox, 'hostile', `echo good > value.txt\n${c.script}\n${DONE_REPORT}`);
    const r = await runCli(sandbox, runArgs(agent, ...(c.args ?? [])));
    let result;
    try {
      result = lastResult(r.stdout);
    } catch {
      result = undefined;
    }
    const everything = git(sandbox, 'log', '--all', '-p', '--format=%B');
    const files = git(sandbox, 'log', '--all', '--format=', '--name-only');
    const merged = /^Merge agent-loop\/bd-1/m.test(git(sandbox, 'log', '--all', '--format=%s'));
    const held =
      result !== undefined &&
      (result.haltReason ?? undefined) === c.haltReason &&
      r.code === (c.haltReason ? 1 : 0) &&
      (c.mergeAllowed || !merged) &&
      !everything.includes(TOKEN) &&
      !files.includes('.agent-loop/') &&
      (c.haltReason !== 'repository_moved' ||
        !git(sandbox, 'branch', '--list', 'main') ||
        git(sandbox, 'rev-parse', 'main') === mainBefore ||
        !merged);
    expect(tally.record(c.name, held)).toBe(true);
  });
});
