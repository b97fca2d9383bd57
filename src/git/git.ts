/**
 * The git operations the loop needs, behind one interface; every call goes through the one git
 * runner (exec.ts), except the lane's two loose refs, read from git's files when they can say it
 * alone (looseRefs.ts).
 */
import { promises as fs, lstatSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { TEMP_FILE_PATTERN } from '../util/atomicWrite.js';
import {
  type SecretCommit,
  commitLogArgs,
  describeSecretCommits,
  filesAdding,
  patchSecrets,
  secretCommits,
} from './commitScan.js';
import { execGit } from './exec.js';
import { type GitDirs, branchTipFromFiles, laneFromFiles } from './looseRefs.js';
import { workTreePath } from './repoPaths.js';
import { EXCLUDE_MARK, readStaging, restoreStaging, stagingFiles } from './staging.js';

export interface Git {
  readonly topLevel: string;
  /** The commit-author given (`Name <email>`), for the other git runners of the same repository (notes, bundles). */
  readonly author?: string;
  /** The checked-out branch, or the commit when HEAD is detached. */
  currentRef(): Promise<string>;
  branchExists(branch: string): Promise<boolean>;
  /** Creates `branch` from `from` (or checks it out when it exists) and switches to it. */
  switchToBranch(branch: string, from: string): Promise<void>;
  /**
   * Checks `ref` out. `discard: true` first throws away changes to tracked files (each file that
   * differs from HEAD put back from it): only for changes the engine knows are not the user's (what a
   * test run wrote).
   */
  checkout(ref: string, options?: { discard?: boolean }): Promise<void>;
  /**
   * Stages everything and commits; false when there was nothing to commit (unless allowEmpty).
   * `scanCommitsSince` (the base branch, where the commit is a cycle's work that will be merged or
   * pushed): the commits HEAD holds that it does not (the agent's own) are scanned for secrets
   * first, and a hit commits nothing (SecretInChangeError), even when nothing is staged.
   */
  commitAll(message: string, options?: { allowEmpty?: boolean; scanCommitsSince?: string }): Promise<boolean>;
  /** The commit HEAD points at. */
  head(): Promise<string>;
  /** The commit a local branch points at; undefined when there is no such branch. */
  tipOf(branch: string): Promise<string | undefined>;
  /** Whether the local `branch` holds `commit` (false when either is unknown here). */
  holds(branch: string, commit: string): Promise<boolean>;
  /**
   * tipOf, from the branch's loose ref when it has one (no process: the lane guard asks after every
   * agent run whether the agent rewound the branch). Optional: without it the guard does not ask.
   */
  quickTipOf?(branch: string): Promise<string | undefined>;
  /**
   * `currentRef()` and `tipOf(baseBranch)` read together, in one git process where it can (the lane
   * guard asks twice per iteration).
   */
  laneState(baseBranch: string): Promise<{ head: string; baseTip: string | undefined }>;
  /** `git reset --hard ref`, then removes untracked files (ignored and excluded ones stay: the state directory). */
  resetHard(ref: string): Promise<void>;
  /** Files changed between `base` and the working tree (committed or not, new files included). */
  changedFiles(base: string): Promise<string[]>;
  /** Merges `branch` into the checked-out branch with a merge commit; `fastForwardOnly`: moves it forward to `branch`, or fails. */
  merge(branch: string, message: string, options?: { fastForwardOnly?: boolean }): Promise<void>;
  deleteBranch(branch: string): Promise<void>;
  /** Whether anything changed since `base`: commits on HEAD not in base, or changes in the working tree. */
  hasWorkSince(base: string): Promise<boolean>;
  /** The subjects of the commits on the local `branch` that `base` does not hold, newest first. */
  subjectsSince(base: string, branch: string): Promise<string[]>;
  /** Adds a directory (relative to the top level), a file (`{ file: true }`) or a file pattern to .git/info/exclude once. */
  exclude(relativePathOrPattern: string, options?: { file?: boolean }): Promise<void>;
  /** Untracked, not ignored paths (a wholly untracked directory as one `dir/` entry), relative to the top level. */
  untracked(): Promise<string[]>;
  /**
   * Fetches `branch` from `remote` into the local branch of the same name (fast-forward only);
   * false when the remote has no such branch.
   */
  fetchBranch(remote: string, branch: string): Promise<boolean>;
  /** Pushes the local `branch` to `remote` under the same name (no force). */
  push(remote: string, branch: string): Promise<void>;
  /**
   * Puts back what decides what a commit stages as it was when this git opened, before any agent ran
   * (src/git/staging.ts), saying what through `onStagingRestored`. Every commit does it first; a
   * slice does it at its end too, so nothing an agent changed there stays in the person's repository
   * (a remote pointed elsewhere, a filter) or is taken as theirs by the next run's snapshot.
   */
  putBackStaging(): Promise<void>;
}

export class GitError extends Error {
  constructor(
    readonly args: string[],
    readonly code: number | null,
    readonly stderr: string,
  ) {
    // The last lines, and git's own reason before them when its explanation runs longer (an
    // index.lock's "fatal: Unable to create '…/index.lock': File exists." is followed by five).
    const lines = stderr.trim().split('\n');
    const reason = lines.slice(0, -3).find((line) => /^(fatal|error): /.test(line));
    super(
      `git ${args.join(' ')} failed (exit ${code}): ${[...(reason ? [reason] : []), ...lines.slice(-3)].join(' / ')}`,
    );
    this.name = 'GitError';
  }
}

type Exec = (args: string[]) => Promise<{ code: number; stdout: string; stderr: string }>;

/** git in `cwd` through the one runner (exec.ts: no hooks, no fsmonitor, no prompt, 16 MiB of output at most). */
function execGitIn(cwd: string, env: NodeJS.ProcessEnv): Exec {
  return (args) => execGit(cwd, env, args);
}

/** Plain git in a directory: the exit code and output of one call (notes, pushes of other refs). */
export interface GitRunner {
  run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }>;
}

