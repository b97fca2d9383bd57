/**
 * The action's main step: one slice of the loop with the inputs parsed by the CLI's schema, then
 * the outputs and the job summary. A halt or bad input fails the step; everything else succeeds.
 * @actions/core is passed in (tests hand a fake), as is the environment.
 */
import os from 'node:os';
import path from 'node:path';
import { ConfigError } from '../config/problems.js';
import { createOctokit } from '../issues/github/client.js';
import type { GitHubIssueSource } from '../issues/github/issueSource.js';
import { SOURCE_FACTORIES } from '../issues/registry.js';
import { listOpenPullRequests, openOrReusePullRequest } from '../issues/github/pullRequests.js';
import { GitHubRequests } from '../issues/github/requests.js';
import { type Git, persistedCredentials } from '../git/git.js';
import { stateDirProblem } from '../safety/stateDir.js';
import { remoteAuthEnv } from '../git/remoteAuth.js';
import { createPullRequestPublisher } from '../publish/pullRequest.js';
import { decidePreflight, preflightSummary, tokenKind } from '../publish/preflight.js';
import { getter, readLandingFacts } from '../publish/preflightReads.js';
import { type PlanIO, planCommand } from '../app/plan.js';
import type { StartProblem } from '../app/problems.js';
import { type LandingSoFar, runCommand } from '../app/run.js';
import { GitHubPhaseIssueSink } from '../workflows/pipeline/githubSink.js';
import { createRedactor } from '../secrets/redact.js';
import type { Clock } from '../util/clock.js';
import { loadActionConfig, readPauseSwitch } from './inputs.js';
import { ensureAgent } from './installAgent.js';
import { restore, runRefs } from './persistence.js';
import {
  buildSummary,
  haltFailure,
  pausedOutputs,
  pausedSummary,
  pausedWarning,
  resultOutputs,
  stoppedOutputs,
  stoppedSummary,
} from './summary.js';
import type { RunResult } from '../core/result.js';
import { surface } from '../config/surface.js';
import { describeResumeWay } from '../core/resumeWays.js';
import type { ActionCore } from './actionCore.js';
import type { Options } from '../config/options.js';
import { FileCheckpointStore } from '../checkpoint/fileStore.js';
import { writeRunCheckpoint } from '../checkpoint/runCheckpoint.js';
import { initialLoopState } from '../core/state.js';
import { JOB_LOCAL_HALTS } from '../core/haltReasons.js';
import { LANDING_JOB, outboxKey } from '../core/waveOutbox.js';
import { LANDING_KEY, OUTBOX_DIR, takeOutbox } from './outboxHandover.js';
import { planJob } from './planJob.js';
import { reduceJob } from './reduceJob.js';
import { type WaveHandoff, carriedOf, parseWave, partialOf } from './waveHandoff.js';

export type { ActionCore };

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

