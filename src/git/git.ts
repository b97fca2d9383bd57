/**
 * The git operations the loop needs, behind one interface; every call goes through the one git
 * runner (exec.ts), except the lane's two loose refs, read from git's files when they can say it
 * alone (looseRefs.ts). openGit puts the parts together: staging kept (stagingKeeper.ts), commits
 * (commit.ts), checkouts and merges (checkout.ts), the lane's reads (laneReads.ts), remotes (remote.ts).
 */
import { checkoutOps } from './checkout.js';
import { blobsAdding, refBlobs } from './blobScan.js';
import { commitAll } from './commit.js';
import type { GitContext, GitOptions } from './context.js';
import { laneReads } from './laneReads.js';
import type { Git } from './operations.js';
import { remoteOps } from './remote.js';
import { branchTip, checkedGit, execGitIn, gitRunner } from './runner.js';
import { keepStaging } from './stagingKeeper.js';

export type { GitOptions, StagingMoment } from './context.js';
export type { Git } from './operations.js';
export { GitError, MergeConflictError, SecretInChangeError } from './errors.js';
export { cleanMessage } from './message.js';
export {
  DEFAULT_COMMIT_AUTHOR,
  type GitRunner,
  branchTip,
  gitRunner,
  parseAuthor,
  persistedCredentials,
} from './runner.js';

/** A Git for `cwd`, or undefined when `cwd` is not inside a work tree (the loop then works in place). */
export async function openGit(cwd: string, env: NodeJS.ProcessEnv, options: GitOptions = {}): Promise<Git | undefined> {
  const top = await execGitIn(cwd, env)(['rev-parse', '--show-toplevel']);
  if (top.code !== 0) return undefined;
  const topLevel = top.stdout.trim();
  const runner = gitRunner(topLevel, env, options.author);
  const ctx: GitContext = {
    topLevel,
    env,
    options,
    runner,
    git: checkedGit(runner),
    tryGit: async (...args) => (await runner.run(args)).code === 0,
  };
  const { git, tryGit } = ctx;
  // What decides what a commit stages, as it is before any agent runs (src/git/staging.ts).
  const keeper = await keepStaging(ctx);
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
    ...checkoutOps(ctx, currentRef),
    commitAll: (message, commitOptions) => commitAll(ctx, keeper, message, commitOptions),
    head: () => git('rev-parse', 'HEAD'),
    tipOf,
    ...laneReads(ctx, currentRef, tipOf),
    async changedFiles(base) {
      await git('add', '--all', '--intent-to-add');
      await keeper.unstageProtected();
      const out = await git('diff', '--name-only', base);
      return out.split('\n').filter((l) => l !== '');
    },
    async hasWorkSince(base) {
      if ((await git('status', '--porcelain')) !== '') return true;
      return Number(await git('rev-list', '--count', `${base}..HEAD`)) > 0;
    },
    async subjectsSince(base, branch) {
      const out = await git('log', '--format=%s', `${base}..refs/heads/${branch}`, '--');
      return out.split('\n').filter((l) => l !== '');
    },
    ...remoteOps(ctx),
    putBackStaging: (when = 'slice end') => keeper.putBack(when),
    async refSecrets(ref) {
      if (!options.holdsSecret) return [];
      const list = await git('--no-replace-objects', 'rev-list', '--objects', '--filter=object:type=blob', ref, '--');
      return (await blobsAdding(ctx, refBlobs(list), options.holdsSecret)).map((b) => b.file);
    },
    async untracked() {
      const out = await git('ls-files', '--others', '--exclude-standard', '--directory', '-z');
      return out.split('\0').filter((l) => l !== '');
    },
    exclude: (relativePathOrPattern, excludeOptions) => keeper.exclude(relativePathOrPattern, excludeOptions),
  };
}