/** The commit author when git has no identity configured and none is given: GitHub's own bot, with its documented noreply address. */
export const DEFAULT_COMMIT_AUTHOR = 'github-actions[bot] <41898282+github-actions[bot]@users.noreply.github.com>';

/** `Name <email>`: the name and the address, or undefined when `author` is not of that form. Pure. */
export function parseAuthor(author: string): { name: string; email: string } | undefined {
  const m = /^([^<>\n]*[^<>\s])\s*<([^<>\s@]+@[^<>\s@]+)>$/.exec(author.trim());
  return m ? { name: m[1] as string, email: m[2] as string } : undefined;
}

/**
 * Git in `cwd`. Commits (and notes, which are commits on the notes ref, and merges) carry `author`
 * (`Name <email>`, the commit-author option) when one is given, whatever git's configuration says;
 * else git's own identity; and on a machine without one (CI runners, containers: no user.email)
 * DEFAULT_COMMIT_AUTHOR. Passed with `-c user.name -c user.email`, never written to a config file.
 */
export function gitRunner(cwd: string, env: NodeJS.ProcessEnv = process.env, author?: string): GitRunner {
  const exec = execGitIn(cwd, env);
  let identity: Promise<string[]> | undefined;
  const asArgs = (who: string) => {
    const parsed = parseAuthor(who);
    return parsed ? ['-c', `user.name=${parsed.name}`, '-c', `user.email=${parsed.email}`] : [];
  };
  return {
    async run(args) {
      identity ??=
        author !== undefined
          ? Promise.resolve(asArgs(author))
          : exec(['config', 'user.email']).then((r) => (r.stdout.trim() !== '' ? [] : asArgs(DEFAULT_COMMIT_AUTHOR)));
      return exec([...(await identity), ...args]);
    },
  };
}

