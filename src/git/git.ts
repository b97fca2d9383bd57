/** The git operations the loop needs, behind one interface; every call goes through one execGit. */
import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';

export interface Git {
  readonly topLevel: string;
  /** The checked-out branch, or the commit when HEAD is detached. */
  currentRef(): Promise<string>;
  branchExists(branch: string): Promise<boolean>;
  /** Creates `branch` from `from` (or checks it out when it exists) and switches to it. */
  switchToBranch(branch: string, from: string): Promise<void>;
  checkout(ref: string): Promise<void>;
  /** Stages everything and commits; false when there was nothing to commit (unless allowEmpty). */
  commitAll(message: string, options?: { allowEmpty?: boolean }): Promise<boolean>;
  /** The commit HEAD points at. */
  head(): Promise<string>;
  /** `git reset --hard ref`, then removes untracked files (ignored and excluded ones stay: the state directory). */
  resetHard(ref: string): Promise<void>;
  /** Files changed between `base` and the working tree (committed or not, new files included). */
  changedFiles(base: string): Promise<string[]>;
  merge(branch: string, message: string): Promise<void>;
  deleteBranch(branch: string): Promise<void>;
  /** Whether anything changed since `base`: commits on HEAD not in base, or changes in the working tree. */
  hasWorkSince(base: string): Promise<boolean>;
  /** Adds a directory (relative to the top level) or a file pattern to .git/info/exclude once. */
  exclude(relativePathOrPattern: string): Promise<void>;
  /**
   * Fetches `branch` from `remote` into the local branch of the same name (fast-forward only);
   * false when the remote has no such branch.
   */
  fetchBranch(remote: string, branch: string): Promise<boolean>;
  /** Pushes the local `branch` to `remote` under the same name (no force). */
  push(remote: string, branch: string): Promise<void>;
}

export class GitError extends Error {
  constructor(readonly args: string[], readonly code: number | null, readonly stderr: string) {
    super(`git ${args.join(' ')} failed (exit ${code}): ${stderr.trim().split('\n').slice(-3).join(' / ')}`);
    this.name = 'GitError';
  }
}

type Exec = (args: string[]) => Promise<{ code: number; stdout: string; stderr: string }>;

function execGitIn(cwd: string, env: NodeJS.ProcessEnv): Exec {
  return (args) =>
    new Promise((resolve) => {
      execFile('git', args, { cwd, env: { ...env, GIT_TERMINAL_PROMPT: '0' }, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
        const code = error ? (typeof (error as NodeJS.ErrnoException).code === 'number' ? Number((error as NodeJS.ErrnoException).code) : 1) : 0;
        resolve({ code, stdout: String(stdout), stderr: String(stderr) });
      });
    });
}

/** Plain git in a directory: the exit code and output of one call (notes, pushes of other refs). */
export interface GitRunner {
  run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }>;
}

/**
 * Git in `cwd`. Commits (and notes, which are commits on the notes ref) must not fail on a machine
 * without a git identity (CI runners, containers): then agent-loop's own is passed with `-c`.
 */
export function gitRunner(cwd: string, env: NodeJS.ProcessEnv = process.env): GitRunner {
  const exec = execGitIn(cwd, env);
  let identity: Promise<string[]> | undefined;
  return {
    async run(args) {
      identity ??= exec(['config', 'user.email']).then((r) =>
        r.stdout.trim() !== '' ? [] : ['-c', 'user.name=agent-loop', '-c', 'user.email=agent-loop@users.noreply.github.com']);
      return exec([...(await identity), ...args]);
    },
  };
}

