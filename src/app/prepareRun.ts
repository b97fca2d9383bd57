/**
 * Everything a run needs before its first agent runs (prepareRun): the agent on PATH, the test
 * command, the inputs read, the issue source, git, the session, and the engine's dependencies
 * assembled from them; or every reason it cannot start.
 */
import { networkLimits } from '../git/network.js';
import { existsSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { type Options, defaultIterationDelay } from '../config/options.js';
import { surface } from '../config/surface.js';
import { availableAgent, createAgent } from '../agents/index.js';
import { maskOutput } from '../agents/maskOutput.js';
import { FileCheckpointStore } from '../checkpoint/fileStore.js';
import { type Git, gitRunner, openGit, type StagingMoment } from '../git/git.js';
import { ISSUES_MAX_BYTES, noIssueIn, parseJsonl } from '../issues/beadsFile.js';
import { ISSUE_SOURCES } from '../issues/catalog.js';
import { guardIssues } from '../issues/guard.js';
import type { SliceSettings } from '../loop/deps.js';
import type { SliceDeps } from '../loop/slice.js';
import { detectTestCommand, junitFileProblem, runTestCommand } from '../loop/testGate.js';
import { classifyIssueFailure } from '../publish/landingFailures.js';
import { cappedEcho } from '../report/echo.js';
import { printable } from '../util/printable.js';
import type { Logger } from '../report/logger.js';
import type { Clock } from '../util/clock.js';
import { trackAgent } from '../safety/processes.js';
import { stateDirOwnPaths } from '../safety/stateDir.js';
import { secretDetector } from '../safety/secretScan.js';
import { type Session, isWaveJob, localLockDeps, openAgentSession } from '../safety/session.js';
import { recoverParallelTrees } from './parallelLeftovers.js';
import { agentEnvironment } from '../secrets/agentEnv.js';
import { type Redactor, type SecretRedactor, createRedactor } from '../secrets/redact.js';
import { MiB, inputProblem, readInput, readInputBytes } from '../util/readInput.js';
import { readPromptDir } from '../util/promptDir.js';
import { workflowFor } from '../workflows/index.js';
import { judgeRun } from '../judge/judgeRun.js';
import { judgeScratch, judgeTrees } from '../judge/judgeTree.js';
import { execGit } from '../git/exec.js';
import { discordNotifier } from './discordNotify.js';
import { readJobState, waveJobCounts } from './parallelJob.js';
import { type StartProblem, problem } from './problems.js';
import { type RunIO, runLogger, sourceOf } from './runPorts.js';

/** A run ready to start: the engine's dependencies assembled, the session (lock) held. */
export interface PreparedRun {
  deps: SliceDeps;
  logger: Logger;
  session: Session;
  redact: Redactor;
}

export type Prepared = { ok: true; run: PreparedRun } | { ok: false; problems: StartProblem[]; redact: Redactor };

/** The messages of the problems a run can be refused with (each says what to do). */
const REFUSED = {
  actionSource: (given: string, title: string, beads: string) =>
    `${given}: ${title} runs inside the GitHub Action; locally use ${beads}.`,
  noTestCommand: (option: string, example: string) =>
    `${option}: none given and none detected (no package.json test script, pytest configuration or test_*.py files, ` +
    `go.mod, Cargo.toml, or Makefile test target). Give the command that runs the test suite, e.g. ${example}.`,
  plan: (option: string, why: string) => `${option}: ${why}; expected a readable file (the plan, up to 1 MiB).`,
  issuesFile: (option: string, why: string) => `${option}: ${why}. Point ${option} at a beads JSONL file.`,
  noIssuesFile: (option: string, file: string) =>
    `${option}: '${printable(file)}' does not exist and bd is not on PATH. Point ${option} at a beads JSONL file, or install beads.`,
  noIssueIn: (option: string, file: string, malformed: number) =>
    `${option}: '${printable(file)}' holds no issue: none of its ${malformed} non-empty line(s) is a JSON object with a string "id" ` +
    `(their content is not shown). Point ${option} at a beads JSONL file (one issue per line, as bd writes it), or fix the file; ` +
    'an empty file is read as no issues.',
  notGit: (cwd: string) =>
    `pull requests: ${cwd} is not a git work tree. ` +
    'Check the repository out first (actions/checkout) so that each finished issue can be pushed as a branch.',
};

/** What the options ask the run to read, checked: the agent, the test command, the plan, TDD's prompts. */
async function readInputs(options: Options, io: RunIO, agentEnv: NodeJS.ProcessEnv, problems: StartProblem[]) {
  const say = surface(io.terms);
  const invalid = problem('invalid_input');
  const built = ISSUE_SOURCES[options.source];
  if (built.builtBy === 'action' && !io.source)
    problems.push(
      invalid(REFUSED.actionSource(say.given('source', options.source), built.title, say.given('source', 'beads'))),
    );
  // A run that halts as it starts (a refusal seen before any agent ran) runs no agent: none need be installed.
  const { agent, problems: agentProblems } = io.refusedBeforehand
    ? { agent: createAgent(options, agentEnv), problems: [] }
    : await availableAgent(options, agentEnv, say);
  problems.push(...agentProblems.map(problem('agent_not_on_path')));
  const testCommand = options.testCommand ?? detectTestCommand(io.cwd);
  if (!testCommand)
    problems.push(invalid(REFUSED.noTestCommand(say.option('testCommand'), say.given('testCommand', '"npm test"'))));
  const junitProblem = options.junitFile ? junitFileProblem(options.junitFile, io.cwd, say) : undefined;
  if (junitProblem) problems.push(invalid(junitProblem));
  let plan: string | undefined;
  if (options.plan) {
    try {
      plan = readInput(path.resolve(io.cwd, options.plan), MiB);
    } catch (error) {
      problems.push(invalid(REFUSED.plan(say.option('plan'), (error as Error).message)));
    }
  }
  const prompts = options.tddPrompts
    ? readPromptDir(
        { name: say.option('tddPrompts'), value: options.tddPrompts, cwd: io.cwd },
        { RED: 'red.md', GREEN: 'green.md', REFACTOR: 'refactor.md' },
      )
    : { templates: {} };
  if (prompts.problem) problems.push(invalid(prompts.problem));
  return { agent, testCommand, plan, templates: prompts.templates };
}

/** The issue source, its text guarded as it enters the engine; a file it reads is there and readable. */
async function openIssues(options: Options, io: RunIO, redact: Redactor, logger: Logger, problems: StartProblem[]) {
  const say = surface(io.terms);
  const invalid = problem('invalid_input');
  const source = await sourceOf(options, io, (message) => logger.warn('source.warning', message));
  if (io.onlyIssues) source.trust?.(io.onlyIssues);
  // Issue text enters the engine here: one line titles, no control characters, secrets masked.
  const issues = guardIssues(source, redact);
  const file = io.source ? undefined : source.issuesFile;
  const unusable = file !== undefined ? inputProblem(file, ISSUES_MAX_BYTES) : undefined;
  if (unusable) problems.push(invalid(REFUSED.issuesFile(say.option('issuesFile'), unusable)));
  if (file !== undefined && !existsSync(file))
    problems.push(invalid(REFUSED.noIssuesFile(say.option('issuesFile'), options.issuesFile)));
  // A file with lines but no issue among them is a mistake, not "nothing to do": said before anything reads it.
  let empty: ReturnType<typeof noIssueIn>;
  try {
    empty =
      file !== undefined && !unusable && existsSync(file)
        ? noIssueIn(parseJsonl(readInputBytes(file, ISSUES_MAX_BYTES)))
        : undefined;
  } catch (error) {
    // A file that cannot be read (/proc/self/mem: EIO) is a refusal naming it, never an uncaught error.
    const why = `'${printable(options.issuesFile)}' cannot be read (${(error as NodeJS.ErrnoException).code ?? 'read error'})`;
    problems.push(invalid(REFUSED.issuesFile(say.option('issuesFile'), why)));
  }
  if (empty) problems.push(invalid(REFUSED.noIssueIn(say.option('issuesFile'), options.issuesFile, empty.malformed)));
  return { source, issues };
}

/**
 * Everything a run needs before its first agent runs, from the options and the ports: the agent on
 * PATH, the test command, the inputs read, the issue source, git, the session (one run at a time, a
 * killed run's agent ended, the repository fit to work in). A run, or every reason it cannot start.
 */
export async function prepareRun(options: Options, io: RunIO): Promise<Prepared> {
  const redact = createRedactor(io.secrets);
  const problems: StartProblem[] = [];
  const fail = (): Prepared => ({ ok: false, problems, redact });
  // What the agent and the tests it can edit may reach: no runtime tokens, file-command paths or inputs.
  const agentEnv = agentEnvironment(io.env, { githubToken: options.agentGithubToken });
  const inputs = await readInputs(options, io, agentEnv, problems);
  const logger = runLogger(options, io, redact);
  const { source, issues } = await openIssues(options, io, redact, logger, problems);
  const git = await openGit(io.cwd, io.env, {
    redact,
    ...(options.commitAuthor ? { author: options.commitAuthor } : {}),
    protect: stateDirOwnPaths(io.stateDir),
    holdsSecret: secretDetector(io.secrets),
    onStagingRestored: (what, when) => stagingRestored(logger, what, when),
    ...(io.remoteEnv ? { remoteEnv: io.remoteEnv } : {}),
    network: networkLimits(options.gitTimeoutSeconds * 1000, io.clock),
  });
  if (io.publisher && !git) problems.push(problem('repository')(REFUSED.notGit(io.cwd)));
  const { agent, testCommand } = inputs;
  if (problems.length > 0 || !agent || !testCommand) return fail();
  // One run at a time; a killed run's agent ended; the repository fit to work in. Before any agent runs.
  let session = io.session;
  if (!session) {
    const opened = await openAgentSession('run', io);
    if (!opened.ok) {
      problems.push(...opened.problems.map(problem('repository')));
      return fail();
    }
    session = opened.session;
  }
  for (const note of session.notes) logger.warn('run.recovered', note);
  // A killed --parallel run's job worktrees hold branches this run checks out (issue 43).
  if (git && !isWaveJob(io.env)) await recoverLeftTrees(git.topLevel, io, logger);
  const registry = session.registry;
  const publisher = io.publisher && git ? io.publisher(git, testCommand) : undefined;
  const deps: SliceDeps = {
    settings: {
      ...sliceSettings(options, io, { testCommand, plan: inputs.plan, publisher }),
      ...(git ? { configFile: configFileIn(git.topLevel, io.cwd, options.config) } : {}),
    },
    workflow: workflowFor(options.workflow, { tddTemplates: inputs.templates }),
    cwd: io.cwd,
    stateDir: io.stateDir,
    ...(isWaveJob(io.env) ? { waveJob: true } : {}),
    source: issues,
    agent: trackAgent(maskOutput(agent, redact), registry),
    git,
    publisher,
    logger,
    ...(io.runId ? { runId: io.runId } : {}),
    clock: io.clock,
    signal: io.signal,
    redact,
    classifyIssueFailure: (error, issue, what) => classifyIssueFailure(error, issue, what, source.description),
    // A job of run --parallel never posts: its coordinator does, once, for the run.
    notify: isWaveJob(io.env)
      ? undefined
      : discordNotifier(options.discordWebhook, {
          redact,
          clock: io.clock,
          warn: (message) => logger.warn('discord.failed', message),
          info: (message) => logger.info('discord.posted', message),
        }),
    store: new FileCheckpointStore(io.stateDir, { clock: io.clock, redact, terms: io.terms ?? 'cli' }),
    runTests: testRunner(options, io, { testCommand, agentEnv, git, registry, logger, redact }),
    ...(git
      ? {
          judgeTrees: judgeTrees({ git: execGit, env: io.env, repo: git.topLevel, scratch: judgeScratch(io.stateDir) }),
        }
      : {}),
  };
  return { ok: true, run: { deps, logger, session, redact } };
}

/**
 * The configuration file the run was started with (--config, AGENT_LOOP_CONFIG, else .agent-loop.yml;
 * relative to where the run started), relative to the repository's top level with `/`: the judge's
 * protected path (issue 42).
 */
export function configFileIn(topLevel: string, cwd: string, config: string | undefined): string {
  // git names the top level by its real path: the start directory read the same way (a /tmp that is a link).
  const real = (() => {
    try {
      return realpathSync(cwd);
    } catch {
      return cwd;
    }
  })();
  return path
    .relative(topLevel, path.resolve(real, config ?? '.agent-loop.yml'))
    .split(path.sep)
    .join('/');
}

/** The engine's settings, from the options and what the run found. */
function sliceSettings(
  options: Options,
  io: RunIO,
  found: { testCommand: string; plan: string | undefined; publisher: SliceDeps['publisher'] },
): SliceSettings {
  const { publisher } = found;
  return {
    terms: io.terms ?? 'cli',
    maxIterations: options.maxIterations,
    sliceIterations: options.sliceIterations,
    sliceMinutes: options.sliceMinutes,
    iterationDelaySeconds: options.iterationDelay ?? defaultIterationDelay(options.agent),
    agentTimeoutMinutes: options.agentTimeoutMinutes,
    batch: options.batch,
    // Where work is published, merge means onto the base on the remote (beads issues); else a pull request.
    onSuccess: publisher
      ? options.onSuccess === 'merge' && publisher.pushToBase
        ? 'merge'
        : 'pull-request'
      : options.onSuccess,
    // Beads issues live in the repository: their closing is committed with the work it lands with.
    ...(publisher && ISSUE_SOURCES[options.source].inRepository ? { closeOnBranch: true } : {}),
    strict: options.strict,
    resume: options.resume,
    fresh: options.fresh,
    testCommand: found.testCommand,
    ...(options.junitFile ? { junitFile: options.junitFile } : {}),
    ...(options.acceptUnverified ? { acceptUnverified: true } : {}),
    ...(options.protectedPaths ? { protectedPaths: options.protectedPaths } : {}),
    ...(options.allowedPaths ? { allowedPaths: options.allowedPaths } : {}),
    plan: found.plan,
    maxCostUsd: options.maxCostUsd,
    agentSession: options.agentSession,
    maxRetriesPerStep: options.maxRetriesPerStep,
    maxIterationsPerIssue: options.maxIterationsPerIssue,
    maxConsecutiveEscalations: options.maxConsecutiveEscalations,
    ...(io.onlyIssues ? { onlyIssues: io.onlyIssues } : {}),
    ...waveCarried(io, options),
    ...(io.refusedBeforehand ? { refusedBeforehand: io.refusedBeforehand } : {}),
    ...(io.resumedByHand ? { resumedByHand: true } : {}),
    ...(options.discordWebhook && !isWaveJob(io.env) ? { posts: true } : {}),
  };
}

/** Runs the test command for the engine: in the agent's environment, its processes tracked, what it writes never committed. */
function testRunner(
  options: Options,
  io: RunIO,
  run: {
    testCommand: string;
    agentEnv: NodeJS.ProcessEnv;
    git: Git | undefined;
    registry: Session['registry'];
    logger: Logger;
    redact: SecretRedactor;
  },
): SliceDeps['runTests'] {
  const { git, registry, logger } = run;
  return async (command, signal, purpose, place) => {
    const pids: number[] = [];
    // What the test command writes into the work tree (a JUnit report, caches) is never committed.
    // A judge tree is not the work tree: it is removed after the run.
    const before = git && !place ? new Set(await git.untracked()) : undefined;
    // The report is read only for the test command itself, in the implement workflow (TDD reads its own).
    const junitFile = options.junitFile && command === run.testCommand && purpose ? options.junitFile : undefined;
    const where = place
      ? await judgeRun(place, run.agentEnv, junitFile)
      : {
          cwd: io.cwd,
          env: run.agentEnv,
          ...(junitFile ? { junitFile: path.resolve(io.cwd, junitFile) } : {}),
        };
    try {
      return await runTestCommand(command, {
        ...where,
        timeoutMs: options.agentTimeoutMinutes * 60_000,
        signal,
        mask: run.redact,
        ...(purpose ? { purpose } : {}),
        onLine: cappedEcho(logger, 'tests', undefined),
        onSpawn: (pid) => {
          pids.push(pid);
          registry.spawned(pid, 'tests');
        },
      });
    } finally {
      for (const pid of pids) registry.exited(pid);
      if (git && before) await excludeWritten(git, before, logger);
    }
  };
}

/** The counts a fan-out job's issue brings from its earlier jobs: the action's, or the coordinator's. */
function waveCarried(io: RunIO, options: Options): Pick<SliceSettings, 'carried'> {
  if (io.carried) return { carried: io.carried };
  const issueId = options.issue?.length === 1 ? options.issue[0] : undefined;
  const counts = isWaveJob(io.env) && issueId !== undefined ? waveJobCounts(io.env) : undefined;
  return counts && issueId !== undefined ? { carried: { ...counts, issueId } } : {};
}

/**
 * What agent-loop put back, before a commit or at a slice's end, because something else changed
 * what git stages (src/git/staging.ts).
 */
export function stagingRestored(logger: Logger, what: string[], when: StagingMoment): void {
  const committed =
    'before committing, so that what is committed is the working tree as it is ' +
    '(for finished work, the tree the tests ran on), not what those settings make of it';
  const why =
    when === 'commit'
      ? committed
      : when === 'judge'
        ? // Issue 42: the work is read as a tree (git add) for the judge, as a commit reads it.
          `before the work was judged and ${committed}`
        : "at the slice's end, so that none of it stays in the repository or is read by the next run as yours";
  const said =
    `Something other than agent-loop (most likely the agent) changed what git stages: ${what.join('; ')}. ` +
    `Put back as it was before the agent ran, ${why}.`;
  logger.warn('git.staging_restored', said, { restored: what, when });
}

/** Keeps out of every commit the untracked paths that appeared while the tests ran (the gate wrote them). */
async function excludeWritten(git: Git, before: Set<string>, logger: Logger): Promise<void> {
  const written = (await git.untracked()).filter((p) => !before.has(p));
  for (const p of written) await git.exclude(p, { file: !p.endsWith('/') });
  if (written.length > 0)
    logger.info(
      'tests.excluded',
      `The test command wrote ${written.join(', ')}: excluded in .git/info/exclude, never committed.`,
      { paths: written },
    );
}

/** The worktrees a killed --parallel run left, recovered (src/app/parallelLeftovers.ts); each step said in the log. */
async function recoverLeftTrees(
  top: string,
  io: { stateDir: string; env: NodeJS.ProcessEnv; clock: Clock },
  logger: Logger,
): Promise<void> {
  const notes = await recoverParallelTrees(
    top,
    io.stateDir,
    gitRunner(top, io.env),
    localLockDeps(),
    async (dir) => (await readJobState(dir, io.clock)).finished,
  );
  for (const note of notes) logger.warn('run.recovered', note);
}
