/**
 * Issue 11, "work is never lost or misattributed": the cycle is recorded before its first agent
 * run; the agent stays in its lane (a moved HEAD or base branch halts repository_moved, merging
 * nothing); commits are clean (messages through a file, masked, one line; the state directory
 * never staged; a change holding a secret never committed).
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { spawn } from 'node:child_process';
import { existsSync, promises as fs } from 'node:fs';
import path from 'node:path';
import {
  type Sandbox,
  CLI,
  DONE_REPORT,
  commit,
  createSandbox,
  explain,
  git,
  issue,
  lastResult,
  runArgs,
  runCli,
  writeAgent,
} from './helpers.js';
import { waitFor } from './crashHelpers.js';

const sandboxes: Sandbox[] = [];
afterEach(async () => {
  await Promise.all(sandboxes.splice(0).map((s) => s.cleanup()));
});

async function sandboxWith(...issues: Parameters<typeof createSandbox>[0][]): Promise<Sandbox> {
  const s = await createSandbox(issues[0]);
  sandboxes.push(s);
  return s;
}

/** Marks the issue closed in the beads file, as an agent with the bd workflow would. */
const CLOSE_ISSUE = `node -e '
const fs = require("fs"); const f = ".beads/issues.jsonl";
const ids = process.env.AGENT_LOOP_ISSUE_IDS.split(",");
fs.writeFileSync(f, fs.readFileSync(f, "utf8").split("\\n").map((l) => { if (!l) return l; const o = JSON.parse(l); if (ids.includes(o.id)) o.status = "closed"; return JSON.stringify(o); }).join("\\n"));
'`;

describe('record before act (issue 11)', () => {
  it("a SIGKILL during a cycle's first agent run, after the agent closed its issue: the next run resumes that cycle, and each issue's commit holds only its own work", async () => {
    const sandbox = await sandboxWith([issue('bd-1', 'First'), issue('bd-2', 'Second')]);
    const hanging = await writeAgent(
      sandbox,
      'hanging',
      `echo "fix for $AGENT_LOOP_ISSUE_IDS" > "fix-$AGENT_LOOP_ISSUE_IDS.txt"
echo good > value.txt
${CLOSE_ISSUE}
touch "$NOTES/started"
exec sleep 300`,
    );
    const child = spawn(process.execPath, [CLI, ...runArgs(hanging)], {
      cwd: sandbox.repo,
      env: sandbox.env,
      stdio: 'ignore',
    });
    const closed = new Promise((resolve) => child.on('close', resolve));
    await waitFor('the agent to close bd-1', () => existsSync(path.join(sandbox.root, 'started')));
    child.kill('SIGKILL');
    await closed;

    const agent = await writeAgent(
      sandbox,
      'agent',
      `echo "fix for $AGENT_LOOP_ISSUE_IDS" > "fix-$AGENT_LOOP_ISSUE_IDS.txt"\necho good > value.txt\n${DONE_REPORT}`,
    );
    const r = await runCli(sandbox, runArgs(agent));
    expect(r.code).toBe(0);
    expect(lastResult(r.stdout).status).toBe('complete');
    const files = (subject: string) =>
      git(sandbox, 'log', 'main', '--format=', '--name-only', `--grep=^agent-loop: ${subject}`)
        .split('\n')
        .filter(Boolean);
    expect(files('bd-1')).toContain('fix-bd-1.txt');
    expect(files('bd-2')).toContain('fix-bd-2.txt');
    expect(files('bd-2')).not.toContain('fix-bd-1.txt');
  });
});

