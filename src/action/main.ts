/**
 * The action's main step: one slice of the loop with the inputs parsed by the CLI's schema, then
 * the outputs and the job summary. A halt or bad input fails the step; everything else succeeds.
 * @actions/core is passed in (tests hand a fake), as is the environment. The parts, each in its file:
 * the fan-out role (fanOut.ts), where it runs (site.ts), what it gets from GitHub (githubWiring.ts),
 * the state restored (restoreStep.ts), the wave's other jobs (waveJobs.ts), install-agent
 * (agentInstall.ts), the preflight (preflightCheck.ts), and what is told of the run (runReport.ts).
 */
import path from 'node:path';
import { planCommand } from '../app/plan.js';
import { runCommand } from '../app/run.js';
import { ConfigError } from '../config/problems.js';
import { surface } from '../config/surface.js';
import { persistedCredentials } from '../git/git.js';
import { remoteAuthEnv } from '../git/remoteAuth.js';
import { createOctokit } from '../issues/github/client.js';
import { stateDirProblem } from '../safety/stateDir.js';
import { createRedactor } from '../secrets/redact.js';
import type { Clock } from '../util/clock.js';
import type { ActionCore } from './actionCore.js';
import { agentInstall } from './agentInstall.js';
import { fanOutRole } from './fanOut.js';
import { type GitHubWiring, wireGitHub } from './githubWiring.js';
import { loadActionConfig, readPauseSwitch } from './inputs.js';
import { type PersistLog, type RunRefs, runRefs } from './persistence.js';
import { PREFLIGHT_RETRIES, preflightCheck } from './preflightCheck.js';
import { restoreForJob } from './restoreStep.js';
import { newOutcome, reportHandlers, stepFailure } from './runReport.js';
import { type ActionSite, actionSite, githubTarget } from './site.js';
import { pausedOutputs, pausedSummary, pausedWarning } from './summary.js';
import { runWaveJob, seedWorkCheckpoint } from './waveJobs.js';
import { carriedOf } from './waveHandoff.js';
import { workflowCommands } from './workflowCommands.js';
import {
  fanOutNeedsRunner,
  onSuccessIgnored,
  persistedCredentials as persistedCredentialsWarning,
  rateLimited,
} from './messages.js';
import { ISSUE_SOURCES } from '../issues/catalog.js';
import { escapeControls } from '../util/printable.js';

export type { ActionCore };
export { cannotStartMessage } from './runReport.js';
export { workflowCommands } from './workflowCommands.js';

/** The action's words (src/config/surface.ts). */
const say = surface('action');

export interface ActionDeps {
  core: ActionCore;
  env: NodeJS.ProcessEnv;
  cwd: string;
  clock: Clock;
  stdout: (text: string) => void;
  signal?: AbortSignal;
}

/**
 * The step's inputs, the fan-out role and the secrets masked; undefined when the step failed (invalid
 * inputs). GitHub issues are always landed as pull requests (Closes #n): on-success is for beads issues.
 */
function readInputs(core: ActionCore, env: NodeJS.ProcessEnv) {
  let loaded;
  try {
    loaded = loadActionConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) {
      core.setFailed(
        `agent-loop: invalid inputs\n${error.problems.map((p) => `- ${escapeControls(p.message)}`).join('\n')}`,
      );
      return undefined;
    }
    throw error;
  }
  const { secrets } = loaded;
  const landed = ISSUE_SOURCES[loaded.options.source].landsAsPullRequest
    ? { ...loaded.options, onSuccess: 'pull-request' as const }
    : loaded.options;
  // Fan-out (issue 16): a work job runs its wave's share on its one issue.
  const fanOut = fanOutRole(landed);
  if ('problem' in fanOut) {
    core.setFailed(`agent-loop: invalid inputs\n- ${fanOut.problem}`);
    return undefined;
  }
  // Masked before anything is printed: the runner then hides them in every log line too.
  for (const secret of secrets) core.setSecret(secret);
  return { given: loaded.options, options: fanOut.options, fanOut, secrets, redact: createRedactor(secrets) };
}

/** The pause switch (issue 15): green, with a warning that says how to resume; post publishes nothing. */
async function pauseIfAsked(core: ActionCore, env: NodeJS.ProcessEnv): Promise<boolean> {
  const pausedBy = readPauseSwitch(env);
  if (!pausedBy) return false;
  core.saveState('unchanged', 'paused');
  for (const [name, value] of Object.entries(pausedOutputs())) core.setOutput(name, value);
  core.warning(pausedWarning(pausedBy));
  await core.writeSummary(pausedSummary(pausedBy));
  return true;
}

type Inputs = NonNullable<ReturnType<typeof readInputs>>;

/** The GitHub client and the push credentials, once the repository and the token are known; undefined when the step failed. */
async function connectGitHub(core: ActionCore, env: NodeJS.ProcessEnv, site: ActionSite, inputs: Inputs) {
  const { options } = inputs;
  const target = githubTarget(site, options);
  if ('problem' in target) return void core.setFailed(target.problem);
  if (inputs.given.onSuccess !== options.onSuccess)
    core.warning(onSuccessIgnored(say.given('onSuccess', inputs.given.onSuccess), say.given('source', 'beads')));
  const client = (retries?: number) =>
    createOctokit(target.token, {
      ...(env.GITHUB_API_URL ? { baseUrl: env.GITHUB_API_URL } : {}),
      ...(retries !== undefined ? { retries } : {}),
      onRateLimit: (e) => core.warning(rateLimited(e)),
    });
  const octokit = client();
  // The preflight's reads are advisory: one retry, not three (1, 4, 9 s), so that an unreachable
  // GitHub does not hold the run for most of a minute before it starts.
  const preflightOctokit = client(PREFLIGHT_RETRIES);
  // The token authenticates agent-loop's own push and fetch, in their environment only: the
  // checkout keeps no credential (persist-credentials: false), so the agent cannot push or read it.
  const remoteEnv = remoteAuthEnv(target.token, site.serverUrl, env);
  const persisted = await persistedCredentials(site.workspace, env);
  if (persisted.length > 0) core.warning(persistedCredentialsWarning(persisted));
  return { ...target, octokit, preflightOctokit, remoteEnv };
}

