/**
 * The reads the lane guard makes after every agent run (Git.quickTipOf, Git.laneState): from git's
 * loose refs when they can say it alone (looseRefs.ts, no process), else from git in one process.
 */
import type { GitContext } from './context.js';
import { type GitDirs, branchTipFromFiles, laneFromFiles } from './looseRefs.js';

export interface LaneReads {
  quickTipOf(branch: string): Promise<string | undefined>;
  laneState(baseBranch: string): Promise<{ head: string; baseTip: string | undefined }>;
}

export function laneReads(
  ctx: GitContext,
  currentRef: () => Promise<string>,
  tipOf: (branch: string) => Promise<string | undefined>,
): LaneReads {
  let dirs: Promise<GitDirs | undefined> | undefined;
  /** Where git keeps this checkout's files, asked once (the loose refs are read from there). */
  const gitDirs = () =>
    (dirs ??= ctx.runner
      .run(['rev-parse', '--absolute-git-dir', '--path-format=absolute', '--git-common-dir'])
      .then((r) => {
        const [gitDir, commonDir] = r.stdout.trim().split('\n');
        return r.code === 0 && gitDir && commonDir ? { topLevel: ctx.topLevel, gitDir, commonDir } : undefined;
      }));
  return {
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
      const r = await ctx.runner.run(['rev-parse', 'HEAD', `refs/heads/${baseBranch}`, '--symbolic-full-name', 'HEAD']);
      const [sha, baseTip, name] = r.stdout.trim().split('\n');
      if (r.code === 0 && sha && baseTip && name) {
        if (name === 'HEAD') return { head: sha, baseTip };
        if (name.startsWith('refs/heads/')) return { head: name.slice('refs/heads/'.length), baseTip };
      }
      // No base branch, an unborn HEAD, a symbolic HEAD outside refs/heads: the two reads, as before.
      return { head: await currentRef(), baseTip: await tipOf(baseBranch) };
    },
  };
}
