/**
 * Git.fetchBranch and Git.push: the only git calls that get the remote's credentials (GitOptions.remoteEnv,
 * from remoteAuth.ts), which no other git call, and no agent, ever holds; network calls, each under
 * its timeout and retry (GitOptions.network: src/git/network.ts).
 */
import type { GitContext } from './context.js';
import { GitError } from './errors.js';
import { DEFAULT_NETWORK_LIMITS, networkRunner } from './network.js';

export interface RemoteOps {
  fetchBranch(remote: string, branch: string): Promise<boolean>;
  push(remote: string, branch: string): Promise<void>;
}

export function remoteOps(ctx: GitContext): RemoteOps {
  const { remoteEnv, author, network = DEFAULT_NETWORK_LIMITS } = ctx.options;
  const remote = networkRunner(ctx.topLevel, { ...ctx.env, ...remoteEnv }, author, network);
  const remoteGit = async (...args: string[]) => {
    const r = await remote.run(args);
    if (r.code !== 0) throw new GitError(args, r.code, r.stderr || r.stdout);
  };
  return {
    async fetchBranch(name, branch) {
      const listed = await remote.run(['ls-remote', '--exit-code', '--heads', name, `refs/heads/${branch}`]);
      if (listed.code === 2) return false; // --exit-code: 2 is "no matching ref"
      if (listed.code !== 0) throw new GitError(['ls-remote', name, branch], listed.code, listed.stderr);
      await remoteGit('fetch', '--quiet', '--no-tags', name, `refs/heads/${branch}:refs/heads/${branch}`);
      return true;
    },
    async push(name, branch) {
      // Not --quiet: the remote's own lines (GitHub's GH006, a hook's reason) say why a push is refused.
      // --no-follow-tags: an annotated tag the agent made (push.followTags set in .git/config) is never pushed with it.
      await remoteGit('push', '--no-verify', '--no-follow-tags', name, `refs/heads/${branch}:refs/heads/${branch}`);
    },
  };
}