const MOVES: Array<[string, string, RegExp]> = [
  ['switches to another branch', 'git checkout -q -b other', /HEAD was on agent-loop\/bd-1 and is now on other/],
  ['detaches HEAD', 'git checkout -q --detach', /HEAD was on agent-loop\/bd-1 and is now detached at [0-9a-f]{12}/],
  [
    'moves main (git branch -f main)',
    'git -c user.name=a -c user.email=a@b commit -q --allow-empty -m sneaky && git branch -f main HEAD',
    /the base branch main was at [0-9a-f]{12} and is now at [0-9a-f]{12}/,
  ],
  [
    'commits on main',
    'git stash -q -u && git checkout -q main && echo x > sneaky.txt && git add sneaky.txt && git -c user.name=a -c user.email=a@b commit -q -m sneaky && git checkout -q agent-loop/bd-1 && git stash pop -q',
    /the base branch main was at/,
  ],
];

describe('the agent stays in its lane (issue 11)', () => {
  it.each(MOVES)(
    'an agent that %s: halted repository_moved, exit 1, main not merged into',
    async (_name, move, what) => {
      const sandbox = await sandboxWith([issue('bd-1', 'First')]);
      const before = git(sandbox, 'rev-parse', 'main');
      const agent = await writeAgent(sandbox, 'mover', `echo good > value.txt\n${move}\n${DONE_REPORT}`);
      const r = await runCli(sandbox, runArgs(agent));
      expect(r.code).toBe(1);
      const result = lastResult(r.stdout);
      expect(result.haltReason).toBe('repository_moved');
      expect(result.error).toMatch(what);
      expect(git(sandbox, 'log', '--all', '--format=%s')).not.toMatch(/^Merge agent-loop\/bd-1/m);
      if (!/main/.test(move)) expect(git(sandbox, 'rev-parse', 'main')).toBe(before);
    },
  );

  it('an agent that resets its branch below the base tip (git reset --hard HEAD~1): halted repository_moved before its work is judged; what was tested would not be what lands', async () => {
    // Found by a new user's red-suite pass: the old tree was tested green and merged onto a main whose
    // newer commit it lacked, and main's suite was red after the merge.
    const sandbox = await sandboxWith([issue('bd-1', 'First')]);
    await fs.writeFile(path.join(sandbox.repo, 'later.txt'), 'a later commit on main\n');
    git(sandbox, 'add', 'later.txt');
    commit(sandbox, 'a second commit on main');
    const before = git(sandbox, 'rev-parse', 'main');
    const agent = await writeAgent(
      sandbox,
      'rewinder',
      `git reset -q --hard HEAD~1\necho good > value.txt\n${DONE_REPORT}`,
    );
    const r = await runCli(sandbox, runArgs(agent));
    expect(r.code).toBe(1);
    const result = lastResult(r.stdout);
    expect(result.haltReason).toBe('repository_moved');
    expect(result.error).toMatch(
      /agent-loop\/bd-1 was taken back from [0-9a-f]{12} to [0-9a-f]{12}, which does not hold it/,
    );
    expect(result.issuesClosed).toEqual([]);
    expect(git(sandbox, 'rev-parse', 'main')).toBe(before);
    expect(git(sandbox, 'log', '--all', '--format=%s')).not.toMatch(/^Merge agent-loop\/bd-1/m);
  });

  it('an agent that commits on its branch and undoes its own commit (reset to where agent-loop left it): not a move, its work is judged', async () => {
    const sandbox = await sandboxWith([issue('bd-1', 'First')]);
    const agent = await writeAgent(
      sandbox,
      'undoer',
      `echo bad > value.txt && git add value.txt && git -c user.name=a -c user.email=a@b commit -q -m "try" && git reset -q --hard HEAD~1\necho good > value.txt\n${DONE_REPORT}`,
    );
    const r = await runCli(sandbox, runArgs(agent));
    expect(r.code).toBe(0);
    expect(lastResult(r.stdout)).toMatchObject({ status: 'complete', issuesClosed: ['bd-1'] });
  });

  it('an agent that switches branches and whose work is rejected (no commit follows): halted repository_moved right after that agent run, its work not judged, nothing closed', async () => {
    // Found on a real project: the move went unseen because the cycle ended in a halt that commits nothing.
    const sandbox = await sandboxWith([issue('bd-1', 'First')]);
    const agent = await writeAgent(
      sandbox,
      'mover',
      `if [ "$AGENT_LOOP_ITERATION" = 2 ]; then git checkout -q -b sneaky; fi\n${DONE_REPORT}`,
    );
    const r = await runCli(sandbox, runArgs(agent));
    expect(r.code).toBe(1);
    const result = lastResult(r.stdout);
    expect(result).toMatchObject({ haltReason: 'repository_moved', iterations: 2 });
    expect(result.error).toMatch(
      /before it would judge the work of iteration 2: HEAD was on agent-loop\/bd-1 and is now on sneaky/,
    );
    expect(result.history.map((h) => h.outcome)).toEqual(['tests_failed', 'repository_moved']);
    // Its work was not judged: nothing closed, the issue still open in the file the run started from.
    expect(result.issuesClosed).toEqual([]);
  });

  it('an agent that leaves the issues file unreadable: halted source_unreadable, not "the work is done"', async () => {
    const sandbox = await sandboxWith([issue('bd-1', 'First')]);
    const agent = await writeAgent(
      sandbox,
      'garbler',
      `echo good > value.txt\nprintf 'not json\\n{{{\\n' > .beads/issues.jsonl\n${DONE_REPORT}`,
    );
    const r = await runCli(sandbox, runArgs(agent));
    expect(r.stdout).not.toContain('No ready issues left');
    expect(r.code).toBe(1);
    expect(lastResult(r.stdout).haltReason).toBe('source_unreadable');
    expect(git(sandbox, 'show', 'main:.beads/issues.jsonl')).toContain('"id":"bd-1"'); // nothing merged
  });
});