/** Everything a job of the action has once its inputs, GitHub and its state directory are settled. */
interface Job {
  deps: ActionDeps;
  inputs: Inputs;
  site: ActionSite;
  github: NonNullable<Awaited<ReturnType<typeof connectGitHub>>>;
  stateDir: string;
  wiring: GitHubWiring;
  refs: RunRefs | undefined;
  log: PersistLog;
}

export async function runAction(deps: ActionDeps): Promise<void> {
  const { core, env } = deps;
  // The pause switch first (issue 15): before the inputs are parsed, anything is read, installed or restored.
  if (await pauseIfAsked(core, env)) return;
  const inputs = readInputs(core, env);
  if (!inputs) return;
  const { options, fanOut, redact } = inputs;
  const site = actionSite(env, deps.cwd);
  const github = await connectGitHub(core, env, site, inputs);
  if (!github) return;
  const warn = (m: string) => core.warning(redact(m));
  // Outside the checkout (RUNNER_TEMP): no commit of the agent's can take it along.
  const stateDir = options.stateDir
    ? path.resolve(site.workspace, options.stateDir)
    : path.join(site.temp, 'agent-loop');
  const { owner, repo, octokit, remoteEnv } = github;
  const wiring = wireGitHub({
    options,
    fanOut,
    site,
    owner,
    repo,
    octokit,
    redact,
    remoteEnv,
    stateDir,
    warn,
    clock: deps.clock,
  });
  const unusable = await stateDirProblem(stateDir, { create: true, terms: 'action' });
  if (unusable) return core.setFailed(`agent-loop: invalid inputs\n- ${unusable}`);

  // The loop's state from earlier runs: the cache, else the newest artifact, else a fresh start.
  const refs = runRefs(env, options.label);
  if (fanOut.role && !refs) return core.setFailed(fanOutNeedsRunner(fanOut.role));
  const log = {
    info: (m: string) => core.info(redact(m)),
    notice: (m: string) => core.notice(redact(m)),
    warning: warn,
  };
  if (refs && !(await restoreForJob({ core, refs, fanOut, options, stateDir, log, redact }))) return;
  const job: Job = { deps, inputs, site, github, stateDir, wiring, refs, log };
  if (fanOut.role === 'plan' || fanOut.role === 'reduce') {
    if (!wiring.issues() && ISSUE_SOURCES[options.source].builtBy === 'action') wiring.fromGitHub.source?.(warn);
    const source = wiring.issues();
    const issueLinks = ISSUE_SOURCES[options.source].linked
      ? { serverUrl: site.serverUrl, repository: site.repository }
      : undefined;
    return runWaveJob(fanOut, {
      ...jobInput(job),
      refs: refs!,
      ...(issueLinks ? { issueLinks } : {}),
      ...(source ? { github: source } : {}),
    });
  }
  if (fanOut.role === 'work') await seedWorkCheckpoint(fanOut, { ...jobInput(job), refs });
  await runSlice(job);
}

/** What the wave's jobs are handed. */
function jobInput({ deps, inputs, site, stateDir, log }: Job) {
  const { options, redact } = inputs;
  return { core: deps.core, options, stateDir, clock: deps.clock, redact, runId: site.runId, temp: site.temp, log };
}

/** The slice (or the planning pipeline): install-agent, the preflight, the run, then the step's verdict. */
async function runSlice({ deps, inputs, site, github, stateDir, wiring, refs }: Job): Promise<void> {
  const { core, env } = deps;
  const { options, fanOut, redact } = inputs;
  const install = agentInstall({ options, env, temp: site.temp, core, redact });
  let runEnv = env;
  if (install && options.workflow === 'pipeline') {
    const installed = await install();
    if ('problem' in installed) return core.setFailed(redact(installed.problem));
    runEnv = installed.env;
  }
  const { owner, repo, preflightOctokit, token } = github;
  const check = preflightCheck({ fanOut, options, env, owner, repo, token, octokit: preflightOctokit, core, redact });
  const outcome = newOutcome();
  const command = options.workflow === 'pipeline' ? planCommand : runCommand;
  const code = await command(options, {
    ...wiring.fromGitHub,
    beforeEvent: workflowCommands(),
    cwd: site.workspace,
    env: runEnv,
    clock: deps.clock,
    secrets: inputs.secrets,
    stateDir,
    signal: deps.signal,
    stdout: deps.stdout,
    stderr: (text) => core.info(redact(text.trimEnd())),
    terms: 'action',
    runId: site.runId,
    ...(fanOut.role === 'work' ? { onlyIssues: fanOut.landing ? [] : [fanOut.issue] } : {}),
    ...(fanOut.role === 'work' ? carriedOf(fanOut.wave, fanOut.issue) : {}),
    ...(install && options.workflow !== 'pipeline' ? { installAgent: install } : {}),
    ...(check.preflight ? { preflight: check.preflight } : {}),
    ...reportHandlers({
      core,
      outcome,
      fanOut,
      options,
      site,
      refs,
      redact,
      issues: wiring.issues,
      notChecked: check.notChecked,
    }),
  });
  const failure = stepFailure(code, outcome, options.installAgent);
  if (failure !== undefined) core.setFailed(redact(failure));
}
