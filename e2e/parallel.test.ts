/**
 * `agent-loop run --parallel N` (issue 16, the local half) end to end: the built CLI on temporary
 * beads repositories, each job a real `agent-loop run` child in its own git worktree, with scripted
 * command agents that write one file per issue (and, where the test wants a conflict, the same
 * line of a shared file).
 */
import { describe, expect, it } from '@jest/globals';
import { spawn } from 'node:child_process';
import { existsSync, promises as fs, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import {
  CLI,
  DONE_REPORT,
  type Sandbox,
  commit,
  createSandbox,
  events,
  expectExit,
  git,
  issue,
  lastResult,
  processGone,
  runArgs,
  runCli,
  writeAgent,
} from './helpers.js';
import { startDiscordServer } from './support/discordServer.js';

/**
 * Each invocation: its issue noted (invocations), its prompt kept (prompt-<id>-<k>), a file of its
 * own written (`file-<id>.txt`), and, for the ids in $SHARED, the same line of shared.txt.
 * $NOTES/slow-<id> makes its first invocation wait that many seconds (the crash test kills then).
 */
const AGENT = `id="$AGENT_LOOP_ISSUE_IDS"
echo "$id" >> "$NOTES/invocations"
k=$(grep -c . "$NOTES/invocations")
cp "$AGENT_LOOP_PROMPT_FILE" "$NOTES/prompt-$id-$k"
echo $$ >> "$NOTES/pids"
s=0
if [ -f "$NOTES/slow-$id" ]; then s=$(cat "$NOTES/slow-$id"); rm -f "$NOTES/slow-$id"; fi
touch "$NOTES/started-$id"
sleep "$s"
echo "$id" > "file-$id.txt"
case " $SHARED " in *" $id "*) echo "$id was here" > shared.txt ;; esac
${DONE_REPORT}`;

/**
 * A scripted agent for one job: it notes its issue ($id) in invocations, runs `body`, then says it
 * is done (unless `body` exits first).
 */
const jobAgent = (sb: Sandbox, body: string) =>
  writeAgent(sb, 'agent', `id="$AGENT_LOOP_ISSUE_IDS"\necho "$id" >> "$NOTES/invocations"\n${body}\n${DONE_REPORT}`);

const ids = (n: number) => Array.from({ length: n }, (_, i) => `bd-${i + 1}`);

/** A sandbox whose test passes from the start (value.txt good) and whose issues are `names`. */
async function withRepo(names: string[], body: (sb: Sandbox) => Promise<void>): Promise<void> {
  const sb = await createSandbox(
    names.map((id, i) => issue(id, `Work ${id}`, { created_at: `2026-11-01T09:00:${String(i).padStart(2, '0')}Z` })),
  );
  try {
    await fs.writeFile(path.join(sb.repo, 'value.txt'), 'good\n');
    await fs.writeFile(path.join(sb.repo, 'shared.txt'), 'nobody\n');
    await fs.writeFile(path.join(sb.repo, '.gitignore'), 'notes.local\n');
    git(sb, 'add', '-A');
    commit(sb, 'the value is good; a shared file');
    await body(sb);
  } finally {
    await sb.cleanup();
  }
}

/** `run --parallel n` over the first n issues, its coordinator SIGKILLed once every job's agent has started (each waits 4 s). */
async function killedMidWave(sb: Sandbox, n: number): Promise<{ agent: string; child: ReturnType<typeof spawn> }> {
  for (const id of ids(n)) await fs.writeFile(path.join(sb.root, `slow-${id}`), '4');
  const agent = await writeAgent(sb, 'agent', AGENT);
  const child = spawn(process.execPath, [CLI, ...runArgs(agent, '--parallel', String(n))], {
    cwd: sb.repo,
    env: sb.env,
    stdio: 'ignore',
  });
  const deadline = Date.now() + 60_000;
  while (!ids(n).every((id) => existsSync(path.join(sb.root, `started-${id}`)))) {
    if (Date.now() > deadline) throw new Error('the jobs never started');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  child.kill('SIGKILL');
  await new Promise((resolve) => child.once('exit', resolve));
  return { agent, child };
}

const invocations = (sb: Sandbox) =>
  existsSync(path.join(sb.root, 'invocations'))
    ? readFileSync(path.join(sb.root, 'invocations'), 'utf8').trim().split('\n')
    : [];
const closedOnMain = (sb: Sandbox) =>
  git(sb, 'show', 'main:.beads/issues.jsonl')
    .split('\n')
    .map((l) => JSON.parse(l) as { id: string; status: string })
    .filter((i) => i.status === 'closed')
    .map((i) => i.id)
    .sort();
const worktreeCount = (sb: Sandbox) =>
  git(sb, 'worktree', 'list', '--porcelain')
    .split('\n')
    .filter((l) => l.startsWith('worktree ')).length;
const sorted = (xs: readonly string[]) => [...xs].sort();

describe('agent-loop run --parallel (issue 16)', () => {
  it('works 6 issues 3 at a time: every issue closed on main with its change, the counts the sum of the jobs, no worktree left, the user files untouched', async () => {
    await withRepo(ids(6), async (sb) => {
      // The user's ignored file, uncommitted: never touched.
      await fs.writeFile(path.join(sb.repo, 'notes.local'), 'my own notes\n');
      const agent = await writeAgent(sb, 'agent', AGENT);
      const r = await runCli(sb, runArgs(agent, '--parallel', '3'));
      expectExit(r, 0);

      const result = lastResult(r.stdout) as ReturnType<typeof lastResult> & { waves: number; parallel: number };
      expect(result).toMatchObject({
        status: 'complete',
        iterations: 6,
        successfulIterations: 6,
        failedIterations: 0,
        testsPassed: true,
        waves: 2,
        parallel: 3,
      });
      expect(sorted(result.issuesClosed)).toEqual(ids(6));
      expect(sorted(invocations(sb))).toEqual(ids(6));
      // Main has every change and every closing, merged one job at a time.
      expect(closedOnMain(sb)).toEqual(ids(6));
      for (const id of ids(6)) expect(git(sb, 'show', `main:file-${id}.txt`)).toBe(id);
      expect(
        git(sb, 'log', 'main', '--format=%s')
          .split('\n')
          .filter((s) => s.startsWith('Merge agent-loop/')),
      ).toEqual(expect.arrayContaining(ids(6).map((id) => `Merge agent-loop/${id} (parallel): Work ${id}`)));
      // The main checkout is on main, clean but for the user's own file; no worktree, no job branch.
      expect(git(sb, 'symbolic-ref', '--short', 'HEAD')).toBe('main');
      expect(git(sb, 'status', '--porcelain')).toBe('');
      expect(readFileSync(path.join(sb.repo, 'notes.local'), 'utf8')).toBe('my own notes\n');
      expect(worktreeCount(sb)).toBe(1);
      expect(git(sb, 'branch', '--list', 'agent-loop-wave/*')).toBe('');
      const jobsDir = path.join(sb.repo, '.git', 'agent-loop', 'parallel');
      expect(existsSync(jobsDir) ? readdirSync(jobsDir) : []).toEqual([]);
      // Each job's agent log is kept under the run's state directory.
      expect(
        readFileSync(path.join(sb.repo, '.git', 'agent-loop', 'logs', 'wave-2', 'bd-4', 'iteration-1.log'), 'utf8'),
      ).toContain('work_remaining: 0');
      // One progress line per job event, prefixed with its issue.
      const log = events(r.stdout);
      expect(log.some((e) => e.issue === 'bd-4' && String(e.message).startsWith('[bd-4] '))).toBe(true);
      expect(log.filter((e) => e.event === 'wave.start')).toHaveLength(2);
    });
  });

  it('prints text progress lines prefixed with the issue, and the waves in the summary', async () => {
    await withRepo(ids(2), async (sb) => {
      const agent = await writeAgent(sb, 'agent', AGENT);
      const r = await runCli(
        sb,
        runArgs(agent, '--parallel', '2').filter((a) => a !== '--json'),
      );
      expectExit(r, 0);
      expect(r.stdout).toMatch(/\[bd-1\] \[iteration 1\/\d+\] bd-1 "Work bd-1" done/);
      expect(r.stdout).toMatch(/\[bd-2\] merged into main/);
      expect(r.stdout).toMatch(/COMPLETE[\s\S]*waves 1 \(--parallel 2\)/);
    });
  });

  it('re-queues a job whose merge conflicts: merged once on the new base, with the conflict in its prompt, and counted once', async () => {
    await withRepo(ids(2), async (sb) => {
      const agent = await writeAgent(sb, 'agent', AGENT);
      const r = await runCli(sb, runArgs(agent, '--parallel', '2'), { env: { SHARED: 'bd-1 bd-2' } });
      expectExit(r, 0);
      const result = lastResult(r.stdout) as ReturnType<typeof lastResult> & { waves: number };
      // bd-1 merged in wave 1; bd-2 conflicted on shared.txt, worked again in wave 2 and merged.
      expect(invocations(sb)).toEqual(expect.arrayContaining(['bd-1', 'bd-2', 'bd-2']));
      expect(invocations(sb)).toHaveLength(3);
      expect(result).toMatchObject({ status: 'complete', iterations: 3, waves: 2 });
      expect(sorted(result.issuesClosed)).toEqual(['bd-1', 'bd-2']);
      expect(events(r.stdout).some((e) => e.event === 'merge.conflict' && e.issue === 'bd-2')).toBe(true);
      const retry = readdirSync(sb.root)
        .filter((f) => f.startsWith('prompt-bd-2-'))
        .sort()
        .at(-1) as string;
      const prompt = readFileSync(path.join(sb.root, retry), 'utf8');
      expect(prompt).toMatch(/could not be merged into main: conflicting changes in shared\.txt/);
      // Main holds both: bd-2's second attempt was made on top of bd-1's.
      expect(git(sb, 'show', 'main:shared.txt')).toBe('bd-2 was here');
      expect(closedOnMain(sb)).toEqual(['bd-1', 'bd-2']);
      // The conflicting first attempt is kept for inspection; no worktree left.
      expect(git(sb, 'branch', '--list', 'agent-loop-conflict/*')).toContain('agent-loop-conflict/bd-2-wave-1');
      expect(worktreeCount(sb)).toBe(1);
    });
  });

  it('stops, and does not re-queue, when the user stages a file during the run: every merge refused would burn the budget wave after wave', async () => {
    await withRepo(ids(2), async (sb) => {
      for (const id of ids(2)) await fs.writeFile(path.join(sb.root, `slow-${id}`), '3');
      const agent = await writeAgent(sb, 'agent', AGENT);
      const child = runCli(sb, runArgs(agent, '--parallel', '2'));
      const deadline = Date.now() + 60_000;
      while (!ids(2).every((id) => existsSync(path.join(sb.root, `started-${id}`)))) {
        if (Date.now() > deadline) throw new Error('the jobs never started');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      // The user, beside the run, stages work of their own: git then refuses every merge into main.
      await fs.writeFile(path.join(sb.repo, 'mine.txt'), 'my own work\n');
      git(sb, 'add', 'mine.txt');
      const r = await child;
      expectExit(r, 1);
      // Before the fix: 50 waves of 2 jobs each "re-queued", all 100 iterations spent.
      expect(invocations(sb)).toHaveLength(2);
      expect(r.stdout).toMatch(/git would not merge agent-loop-wave\/bd-1 into main in your checkout/);
      expect(git(sb, 'status', '--porcelain')).toBe('A  mine.txt');
      expect(closedOnMain(sb)).toEqual([]);
      // The user commits their work; the next run merges the finished jobs without working them again.
      commit(sb, 'my own work', { by: 'person' });
      const again = await runCli(sb, runArgs(agent, '--parallel', '2'));
      expectExit(again, 0);
      const result = lastResult(again.stdout) as ReturnType<typeof lastResult> & { waves: number };
      expect(invocations(sb)).toHaveLength(2);
      expect(result).toMatchObject({ status: 'complete', waves: 1 });
      expect(result.completedIterations).toHaveLength(2);
      expect(closedOnMain(sb)).toEqual(ids(2));
      expect(git(sb, 'show', 'main:mine.txt')).toBe('my own work');
      expect(worktreeCount(sb)).toBe(1);
      expect(git(sb, 'branch', '--list', 'agent-loop-conflict/*')).toBe('');
    });
  });

  it('merges nothing into another branch the user checks out during the run: stops, and the next run on main merges the wave', async () => {
    await withRepo(ids(2), async (sb) => {
      for (const id of ids(2)) await fs.writeFile(path.join(sb.root, `slow-${id}`), '3');
      git(sb, 'branch', 'feature');
      const agent = await writeAgent(sb, 'agent', AGENT);
      const child = runCli(sb, runArgs(agent, '--parallel', '2'));
      const deadline = Date.now() + 60_000;
      while (!ids(2).every((id) => existsSync(path.join(sb.root, `started-${id}`)))) {
        if (Date.now() > deadline) throw new Error('the jobs never started');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const before = git(sb, 'rev-parse', 'feature');
      git(sb, 'checkout', '-q', 'feature');
      const r = await child;
      expectExit(r, 1);
      // Before the fix: both jobs merged into feature, and the log said "merged into main".
      expect(git(sb, 'rev-parse', 'feature')).toBe(before);
      expect(r.stdout).toMatch(/your checkout is no longer on main \(it is on feature\)/);
      git(sb, 'checkout', '-q', 'main');
      const again = await runCli(sb, runArgs(agent, '--parallel', '2'));
      expectExit(again, 0);
      expect(invocations(sb)).toHaveLength(2);
      expect(closedOnMain(sb)).toEqual(ids(2));
      expect(git(sb, 'rev-parse', 'feature')).toBe(before);
      expect(worktreeCount(sb)).toBe(1);
    });
  });

  it('does not count closed an issue whose job halted before committing (a secret in the change): worked again after --resume-halted', async () => {
    await withRepo(ids(2), async (sb) => {
      // bd-1's first attempt writes the declared secret into its change; every other attempt is clean.
      const agent = await jobAgent(
        sb,
        `if [ "$id" = bd-1 ] && [ ! -f "$NOTES/leaked" ]; then touch "$NOTES/leaked"; echo "$MY_TOKEN" > "file-$id.txt"; else echo "$id" > "file-$id.txt"; fi`,
      );
      const env = { MY_TOKEN: 'tok-4f9a8b7c6d5e4f3a2b1c' };
      const r = await runCli(sb, runArgs(agent, '--parallel', '2', '--secret-env', 'MY_TOKEN'), { env });
      expectExit(r, 1);
      const halted = lastResult(r.stdout);
      expect(halted.haltReason).toBe('secret_in_change');
      // Before the fix: "closed: bd-1, bd-2" while main held bd-1 open, and bd-1 was never worked again.
      expect(halted.issuesClosed).toEqual(['bd-2']);
      expect(closedOnMain(sb)).toEqual(['bd-2']);
      // Its change held the secret: never committed, discarded with its worktree, and the run says so.
      expect(r.stdout).toMatch(/bd-1's change held what looks like a secret: it was not committed and was discarded/);
      expect(git(sb, 'branch', '--list', 'agent-loop-halted/*')).toBe('');
      expect(git(sb, 'log', '--all', '-p')).not.toContain(env.MY_TOKEN);
      const again = await runCli(sb, runArgs(agent, '--parallel', '2', '--secret-env', 'MY_TOKEN', '--resume-halted'), {
        env,
      });
      expectExit(again, 0);
      // This run closed bd-1; the loop, both (issue 40).
      expect(lastResult(again.stdout).issuesClosed).toEqual(['bd-1']);
      expect(sorted(lastResult(again.stdout).loop.issuesClosed)).toEqual(ids(2));
      expect(closedOnMain(sb)).toEqual(ids(2));
      expect(git(sb, 'show', 'main:file-bd-1.txt')).toBe('bd-1');
      expect(invocations(sb)).toEqual(expect.arrayContaining(['bd-1', 'bd-1', 'bd-2']));
      expect(invocations(sb)).toHaveLength(3);
    });
  });

  it("halts repository_moved when a job's agent moves main from its worktree: nothing merged onto the rogue commit, the tips named, nothing reset; resumed once main is back, the wave is merged", async () => {
    await withRepo(ids(3), async (sb) => {
      // bd-2's agent moves main (the worktrees share the repository's branches), then says it is done.
      const agent = await jobAgent(
        sb,
        `echo "$id" > "file-$id.txt"
if [ "$id" = bd-2 ]; then echo rogue > rogue.txt; git add rogue.txt; git update-ref refs/heads/main "$(git -c user.name=rogue -c user.email=rogue@example.com commit-tree "$(git write-tree)" -p main -m rogue)"; git reset -q; rm rogue.txt; fi`,
      );
      const before = git(sb, 'rev-parse', 'main');
      const r = await runCli(sb, runArgs(agent, '--parallel', '3'));
      expectExit(r, 1);
      const rogue = git(sb, 'rev-parse', 'main');
      expect(rogue).not.toBe(before);
      expect(git(sb, 'log', '-1', '--format=%s', 'main')).toBe('rogue');
      const result = lastResult(r.stdout);
      // Before the fix: every job merged onto the rogue commit, "closed" and exit 0.
      expect(result).toMatchObject({ status: 'halted', haltReason: 'repository_moved' });
      expect(result.issuesClosed).toEqual([]);
      expect(result.error).toContain(`was at ${before.slice(0, 12)} and is now at ${rogue.slice(0, 12)}`);
      expect(result.error).toMatch(/bd-1, bd-2, bd-3/);
      expect(result.error).toContain(`git reset --keep ${before.slice(0, 12)}`);
      // The counts shown are the run's before the wave: the message says the wave's are still to come.
      expect(result.error).toMatch(/The wave's 3 iteration\(s\) are not in the counts below yet/);
      expect(closedOnMain(sb)).toEqual([]);
      const halt = readFileSync(path.join(sb.repo, '.git', 'agent-loop', 'halt.md'), 'utf8');
      expect(halt).toContain(`git reset --keep ${before.slice(0, 12)}`);
      // Moved under the user's checkout: the rogue file shows as a staged deletion; agent-loop reset nothing.
      expect(git(sb, 'status', '--porcelain')).toBe('D  rogue.txt');
      // The user puts main back; the resumed run merges the finished jobs without working them again.
      git(sb, 'reset', '--keep', before);
      const again = await runCli(sb, [...runArgs(agent, '--parallel', '3'), '--resume-halted']);
      expectExit(again, 0);
      expect(sorted(lastResult(again.stdout).issuesClosed)).toEqual(ids(3));
      expect(invocations(sb)).toHaveLength(3);
      expect(closedOnMain(sb)).toEqual(ids(3));
      expect(git(sb, 'log', '--format=%s', 'main')).not.toMatch(/^rogue$/m);
      expect(worktreeCount(sb)).toBe(1);
    });
  });

  it("a job that halts the run: the run's halt.md is that job's diagnostic (its issue, not another's escalation), its work kept on a wip: commit", async () => {
    await withRepo(ids(2), async (sb) => {
      // bd-1 says it is stuck (escalated, the run goes on); bd-2 writes its file and switches its worktree to another branch (its job halts).
      const agent = await jobAgent(
        sb,
        `if [ "$id" = bd-1 ]; then printf '\`\`\`yaml\nwork_remaining: all of it\nrequires_continuation: false\nstuck_detected: true\nsummary: stuck\n\`\`\`\n'; exit 0; fi
echo "$id" > "file-$id.txt"
git checkout -q -b side`,
      );
      const r = await runCli(sb, runArgs(agent, '--parallel', '2'));
      expectExit(r, 1);
      const result = lastResult(r.stdout);
      expect(result).toMatchObject({ status: 'halted', haltReason: 'repository_moved' });
      expect(result.issuesEscalated).toEqual(['bd-1']);
      expect(result.error).toMatch(/^bd-2: /);
      const halt = readFileSync(path.join(sb.repo, '.git', 'agent-loop', 'halt.md'), 'utf8');
      // Before the fix: the headline bd-2's, the issues and steps bd-1's last escalation.
      const issues = halt.split('\n').find((l) => l.startsWith('- Issues:')) ?? '';
      expect(issues).toContain('bd-2');
      expect(issues).not.toContain('bd-1');
      expect(halt).toMatch(/agent-loop-halted\/bd-2-wave-1/);
      // Before the fix: the worktree removed with the work in it, the diagnostic with it.
      expect(git(sb, 'show', 'agent-loop-halted/bd-2-wave-1:file-bd-2.txt')).toBe('bd-2');
      expect(git(sb, 'log', '-1', '--format=%s', 'agent-loop-halted/bd-2-wave-1')).toMatch(/^wip: bd-2 halted/);
      expect(
        readFileSync(path.join(sb.repo, '.git', 'agent-loop', 'parallel', 'halts', 'wave-1-bd-2.md'), 'utf8'),
      ).toMatch(/bd-2/);
      expect(r.stdout).not.toMatch(/branch and working tree are left for inspection/);
      // bd-1's escalation ended its job, not the run: a warning, no diagnostic block; bd-2's halt is the run's.
      const events = r.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { event?: string; level?: string; issue?: string; message?: string });
      const halted = (id: string) => events.filter((e) => e.event === 'run.halted' && e.issue === id);
      expect(halted('bd-1').map((e) => [e.level, e.message?.split(':')[0]])).toEqual([
        ['warn', '[bd-1] Job ended (all_escalated)'],
      ]);
      expect(events.some((e) => e.event === 'halt.diagnostic' && e.issue === 'bd-1')).toBe(false);
      expect(halted('bd-2').map((e) => e.level)).toEqual(['error']);
      const diagnostic = events.find((e) => e.event === 'halt.diagnostic' && e.issue === 'bd-2')?.message ?? '';
      expect(diagnostic.split('\n').length).toBeGreaterThan(3);
      expect(diagnostic.split('\n').every((l) => l.startsWith('[bd-2] '))).toBe(true);
      expect(closedOnMain(sb)).toEqual([]);
      expect(worktreeCount(sb)).toBe(1);
    });
  });

  it("never overwrites an ignored file of the checkout with a job's file at its path: stops, the file kept", async () => {
    await withRepo(ids(1), async (sb) => {
      await fs.writeFile(path.join(sb.repo, 'notes.local'), 'my private notes\n');
      const agent = await writeAgent(
        sb,
        'agent',
        `echo "$AGENT_LOOP_ISSUE_IDS" >> "$NOTES/invocations"
echo "the agent wrote this" > notes.local
git add -f notes.local
${DONE_REPORT}`,
      );
      const r = await runCli(sb, runArgs(agent, '--parallel', '2'));
      expectExit(r, 1);
      // Before the fix: merged, notes.local silently replaced by the job's.
      expect(readFileSync(path.join(sb.repo, 'notes.local'), 'utf8')).toBe('my private notes\n');
      expect(r.stdout).toMatch(/the branch adds notes\.local, which your checkout holds untracked or ignored/);
      expect(closedOnMain(sb)).toEqual([]);
    });
  });

  it('resumes a wave after the coordinator is killed (SIGKILL) mid-wave: each job resumed or read, each issue counted once', async () => {
    await withRepo(ids(3), async (sb) => {
      const { agent, child } = await killedMidWave(sb, 3);
      expect(processGone(child.pid as number)).toBe(true);

      const firstAgents = readFileSync(path.join(sb.root, 'pids'), 'utf8').trim().split('\n').map(Number);

      const r = await runCli(sb, runArgs(agent, '--parallel', '3'));
      expectExit(r, 0);
      const result = lastResult(r.stdout) as ReturnType<typeof lastResult> & { waves: number };
      expect(events(r.stdout).some((e) => e.event === 'parallel.resume')).toBe(true);
      // The killed run's jobs and their agents are gone: ended by the rerun, or finished.
      for (const pid of firstAgents) expect(processGone(pid)).toBe(true);
      expect(result.status).toBe('complete');
      expect(sorted(result.issuesClosed)).toEqual(ids(3));
      expect(result.waves).toBe(1);
      // Each issue counted once: one completed iteration per issue, one merge each.
      expect(result.completedIterations).toHaveLength(3);
      expect(closedOnMain(sb)).toEqual(ids(3));
      expect(
        git(sb, 'log', 'main', '--format=%s')
          .split('\n')
          .filter((s) => / \(parallel\): /.test(s)),
      ).toHaveLength(3);
      expect(worktreeCount(sb)).toBe(1);
      expect(git(sb, 'status', '--porcelain')).toBe('');
    });
  });

  it('issue 43: a serial run after a --parallel coordinator killed (SIGKILL) mid-wave recovers its worktrees and locks, and finishes the issues', async () => {
    await withRepo(ids(2), async (sb) => {
      const { agent } = await killedMidWave(sb, 2);

      const r = await runCli(sb, runArgs(agent));
      expectExit(r, 0);
      expect(sorted((lastResult(r.stdout) as { issuesClosed: string[] }).issuesClosed)).toEqual(ids(2));
      expect(closedOnMain(sb)).toEqual(ids(2));
      expect(worktreeCount(sb)).toBe(1);
      expect(git(sb, 'branch', '--show-current')).toBe('main');
      const recovered = events(r.stdout)
        .filter((e) => e.event === 'run.recovered')
        .map((e) => String(e.message));
      for (const id of ids(2))
        expect(recovered).toContainEqual(
          expect.stringMatching(
            new RegExp(
              `^Removed the worktree .*/tree-${id} a stopped --parallel run left \\(its job is not running\\)`,
            ),
          ),
        );
    });
  });

  it('stops at Ctrl-C (SIGINT): the jobs interrupted and their state saved, the next run resumes the wave and finishes it', async () => {
    await withRepo(ids(2), async (sb) => {
      for (const id of ids(2)) await fs.writeFile(path.join(sb.root, `slow-${id}`), '30');
      const agent = await writeAgent(sb, 'agent', AGENT);
      const child = spawn(process.execPath, [CLI, ...runArgs(agent, '--parallel', '2')], {
        cwd: sb.repo,
        env: sb.env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout.on('data', (c: Buffer) => (out += c.toString()));
      const deadline = Date.now() + 60_000;
      while (!ids(2).every((id) => existsSync(path.join(sb.root, `started-${id}`)))) {
        if (Date.now() > deadline) throw new Error('the jobs never started');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const started = Date.now();
      child.kill('SIGINT');
      const code = await new Promise((resolve) => child.once('close', resolve));
      // Well before the agents' 30 s: the jobs were ended, not waited for.
      expect(Date.now() - started).toBeLessThan(20_000);
      expect(code).toBe(130);
      expect(lastResult(out)).toMatchObject({ status: 'continuing', interrupted: true, issuesClosed: [] });

      const r = await runCli(sb, runArgs(agent, '--parallel', '2'));
      expectExit(r, 0);
      expect(events(r.stdout).some((e) => e.event === 'parallel.resume')).toBe(true);
      expect(sorted(lastResult(r.stdout).issuesClosed)).toEqual(ids(2));
      expect(closedOnMain(sb)).toEqual(ids(2));
      expect(worktreeCount(sb)).toBe(1);
    });
  });

  it('halts on a failure loop across a wave (two escalations, no success) with the diagnostic and one Discord post, and the halt stands for the next run', async () => {
    const discord = await startDiscordServer();
    await withRepo(ids(2), async (sb) => {
      // Breaks the test every time and says it is done: rejected, retried, escalated.
      const agent = await writeAgent(
        sb,
        'breaker',
        `echo "$AGENT_LOOP_ISSUE_IDS" >> "$NOTES/invocations"\necho bad > value.txt\n${DONE_REPORT}`,
      );
      // The webhook in a config file, which the jobs read too: only the coordinator may post.
      const config = path.join(sb.root, 'agent-loop.yml');
      await fs.writeFile(config, `discord-webhook: ${discord.url()}\n`);
      const r = await runCli(sb, [...runArgs(agent, '--parallel', '2', '--max-iterations', '20'), '--config', config]);
      expectExit(r, 1);
      const result = lastResult(r.stdout);
      expect(result).toMatchObject({ status: 'halted', haltReason: 'failure_loop' });
      expect(sorted(result.issuesEscalated)).toEqual(['bd-1', 'bd-2']);
      expect(result.error).toMatch(/FAILURE LOOP DETECTED: 2 consecutive escalations/);
      expect(readFileSync(path.join(sb.repo, '.git', 'agent-loop', 'halt.md'), 'utf8')).toMatch(
        /failure_loop|FAILURE LOOP/,
      );
      expect(closedOnMain(sb)).toEqual([]);
      expect(worktreeCount(sb)).toBe(1);
      const spent = invocations(sb).length;

      expect(discord.received).toHaveLength(1);
      expect(JSON.stringify(discord.received[0])).toMatch(/FAILURE LOOP/);

      const again = await runCli(sb, [
        ...runArgs(agent, '--parallel', '2', '--max-iterations', '20'),
        '--config',
        config,
      ]);
      expectExit(again, 1);
      expect(lastResult(again.stdout).standing).not.toBeNull();
      expect(invocations(sb)).toHaveLength(spent);
      expect(discord.received).toHaveLength(1);
    }).finally(() => discord.close());
  });

  it("--max-iterations-per-issue counts an issue's runs across waves: its next job starts from what the earlier ones counted", async () => {
    await withRepo(ids(2), async (sb) => {
      // bd-1 never finishes (its report's work_remaining moves on every run); bd-2 is done at once.
      const agent = await writeAgent(
        sb,
        'looper',
        [
          'id="$AGENT_LOOP_ISSUE_IDS"',
          'echo "$id" >> "$NOTES/invocations"',
          'k=$(grep -c . "$NOTES/invocations")',
          'if [ "$id" = bd-1 ]; then printf "work_remaining: step %s\\nrequires_continuation: true\\n" "$k"; exit 0; fi',
          'echo "$id" > "file-$id.txt"',
          DONE_REPORT,
        ].join('\n'),
      );
      // Wave 1: shares of 4; bd-1 runs 4 unfinished, bd-2 is done. Wave 2: bd-1 alone, from 4 of its 5.
      const r = await runCli(
        sb,
        runArgs(agent, '--parallel', '2', '--max-iterations', '8', '--max-iterations-per-issue', '5'),
      );
      expectExit(r, 1);
      const result = lastResult(r.stdout);
      expect(result).toMatchObject({ status: 'halted', haltReason: 'all_escalated', issuesEscalated: ['bd-1'] });
      expect(closedOnMain(sb)).toEqual(['bd-2']);
      expect(invocations(sb).filter((id) => id === 'bd-1')).toHaveLength(5);
      expect(events(r.stdout).some((e) => /5 agent runs on this cycle/.test(String(e.message)))).toBe(true);
    });
  });

  it("labels an escalated job's issue on main as the serial loop does (nothing else of its work), and later runs, --fresh, parallel or serial, leave it alone", async () => {
    await withRepo(ids(2), async (sb) => {
      // bd-2 breaks the test every time and says it is done: rejected, retried, escalated; bd-1 is done.
      const agent = await writeAgent(
        sb,
        'half',
        `echo "$AGENT_LOOP_ISSUE_IDS" >> "$NOTES/invocations"
if [ "$AGENT_LOOP_ISSUE_IDS" = bd-2 ]; then echo bad > value.txt; echo wip > file-bd-2.txt; else echo ok > file-bd-1.txt; fi
${DONE_REPORT}`,
      );
      const r = await runCli(sb, runArgs(agent, '--parallel', '2', '--max-iterations', '20'));
      const result = lastResult(r.stdout);
      expect(result.issuesEscalated).toEqual(['bd-2']);
      expect(result.issuesClosed).toEqual(['bd-1']);
      const onMain = git(sb, 'show', 'main:.beads/issues.jsonl')
        .split('\n')
        .map((l) => JSON.parse(l) as { id: string; status: string; labels?: string[] });
      expect(onMain.find((i) => i.id === 'bd-2')).toMatchObject({
        status: 'open',
        labels: expect.arrayContaining(['agent-loop:escalated']) as unknown as string[],
      });
      expect(onMain.find((i) => i.id === 'bd-1')?.labels ?? []).not.toContain('agent-loop:escalated');
      // One commit for the escalation, as the serial loop makes; the job's work stays off main.
      const subjects = git(sb, 'log', 'main', '--format=%s').split('\n');
      expect(subjects.filter((s) => s === 'agent-loop: bd-2 escalated')).toHaveLength(1);
      expect(git(sb, 'show', '--name-only', '--format=', 'main^{/agent-loop: bd-2 escalated}')).toBe(
        '.beads/issues.jsonl',
      );
      expect(git(sb, 'show', 'main:value.txt')).toBe('good');
      expect(git(sb, 'ls-tree', '--name-only', 'main')).not.toMatch(/file-bd-2/);
      expect(git(sb, 'status', '--porcelain')).toBe('');
      const spent = invocations(sb).length;
      expect(invocations(sb).filter((id) => id === 'bd-2').length).toBeGreaterThan(0);

      // The label decides, not the checkpoint: a fresh start, parallel or serial, does not work bd-2 again.
      const again = await runCli(sb, runArgs(agent, '--parallel', '2', '--fresh'));
      expect(lastResult(again.stdout)).toMatchObject({ status: 'halted', haltReason: 'all_escalated' });
      const serial = await runCli(sb, runArgs(agent, '--fresh'));
      expect(lastResult(serial.stdout)).toMatchObject({ status: 'halted', haltReason: 'all_escalated' });
      expect(invocations(sb)).toHaveLength(spent);
    });
  });

  it('an escalation whose label could not be written on main stays owed: the next run does not work the issue again, and a resumed run labels it', async () => {
    await withRepo(ids(1), async (sb) => {
      // bd-1 breaks the test every time (escalated) and, beside the run, changes main's issue file in the user's checkout.
      const agent = await writeAgent(
        sb,
        'dirty',
        `echo "$AGENT_LOOP_ISSUE_IDS" >> "$NOTES/invocations"
echo bad > value.txt
printf '\n' >> "$NOTES/repo/.beads/issues.jsonl"
${DONE_REPORT}`,
      );
      const r = await runCli(sb, runArgs(agent, '--parallel', '2', '--max-iterations', '20'));
      expectExit(r, 1);
      expect(lastResult(r.stdout)).toMatchObject({ status: 'halted', haltReason: 'all_escalated' });
      expect(r.stdout).toMatch(
        /\[bd-1\] escalated, but not labelled agent-loop:escalated on main: .*uncommitted changes.*It stays recorded in the checkpoint/,
      );
      const spent = invocations(sb).length;
      expect(spent).toBeGreaterThan(0);
      // The user undoes their change; the next scheduled run: before the fix, the halt lifted ("bd-1 is no longer escalated") and bd-1 was worked again.
      git(sb, 'checkout', '-q', '--', '.beads/issues.jsonl');
      const next = await runCli(sb, runArgs(agent, '--parallel', '2', '--max-iterations', '20'));
      expectExit(next, 1);
      expect(lastResult(next.stdout)).toMatchObject({ status: 'halted', haltReason: 'all_escalated' });
      expect(invocations(sb)).toHaveLength(spent);
      // Resumed by hand: the owed label is written on main first (one commit of the issue file), and bd-1 is still not worked.
      const resumed = await runCli(sb, runArgs(agent, '--parallel', '2', '--max-iterations', '20', '--resume-halted'));
      expectExit(resumed, 1);
      expect(invocations(sb)).toHaveLength(spent);
      expect(git(sb, 'log', '-1', '--format=%s', 'main')).toBe('agent-loop: bd-1 escalated');
      const bd1 = git(sb, 'show', 'main:.beads/issues.jsonl')
        .split('\n')
        .map((l) => JSON.parse(l) as { id: string; labels?: string[] })
        .find((i) => i.id === 'bd-1');
      expect(bd1?.labels).toContain('agent-loop:escalated');
      expect(git(sb, 'status', '--porcelain')).toBe('');
      // Labelled, the label decides from now on: a --fresh run leaves bd-1 alone too.
      const fresh = await runCli(sb, runArgs(agent, '--parallel', '2', '--fresh'));
      expect(lastResult(fresh.stdout)).toMatchObject({ status: 'halted', haltReason: 'all_escalated' });
      expect(invocations(sb)).toHaveLength(spent);
    });
  });

  it('a suite that needs an ignored file of the checkout cannot run in a job’s fresh worktree: the halt says why and what to do, no agent ran', async () => {
    await withRepo(ids(2), async (sb) => {
      // The test runs a tool the user installed into an ignored directory (as node_modules is).
      await fs.appendFile(path.join(sb.repo, '.gitignore'), 'tools/\n');
      await fs.mkdir(path.join(sb.repo, 'tools'));
      await fs.copyFile(path.join(sb.repo, 'check.sh'), path.join(sb.repo, 'tools', 'check.sh'));
      git(sb, 'add', '-A');
      commit(sb, 'tools are installed, not committed');
      const agent = await writeAgent(sb, 'agent', AGENT);
      const stateDir = path.join(sb.root, 'state-outside');
      const r = await runCli(
        sb,
        runArgs(agent, '--parallel', '2', '--state-dir', stateDir, '--test-command', 'sh tools/check.sh'),
      );
      expectExit(r, 1);
      expect(lastResult(r.stdout)).toMatchObject({ status: 'halted', haltReason: 'baseline_unreadable' });
      expect(readFileSync(path.join(stateDir, 'halt.md'), 'utf8')).toMatch(
        /This is a job of run --parallel: it runs in a fresh worktree of the base branch, which has none of your checkout's untracked or ignored files/,
      );
      expect(invocations(sb)).toEqual([]);
    });
  });

  it('--issue works only the issues named (serial and parallel), the others left open', async () => {
    await withRepo(ids(4), async (sb) => {
      const agent = await writeAgent(sb, 'agent', AGENT);
      expectExit(await runCli(sb, runArgs(agent, '--issue', 'bd-3')), 0);
      expect(closedOnMain(sb)).toEqual(['bd-3']);
      const r = await runCli(sb, runArgs(agent, '--parallel', '2', '--issue', 'bd-1,bd-4', '--fresh'));
      expectExit(r, 0);
      expect(sorted(lastResult(r.stdout).issuesClosed)).toEqual(['bd-1', 'bd-4']);
      expect(closedOnMain(sb)).toEqual(['bd-1', 'bd-3', 'bd-4']);
      expect(sorted(invocations(sb))).toEqual(['bd-1', 'bd-3', 'bd-4']);
    });
  });

  it('refuses --parallel with --batch, and outside the implement workflow, with exit 2 and nothing run', async () => {
    await withRepo(ids(2), async (sb) => {
      const agent = await writeAgent(sb, 'agent', AGENT);
      const r = await runCli(sb, runArgs(agent, '--parallel', '2', '--batch', '--workflow', 'tdd'));
      expectExit(r, 2);
      expect(r.stderr).toMatch(/--parallel with --batch/);
      expect(r.stderr).toMatch(/--parallel with --workflow tdd/);
      expect(invocations(sb)).toEqual([]);
    });
  });
});
