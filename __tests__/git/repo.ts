/** A throwaway git repository for the real-git tests: an environment without the user's config, and a `git` to run in it. */
import { afterEach, beforeEach } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { promises as fs, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const GIT_ENV = { PATH: process.env.PATH, GIT_CONFIG_NOSYSTEM: '1', HOME: os.tmpdir() };

/** Runs git in `dir()` (read at each call) as a fixed author; its trimmed stdout. */
export const gitIn =
  (dir: () => string) =>
  (...args: string[]): string =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', ...args], {
      cwd: dir(),
      env: GIT_ENV,
    })
      .toString()
      .trim();

/**
 * For each test, a repository on `main` with one commit (`a.txt` saying ok) and an empty state
 * directory, both removed after it; `set` receives their paths before the commit is made.
 */
export function useCommittedRepo(prefix: string, message: string, set: (repo: string, stateDir: string) => void): void {
  let dirs: string[] = [];
  beforeEach(async () => {
    dirs = [
      await fs.mkdtemp(path.join(os.tmpdir(), `${prefix}-`)),
      await fs.mkdtemp(path.join(os.tmpdir(), `${prefix}-state-`)),
    ];
    set(dirs[0]!, dirs[1]!);
    const git = gitIn(() => dirs[0]!);
    git('init', '-q', '-b', 'main');
    git('config', 'user.name', 't');
    git('config', 'user.email', 't@example.invalid');
    writeFileSync(path.join(dirs[0]!, 'a.txt'), 'ok\n');
    git('add', '-A');
    git('commit', '-q', '-m', message);
  });
  afterEach(async () => {
    for (const dir of dirs) await fs.rm(dir, { recursive: true, force: true });
  });
}
