/**
 * Claims and leases on issues (issue 14), the pure part: who holds an issue, until when, and which
 * of several claims wins. A run working an issue claims it (on GitHub: the IN_PROGRESS_LABEL and
 * one claim comment, src/issues/github/claimComments.ts), renews the lease at each iteration and
 * releases it when the cycle ends. Other runs skip an issue whose lease is live; once it has
 * expired (its run died), the next run takes the issue over and adopts its branch and pull request.
 *
 * Race safety: a run claims (posts its comment), then reads the claims back; the oldest
 * live claim (the smallest comment id: GitHub numbers comments in creation order) wins, and every
 * other run yields. Two runs that claim at the same time both see both comments on reading back,
 * so exactly one of them goes on.
 */

/** Who works an issue: the workflow run (or CLI process) and the loop's checkpoint. */
export interface Claimant {
  /** `github-<GITHUB_RUN_ID>-<GITHUB_RUN_ATTEMPT>` in the action; `local-<id>` for the CLI. */
  run: string;
  /** The checkpoint of the loop: the same loop's next run resumes its own claim. */
  checkpoint: string;
}

export interface Claim extends Claimant {
  /** When the lease ends unless renewed (RFC 3339). */
  expires: string;
  /** Released when the cycle ended (landed or escalated): no longer holds the issue. */
  released?: boolean;
  /** The lease's length when written (seconds): where the source stamps its claims, the lease runs from that stamp. */
  leaseSeconds?: number;
  /**
   * The work's progress as last written (the cycle's agent iterations and spend so far): what a
   * wave's reduce counts for a job that died before it saved its state (issue 16).
   */
  iterations?: number;
  costUsd?: number;
}

/**
 * How the work on a claimed issue goes (issue 15): the claim comment is the progress
 * comment, written at each claim and renewal (`working`) and at the release (how the cycle ended).
 */
export interface ClaimProgress {
  state: 'working' | 'pull_request' | 'done' | 'no_change' | 'held' | 'escalated' | 'lost' | 'unfinished';
  /** The cycle's agent iterations so far. */
  iterations?: number;
  /** What the agent reported spending on the cycle (agents that report dollars). */
  costUsd?: number;
  /** The pull request holding the work (`pull_request`); `reused`: it was open already. */
  pullRequest?: { number: number; url: string; reused?: boolean };
}

/** What claiming an issue came to: won (with the expired claims of dead runs it took over), or held by another run. */
export type ClaimOutcome = { won: true; adopted: Claim[] } | { won: false; holder: Claim };

/** A claim as found on the issue, in creation order (`id`: GitHub's comment id). */
export interface FoundClaim {
  id: number;
  claim: Claim;
  /** When the source last wrote it, on the source's clock (GitHub's comment updated_at). */
  updatedAt?: string;
}

/**
 * When a found claim's lease ends (epoch ms): its stamp plus the lease's length, both on the
 * source's clock, when it has them (so that two runners' clocks never have to agree); else the
 * time written into it.
 */
export function expiryOf(found: FoundClaim): number {
  const stamp = found.updatedAt !== undefined ? Date.parse(found.updatedAt) : NaN;
  if (found.claim.leaseSeconds !== undefined && Number.isFinite(stamp)) return stamp + found.claim.leaseSeconds * 1000;
  return Date.parse(found.claim.expires);
}

/** The claim with its lease's end as the source's clock has it. */
function asFound(found: FoundClaim): Claim {
  const expiry = expiryOf(found);
  return Number.isFinite(expiry)
    ? { ...found.claim, expires: new Date(expiry).toISOString().replace(/\.\d{3}Z$/, 'Z') }
    : found.claim;
}

/** The margin added to an iteration's longest run to make a lease (the checkpoint, git, GitHub). */
export const LEASE_MARGIN_MINUTES = 5;

/**
 * How long a lease lasts: an iteration renews it, and one iteration runs the agent and then the test
 * command, each bounded by agent-timeout-minutes (a cycle's first also runs the baseline, on a
 * lease taken just before); plus a margin. With the default 30 minutes: 65 minutes.
 */
export function leaseMinutes(agentTimeoutMinutes: number): number {
  return 2 * agentTimeoutMinutes + LEASE_MARGIN_MINUTES;
}

/** Whether a claim still holds its issue at `now` (epoch ms, the source's clock). */
export function isLive(found: FoundClaim, now: number): boolean {
  if (found.claim.released) return false;
  const expires = expiryOf(found);
  return Number.isFinite(expires) && expires > now;
}

/** The claim that holds the issue at `now`: the oldest live one (claims in creation order). */
export function winningClaim(claims: readonly FoundClaim[], now: number): FoundClaim | undefined {
  return [...claims].sort((a, b) => a.id - b.id).find((c) => isLive(c, now));
}

/**
 * Why `me` must keep off the issue: the live claim of another run that holds it, or undefined when
 * the issue is free, its lease expired, or it is `me`'s own.
 */
export function heldByOther(claims: readonly FoundClaim[], now: number, run: string): Claim | undefined {
  const winner = winningClaim(claims, now);
  return winner && winner.claim.run !== run ? asFound(winner) : undefined;
}

/**
 * The claim comment `me` writes its claim into: its own (same run), or, for a cycle its loop had in
 * flight (`resuming`), its loop's own live one from an earlier run. Never another's, and never an
 * expired one: editing an old comment back to life would put it before a newer live claim.
 */
export function ownClaim(
  claims: readonly FoundClaim[],
  now: number,
  me: Claimant,
  resuming: boolean,
): FoundClaim | undefined {
  return claims.find(
    (c) => isLive(c, now) && (c.claim.run === me.run || (resuming && c.claim.checkpoint === me.checkpoint)),
  );
}

/** The runs whose claims on the issue expired without being released: their runs died; the taker adopts their work. */
export function expiredClaims(claims: readonly FoundClaim[], now: number, run: string): Claim[] {
  return claims.filter((c) => !c.claim.released && !isLive(c, now) && c.claim.run !== run).map(asFound);
}
