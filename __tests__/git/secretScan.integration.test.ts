/** Git.commitAll's secret scan: a change too large to read whole is never committed unscanned. */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { GIT_ENV, gitIn } from './repo.js';
import { type Git, GitError, openGit } from '../../src/git/git.js';

let dir: string;
let git: Git;
const env = GIT_ENV;
const sh = gitIn(() => dir);
const SECRET = 'sk-live-0123456789abcdef';

beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'agent-loop-secretscan-'));
  sh('init', '-q', '-b', 'main');
  sh('config', 'user.name', 't');
  sh('config', 'user.email', 't@example.invalid');
  sh('commit', '-q', '--allow-empty', '-m', 'one');
  git = (await openGit(dir, env, {
    holdsSecret: (line) => (line.includes(SECRET) ? [SECRET] : []),
  })) as Git;
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

describe('the secret scan of a commit', () => {
  it('refuses a change whose diff is over the 16 MiB bound, with a secret past it: nothing committed, nothing left staged', async () => {
    // One 17 MiB line of minified data, then a file that sorts after it holding the secret.
    await fs.writeFile(path.join(dir, 'a-data.min.js'), 'x'.repeat(17 * 1024 * 1024));
    await fs.writeFile(path.join(dir, 'z-config.js'), `export const key = '${SECRET}';\n`);
    const head = sh('rev-parse', 'HEAD');
    const error = await git.commitAll('agent work').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GitError);
    expect(String((error as Error).message)).toContain('could not be read whole to scan it for secrets');
    expect(sh('rev-parse', 'HEAD')).toBe(head);
    expect(sh('diff', '--cached', '--name-only')).toBe('');
  });
});
