/** Issue 15: who agent-loop's commits are by (the commit-author option; git's identity; the github-actions bot). */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_COMMIT_AUTHOR, type Git, openGit, parseAuthor } from '../../src/git/git.js';
import { loadConfig } from '../../src/config/load.js';
import { ConfigError } from '../../src/config/problems.js';
import { GIT_ENV, gitIn } from './repo.js';

let dir: string;
const git = gitIn(() => dir);
const lastAuthor = () => git('log', '-1', '--format=%an <%ae>|%cn <%ce>');

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'agent-loop-author-'));
  git('init', '-q', '-b', 'main');
  git('commit', '-q', '--allow-empty', '-m', 'init');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function commitWith(author?: string): Promise<void> {
  const g = (await openGit(dir, GIT_ENV, author !== undefined ? { author } : {})) as Git;
  writeFileSync(path.join(dir, 'f.txt'), 'x\n');
  expect(await g.commitAll('agent-loop: 1 work')).toBe(true);
}

describe('commit author (issue 15)', () => {
  it('defaults to github-actions[bot] with its documented noreply address, as author and committer, where git has no identity', async () => {
    await commitWith();
    const bot = 'github-actions[bot] <41898282+github-actions[bot]@users.noreply.github.com>';
    expect(DEFAULT_COMMIT_AUTHOR).toBe(bot);
    expect(lastAuthor()).toBe(`${bot}|${bot}`);
  });

  it("keeps git's configured identity when commit-author is not given", async () => {
    git('config', 'user.name', 'Maintainer');
    git('config', 'user.email', 'maintainer@example.invalid');
    await commitWith();
    expect(lastAuthor()).toBe('Maintainer <maintainer@example.invalid>|Maintainer <maintainer@example.invalid>');
  });

  it("commit-author wins over git's configured identity", async () => {
    git('config', 'user.email', 'maintainer@example.invalid');
    await commitWith('Night Shift <night@example.invalid>');
    expect(lastAuthor()).toBe('Night Shift <night@example.invalid>|Night Shift <night@example.invalid>');
  });

  it('parses Name <email>, and nothing else', () => {
    expect(parseAuthor(DEFAULT_COMMIT_AUTHOR)).toEqual({
      name: 'github-actions[bot]',
      email: '41898282+github-actions[bot]@users.noreply.github.com',
    });
    expect(parseAuthor('  A B <a@b.c> ')).toEqual({ name: 'A B', email: 'a@b.c' });
    for (const bad of ['a@b.c', 'Name', 'Name <>', 'Name <not-an-email>', '<a@b.c>', 'A <a@b.c> trailing'])
      expect(parseAuthor(bad)).toBeUndefined();
  });

  it('an invalid commit-author is refused naming the option and what is expected', () => {
    const noFile = () => {
      throw Object.assign(new Error('no file'), { code: 'ENOENT' });
    };
    const load = () =>
      loadConfig({ command: 'run', flags: new Map([['commit-author', 'just-a-name']]), env: {}, readFile: noFile });
    expect(load).toThrow(ConfigError);
    try {
      load();
    } catch (error) {
      const text = (error as ConfigError).problems.map((p) => p.message).join('\n');
      expect(text).toMatch(/--commit-author/);
      expect(text).toMatch(/Name <name@example\.com>/);
    }
    expect(
      loadConfig({
        command: 'run',
        flags: new Map(),
        env: { AGENT_LOOP_COMMIT_AUTHOR: 'Bot <bot@example.invalid>' },
        readFile: noFile,
      }).options.commitAuthor,
    ).toBe('Bot <bot@example.invalid>');
  });
});
