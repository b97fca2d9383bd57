/**
 * The lane (where HEAD is, where the base branch points) read from git's own files instead of a git
 * process, in the common case where git keeps both as loose refs: `<git-dir>/HEAD` and
 * `<common-dir>/refs/heads/<branch>`, each replaced whole by git (a lock file renamed over it), so a
 * read sees the old or the new value. A loose ref is what git reads first, before packed-refs, so
 * two small files say what `git rev-parse` would. Anything else (a branch only in packed-refs, an
 * unborn or symbolic branch, the reftable backend, a HEAD that is a symlink, a `.git` that no longer
 * leads to the directories git named at first) answers undefined and the caller asks git. The lane
 * guard asks twice per iteration: this saves two git processes each.
 */
import { lstatSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** Where a repository keeps HEAD (per work tree) and its refs (shared by its work trees), as git said once. */
export interface GitDirs {
  topLevel: string;
  gitDir: string;
  commonDir: string;
}

const SHA = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;
/** A branch name git accepts and that cannot leave refs/heads/ as a path. */
const BRANCH = /^(?!.*(?:^|\/)\.)(?!.*\.\.)(?!.*\/\/)[^\0\\:~^?*[\s]+(?<![/.])$/;

/** One small file's content (a plain regular file, not a symlink), its line end trimmed as git does; undefined otherwise. */
function readLoose(file: string): string | undefined {
  try {
    const st = lstatSync(file, { throwIfNoEntry: false });
    if (!st?.isFile() || st.size > 4096) return undefined;
    return readFileSync(file, 'utf8').trimEnd();
  } catch {
    return undefined;
  }
}

/**
 * Whether git would still find the same directories: `<top>/.git` is that git directory (or a
 * `gitdir:` file naming it) and a linked work tree's `commondir` still names the common directory.
 * Something (the agent) that points `.git` elsewhere makes git work on another HEAD: then ask git.
 */
function stillTheSame(dirs: GitDirs): boolean {
  const dotGit = path.join(dirs.topLevel, '.git');
  const st = lstatSync(dotGit, { throwIfNoEntry: false });
  if (st?.isDirectory()) {
    if (dotGit !== dirs.gitDir || dirs.gitDir !== dirs.commonDir) return false;
  } else if (st?.isFile()) {
    const named = /^gitdir: (.+)$/.exec(readLoose(dotGit) ?? '')?.[1];
    if (named === undefined || path.resolve(dirs.topLevel, named) !== dirs.gitDir) return false;
    const common = readLoose(path.join(dirs.gitDir, 'commondir'));
    const commonDir = common === undefined ? dirs.gitDir : path.resolve(dirs.gitDir, common);
    if (commonDir !== dirs.commonDir) return false;
  } else return false;
  return lstatSync(path.join(dirs.commonDir, 'reftable'), { throwIfNoEntry: false }) === undefined;
}

/** A branch's commit from its loose ref, when it has one holding a commit id. */
function looseTip(dirs: GitDirs, branch: string): string | undefined {
  if (!BRANCH.test(branch)) return undefined;
  const sha = readLoose(path.join(dirs.commonDir, 'refs', 'heads', ...branch.split('/')));
  return sha !== undefined && SHA.test(sha) ? sha : undefined;
}

/** A branch's commit read from its loose ref alone (no process); undefined when the files cannot say it: ask git. */
export function branchTipFromFiles(dirs: GitDirs, branch: string): string | undefined {
  try {
    return stillTheSame(dirs) ? looseTip(dirs, branch) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * HEAD (its branch's name, or the commit when detached) and the base branch's commit, as git would
 * say them; undefined when the files cannot say it alone (ask git).
 */
export function laneFromFiles(dirs: GitDirs, baseBranch: string): { head: string; baseTip: string } | undefined {
  try {
    if (!stillTheSame(dirs)) return undefined;
  } catch {
    return undefined;
  }
  const baseTip = looseTip(dirs, baseBranch);
  if (baseTip === undefined) return undefined;
  const head = readLoose(path.join(dirs.gitDir, 'HEAD'));
  if (head === undefined) return undefined;
  if (SHA.test(head)) return { head, baseTip };
  const branch = /^ref: refs\/heads\/(.+)$/.exec(head)?.[1];
  // HEAD's branch must exist as a loose ref too (an unborn branch, or one only in packed-refs: ask git).
  if (branch === undefined || looseTip(dirs, branch) === undefined) return undefined;
  return { head: branch, baseTip };
}