/** A Git for `cwd`, or undefined when `cwd` is not inside a work tree (the loop then works in place). */
export async function openGit(cwd: string, env: NodeJS.ProcessEnv): Promise<Git | undefined> {
  const raw = execGitIn(cwd, env);
  const top = await raw(['rev-parse', '--show-toplevel']);
  if (top.code !== 0) return undefined;
  const topLevel = top.stdout.trim();
  const runner = gitRunner(topLevel, env);
  const git = async (...args: string[]) => {
    const r = await runner.run(args);
    if (r.code !== 0) throw new GitError(args, r.code, r.stderr || r.stdout);
    return r.stdout.trim();
  };
  const tryGit = async (...args: string[]) => (await runner.run(args)).code === 0;

  return {
    topLevel,
    async currentRef() {
      const branch = await runner.run(['symbolic-ref', '--quiet', '--short', 'HEAD']);
      return branch.code === 0 ? branch.stdout.trim() : git('rev-parse', 'HEAD');
    },
    branchExists: (branch) => tryGit('show-ref', '--verify', '--quiet', `refs/heads/${branch}`),
    async switchToBranch(branch, from) {
      if (await tryGit('show-ref', '--verify', '--quiet', `refs/heads/${branch}`)) await git('checkout', '--quiet', branch);
      else await git('checkout', '--quiet', '-b', branch, from);
    },
    async checkout(ref) {
      await git('checkout', '--quiet', ref);
    },
    async commitAll(message, options = {}) {
      await git('add', '--all');
      if (await tryGit('diff', '--cached', '--quiet')) {
        if (!options.allowEmpty) return false;
        await git('commit', '--quiet', '--no-verify', '--allow-empty', '-m', message);
        return true;
      }
      await git('commit', '--quiet', '--no-verify', '-m', message);
      return true;
    },
    head: () => git('rev-parse', 'HEAD'),
    async resetHard(ref) {
      await git('reset', '--quiet', '--hard', ref);
      await git('clean', '--quiet', '-fd');
    },
    async changedFiles(base) {
      await git('add', '--all', '--intent-to-add');
      const out = await git('diff', '--name-only', base);
      return out.split('\n').filter((l) => l !== '');
    },
    async merge(branch, message) {
      await git('merge', '--quiet', '--no-ff', '--no-edit', '-m', message, branch);
    },
    async hasWorkSince(base) {
      if ((await git('status', '--porcelain')) !== '') return true;
      return Number(await git('rev-list', '--count', `${base}..HEAD`)) > 0;
    },
    async deleteBranch(branch) {
      await git('branch', '--quiet', '-D', branch);
    },
    async fetchBranch(remote, branch) {
      const listed = await runner.run(['ls-remote', '--exit-code', '--heads', remote, `refs/heads/${branch}`]);
      if (listed.code === 2) return false; // --exit-code: 2 is "no matching ref"
      if (listed.code !== 0) throw new GitError(['ls-remote', remote, branch], listed.code, listed.stderr);
      await git('fetch', '--quiet', '--no-tags', remote, `refs/heads/${branch}:refs/heads/${branch}`);
      return true;
    },
    async push(remote, branch) {
      await git('push', '--quiet', '--no-verify', remote, `refs/heads/${branch}:refs/heads/${branch}`);
    },
    async exclude(relativePathOrPattern) {
      const gitDir = path.resolve(topLevel, await git('rev-parse', '--git-common-dir'));
      const file = path.join(gitDir, 'info', 'exclude');
      const line = relativePathOrPattern.includes('*') ? relativePathOrPattern : `/${relativePathOrPattern.replace(/^\/+|\/+$/g, '')}/`;
      const current = await fs.readFile(file, 'utf8').catch(() => '');
      if (current.split('\n').includes(line)) return;
      await fs.mkdir(path.dirname(file), { recursive: true });
      await fs.appendFile(file, `${current && !current.endsWith('\n') ? '\n' : ''}# agent-loop (never committed)\n${line}\n`);
    },
  };
}

/** A branch name git accepts for an issue id: agent-loop/<id>, agent-loop/issue-<n> for a GitHub issue number. */
export function cycleBranch(issueIds: readonly string[]): string {
  const safe = (s: string) => (/^\d+$/.test(s) ? `issue-${s}` : s.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[-.]+|[-.]+$/g, '') || 'issue');
  const first = safe(issueIds[0] ?? 'issue');
  return issueIds.length > 1 ? `agent-loop/batch-${first}-and-${issueIds.length - 1}-more` : `agent-loop/${first}`;
}
