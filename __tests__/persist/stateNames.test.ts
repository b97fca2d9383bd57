/**
 * The names the state store publishes under: the scope of a lineage, its cache keys and its
 * artifact name.
 */
import { describe, expect, it } from '@jest/globals';
import { artifactName, cacheKey, cacheKeyPrefix, stateScope } from '../../src/persist/stateNames.js';

const SCOPE = stateScope('refs/heads/main', 'agent-ready');

describe('names', () => {
  it('builds keys and the artifact name from a sanitised, hashed scope', () => {
    expect(SCOPE).toMatch(/^main-agent-ready-[0-9a-f]{8}$/);
    expect(stateScope('refs/heads/feat/x,y', 'needs: "review"')).toMatch(/^feat-x-y-needs-review-[0-9a-f]{8}$/);
    expect(stateScope('refs/heads/main', 'a b')).not.toBe(stateScope('refs/heads/main', 'a-b'));
    expect(cacheKey(SCOPE, 42, 3)).toBe(`agent-loop-${SCOPE}-42-3`);
    expect(cacheKeyPrefix(SCOPE)).toBe(`agent-loop-${SCOPE}-`);
    expect(artifactName(SCOPE)).toBe(`agent-loop-checkpoint-${SCOPE}`);
    // One label's prefix never matches another label's keys.
    expect(
      cacheKey(stateScope('refs/heads/main', 'bug-fix'), 1, 1).startsWith(
        cacheKeyPrefix(stateScope('refs/heads/main', 'bug')),
      ),
    ).toBe(false);
    expect(stateScope('refs/heads/' + 'x'.repeat(600), 'l').length).toBeLessThan(100);
  });
});
