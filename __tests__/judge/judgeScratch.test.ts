/**
 * Issue 42: where the judge trees are made. In the state directory's runtime directory, unless the
 * state directory is inside a version control directory (the default `.git/agent-loop`): jest leaves
 * out every file whose path holds `/.git/`, so a judge tree there had no test for it. Pure.
 */
import { describe, expect, it } from '@jest/globals';
import path from 'node:path';
import { judgeScratch } from '../../src/judge/judgeTree.js';

describe('the judge trees’ scratch directory (issue 42)', () => {
  it("a state directory outside any .git/.hg/.sl: its runtime directory's judge/", () => {
    expect(judgeScratch('/work/state', '/tmp')).toBe(path.join('/work/state', 'run', 'judge'));
  });

  it('the default state directory inside .git: the temporary directory, named for that state directory (one per state directory)', () => {
    const a = judgeScratch('/home/me/repo/.git/agent-loop', '/tmp');
    expect(a).toMatch(/^\/tmp\/agent-loop-judge-[0-9a-f]{16}$/);
    expect(judgeScratch('/home/me/repo/.git/agent-loop', '/tmp')).toBe(a);
    expect(judgeScratch('/home/me/other/.git/agent-loop', '/tmp')).not.toBe(a);
    expect(judgeScratch('/srv/x/.hg/state', '/tmp')).toMatch(/^\/tmp\/agent-loop-judge-/);
    // A name that only starts like one is not one.
    expect(judgeScratch('/srv/.github/state', '/tmp')).toBe(path.join('/srv/.github/state', 'run', 'judge'));
  });
});
