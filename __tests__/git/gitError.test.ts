/** GitError's message: git's own reason is kept when its explanation runs over the last lines. */
import { describe, expect, it } from '@jest/globals';
import { GitError } from '../../src/git/git.js';

describe('GitError', () => {
  it("keeps git's fatal line when the explanation after it is longer than the tail shown (an index.lock an agent left)", () => {
    // git 2.39's own words, as a run met them on a .git/index.lock the agent left: the message
    // shown was "are terminated then try again. If it still fails, …", naming no file.
    const stderr = `fatal: Unable to create '/r/.git/index.lock': File exists.

Another git process seems to be running in this repository, e.g.
an editor opened by 'git commit'. Please make sure all processes
are terminated then try again. If it still fails, a git process
may have crashed in this repository earlier:
remove the file manually to continue.
`;
    const message = new GitError(['add', '--all'], 128, stderr).message;
    expect(message).toMatch(
      /^git add --all failed \(exit 128\): fatal: Unable to create '\/r\/\.git\/index\.lock': File exists\. \/ /,
    );
    expect(message).toMatch(/remove the file manually to continue\.$/);
  });

  it('shows the last three lines as before when git says little', () => {
    expect(new GitError(['merge'], 1, 'a\nb\nfatal: c\n').message).toBe('git merge failed (exit 1): a / b / fatal: c');
  });
});
