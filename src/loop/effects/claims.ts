/** Claims on a cycle's issues (issue 14): taken, held before an iteration, renewed before a wait, released. */
import type { ClaimProgress } from '../../issues/claims.js';
import type { Handler, SliceContext } from './context.js';

export const claimIssues: Handler<'claimIssues'> = async (effect, ctx) => {
  const adopted: string[] = [];
  const won: string[] = [];
  for (const id of effect.issueIds) {
    const outcome = await ctx.deps.source.claim!(id, ctx.me, effect.expires, effect.resuming, effect.progress);
    if (!outcome.won) {
      // Lost to an older live claim: the issues claimed so far for this cycle are let go.
      await letGo(ctx, won, effect.expires);
      return { type: 'claimed', lost: { id, run: outcome.holder.run, expires: outcome.holder.expires }, adopted };
    }
    won.push(id);
    adopted.push(...outcome.adopted.map((c) => c.run).filter((r) => !adopted.includes(r)));
  }
  return { type: 'claimed', adopted };
};

export const holdClaim: Handler<'holdClaim'> = async (effect, ctx) => {
  for (const [i, id] of effect.issueIds.entries()) {
    const taken = await ctx.deps.source
      .renewClaim?.(id, ctx.me, effect.expires, effect.progress)
      .catch((e: unknown) => {
        claimWarning(ctx, 'renew', id, e);
        return undefined;
      });
    if (!taken) continue;
    // Taken over: the cycle's other claims go too (theirs to take).
    await letGo(
      ctx,
      effect.issueIds.filter((_, j) => j !== i),
      effect.expires,
    );
    return { type: 'claimed', lost: { id, run: taken.run, expires: taken.expires }, adopted: [] };
  }
  return { type: 'claimed', adopted: [] };
};

export const renewClaim: Handler<'renewClaim'> = async (effect, ctx) => {
  for (const id of effect.issueIds)
    await ctx.deps.source
      .renewClaim?.(id, ctx.me, effect.expires, effect.progress)
      .catch((e) => claimWarning(ctx, 'renew', id, e));
  return undefined;
};

export const releaseClaim: Handler<'releaseClaim'> = async (effect, ctx) => {
  await letGo(ctx, effect.issueIds, effect.at, effect.progress);
  return undefined;
};

/** Claim, renewal or release of one issue failed: the cycle goes on; the lease runs out by itself. */
export function claimWarning({ deps }: SliceContext, what: string, id: string, error: unknown): void {
  deps.logger.warn(
    'claim.failed',
    `Could not ${what} the claim on ${id} in ${deps.source.description}: ${(error as Error).message}. The work goes on; the claim's lease runs out by itself.`,
    { issueId: id },
  );
}

/** Releases this run's claims on `ids` at `at`; a release that fails is a warning (the lease runs out). */
async function letGo(ctx: SliceContext, ids: string[], at: string, progress?: ClaimProgress): Promise<void> {
  for (const id of ids)
    await ctx.deps.source.releaseClaim?.(id, ctx.me, at, progress).catch((e) => claimWarning(ctx, 'release', id, e));
}
