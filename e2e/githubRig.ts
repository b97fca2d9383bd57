/**
 * The bundled action on GitHub issues as a scheduled workflow runs it, for the e2e tests: the GitHub
 * REST stand-in (issues, labels, comments, pull requests), real git pushing over smart HTTP (which
 * refuses a request without the token) to a bare `origin` the stand-in reads its branches from, and
 * the Actions services emulator (cache and artifacts) with the real @actions/cache and
 * @actions/artifact clients. Each run is a fresh runner: the state directory and the local cycle
 * branches are gone, only what was pushed or published remains.
 */
import { execFile, execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { type WorkflowRun, workflowRun } from './actionRunner.js';
import { type Sandbox, createSandbox, git } from './helpers.js';
import { type GitHttpServer, startGitHttpServer } from './support/gitHttpServer.js';
import { type GitHubServer, type GitHubServerOptions, startGitHubServer } from './support/githubServer.js';
import { type ActionsServices, type ActionsServicesOptions, startActionsServices } from './support/actionsServices.js';

export const LABEL = 'agent-loop';

export interface GitHubRig {
  services: ActionsServices;
  gh: GitHubServer;
  sb: Sandbox;
  /** The bare repository behind the smart HTTP server. */
  origin: string;
  remote: GitHttpServer;
  /** The test's own git call to origin, authenticated for that one command (async: the server runs in this process). */
  remoteGit(...args: string[]): Promise<void>;
  /**
   * A pre-receive hook on origin running `lines` for each ref pushed ($old $new $ref): a refusal
   * prints GitHub's words and exits 1, as GitHub refuses a push. Its path, to remove it.
   */
  preReceiveHook(...lines: string[]): Promise<string>;
  /** How far GitHub's clock (the stand-in's) is ahead of the runner's: a lease expires without waiting. */
  githubAhead: number;
  /**
   * One scheduled run on a fresh runner (local cycle branches gone, main checked out): the action's
   * main then post, `inputs` as INPUT_* variables over this rig's defaults. `checkout`: another clone
   * of origin (another runner), with its own RUNNER_TEMP (its own state).
   */
  scheduledRun(
    runId: number,
    agent: string,
    inputs?: Record<string, string>,
    extraEnv?: NodeJS.ProcessEnv,
    checkout?: string,
    beforePost?: () => Promise<void>,
  ): Promise<WorkflowRun>;
  /** The runner's variables and the inputs of one run, its checkout reset as a fresh runner has it. */
  runnerEnv(
    runId: number,
    agent: string,
    inputs: Record<string, string>,
    extraEnv: NodeJS.ProcessEnv,
    checkout: string,
  ): Promise<NodeJS.ProcessEnv>;
  close(): Promise<void>;
}

/**
 * `token`: the github-token the action is given, which the REST stand-in, git and the services accept
 * (default the workflow token, a random `ghs_` one); with a person's token (`ghp_…`) pass the
 * stand-in's `tokenKind: 'user'` too, and an input workflow-token of its own.
 */
export async function startGitHubRig(
  opts: { token?: string; tokenKind?: GitHubServerOptions['tokenKind'] } = {},
): Promise<GitHubRig> {
  const servicesOptions: ActionsServicesOptions = opts.token ? { githubToken: opts.token } : {};
  const services = await startActionsServices(servicesOptions);
  const sb = await createSandbox([]);
  const origin = path.join(sb.root, 'origin.git');
  execFileSync('git', ['init', '-q', '--bare', '-b', 'main', origin], { env: sb.env });
  const remote = await startGitHttpServer({ gitDir: origin, token: services.githubToken });
  const remoteGit = async (...args: string[]) => {
    const header = `AUTHORIZATION: basic ${Buffer.from(`x-access-token:${services.githubToken}`).toString('base64')}`;
    await promisify(execFile)('git', ['-c', `http.extraheader=${header}`, ...args], { cwd: sb.repo, env: sb.env });
  };
  git(sb, 'remote', 'add', 'origin', remote.url);
  await remoteGit('push', '-q', 'origin', 'main');
  const [owner, repo] = services.repository.split('/') as [string, string];
  // GITHUB_API_URL is one URL: the emulator answers the artifact endpoints and passes the rest on.
  const clock = { ahead: 0 };
  const gh = await startGitHubServer({
    owner,
    repo,
    token: services.githubToken,
    gitDir: origin,
    now: () => Date.now() + clock.ahead,
    ...(opts.tokenKind ? { tokenKind: opts.tokenKind } : {}),
  });
  servicesOptions.restFallback = gh.url;

  const runnerEnv: GitHubRig['runnerEnv'] = async (runId, agent, inputs, extraEnv, checkout) => {
    const box = { ...sb, repo: checkout };
    git(box, 'checkout', '-q', 'main');
    for (const b of git(box, 'for-each-ref', '--format=%(refname:short)', 'refs/heads/agent-loop/')
      .split('\n')
      .filter(Boolean))
      git(box, 'branch', '-q', '-D', b);
    const runEnv = services.env({ runId, attempt: 1 });
    const env: NodeJS.ProcessEnv = {
      ...sb.env,
      ...runEnv,
      RUNNER_TEMP: path.join(sb.root, checkout === sb.repo ? 'tmp' : `tmp-${path.basename(checkout)}`),
      GITHUB_SERVER_URL: remote.serverUrl,
      // The emulator is the HTTP proxy of the blob storage; git reaches its remote directly.
      no_proxy: 'github.localhost',
      NO_PROXY: 'github.localhost',
      INPUT_AGENT: 'command',
      'INPUT_AGENT-COMMAND': agent,
      'INPUT_ITERATION-DELAY': '0',
      'INPUT_TEST-COMMAND': 'sh check.sh',
      INPUT_LABEL: LABEL,
      'INPUT_GITHUB-TOKEN': runEnv.GITHUB_TOKEN ?? '',
      // action.yml's default, as the runner supplies it: the workflow token.
      'INPUT_WORKFLOW-TOKEN': runEnv.GITHUB_TOKEN ?? '',
      'INPUT_ALLOWED-AUTHORS': 'OWNER,MEMBER,COLLABORATOR',
      ...Object.fromEntries(Object.entries(inputs).map(([k, v]) => [`INPUT_${k.toUpperCase()}`, v])),
      ...extraEnv,
    };
    await fs.mkdir(env.RUNNER_TEMP as string, { recursive: true });
    return env;
  };
  const scheduledRun: GitHubRig['scheduledRun'] = async (
    runId,
    agent,
    inputs = {},
    extraEnv = {},
    checkout = sb.repo,
    beforePost,
  ) => {
    const env = await runnerEnv(runId, agent, inputs, extraEnv, checkout);
    return workflowRun({ runId, repo: checkout, scratch: sb.root, env, ...(beforePost ? { beforePost } : {}) });
  };

  return {
    services,
    gh,
    sb,
    origin,
    remote,
    remoteGit,
    get githubAhead() {
      return clock.ahead;
    },
    set githubAhead(ms: number) {
      clock.ahead = ms;
    },
    scheduledRun,
    runnerEnv,
    async preReceiveHook(...lines) {
      const hook = path.join(origin, 'hooks', 'pre-receive');
      const body = ['#!/bin/sh', 'while read old new ref; do', ...lines.map((l) => `  ${l}`), 'done', ''];
      await fs.writeFile(hook, body.join('\n'), { mode: 0o755 });
      return hook;
    },
    async close() {
      await services.close();
      await gh.close();
      await remote.close();
      await sb.cleanup();
    },
  };
}