describe('commit hygiene (issue 11)', () => {
  it('a lying agent that closes its own issue and says done: escalated, and its wip: commit holds the issue open, so the next attempt neither conflicts nor takes it for done', async () => {
    // Found by a new user's red-suite pass: the closing went into the wip: commit, the next run stopped
    // on a conflict in the issues file, and the run after it said COMPLETE with nothing fixed.
    const sandbox = await sandboxWith([issue('bd-1', 'First')]);
    const liar = await writeAgent(sandbox, 'liar', `echo tried > attempt.txt\n${CLOSE_ISSUE}\n${DONE_REPORT}`);
    const r = await runCli(sandbox, runArgs(liar));
    expect(r.code).toBe(1);
    expect(lastResult(r.stdout)).toMatchObject({ haltReason: 'all_escalated', issuesClosed: [] });
    const onBranch = git(sandbox, 'show', 'agent-loop/bd-1:.beads/issues.jsonl');
    expect(JSON.parse(onBranch.split('\n')[0] ?? '{}')).toMatchObject({ id: 'bd-1', status: 'open' });
    expect(git(sandbox, 'show', 'agent-loop/bd-1:attempt.txt')).toBe('tried');
    expect(r.stdout).toMatch(/"event":"issue\.reinstated"/);
  });

  const token = `ghp_${'A1b2C3d4E5'.repeat(4)}`;

  it('an issue title with NUL, CR, ANSI, a newline with ::error and a token: the commit is one clean, masked line, and the iteration is recorded', async () => {
    const title = `Fix\u0000 the\r value \u001b[31mred\u001b[0m\n::error ::forged ${token}`;
    const sandbox = await sandboxWith([issue('bd-1', title)]);
    const agent = await writeAgent(sandbox, 'agent', `echo good > value.txt\n${DONE_REPORT}`);
    const r = await runCli(sandbox, runArgs(agent));
    expect(explain(r)).toMatch(/^exit 0/);
    expect(lastResult(r.stdout).iterations).toBe(1);
    const log = git(sandbox, 'log', 'main', '--format=%B');
    expect(log).not.toContain(token);
    for (const c of ['\u0000', '\r', '\u001b']) expect(log).not.toContain(c);
    expect(log).not.toMatch(/^::/m);
    expect(log).toContain('agent-loop: bd-1 Fix the value red ::error ::forged ghp_***');
  });

  it('an agent that deletes the exclude line and stages the in-tree state directory: nothing of it is committed', async () => {
    const sandbox = await sandboxWith([issue('bd-1', 'First')]);
    const agent = await writeAgent(
      sandbox,
      'agent',
      `echo good > value.txt
sed -i '/agent-loop/d' .git/info/exclude
git add -f .agent-loop 2>/dev/null
${DONE_REPORT}`,
    );
    const r = await runCli(sandbox, runArgs(agent, '--state-dir', '.agent-loop'));
    expect(r.code).toBe(0);
    expect(git(sandbox, 'log', '--all', '--format=', '--name-only')).not.toContain('.agent-loop/');
  });

  it('an agent that writes a token into a file: nothing is committed, halted secret_in_change naming the file, never the token', async () => {
    const sandbox = await sandboxWith([issue('bd-1', 'First')]);
    const agent = await writeAgent(
      sandbox,
      'leaker',
      `echo good > value.txt\necho 'token = "${token}"' > config.txt\n${DONE_REPORT}`,
    );
    const r = await runCli(sandbox, runArgs(agent));
    expect(r.code).toBe(1);
    const result = lastResult(r.stdout);
    expect(result.haltReason).toBe('secret_in_change');
    expect(result.error).toContain('config.txt');
    expect(r.stdout + r.stderr).not.toContain(token);
    expect(git(sandbox, 'log', '--all', '--format=', '--name-only')).not.toContain('config.txt');
  });

  it('an agent that commits a token itself, then removes it in a second commit: halted secret_in_change naming the commit, main never holds it', async () => {
    // Found by a new user's red-suite pass: the final tree was clean, so the branch was merged with the token in its history.
    const sandbox = await sandboxWith([issue('bd-1', 'First')]);
    const id = '-c user.name=a -c user.email=a@b';
    const agent = await writeAgent(
      sandbox,
      'committer',
      `echo good > value.txt\necho 'token = "${token}"' > leak.py\ngit add leak.py value.txt && git ${id} commit -q -m "add the key"\ngit rm -q leak.py && git ${id} commit -q -m cleanup\n${DONE_REPORT}`,
    );
    const before = git(sandbox, 'rev-parse', 'main');
    const r = await runCli(sandbox, runArgs(agent));
    expect(r.code).toBe(1);
    const result = lastResult(r.stdout);
    expect(result.haltReason).toBe('secret_in_change');
    expect(result.error).toMatch(/the agent's own commits add what looks like a secret.*[0-9a-f]{12} \(leak\.py\)/);
    expect(r.stdout + r.stderr).not.toContain(token);
    expect(git(sandbox, 'rev-parse', 'main')).toBe(before);
    expect(git(sandbox, 'log', 'main', '-p', '--format=%B')).not.toContain(token);
  });

  it("a declared secret's value in a file is refused too", async () => {
    const sandbox = await sandboxWith([issue('bd-1', 'First')]);
    const secret = 'my-deploy-key-0123456789';
    const agent = await writeAgent(
      sandbox,
      'leaker',
      `echo good > value.txt\necho "$DEPLOY_TOKEN" > notes.txt\n${DONE_REPORT}`,
    );
    const r = await runCli(sandbox, runArgs(agent), { env: { DEPLOY_TOKEN: secret } });
    expect(r.code).toBe(1);
    expect(lastResult(r.stdout).haltReason).toBe('secret_in_change');
    await expect(fs.readFile(path.join(sandbox.repo, 'notes.txt'), 'utf8')).resolves.toContain(secret); // left for the person
    expect(git(sandbox, 'log', '--all', '-p')).not.toContain(secret);
  });
});