export async function runAction(deps: ActionDeps): Promise<void> {
  const { core, env } = deps;
  // The pause switch first (issue 15): before the inputs are parsed, anything is read, installed or
  // restored. Green, with a warning that says how to resume; post publishes nothing.
  const pausedBy = readPauseSwitch(env);
  if (pausedBy) {
    core.saveState('unchanged', 'paused');
    for (const [name, value] of Object.entries(pausedOutputs())) core.setOutput(name, value);
    core.warning(pausedWarning(pausedBy));
    await core.writeSummary(pausedSummary(pausedBy));
    return;
  }
  let loaded;
  try {
    loaded = loadActionConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) {
      core.setFailed(`agent-loop: invalid inputs\n${error.problems.map((p) => `- ${p.message}`).join('\n')}`);
      return;
    }
    throw error;
  }
  const { secrets } = loaded;
  // GitHub issues are always landed as pull requests (Closes #n): on-success is for beads issues.
  const landed =
    loaded.options.source === 'github' ? { ...loaded.options, onSuccess: 'pull-request' as const } : loaded.options;
  // Fan-out (issue 16): a work job runs its wave's share on its one issue.
  const fanOut = fanOutRole(landed);
  if ('problem' in fanOut) {
    core.setFailed(`agent-loop: invalid inputs\n- ${fanOut.problem}`);
    return;
  }
  const options = fanOut.options;
  // Masked before anything is printed: the runner then hides them in every log line too.
  for (const secret of secrets) core.setSecret(secret);
  const redact = createRedactor(secrets);

  // The GitHub issues (built once runCommand hands over its warning sink) and their pull requests;
  // or the beads issues of the checkout, whose finished cycles go to GitHub too: the runner is thrown away.
  let github: GitHubIssueSource | undefined;
  let fromGitHub: Pick<PlanIO, 'source' | 'publisher' | 'sink' | 'remoteEnv'> = {};
  const workspace = env.GITHUB_WORKSPACE ?? deps.cwd;
  const repository = env.GITHUB_REPOSITORY ?? '';
  const [owner, repo] = repository.split('/');
  if (!owner || !repo || !options.githubToken) {
    const needs = !options.githubToken
      ? `${say.option('githubToken')} (default: the workflow token)`
      : 'GITHUB_REPOSITORY (owner/repo), which the runner sets';
    core.setFailed(
      options.source === 'github'
        ? `agent-loop: ${say.given('source', 'github')} needs ${needs}; outside GitHub Actions use ${say.given('source', 'beads')}.`
        : `agent-loop: ${say.given('source', 'beads')} in the action pushes each finished cycle to GitHub (${say.given('onSuccess', options.onSuccess === 'merge' ? 'merge, onto the base branch' : 'pull-request, a pull request per cycle')}), so it needs ${needs}; outside GitHub Actions run the agent-loop CLI.`,
    );
    return;
  }
  if (loaded.options.onSuccess !== options.onSuccess)
    core.warning(
      `agent-loop: ${say.given('onSuccess', loaded.options.onSuccess)} applies to ${say.given('source', 'beads')}; GitHub issues are always landed as pull requests (Closes #n).`,
    );
  const octokit = createOctokit(options.githubToken, {
    ...(env.GITHUB_API_URL ? { baseUrl: env.GITHUB_API_URL } : {}),
    onRateLimit: (e) =>
      core.warning(
        `GitHub ${e.kind} rate limit on ${e.method} ${e.url}: ${e.willRetry ? `waiting ${e.retryAfterSeconds} s, then retrying` : 'not retrying (out of retries, or the wait is too long)'}.`,
      ),
  });
  // The token authenticates agent-loop's own push and fetch, in their environment only: the
  // checkout keeps no credential (persist-credentials: false), so the agent cannot push or read it.
  const serverUrl = env.GITHUB_SERVER_URL ?? 'https://github.com';
  const remoteEnv = remoteAuthEnv(options.githubToken, serverUrl, env);
  const persisted = await persistedCredentials(workspace, env);
  if (persisted.length > 0) {
    core.warning(
      `agent-loop: the checkout keeps git credentials in its configuration (${persisted.join(', ')}), which the agent can read and push with. Check out with \`persist-credentials: false\` (the reusable workflow does): agent-loop authenticates its own pushes.`,
    );
  }
  // This workflow run, as its claims on issues name it (issue 14): another run's claims are skipped.
  const runId = `github-${env.GITHUB_RUN_ID ?? 'local'}-${env.GITHUB_RUN_ATTEMPT ?? '1'}`;
  // Its page, linked from each issue's progress comment and each pull request's body (issue 15).
  const attempt = Number(env.GITHUB_RUN_ATTEMPT ?? '1');
  const runUrl = env.GITHUB_RUN_ID
    ? `${serverUrl.replace(/\/+$/, '')}/${repository}/actions/runs/${env.GITHUB_RUN_ID}${attempt > 1 ? `/attempts/${attempt}` : ''}`
    : undefined;
  const landing = (git: Git, testCommand: string) => ({
    git,
    repository,
    draft: options.draftPr,
    testCommand,
    redact,
    remoteEnv,
    ...(runUrl ? { runUrl } : {}),
    keepDir: path.join(stateDir, OUTBOX_DIR),
    warn: (m: string) => core.warning(redact(m)),
    ...(options.workflow === 'tdd' ? { notes: { warn: (m: string) => core.warning(redact(m)) } } : {}),
  });
  if (options.source === 'github') {
    const allowedAuthors = options.allowedAuthors
      .split(',')
      .map((a) => a.trim())
      .filter((a) => a !== '');
    const make = (onWarning: (m: string) => void) =>
      SOURCE_FACTORIES.github({
        octokit,
        owner,
        repo,
        label: options.label,
        allowedAuthors,
        redact,
        onWarning,
        runId,
        ...(runUrl ? { runUrl } : {}),
        ...(fanOut.role === 'work' ? { claimsOf: [fanOut.issue] } : {}),
        now: () => deps.clock.now().getTime(),
      });
    // workflow: pipeline creates its phase issues before the loop starts: the source exists from the start.
    const early = options.workflow === 'pipeline' ? (github = make((m) => core.warning(redact(m)))) : undefined;
    fromGitHub = {
      remoteEnv,
      ...(early
        ? { sink: Object.assign(new GitHubPhaseIssueSink(early), { where: `GitHub issues labelled ${options.label}` }) }
        : {}),
      source: (onWarning) => early ?? (github = make(onWarning)),
      publisher: (git, testCommand) =>
        createPullRequestPublisher({ ...landing(git, testCommand), github: github as GitHubIssueSource }),
    };
  } else {
    // Beads issues: the pull request names them (no GitHub issue to close or label); one whose pull
    // request is open is not worked again (it is closed on its branch, still open on the base).
    // on-success merge pushes onto the base instead, and asks nothing of the API.
    const api = new GitHubRequests(octokit, owner, repo);
    fromGitHub = {
      remoteEnv,
      publisher: (git, testCommand) =>
        createPullRequestPublisher({
          ...landing(git, testCommand),
          github: { openPullRequest: (pr) => openOrReusePullRequest(api, redact, pr) },
          beads: {
            issuesFile: options.issuesFile,
            // on-success merge asks nothing of the API: the work is on the base, closed there.
            ...(options.onSuccess === 'merge'
              ? {}
              : { openPullRequests: () => listOpenPullRequests(api, 'agent-loop/') }),
          },
        }),
    };
  }
  // Outside the checkout (RUNNER_TEMP): no commit of the agent's can take it along.
  const stateDir = options.stateDir
    ? path.resolve(workspace, options.stateDir)
    : path.join(env.RUNNER_TEMP ?? os.tmpdir(), 'agent-loop');
  const unusable = await stateDirProblem(stateDir, { create: true, terms: 'action' });
  if (unusable) {
    core.setFailed(`agent-loop: invalid inputs\n- ${unusable}`);
    return;
  }

  // The loop's state from earlier runs: the cache, else the newest artifact, else a fresh start.
  const refs = runRefs(env, options.label);
  if (fanOut.role && !refs) {
    core.setFailed(
      `agent-loop: fan-out: ${fanOut.role} hands its state to the other jobs of the wave through the Actions cache and artifacts, which this environment lacks (no ACTIONS_RUNTIME_TOKEN): run it in a workflow.`,
    );
    return;
  }
  const log = {
    info: (m: string) => core.info(redact(m)),
    notice: (m: string) => core.notice(redact(m)),
    warning: (m: string) => core.warning(redact(m)),
  };
  if (refs) {
    // A work job's partial state is its own lineage, started fresh; the reduce adds to the newest state.
    const lineage =
      fanOut.role === 'work' ? { ...refs, scope: partialOf(refs.scope, fanOut.wave, fanOut.issue) } : refs;
    const restored = await restore({
      refs: lineage,
      stateDir,
      token: options.githubToken ?? '',
      fresh: fanOut.role === 'work' ? true : fanOut.role === 'reduce' ? false : options.fresh,
      checkpointId: restoreCheckpoint(fanOut, options),
      log,
    });
    // A checkpoint-id found in no saved state: the step fails, nothing run, nothing published.
    if (restored.notFound) {
      core.setFailed(redact(`agent-loop: ${restored.message}`));
      return;
    }
    core.info(redact(`agent-loop: ${restored.message}`));
    core.saveState('state-dir', stateDir);
    core.saveState('generation', String(restored.generation ?? 0));
    if (lineage !== refs) core.saveState('scope', lineage.scope);
  }
  const issueLinks = options.source === 'github' ? { serverUrl, repository } : undefined;
  if (fanOut.role === 'plan' || fanOut.role === 'reduce') {
    if (!github && options.source === 'github') fromGitHub.source?.((m) => core.warning(redact(m)));
    const job = { core, options, stateDir, clock: deps.clock, redact, runId, ...(issueLinks ? { issueLinks } : {}) };
    if (fanOut.role === 'plan') {
      // The plan publishes nothing: the wave goes to the other jobs as its outputs.
      core.saveState('unchanged', 'plan');
      await planJob({ ...job, source: github! });
      return;
    }
    await reduceJob({
      ...job,
      wave: fanOut.wave,
      ...(github ? { source: github } : {}),
      refs: refs!,
      scratch: path.join(env.RUNNER_TEMP ?? os.tmpdir(), 'agent-loop-partials'),
      fetchPartial: async (scope, dir) =>
        (
          await restore({
            refs: { ...refs!, scope },
            stateDir: dir,
            token: options.githubToken ?? '',
            fresh: false,
            log: { info: log.info, notice: log.info, warning: log.info },
          })
        ).source !== 'none',
    });
    return;
  }
  if (fanOut.role === 'work') {
    // The work job's slice starts from zero in the loop's checkpoint id (its claim is the loop's):
    // its final state is exactly what it did, which the reduce adds to the loop. The landing job's
    // holds the loop's unlanded work (and its bundles), which its slice lands before anything else.
    const took = fanOut.landing
      ? await takeOutbox({
          keys: fanOut.landing,
          checkpoint: fanOut.wave.checkpoint,
          stateDir,
          scratch: path.join(env.RUNNER_TEMP ?? os.tmpdir(), 'agent-loop-landing'),
          fetchLoop: async (dir) =>
            (
              await restore({
                refs: refs!,
                stateDir: dir,
                token: options.githubToken ?? '',
                fresh: false,
                checkpointId: fanOut.wave.checkpoint,
                log,
              })
            ).source !== 'none',
          warn: log.warning,
        })
      : undefined;
    await writeRunCheckpoint(new FileCheckpointStore(stateDir, { clock: deps.clock, redact, terms: 'action' }), {
      id: fanOut.wave.checkpoint,
      end: { status: 'continuing' },
      loop: { ...initialLoopState(options.maxIterations), outbox: took?.entries ?? [], notices: took?.notices ?? [] },
      ...(took
        ? { extra: { [LANDING_KEY]: { took: [...took.entries.map(outboxKey), ...took.notices.map((n) => n.id)] } } }
        : {}),
    });
    if (took)
      log.info(
        `agent-loop: landing ${took.entries.length} finished cycle(s)${took.notices.length ? ` and ${took.notices.length} notice(s)` : ''} of earlier waves: ${took.what}.`,
      );
  }
  // install-agent: the pinned Claude Code or Codex CLI when the runner has none; only once the run
  // has work (a halt that stands installs nothing). The planning pipeline needs it from the start.
  const install = options.installAgent
    ? async (): Promise<{ env: NodeJS.ProcessEnv } | { problem: string }> => {
        const installed = await ensureAgent({
          agent: options.agent,
          env,
          prefix: path.join(env.RUNNER_TEMP ?? os.tmpdir(), 'agent-loop-clis'),
          log: (m) => core.info(redact(m)),
        });
        if (installed.kind === 'failed') return { problem: installed.message };
        if (installed.kind === 'installed') core.info(`agent-loop: installed ${installed.pkg}@${installed.version}.`);
        return { env: installed.kind === 'installed' ? installed.env : env };
      }
    : undefined;
  let runEnv = env;
  if (install && options.workflow === 'pipeline') {
    const installed = await install();
    if ('problem' in installed) {
      core.setFailed(redact(installed.problem));
      return;
    }
    runEnv = installed.env;
  }
  // Preflight (issue 40): once a serial run (implement, tdd) has work, before anything is installed or
  // any agent runs, what GitHub lets the token see of the landing (src/publish/preflight.ts). A
  // refusal halts publish_refused with no agent run; what it cannot read goes once into the summary.
  let notChecked: string[] = [];
  const token = options.githubToken;
  const preflight =
    fanOut.role === undefined && options.workflow !== 'pipeline'
      ? async (run: LandingSoFar) => {
          const base = run.base ?? env.GITHUB_REF_NAME;
          if (!base) return undefined;
          try {
            const plan = {
              owner,
              repo,
              base,
              landing: options.onSuccess === 'merge' ? ('merge' as const) : ('pull-request' as const),
              token: tokenKind(token, options.workflowToken),
            };
            const verdict = decidePreflight({
              ...(await readLandingFacts(plan, getter(octokit, owner, repo))),
              landed: run.landed,
            });
            notChecked = verdict.notes;
            if (notChecked.length > 0)
              core.info(
                `agent-loop: ${notChecked.length} thing(s) GitHub does not let the token read could not be checked before the agent ran: see the job summary.`,
              );
            return verdict.halt;
          } catch (error) {
            core.info(
              redact(
                `agent-loop: the check before the first agent run failed (${(error as Error).message}); the run goes on.`,
              ),
            );
            return undefined;
          }
        }
      : undefined;
  let problems: readonly StartProblem[] = [];
  let standing = false;
  // A listing GitHub did not answer: green, with one warning (the next run retries).
  let deferred = false;
  let halted: Pick<RunResult, 'haltReason' | 'error' | 'resume'> = { haltReason: null, error: null, resume: null };
  // A work job's halt that only says its share or its issue ran out: the reduce decides for the run.
  let jobLocal = false;
  // A run that stopped without a result: what it said (the step's one error).
  let stopped: string | undefined;
  const command = options.workflow === 'pipeline' ? planCommand : runCommand;
  const code = await command(options, {
    ...fromGitHub,
    beforeEvent: workflowCommands(),
    cwd: workspace,
    env: runEnv,
    clock: deps.clock,
    secrets,
    stateDir,
    signal: deps.signal,
    stdout: deps.stdout,
    stderr: (text) => core.info(redact(text.trimEnd())),
    cannotStart: (found) => {
      problems = found;
    },
    terms: 'action',
    runId,
    ...(fanOut.role === 'work' ? { onlyIssues: fanOut.landing ? [] : [fanOut.issue] } : {}),
    ...(fanOut.role === 'work' ? carriedOf(fanOut.wave, fanOut.issue) : {}),
    ...(install && options.workflow !== 'pipeline' ? { installAgent: install } : {}),
    ...(preflight ? { preflight } : {}),
    onStopped: async ({ message, unchanged }) => {
      stopped = message;
      // Nothing written: post publishes nothing (a work job's state is published all the same, as for a deferral).
      if (unchanged && fanOut.role !== 'work') core.saveState('unchanged', 'stopped');
      for (const [name, value] of Object.entries(stoppedOutputs(message, unchanged))) core.setOutput(name, value);
      await core.writeSummary(redact(stoppedSummary(message, unchanged)));
    },
    onResult: async (result) => {
      standing = result.standing !== null;
      deferred = result.status === 'deferred';
      halted = result;
      jobLocal = fanOut.role === 'work' && result.haltReason !== null && JOB_LOCAL_HALTS.has(result.haltReason);
      // Nothing changed: post publishes nothing (the published state is the one restored). But a
      // work job's partial state is always published: without it the reduce takes the job for lost.
      if (result.unchanged && !(deferred && fanOut.role === 'work'))
        core.saveState('unchanged', standing ? 'halt' : result.idle ? 'idle' : 'deferred');
      // Post (which runs where the state is published) never prunes the checkpoint this run used.
      else if (refs) core.saveState('checkpoint-id', result.checkpointId);
      for (const [name, value] of Object.entries(resultOutputs(result, redact))) core.setOutput(name, value);
      await core.writeSummary(
        redact(
          [
            buildSummary(result, {
              resumeHint: `to resume from it explicitly, run the workflow with ${say.given('resume', result.checkpointId)}`,
              ...(github ? { skippedOutsiders: github.skippedOutsiders } : {}),
              // GitHub issues link to themselves; beads issues are only named.
              ...(options.source === 'github' ? { issueLinks: { serverUrl, repository } } : {}),
            }),
            preflightSummary(notChecked),
          ]
            .filter(Boolean)
            .join('\n'),
        ),
      );
      // A halt is an error once; later runs over it are green, with a warning (issue 14).
      if (result.standing)
        core.warning(
          redact(
            `agent-loop is still halted (${result.haltReason}) since ${result.standing.since ?? 'an earlier run'}: ${result.error ?? ''}. Nothing was run. To resume: ${result.standing.resume.map((w) => describeResumeWay(w, 'action')).join('; ')}.`,
          ),
        );
      else if (result.deferred)
        core.warning(
          redact(
            `agent-loop deferred: ${result.deferred.message.replace(/\.$/, '')}. Nothing was started or lost; the next run lists the issues again.`,
          ),
        );
      else if (jobLocal)
        core.warning(
          redact(
            `agent-loop: this job's slice ended (${result.haltReason}): ${result.error ?? ''}; the reduce job decides for the run.`,
          ),
        );
    },
  });
  if (code === 2) core.setFailed(redact(cannotStartMessage(problems, options.installAgent)));
  // A halt fails the step with one error annotation, its reason and message (issue 40); a deferred run is green.
  else if (code !== 0 && !standing && !jobLocal && !deferred)
    core.setFailed(redact(stopped !== undefined ? `agent-loop: ${stopped}` : haltFailure(halted)));
}

