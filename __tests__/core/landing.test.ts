/** How a finished cycle's work lands (src/core/landing.ts), decided once per slice from --on-success and the publisher. */
import { describe, expect, it } from '@jest/globals';
import { closedByPullRequest, landingFor, landingMode, leavesBranch } from '../../src/core/landing.js';

describe('landingMode', () => {
  it('on-success merge: merged locally, or pushed onto the remote base where the publisher can (beads issues in the action)', () => {
    expect(landingMode('merge', undefined)).toBe('merge');
    expect(landingMode('merge', { pushesToBase: true })).toBe('pushToBase');
    expect(landingMode('merge', { pushesToBase: false })).toBe('merge');
  });

  it('on-success pull-request: a pull request where work is published, else the work stays on its branch', () => {
    expect(landingMode('pull-request', { pushesToBase: false })).toBe('pullRequest');
    expect(landingMode('pull-request', { pushesToBase: true })).toBe('pullRequest');
    expect(landingMode('pull-request', undefined)).toBe('branch');
  });

  it('on-success branch: left on its branch, published or not', () => {
    expect(landingMode('branch', undefined)).toBe('branch');
    expect(landingMode('branch', { pushesToBase: true })).toBe('branch');
  });

  it('leavesBranch (asked before the publisher is built) says branch exactly when landingMode does', () => {
    for (const onSuccess of ['merge', 'branch', 'pull-request'] as const)
      for (const publisher of [undefined, { pushesToBase: false }, { pushesToBase: true }])
        expect(leavesBranch(onSuccess, publisher !== undefined)).toBe(landingMode(onSuccess, publisher) === 'branch');
  });
});

describe('landingFor: work held for a person (issue 42) is never merged, whatever --on-success says', () => {
  const modes = ['pushToBase', 'pullRequest', 'merge', 'branch'] as const;

  it('held: a draft pull request where a publisher opens pull requests, else left on its branch', () => {
    for (const mode of modes) {
      expect(landingFor(mode, true, true)).toBe('draftPullRequest');
      expect(landingFor(mode, true, false)).toBe('branch');
    }
  });

  it('not held: as the mode says', () => {
    for (const mode of modes)
      for (const publishes of [true, false]) expect(landingFor(mode, false, publishes)).toBe(mode);
  });
});

describe('closedByPullRequest: who closes a finished cycle’s issues', () => {
  it('the pull request’s merge with pull requests, unless the issues live in the repository; the cycle otherwise', () => {
    expect(closedByPullRequest({ onSuccess: 'pull-request' })).toBe(true);
    expect(closedByPullRequest({ onSuccess: 'pull-request', closeOnBranch: true })).toBe(false);
    expect(closedByPullRequest({ onSuccess: 'merge' })).toBe(false);
    expect(closedByPullRequest({ onSuccess: 'branch' })).toBe(false);
  });
});
