/** The judgement of the agent's own commits (src/git/commitScan.ts) on logs of commitLogArgs's shape. */
import { describe, expect, it } from '@jest/globals';
import { describeSecretCommits, secretCommits } from '../../src/git/commitScan.js';

const SECRET = 'tok-0123456789abcdef';
const holds = (line: string) => (line.includes(SECRET) ? [SECRET] : []);
const sha = (c: string) => c.repeat(40);

/** One commit of the log: NUL, commit and parents, NUL, message, NUL, patch. */
const commit = (id: string, parents: string[], message: string, patch = '') =>
  `\0${[sha(id), ...parents.map(sha)].join(' ')}\0${message}\n\0\n${patch}`;
const filePatch = (file: string, lines: string[]) =>
  `diff --git a/${file} b/${file}\n--- a/${file}\n+++ b/${file}\n@@ -1 +1 @@\n${lines.join('\n')}\n`;

describe('secretCommits', () => {
  it('an empty range holds nothing', () => {
    expect(secretCommits('', holds)).toEqual([]);
  });

  it('a secret added, then removed by a later commit: the commit adding it, with its file', () => {
    const log =
      commit('a', ['0'], 'add', filePatch('leak.py', [`+k = "${SECRET}"`])) +
      commit('b', ['a'], 'cleanup', filePatch('leak.py', [`-k = "${SECRET}"`]));
    expect(secretCommits(log, holds)).toEqual([{ commit: sha('a'), files: ['leak.py'], inMessage: false }]);
  });

  it('a secret in a message only', () => {
    const log = commit('a', ['0'], `subject\n\nbody ${SECRET}`, filePatch('b.txt', ['+fine']));
    expect(secretCommits(log, holds)).toEqual([{ commit: sha('a'), files: [], inMessage: true }]);
  });

  it('a secret the base held (first seen removed) moved, even over two commits: none', () => {
    const log =
      commit('a', ['0'], 'drop', filePatch('old.txt', [`-${SECRET}`])) +
      commit('b', ['a'], 'put back', filePatch('new.txt', [`+${SECRET}`]));
    expect(secretCommits(log, holds)).toEqual([]);
  });

  it("a merge's line counts only when no parent had it (an evil merge), and a patch line like `++ x` is no file header", () => {
    const merge = `diff --cc m.txt\n--- a/m.txt\n+++ b/m.txt\n@@@ -1,1 -1,1 +1,2 @@@\n+ from one side ${SECRET}\n++${SECRET}\n`;
    const log = commit('a', ['0', '1'], 'merge', merge) + commit('b', ['a'], 'x', filePatch('x.txt', ['+++ x', '+y']));
    expect(secretCommits(log, holds)).toEqual([{ commit: sha('a'), files: ['m.txt'], inMessage: false }]);
  });

  it('a log not of the shape (a NUL in a message) is not taken as clean', () => {
    expect(secretCommits(`\0${sha('a')} ${sha('0')}\0mess\0age\n\0\n`, holds)).toBeUndefined();
    expect(secretCommits('not a log', holds)).toBeUndefined();
  });

  it('describes the commits by short id, their files and message, never the secret', () => {
    const text = describeSecretCommits([
      { commit: sha('a'), files: ['leak.py'], inMessage: true },
      { commit: sha('b'), files: [], inMessage: true },
    ]);
    expect(text).toBe('aaaaaaaaaaaa (leak.py, its message), bbbbbbbbbbbb (its message)');
  });
});

describe('a file named with a secret (issue 41 review)', () => {
  it('a new file whose name holds the secret adds it, even empty; renamed to such a name too', () => {
    const created = `diff --git a/t/${SECRET}.sh b/t/${SECRET}.sh\nnew file mode 100644\n--- /dev/null\n+++ b/t/${SECRET}.sh\n@@ -0,0 +1 @@\n+fine\n`;
    const renamed = `diff --git a/a.txt b/${SECRET}.txt\nsimilarity index 100%\nrename from a.txt\nrename to ${SECRET}.txt\n`;
    expect(secretCommits(commit('a', ['0'], 'add', created), holds)).toEqual([
      { commit: sha('a'), files: [`t/${SECRET}.sh`], inMessage: false },
    ]);
    expect(secretCommits(commit('b', ['0'], 'move', renamed), holds)).toEqual([
      { commit: sha('b'), files: [`${SECRET}.txt`], inMessage: false },
    ]);
  });

  it('a file the base already named so, changed: none (the name was the repository’s)', () => {
    expect(secretCommits(commit('a', ['0'], 'edit', filePatch(`${SECRET}.txt`, ['-old', '+new'])), holds)).toEqual([]);
  });
});
