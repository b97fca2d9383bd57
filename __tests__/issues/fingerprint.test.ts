/** What the core sees of a ready issue (src/issues/fingerprint.ts): the fingerprint of its text, and another run's claim. */
import { describe, expect, it } from '@jest/globals';
import { issueFingerprint, toReadyIssue } from '../../src/issues/fingerprint.js';

const issue = { id: '7', title: 'Fix it', body: 'value.txt must read good', labels: ['agent-loop'] };

describe('toReadyIssue (issue 14)', () => {
  it('a fingerprint of the title and the text: the same text the same, an edit of either another', () => {
    const same = issueFingerprint(issue);
    expect(same).toMatch(/^[0-9a-f]{16}$/);
    expect(issueFingerprint({ ...issue })).toBe(same);
    expect(issueFingerprint({ ...issue, body: `${issue.body}.` })).not.toBe(same);
    expect(issueFingerprint({ ...issue, title: 'Fix it now' })).not.toBe(same);
    // Title and body are kept apart: moving text from one to the other is an edit.
    expect(issueFingerprint({ title: 'ab', body: 'c' })).not.toBe(issueFingerprint({ title: 'a', body: 'bc' }));
  });

  it('keeps another run’s claim (the core skips the issue by it), and adds nothing else', () => {
    const claimedBy = { run: 'github-9-1', checkpoint: 'cp', expires: '2026-11-27T04:00:00Z' };
    expect(toReadyIssue({ ...issue, claimedBy })).toEqual({
      id: '7',
      title: 'Fix it',
      labels: ['agent-loop'],
      fingerprint: issueFingerprint(issue),
      claimedBy,
    });
    expect(Object.keys(toReadyIssue(issue))).toEqual(['id', 'title', 'labels', 'fingerprint']);
  });
});
