/**
 * Git.commitAll's scan of every blob as bytes (issue 43), on real git: a secret in a file git shows
 * as "Binary files differ" (NUL bytes, `.gitattributes` binary or -diff, UTF-16, gzip), staged or in
 * the agent's own commits, commits nothing; a binary file without one, or one the base held already, commits.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { GIT_ENV, gitIn } from './repo.js';
import { type Git, GitError, SecretInChangeError, openGit } from '../../src/git/git.js';
import { secretDetector } from '../../src/safety/secretScan.js';

let dir: string;
let git: Git;
const sh = gitIn(() => dir);
const SECRET = 'sk-live-0123456789abcdef';

const FORMS: Array<[string, Buffer]> = [
  ['nul.dat', Buffer.concat([Buffer.from([0, 1, 0]), Buffer.from(`key=${SECRET}`), Buffer.from([0])])],
  ['key.bin', Buffer.from(`key=${SECRET}\n`)], // text, but .gitattributes says binary
  ['key.nodiff', Buffer.from(`key=${SECRET}\n`)], // text, but .gitattributes says -diff
  ['utf16.txt', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(`key=${SECRET}\r\n`, 'utf16le')])],
  ['env.gz', gzipSync(Buffer.from(`KEY=${SECRET}\n`))],
];

beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'agent-loop-blobscan-'));
  sh('init', '-q', '-b', 'main');
  await fs.writeFile(path.join(dir, '.gitattributes'), '*.bin binary\n*.nodiff -diff\n');
  sh('add', '-A');
  sh('commit', '-q', '-m', 'one');
  sh('switch', '-q', '-c', 'agent-loop/1');
  git = (await openGit(dir, GIT_ENV, { holdsSecret: secretDetector([SECRET]) })) as Git;
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

describe('the scan of every blob as bytes', () => {
  it.each(FORMS)('a staged %s holding the secret commits nothing, and is named', async (file, bytes) => {
    await fs.writeFile(path.join(dir, file), bytes);
    const head = sh('rev-parse', 'HEAD');
    const error = await git.commitAll('agent work', { scanCommitsSince: 'main' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SecretInChangeError);
    expect((error as SecretInChangeError).files).toEqual([file]);
    expect((error as Error).message).not.toContain(SECRET);
    expect(sh('rev-parse', 'HEAD')).toBe(head);
    expect(sh('diff', '--cached', '--name-only')).toBe('');
  });

  it.each(FORMS)(
    'the agent committing %s with the secret, then removing it: its commit named, nothing committed',
    async (file, bytes) => {
      await fs.writeFile(path.join(dir, file), bytes);
      sh('add', '-A');
      sh('commit', '-q', '-m', 'add');
      const adding = sh('rev-parse', 'HEAD');
      sh('rm', '-q', file);
      sh('commit', '-q', '-m', 'remove');
      await fs.writeFile(path.join(dir, 'a.txt'), 'honest\n');
      const head = sh('rev-parse', 'HEAD');
      const error = await git.commitAll('agent work', { scanCommitsSince: 'main' }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SecretInChangeError);
      expect((error as SecretInChangeError).commits).toEqual([{ commit: adding, files: [file], inMessage: false }]);
      expect(sh('rev-parse', 'HEAD')).toBe(head);
    },
  );

  it('binary files without the secret, and a binary fixture the base held it in, rewritten: committed', async () => {
    await fs.writeFile(path.join(dir, 'fixture.bin'), Buffer.from(`\0old ${SECRET}`));
    sh('add', '-A');
    sh('commit', '-q', '-m', 'a user fixture');
    sh('branch', '-f', 'main');
    await fs.writeFile(path.join(dir, 'fixture.bin'), Buffer.from(`\0new ${SECRET}`));
    await fs.writeFile(path.join(dir, 'image.dat'), Buffer.from([0, 1, 2, 0xff]));
    await fs.writeFile(path.join(dir, 'data.gz'), gzipSync(Buffer.from('nothing secret')));
    expect(await git.commitAll('agent work', { scanCommitsSince: 'main' })).toBe(true);
    expect(sh('show', '--name-only', '--format=', 'HEAD').split('\n').sort()).toEqual([
      'data.gz',
      'fixture.bin',
      'image.dat',
    ]);
  });

  it('a gzip bomb is cut at the bound and commits nothing, with what to do', async () => {
    await fs.writeFile(path.join(dir, 'bomb.gz'), gzipSync(Buffer.alloc(17 * 1024 * 1024)));
    const error = await git.commitAll('agent work', { scanCommitsSince: 'main' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GitError);
    expect((error as Error).message).toContain('bomb.gz could not be read whole to scan them for secrets as bytes');
    expect(sh('diff', '--cached', '--name-only')).toBe('');
  });
});
