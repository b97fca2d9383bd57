/**
 * Git.commitAll: stage everything (what decides staging put back first, the protected paths left out),
 * scan what the commit would bring in for secrets (the staged diff, and the agent's own commits since the
 * base), and commit, the message in a file. A secret commits nothing (SecretInChangeError).
 */
import { blobsAdding, commitsAdding, rangeBlobs, stagedBlobs } from './blobScan.js';
import { type SecretCommit, commitLogArgs, filesAdding, patchSecrets, secretCommits } from './commitScan.js';
import type { GitContext } from './context.js';
import { GitError, SecretInChangeError } from './errors.js';
import { withMessage } from './message.js';
import type { StagingKeeper } from './stagingKeeper.js';
import { STAGED_TOO_LARGE, commitsTooLarge } from './messages.js';

/** Files whose added lines hold a secret (never the secret itself). */
async function secretsStaged(ctx: GitContext): Promise<string[]> {
  const { holdsSecret } = ctx.options;
  if (!holdsSecret) return [];
  const args = ['diff', '--cached', '--no-color', '--no-ext-diff', '-U0', '--diff-filter=ACMR'];
  const diff = await ctx.runner.run(args);
  // A change too large to read whole (over the 16 MiB bound) cannot be scanned: never committed unscanned.
  if (diff.code !== 0) {
    await ctx.runner.run(['reset', '--quiet']);
    throw new GitError(args, diff.code, `${diff.stderr}\n${STAGED_TOO_LARGE}`);
  }
  // A secret on a removed line was there before (an issue's title the user wrote, now rewritten):
  // only one the change brings in counts.
  const { added, removed } = patchSecrets(diff.stdout, holdsSecret);
  return [...new Set([...filesAdding(added, removed), ...(await stagedBlobsAdding(ctx, holdsSecret))])];
}

/** The staged files whose blob, read as bytes (blobScan.ts), brings in a secret: those git shows as binary too. */
async function stagedBlobsAdding(ctx: GitContext, holdsSecret: (line: string) => string[]): Promise<string[]> {
  const raw = await ctx.git('diff', '--cached', '--raw', '-z', '--no-abbrev', '--no-renames', '--diff-filter=AMT');
  const hits = await blobsAdding(ctx, stagedBlobs(raw), holdsSecret).catch(async (error: unknown) => {
    await ctx.runner.run(['reset', '--quiet']);
    throw error;
  });
  return hits.map((b) => b.file);
}

/**
 * The commits since `base` whose blobs, read as bytes (blobScan.ts), bring in a secret: every blob HEAD
 * holds that `base` does not, with its path's version at `base` as what was there before. Each hit
 * named by the commits that add it (git log --find-object), only when there is one.
 */
async function blobsCommitted(ctx: GitContext, base: string): Promise<SecretCommit[]> {
  const { holdsSecret } = ctx.options;
  if (!holdsSecret) return [];
  const range = `refs/heads/${base}..HEAD`;
  const list = ['--no-replace-objects', 'rev-list', '--objects', '--filter=object:type=blob', range, '--'];
  const listed = await ctx.runner.run(list);
  if (listed.code !== 0) {
    await ctx.runner.run(['reset', '--quiet']);
    throw new GitError(list, listed.code, `${listed.stderr}\n${commitsTooLarge(base)}`);
  }
  const hits = await blobsAdding(ctx, rangeBlobs(listed.stdout, base), holdsSecret).catch(async (error: unknown) => {
    await ctx.runner.run(['reset', '--quiet']);
    throw error;
  });
  const commits: SecretCommit[] = [];
  for (const hit of hits) {
    const args = ['--no-replace-objects', 'log', '--format=%x00%H', '--raw', '--no-abbrev', `--find-object=${hit.id}`];
    const found = await ctx.runner.run([...args, range, '--']);
    for (const commit of commitsAdding(found.stdout, hit.id))
      commits.push({ commit, files: [hit.file], inMessage: false });
  }
  return commits;
}

/** `a` and `b` as one list, one entry a commit, its files joined. */
function mergeCommits(a: readonly SecretCommit[], b: readonly SecretCommit[]): SecretCommit[] {
  const by = new Map<string, SecretCommit>();
  for (const c of [...a, ...b]) {
    const known = by.get(c.commit);
    by.set(
      c.commit,
      known
        ? {
            commit: c.commit,
            files: [...new Set([...known.files, ...c.files])],
            inMessage: known.inMessage || c.inMessage,
          }
        : { ...c, files: [...c.files] },
    );
  }
  return [...by.values()];
}

/**
 * The commits HEAD holds and the local `base` does not that add a secret (src/git/commitScan.ts):
 * the agent's own, which no staged diff shows once a later commit removed the secret again. One
 * git log for them all; one too large to read whole, or not of its shape, is never taken as clean.
 */
async function secretsCommitted(ctx: GitContext, base: string): Promise<SecretCommit[]> {
  const { holdsSecret } = ctx.options;
  if (!holdsSecret) return [];
  const args = commitLogArgs(base);
  const log = await ctx.runner.run(args);
  const hits = log.code === 0 ? secretCommits(log.stdout, holdsSecret) : undefined;
  if (hits) return hits;
  await ctx.runner.run(['reset', '--quiet']);
  throw new GitError(args, log.code, `${log.stderr}\n${commitsTooLarge(base)}`);
}

/** Git.commitAll over `ctx` (see its contract in git.ts). */
export async function commitAll(
  ctx: GitContext,
  keeper: StagingKeeper,
  message: string,
  commitOptions: { allowEmpty?: boolean; scanCommitsSince?: string } = {},
): Promise<boolean> {
  await keeper.putBack('commit');
  await ctx.git('add', '--all');
  await keeper.unstageProtected();
  // After the put-back: git reads the history with the person's configuration, not the agent's.
  if (commitOptions.scanCommitsSince !== undefined) {
    const committed = mergeCommits(
      await secretsCommitted(ctx, commitOptions.scanCommitsSince),
      await blobsCommitted(ctx, commitOptions.scanCommitsSince),
    );
    if (committed.length > 0) {
      await ctx.runner.run(['reset', '--quiet']);
      throw new SecretInChangeError([...new Set(committed.flatMap((c) => c.files))], committed);
    }
  }
  if (await ctx.tryGit('diff', '--cached', '--quiet')) {
    if (!commitOptions.allowEmpty) return false;
    await withMessage(ctx, message, (file) => ['commit', '--quiet', '--no-verify', '--allow-empty', '-F', file]);
    return true;
  }
  const leaking = await secretsStaged(ctx);
  if (leaking.length > 0) {
    await ctx.runner.run(['reset', '--quiet']);
    throw new SecretInChangeError(leaking);
  }
  await withMessage(ctx, message, (file) => ['commit', '--quiet', '--no-verify', '-F', file]);
  return true;
}
