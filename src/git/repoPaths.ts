/** Where a repository's work tree and git directory are, and whether a path lies in the work tree. */
import path from 'node:path';
import { execGit } from './exec.js';

export interface RepoPaths {
  topLevel: string;
  commonDir: string;
}

/** The work tree's top level and the git directory shared by its worktrees (absolute), or undefined outside git. */
export async function repoPaths(cwd: string, env: NodeJS.ProcessEnv): Promise<RepoPaths | undefined> {
  const r = await execGit(cwd, env, ['rev-parse', '--path-format=absolute', '--show-toplevel', '--git-common-dir'], {
    maxOutput: 1024 * 1024,
  });
  const [topLevel, commonDir] = r.stdout.trim().split('\n');
  return r.code !== 0 || !topLevel || !commonDir ? undefined : { topLevel, commonDir };
}

/** The work tree's top level, or undefined outside git. */
export async function gitTopLevel(cwd: string, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  return (await repoPaths(cwd, env))?.topLevel;
}

/**
 * `dir` relative to the work tree `top` when it lies inside it and outside the git directory (a
 * path git could stage), else undefined. Pure.
 */
export function workTreePath(top: string, dir: string): string | undefined {
  const rel = path.relative(top, dir);
  if (rel === '' || rel === '..' || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel)) return undefined;
  if (rel === '.git' || rel.startsWith(`.git${path.sep}`)) return undefined;
  return rel;
}