/**
 * The checkpoint the state restored must hold: checkpoint-id for a slice or a plan; for the reduce,
 * its wave's when the plan resumed one (its counts must be the base, newest or not); none otherwise.
 */
function restoreCheckpoint(fanOut: Exclude<FanOut, { problem: string }>, options: Options): string | undefined {
  if (fanOut.role === undefined || fanOut.role === 'plan') return options.resume;
  return fanOut.role === 'reduce' && fanOut.wave.resumed ? fanOut.wave.checkpoint : undefined;
}

type FanOut =
  | { role: undefined; options: Options }
  | { role: 'plan'; options: Options }
  | { role: 'work' | 'reduce'; options: Options; wave: WaveHandoff; issue: string; landing?: readonly string[] }
  | { problem: string };

/**
 * The job's part in a fan-out (issue 16), from its inputs: a work job's options are its share (its
 * max-iterations and max-cost-usd, a fresh slice on its issue, no Discord post: the reduce posts once).
 */
function fanOutRole(options: Options): FanOut {
  const role = options.fanOut;
  if (role !== undefined && (options.source !== 'github' || options.workflow === 'pipeline'))
    return {
      problem: `fan-out: ${role}: waves work GitHub issues (${say.given('source', 'github')}) with workflow implement or tdd; run ${options.source !== 'github' ? say.given('source', 'beads') : say.given('workflow', 'pipeline')} with ${say.given('parallel', '1')}.`,
    };
  if (role === undefined || role === 'plan') return { role, options };
  const wave = parseWave(options.wave);
  if (typeof wave === 'string') return { problem: `fan-out: ${role}: ${wave}.` };
  if (role === 'reduce') return { role, options, wave, issue: '' };
  if ((options.issue?.length ?? 0) > 1)
    return {
      problem: `fan-out: work: ${say.option('issue')} names ${options.issue?.length} issues; a work job works one (matrix.issue).`,
    };
  const issue = options.issue?.[0];
  // The wave's landing job (waveOutbox.ts): the loop's unlanded work, no agent run, no issue worked.
  if (issue === LANDING_JOB && wave.landing) {
    const landing = {
      ...options,
      fresh: false,
      resume: wave.checkpoint,
      resumeHalted: false,
      maxIterations: 1,
      maxCostUsd: undefined,
      discordWebhook: undefined,
    };
    return { role, options: landing, wave, issue, landing: wave.landing };
  }
  const job = wave.jobs.find((j) => j.issueId === issue);
  if (!issue || !job)
    return {
      problem: `fan-out: work: ${issue ? `issue ${issue} is not in wave ${wave.id}` : `${say.option('issue')} is empty`}: pass the matrix entry (matrix.issue) of the plan job's matrix output.`,
    };
  const share = {
    ...options,
    fresh: false,
    resume: wave.checkpoint,
    resumeHalted: false,
    maxIterations: job.maxIterations,
    discordWebhook: undefined,
  };
  if (job.maxCostUsd !== undefined) share.maxCostUsd = job.maxCostUsd;
  return { role, options: share, wave, issue };
}

