/** A throwaway git repository for the real-git tests: an environment without the user's config, and a `git` to run in it. */
import { execFileSync } from 'node:child_process';
import os from 'node:os';

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
