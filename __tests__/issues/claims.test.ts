/**
 * Claims and leases (issue 14), the pure rules (src/issues/claims.ts): how long a lease lasts,
 * when it is live, which of several claims holds the issue, whose claim a run may write into.
 */
import { describe, expect, it } from '@jest/globals';
import {
  type FoundClaim,
  expiredClaims,
  expiryOf,
  heldByOther,
  isLive,
  leaseMinutes,
  ownClaim,
  winningClaim,
} from '../../src/issues/claims.js';

const NOW = Date.parse('2026-11-25T10:00:00Z');
const at = (minutes: number) => new Date(NOW + minutes * 60_000).toISOString();
const found = (id: number, run: string, expiresIn: number, more: { checkpoint?: string; released?: boolean } = {}) =>
  ({
    id,
    claim: {
      run,
      checkpoint: more.checkpoint ?? `cp-${run}`,
      expires: at(expiresIn),
      ...(more.released ? { released: true } : {}),
    },
  }) satisfies FoundClaim;

describe('claims: the lease', () => {
  it('outlives one iteration: the agent and the test command, each up to agent-timeout-minutes, plus 5 minutes', () => {
    expect(leaseMinutes(30)).toBe(65);
    expect(leaseMinutes(1)).toBe(7);
  });

  it('is live until it expires, never once released; an unreadable time is not live', () => {
    expect(isLive(found(1, 'r', 1), NOW)).toBe(true);
    expect(isLive(found(1, 'r', 0), NOW)).toBe(false); // expiring now is expired
    expect(isLive(found(1, 'r', -1), NOW)).toBe(false);
    expect(isLive(found(1, 'r', 60, { released: true }), NOW)).toBe(false);
    expect(isLive({ id: 1, claim: { run: 'r', checkpoint: 'c', expires: 'soon' } }, NOW)).toBe(false);
  });

  it('runs from the source’s stamp for its length when both are known: the writer’s clock does not count', () => {
    // Written by a runner whose clock is an hour behind: its `expires` is already past on the source's clock.
    const skewed = {
      id: 1,
      claim: { run: 'r', checkpoint: 'c', expires: at(-30), leaseSeconds: 3900 },
      updatedAt: at(-5),
    };
    expect(expiryOf(skewed)).toBe(NOW + 60 * 60_000);
    expect(isLive(skewed, NOW)).toBe(true);
    expect(isLive(skewed, NOW + 61 * 60_000)).toBe(false);
    expect(heldByOther([skewed], NOW, 'me')?.expires).toBe('2026-11-25T11:00:00Z');
  });
});

describe('claims: which claim holds the issue', () => {
  it('the oldest live claim wins (smallest comment id), whatever order they are listed in', () => {
    const claims = [found(30, 'b', 60), found(20, 'a', 60), found(10, 'dead', -5)];
    expect(winningClaim(claims, NOW)?.claim.run).toBe('a');
    expect(heldByOther(claims, NOW, 'b')?.run).toBe('a'); // b yields to a
    expect(heldByOther(claims, NOW, 'a')).toBeUndefined(); // a goes on
  });

  it('an issue with only expired or released claims is free; the expired ones not released are the dead runs to adopt from', () => {
    const claims = [found(1, 'dead', -5), found(2, 'done', 30, { released: true })];
    expect(winningClaim(claims, NOW)).toBeUndefined();
    expect(heldByOther(claims, NOW, 'me')).toBeUndefined();
    expect(expiredClaims(claims, NOW, 'me').map((c) => c.run)).toEqual(['dead']);
    expect(expiredClaims(claims, NOW, 'dead')).toEqual([]); // its own is no one's to adopt
  });

  it('a run writes into its own live claim; into its loop’s live one only when resuming that loop’s cycle; never into an expired one', () => {
    const claims = [found(1, 'earlier', 30, { checkpoint: 'cp' }), found(2, 'me', 30, { checkpoint: 'other' })];
    expect(ownClaim(claims, NOW, { run: 'me', checkpoint: 'cp' }, false)?.id).toBe(2);
    expect(ownClaim([claims[0]!], NOW, { run: 'me', checkpoint: 'cp' }, false)).toBeUndefined();
    expect(ownClaim([claims[0]!], NOW, { run: 'me', checkpoint: 'cp' }, true)?.id).toBe(1);
    expect(ownClaim([found(1, 'me', -1)], NOW, { run: 'me', checkpoint: 'cp' }, true)).toBeUndefined();
  });
});
