/**
 * Git in a directory through the one runner (exec.ts), with the commit author agent-loop's commits carry;
 * and the reads made with it alone (a branch's tip, the credentials a repository's configuration holds).
 */
import { GitError } from './errors.js';
import { execGit } from './exec.js';

export type Exec = (args: string[]) => Promise<{ code: number; stdout: string; stderr: string }>;

/** git in `cwd` through the one runner (exec.ts: no hooks, no fsmonitor, no prompt, 16 MiB of output at most). */
export function execGitIn(cwd: string, env: NodeJS.ProcessEnv): Exec {
  return (args) => execGit(cwd, env, args);
}

/** Plain git in a directory: the exit code and output of one call (notes, pushes of other refs). */
export interface GitRunner {
  run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }>;
}

/** The commit author when git has no identity configured and none is given: GitHub's own bot, with its documented noreply address. */
export const DEFAULT_COMMIT_AUTHOR = 'github-actions[bot] <41898282+github-actions[bot]@users.noreply.github.com>';

/** `Name <email>`: the name and the address, or undefined when `author` is not of that form. Pure. */
export function parseAuthor(author: string): { name: string; email: string } | undefined {
  const m = /^([^<>\n]*[^<>\s])\s*<([^<>\s@]+@[^<>\s@]+)>$/.exec(author.trim());
  return m ? { name: m[1] as string, email: m[2] as string } : undefined;
}

/**
 * Git in `cwd`. Commits (and notes, which are commits on the notes ref, and merges) carry `author`
 * (`Name <email>`, the commit-author option) when one is given, whatever git's configuration says;
 * else git's own identity; and on a machine without one (CI runners, containers: no user.email)
 * DEFAULT_COMMIT_AUTHOR. Passed with `-c user.name -c user.email`, never written to a config file.
 * `exec`: how each call runs (network calls: src/git/network.ts's, timed and retried).
 */
export function gitRunner(
  cwd: string,
  env: NodeJS.ProcessEnv = process.env,
  author?: string,
  exec: Exec = execGitIn(cwd, env),
): GitRunner {
  let identity: Promise<string[]> | undefined;
  const asArgs = (who: string) => {
    const parsed = parseAuthor(who);
    return parsed ? ['-c', `user.name=${parsed.name}`, '-c', `user.email=${parsed.email}`] : [];
  };
  return {
    async run(args) {
      identity ??=
        author !== undefined
          ? Promise.resolve(asArgs(author))
          : exec(['config', 'user.email']).then((r) => (r.stdout.trim() !== '' ? [] : asArgs(DEFAULT_COMMIT_AUTHOR)));
      return exec([...(await identity), ...args]);
    },
  };
}

/** The commit `branch` (a local branch) points at; undefined when there is no such branch. */
export async function branchTip(runner: GitRunner, branch: string): Promise<string | undefined> {
  const r = await runner.run(['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`]);
  return r.code === 0 ? r.stdout.trim() : undefined;
}

/** `git <args>` through `runner`: its output, trimmed; a failure throws GitError. */
export function checkedGit(runner: GitRunner): (...args: string[]) => Promise<string> {
  return async (...args) => {
    const r = await runner.run(args);
    if (r.code !== 0) throw new GitError(args, r.code, r.stderr || r.stdout);
    return r.stdout.trim();
  };
}

/**
 * The configuration keys in `cwd`'s repository that hold git credentials a process in the work tree
 * could read (an `http.*.extraheader`, as actions/checkout persists by default). Names, not values.
 */
export async function persistedCredentials(cwd: string, env: NodeJS.ProcessEnv): Promise<string[]> {
  const r = await execGitIn(
    cwd,
    env,
  )(['config', '--includes', '--name-only', '--get-regexp', '^http\\..*extraheader$']);
  return r.code === 0
    ? [
        ...new Set(
          r.stdout
            .split('\n')
            .map((l) => l.trim())
            .filter((l) => l !== ''),
        ),
      ]
    : [];
}
