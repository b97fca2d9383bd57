import { describe, expect, it } from '@jest/globals';
import { mergeIssueLines } from '../../src/issues/mergeLines.js';

const line = (id: string, status = 'open') => JSON.stringify({ id, title: `Issue ${id}`, status });
const file = (...lines: string[]) => lines.join('\n') + '\n';

describe('mergeIssueLines (issue 16: parallel jobs closing neighbouring issues)', () => {
  const base = file(line('bd-1'), line('bd-2'), line('bd-3'));

  it('keeps both closings when each side closed a different issue on neighbouring lines', () => {
    // Arrange: the base branch closed bd-1 (an earlier job merged), this job closed bd-2.
    const ours = file(line('bd-1', 'closed'), line('bd-2'), line('bd-3'));
    const theirs = file(line('bd-1'), line('bd-2', 'closed'), line('bd-3'));
    // Act / Assert
    expect(mergeIssueLines(base, ours, theirs)).toEqual({
      ok: true,
      text: file(line('bd-1', 'closed'), line('bd-2', 'closed'), line('bd-3')),
    });
  });

  it('adds the issues a job created, after the others, and drops those it removed', () => {
    const ours = file(line('bd-1', 'closed'), line('bd-2'), line('bd-3'));
    const theirs = file(line('bd-1'), line('bd-3'), line('bd-4'));
    expect(mergeIssueLines(base, ours, theirs)).toEqual({
      ok: true,
      text: file(line('bd-1', 'closed'), line('bd-3'), line('bd-4')),
    });
  });

  it('is a conflict, naming the issue, when both sides changed the same issue differently', () => {
    const ours = file(line('bd-1', 'closed'), line('bd-2'), line('bd-3'));
    const theirs = file(line('bd-1', 'in_progress'), line('bd-2'), line('bd-3'));
    expect(mergeIssueLines(base, ours, theirs)).toEqual({ ok: false, conflicts: ['bd-1'] });
  });

  it('is a conflict when a line is not an issue (it cannot be merged by id)', () => {
    expect(mergeIssueLines(base, base + 'not json\n', base).ok).toBe(false);
  });
});
