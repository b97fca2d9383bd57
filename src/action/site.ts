/**
 * Where the action runs, from the runner's environment: the checkout, the repository and its server,
 * this workflow run (as claims name it, and its page), the runner's temporary directory. Pure.
 */
import os from 'node:os';
import type { Options } from '../config/options.js';
import { surface } from '../config/surface.js';
import { githubNeeded } from './messages.js';
import { ISSUE_SOURCES } from '../issues/catalog.js';

/** The action's words (src/config/surface.ts). */
const say = surface('action');

export interface ActionSite {
  workspace: string;
  /** owner/repo, as GITHUB_REPOSITORY says it ('' outside GitHub Actions). */
  repository: string;
  serverUrl: string;
  /** This workflow run, as its claims on issues name it (issue 14): another run's claims are skipped. */
  runId: string;
  /** Its page, linked from each issue's progress comment and each pull request's body (issue 15). */
  runUrl?: string;
  /** RUNNER_TEMP, else the system's temporary directory. */
  temp: string;
}

export function actionSite(env: NodeJS.ProcessEnv, cwd: string): ActionSite {
  const serverUrl = env.GITHUB_SERVER_URL ?? 'https://github.com';
  const repository = env.GITHUB_REPOSITORY ?? '';
  const attempt = Number(env.GITHUB_RUN_ATTEMPT ?? '1');
  const runUrl = env.GITHUB_RUN_ID
    ? `${serverUrl.replace(/\/+$/, '')}/${repository}/actions/runs/${env.GITHUB_RUN_ID}${attempt > 1 ? `/attempts/${attempt}` : ''}`
    : undefined;
  return {
    workspace: env.GITHUB_WORKSPACE ?? cwd,
    repository,
    serverUrl,
    runId: `github-${env.GITHUB_RUN_ID ?? 'local'}-${env.GITHUB_RUN_ATTEMPT ?? '1'}`,
    ...(runUrl ? { runUrl } : {}),
    temp: env.RUNNER_TEMP ?? os.tmpdir(),
  };
}

/** The repository and the token the action talks to GitHub with, or why it cannot (the step's error). */
export function githubTarget(
  site: ActionSite,
  options: Options,
): { owner: string; repo: string; token: string } | { problem: string } {
  const [owner, repo] = site.repository.split('/');
  if (owner && repo && options.githubToken) return { owner, repo, token: options.githubToken };
  const needs = !options.githubToken
    ? `${say.option('githubToken')} (default: the workflow token)`
    : 'GITHUB_REPOSITORY (owner/repo), which the runner sets';
  return {
    problem: githubNeeded(ISSUE_SOURCES[options.source].builtBy === 'action' ? 'github' : 'beads', needs, {
      github: say.given('source', 'github'),
      beads: say.given('source', 'beads'),
      onSuccess: say.given(
        'onSuccess',
        options.onSuccess === 'merge' ? 'merge, onto the base branch' : 'pull-request, a pull request per cycle',
      ),
    }),
  };
}