/** Why the action cannot start, in its own terms: the input that would fix an agent missing from PATH. */
export function cannotStartMessage(problems: readonly StartProblem[], installAgent: boolean): string {
  const hint =
    problems.some((p) => p.code === 'agent_not_on_path') && !installAgent
      ? `\nOn a hosted runner, set the input ${say.given('installAgent')} to have the action install the pinned CLI.`
      : '';
  return `agent-loop: cannot start\n${problems.map((p) => `  - ${p.message}`).join('\n')}${hint}`;
}

/**
 * The runner's log commands around the loop's events: one collapsible group per iteration, a
 * warning annotation per escalation, per source warning (an outsider's issue skipped, a truncated
 * listing) and per checkpoint skipped as unusable; a halt is the error annotation set from the result.
 */
export function workflowCommands(): (event: string, level: string, message: string) => string {
  let open = false;
  const close = () => (open ? ((open = false), '::endgroup::\n') : '');
  const escape = (m: string) => m.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
  return (event, _level, message) => {
    if (event === 'iteration.start') {
      const text = `${close()}::group::${escape(message)}\n`;
      open = true;
      return text;
    }
    if (event === 'cycle.escalated' || event === 'source.warning' || event === 'checkpoint.invalid')
      return `${close()}::warning::${escape(message)}\n`;
    if (event === 'cycle.start' || event.startsWith('run.') || event === 'slice.end' || event === 'halt.diagnostic')
      return close();
    return '';
  };
}