/** The commit `branch` (a local branch) points at; undefined when there is no such branch. */
export async function branchTip(runner: GitRunner, branch: string): Promise<string | undefined> {
  const r = await runner.run(['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`]);
  return r.code === 0 ? r.stdout.trim() : undefined;
}

/** A merge stopped on a conflict and was undone (git merge --abort): `into` is as it was before it. */
export class MergeConflictError extends GitError {
  constructor(
    readonly branch: string,
    readonly into: string,
    readonly conflicted: string[],
  ) {
    super(
      ['merge', branch],
      1,
      `merging ${branch} into ${into} conflicts in ${conflicted.join(', ')}; the merge was undone (git merge --abort) and ${into} is as it was before it. Merge ${branch} into ${into} by hand, then run again`,
    );
    this.name = 'MergeConflictError';
  }
}

/**
 * The agent's change holds a secret: nothing was committed. `commits`: the agent committed it
 * itself, so it is in the branch's history (named, for the person to rewrite), not merged or pushed.
 */
export class SecretInChangeError extends Error {
  constructor(
    readonly files: string[],
    readonly commits: readonly SecretCommit[] = [],
  ) {
    super(
      commits.length > 0
        ? `the agent's own commits add what looks like a secret (a declared secret's value or a token): ${describeSecretCommits(commits)}; they stay on the branch, which is neither merged nor pushed`
        : `the change holds what looks like a secret (a declared secret's value or a token) in ${files.join(', ')}`,
    );
    this.name = 'SecretInChangeError';
  }
}

/** When what decides what git stages is put back: before a commit (finished work or an escalation's wip:) or at a slice's end. */
export type StagingMoment = 'commit' | 'slice end';

export interface GitOptions {
  /** `Name <email>` of agent-loop's commits (the commit-author option): see gitRunner. */
  author?: string;
  /** Masks secrets in commit and merge messages. */
  redact?: (text: string) => string;
  /** Absolute paths never staged, even when their .git/info/exclude line is gone (the state directory). */
  protect?: readonly string[];
  /** The secrets a line holds: a change that adds one the repository did not hold is never committed. */
  holdsSecret?: (line: string) => string[];
  /**
   * Added to the environment of push, fetch and ls-remote only: the action's credentials
   * (remoteAuth.ts), which no other git call, and no agent, ever holds.
   */
  remoteEnv?: Record<string, string>;
  /** Told what was put back, and when (before a commit, or at a slice's end), because something other than agent-loop changed what git stages (src/git/staging.ts). */
  onStagingRestored?: (what: string[], when: StagingMoment) => void;
}

/**
 * A commit message git can take whatever the text holds: masked, with control characters
 * and ANSI escapes removed, on one line (agent-loop's messages are one line), no NUL. Pure.
 */
/* eslint-disable no-control-regex -- control characters are what cleanMessage removes */
export function cleanMessage(message: string, redact: (text: string) => string = (t) => t): string {
  const text = redact(message)
    .replace(/\x1b\[[0-?]*[ -/]*[@-~]/g, '') // CSI (colours, cursor moves)
    .replace(/\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?/g, '') // OSC (titles, links)
    .replace(/[\r\n\t]+/g, ' ') // one line: a title's newline must not forge more lines
    .replace(/[\u0000-\u001f\u007f-\u009f]/g, '')
    .replace(/ {2,}/g, ' ')
    .trim();
  return `${text || 'agent-loop'}\n`;
}
/* eslint-enable no-control-regex */

/** A Git for `cwd`, or undefined when `cwd` is not inside a work tree (the loop then works in place). */
export async function openGit(cwd: string, env: NodeJS.ProcessEnv, options: GitOptions = {}): Promise<Git | undefined> {
  const raw = execGitIn(cwd, env);
  const top = await raw(['rev-parse', '--show-toplevel']);
  if (top.code !== 0) return undefined;
  const topLevel = top.stdout.trim();
  const runner = gitRunner(topLevel, env, options.author);
  const git = async (...args: string[]) => {
    const r = await runner.run(args);
    if (r.code !== 0) throw new GitError(args, r.code, r.stderr || r.stdout);
    return r.stdout.trim();
  };
  const tryGit = async (...args: string[]) => (await runner.run(args)).code === 0;
  // What decides what a commit stages, as it is before any agent runs (src/git/staging.ts).
  const commonDir = path.resolve(topLevel, await git('rev-parse', '--git-common-dir'));
  const lsFilesV = async () => {
    const r = await runner.run(['ls-files', '-v', '-z']);
    return r.code === 0 ? r.stdout : '';
  };
  const staging = stagingFiles(commonDir);
  const stagingBefore = await readStaging(
    staging,
    lsFilesV,
    async () => (await runner.run(['config', '--bool', 'core.sparseCheckout'])).stdout.trim() === 'true',
  );
  /** The patterns agent-loop put in .git/info/exclude: kept when the file is put back. */
  const ourExcludes: string[] = [];
  let dirs: Promise<GitDirs | undefined> | undefined;
  /** Where git keeps this checkout's files, asked once (the loose refs are read from there). */
  const gitDirs = () =>
    (dirs ??= runner
      .run(['rev-parse', '--absolute-git-dir', '--path-format=absolute', '--git-common-dir'])
      .then((r) => {
        const [gitDir, commonDir] = r.stdout.trim().split('\n');
        return r.code === 0 && gitDir && commonDir ? { topLevel, gitDir, commonDir } : undefined;
      }));
  const remote = options.remoteEnv ? gitRunner(topLevel, { ...env, ...options.remoteEnv }, options.author) : runner;
  const remoteGit = async (...args: string[]) => {
    const r = await remote.run(args);
    if (r.code !== 0) throw new GitError(args, r.code, r.stderr || r.stdout);
  };
  // The state directory and agent-loop's temporary files: never staged, whatever .git/info/exclude
  // says and whatever the agent staged itself (git add -f).
  const protectedSpecs = [
    ...(options.protect ?? [])
      .map((p) => workTreePath(topLevel, p))
      .filter((rel) => rel !== undefined)
      .map((rel) => `:(top,literal)${rel}`),
    `:(top,glob)**/${TEMP_FILE_PATTERN}`,
  ];
  const unstageProtected = async () => {
    await runner.run(['rm', '-r', '--cached', '--quiet', '--ignore-unmatch', '--', ...protectedSpecs]);
  };
  const putBackStaging = async (when: StagingMoment) => {
    const restored = await restoreStaging(
      staging,
      stagingBefore,
      ourExcludes,
      lsFilesV,
      async (paths) => {
        // One flag per call: update-index applies only the last of its marking options to the paths.
        for (let i = 0; i < paths.length; i += 200)
          for (const flag of ['--no-skip-worktree', '--no-assume-unchanged'])
            await git('update-index', flag, '--', ...paths.slice(i, i + 200));
      },
      (p) => lstatSync(path.join(topLevel, p), { throwIfNoEntry: false }) !== undefined,
    );
    if (restored.length > 0) options.onStagingRestored?.(restored, when);
  };
  const stageAll = async () => {
    await putBackStaging('commit');
    await git('add', '--all');
    await unstageProtected();
  };
  /** Files whose added lines hold a secret (never the secret itself). */
  const secretsStaged = async (): Promise<string[]> => {
    if (!options.holdsSecret) return [];
    const args = ['diff', '--cached', '--no-color', '--no-ext-diff', '-U0', '--diff-filter=ACMR'];
    const diff = await runner.run(args);
    // A change too large to read whole (over the 16 MiB bound) cannot be scanned: never committed unscanned.
    if (diff.code !== 0) {
      await runner.run(['reset', '--quiet']);
      throw new GitError(
        args,
        diff.code,
        `${diff.stderr}\nthe staged change could not be read whole to scan it for secrets (more than 16 MiB of diff?); nothing was committed: remove the large files from the change, or commit them yourself`,
      );
    }
    // A secret on a removed line was there before (an issue's title the user wrote, now rewritten):
    // only one the change brings in counts.
    const { added, removed } = patchSecrets(diff.stdout, options.holdsSecret);
    return filesAdding(added, removed);
  };
  /**
   * The commits HEAD holds and the local `base` does not that add a secret (src/git/commitScan.ts):
   * the agent's own, which no staged diff shows once a later commit removed the secret again. One
   * git log for them all; one too large to read whole, or not of its shape, is never taken as clean.
   */
  const secretsCommitted = async (base: string): Promise<SecretCommit[]> => {
    if (!options.holdsSecret) return [];
    const args = commitLogArgs(base);
    const log = await runner.run(args);
    const hits = log.code === 0 ? secretCommits(log.stdout, options.holdsSecret) : undefined;
    if (hits) return hits;
    await runner.run(['reset', '--quiet']);
    throw new GitError(
      args,
      log.code,
      `${log.stderr}\nthe commits on HEAD that ${base} does not hold could not be read whole to scan them for secrets (more than 16 MiB of diff?); nothing was committed: remove the large files from the branch's history, or commit them yourself`,
    );
  };
  /** Runs `git <args> -F <file>` with the message in a file of its own: never an argument. */
  const withMessage = async (message: string, args: (file: string) => string[]) => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'agent-loop-msg-'));
    const file = path.join(dir, 'message');
    try {
      await fs.writeFile(file, cleanMessage(message, options.redact));
      await git(...args(file));
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  };

  /** `files` as literal pathspecs, at most 200 to a git command line. */
  const literalBatches = (files: readonly string[]): string[][] => {
    const batches: string[][] = [];
    for (let i = 0; i < files.length; i += 200)
      batches.push(files.slice(i, i + 200).map((file) => `:(top,literal)${file}`));
    return batches;
  };
  /** The paths `git diff --name-only -z <args>` lists. */
  const diffNames = async (...args: string[]) => {
    const full = ['diff', '--name-only', '-z', '--no-renames', ...args];
    const r = await runner.run(full);
    if (r.code !== 0) throw new GitError(full, r.code, r.stderr || r.stdout);
    return r.stdout.split('\0').filter((file) => file !== '');
  };
  /**
   * Before checking `ref` out: puts back, from HEAD, every tracked file that differs from it (in the
   * tree or the index), and only those: not `checkout --force` nor `reset --hard`, which also rewrite
   * a file the person told git to leave alone (update-index --assume-unchanged, e.g. their own
   * settings) that no diff shows. And removes what stands where `ref` has a file HEAD has not (not
   * tracked here, so written since the checkout of HEAD: the test run's).
   */
  const discardChangesBefore = async (ref: string) => {
    const files = [...new Set([...(await diffNames('HEAD')), ...(await diffNames('--cached', 'HEAD'))])];
    for (const specs of literalBatches(files))
      await git('restore', '--source=HEAD', '--staged', '--worktree', '--', ...specs);
    // Untracked files only, as git lists them (never through a symlinked directory); ignored ones git overwrites itself.
    for (const specs of literalBatches(await diffNames('--diff-filter=A', 'HEAD', ref))) {
      const args = ['ls-files', '-z', '--others', '--exclude-standard', '--', ...specs];
      const r = await runner.run(args);
      if (r.code !== 0) throw new GitError(args, r.code, r.stderr || r.stdout);
      for (const file of r.stdout.split('\0').filter((f) => f !== ''))
        await fs.rm(path.join(topLevel, file), { force: true }).catch(() => undefined); // a directory: git says so
    }
  };

  const currentRef = async () => {
    const branch = await runner.run(['symbolic-ref', '--quiet', '--short', 'HEAD']);
    return branch.code === 0 ? branch.stdout.trim() : git('rev-parse', 'HEAD');
  };
  const tipOf = (branch: string) => branchTip(runner, branch);

  return {
    topLevel,
    ...(options.author !== undefined ? { author: options.author } : {}),
    currentRef,
    branchExists: (branch) => tryGit('show-ref', '--verify', '--quiet', `refs/heads/${branch}`),
    holds: (branch, commit) => tryGit('merge-base', '--is-ancestor', commit, `refs/heads/${branch}`),
    async switchToBranch(branch, from) {
      if (await tryGit('show-ref', '--verify', '--quiet', `refs/heads/${branch}`))
        await git('checkout', '--quiet', branch);
      else await git('checkout', '--quiet', '-b', branch, from);
    },
    async checkout(ref, options) {
      if (options?.discard) await discardChangesBefore(ref);
      await git('checkout', '--quiet', ref);
    },
    async commitAll(message, commitOptions = {}) {
      await stageAll();
      // After stageAll: git reads the history with the person's configuration, put back, not the agent's.
      if (commitOptions.scanCommitsSince !== undefined) {
        const committed = await secretsCommitted(commitOptions.scanCommitsSince);
        if (committed.length > 0) {
          await runner.run(['reset', '--quiet']);
          throw new SecretInChangeError([...new Set(committed.flatMap((c) => c.files))], committed);
        }
      }
      if (await tryGit('diff', '--cached', '--quiet')) {
        if (!commitOptions.allowEmpty) return false;
        await withMessage(message, (file) => ['commit', '--quiet', '--no-verify', '--allow-empty', '-F', file]);
        return true;
      }
      const leaking = await secretsStaged();
      if (leaking.length > 0) {
        await runner.run(['reset', '--quiet']);
        throw new SecretInChangeError(leaking);
      }
      await withMessage(message, (file) => ['commit', '--quiet', '--no-verify', '-F', file]);
      return true;
    },
    head: () => git('rev-parse', 'HEAD'),
    tipOf,
    async quickTipOf(branch) {
      const known = await gitDirs();
      return (known && branchTipFromFiles(known, branch)) ?? tipOf(branch);
    },
    async laneState(baseBranch) {
      // Both as loose refs (the common case): read from git's files, no process (looseRefs.ts).
      const known = await gitDirs();
      const fromFiles = known && laneFromFiles(known, baseBranch);
      if (fromFiles) return fromFiles;
      // HEAD's commit, the base's, and HEAD's symbolic name ("HEAD" when detached) in one process.
      const r = await runner.run(['rev-parse', 'HEAD', `refs/heads/${baseBranch}`, '--symbolic-full-name', 'HEAD']);
      const [sha, baseTip, name] = r.stdout.trim().split('\n');
      if (r.code === 0 && sha && baseTip && name) {
        if (name === 'HEAD') return { head: sha, baseTip };
        if (name.startsWith('refs/heads/')) return { head: name.slice('refs/heads/'.length), baseTip };
      }
      // No base branch, an unborn HEAD, a symbolic HEAD outside refs/heads: the two reads, as before.
      return { head: await currentRef(), baseTip: await tipOf(baseBranch) };
    },
    async resetHard(ref) {
      await git('reset', '--quiet', '--hard', ref);
      await git('clean', '--quiet', '-fd');
    },
    async changedFiles(base) {
      await git('add', '--all', '--intent-to-add');
      await unstageProtected();
      const out = await git('diff', '--name-only', base);
      return out.split('\n').filter((l) => l !== '');
    },
    async merge(branch, message, mergeOptions = {}) {
      // The branch by its full name: git reads a tag of the same name first (an agent's
      // `git tag agent-loop/x` would be merged instead of the cycle's work).
      const ref = `refs/heads/${branch}`;
      if (mergeOptions.fastForwardOnly) {
        await git('merge', '--quiet', '--ff-only', ref);
        return;
      }
      try {
        await withMessage(message, (file) => ['merge', '--quiet', '--no-ff', '--no-edit', '-F', file, ref]);
      } catch (error) {
        // A merge that stopped on a conflict is undone: the checkout is never left half-merged.
        const conflicted = await diffNames('--diff-filter=U').catch(() => [] as string[]);
        await runner.run(['merge', '--abort']);
        if (conflicted.length === 0) throw error;
        throw new MergeConflictError(branch, await currentRef(), conflicted);
      }
    },
    async hasWorkSince(base) {
      if ((await git('status', '--porcelain')) !== '') return true;
      return Number(await git('rev-list', '--count', `${base}..HEAD`)) > 0;
    },
    async subjectsSince(base, branch) {
      const out = await git('log', '--format=%s', `${base}..refs/heads/${branch}`, '--');
      return out.split('\n').filter((l) => l !== '');
    },
    async deleteBranch(branch) {
      await git('branch', '--quiet', '-D', branch);
    },
    async fetchBranch(name, branch) {
      const listed = await remote.run(['ls-remote', '--exit-code', '--heads', name, `refs/heads/${branch}`]);
      if (listed.code === 2) return false; // --exit-code: 2 is "no matching ref"
      if (listed.code !== 0) throw new GitError(['ls-remote', name, branch], listed.code, listed.stderr);
      await remoteGit('fetch', '--quiet', '--no-tags', name, `refs/heads/${branch}:refs/heads/${branch}`);
      return true;
    },
    async push(name, branch) {
      // Not --quiet: the remote's own lines (GitHub's GH006, a hook's reason) say why a push is refused.
      await remoteGit('push', '--no-verify', name, `refs/heads/${branch}:refs/heads/${branch}`);
    },
    putBackStaging: () => putBackStaging('slice end'),
    async untracked() {
      const out = await git('ls-files', '--others', '--exclude-standard', '--directory', '-z');
      return out.split('\0').filter((l) => l !== '');
    },
    async exclude(relativePathOrPattern, excludeOptions = {}) {
      const file = staging.exclude;
      const bare = relativePathOrPattern.replace(/^\/+|\/+$/g, '');
      const line = excludeOptions.file
        ? `/${bare.replace(/[*?[\\]/g, '\\$&')}`
        : relativePathOrPattern.includes('*')
          ? relativePathOrPattern
          : `/${bare}/`;
      if (!ourExcludes.includes(line)) ourExcludes.push(line);
      const current = await fs.readFile(file, 'utf8').catch(() => '');
      if (current.split('\n').includes(line)) return;
      await fs.mkdir(path.dirname(file), { recursive: true });
      await fs.appendFile(file, `${current && !current.endsWith('\n') ? '\n' : ''}${EXCLUDE_MARK}\n${line}\n`);
    },
  };
}

/**
 * The configuration keys in `cwd`'s repository that hold git credentials a process in the work tree
 * could read (an `http.*.extraheader`, as actions/checkout persists by default). Names, not values.
 */
export async function persistedCredentials(cwd: string, env: NodeJS.ProcessEnv): Promise<string[]> {
  const r = await execGitIn(
    cwd,
    env,
  )(['config', '--includes', '--name-only', '--get-regexp', '^http\\..*extraheader$']);
  return r.code === 0
    ? [
        ...new Set(
          r.stdout
            .split('\n')
            .map((l) => l.trim())
            .filter((l) => l !== ''),
        ),
      ]
    : [];
}
