/**
 * `agent-loop plan`: the planning pipeline (src/workflows/pipeline/run.ts) with the run's agent and state
 * directory; its implementation phase is `agent-loop run` in the pipeline's checkpoint, on the
 * issues the pipeline created (beads file, bd, or the action's GitHub issues).
 */
import { MiB, readInput } from '../util/readInput.js';
import path from 'node:path';
import type { Options } from '../config/options.js';
import { surface } from '../config/surface.js';
import { availableAgent } from '../agents/index.js';
import { FileCheckpointStore } from '../checkpoint/fileStore.js';
import { openGit } from '../git/git.js';
import { BdCliPhaseIssueSink } from '../workflows/pipeline/bdSink.js';
import { BeadsFilePhaseIssueSink, type PhaseIssueSink } from '../workflows/pipeline/beadsCreate.js';
import {
  type AgentPhaseName,
  PRE_IMPLEMENTATION_PHASES,
  unknownPlaceholders,
  withOverrides,
} from '../workflows/pipeline/phases.js';
import { PipelineStartError, runPipeline } from '../workflows/pipeline/run.js';
import { type Redactor, createRedactor } from '../secrets/redact.js';
import type { Agent } from '../agents/types.js';
import { detectTestCommand } from '../loop/testGate.js';
import { TEMP_FILE_PATTERN } from '../util/atomicWrite.js';
import { isOnPath } from '../util/onPath.js';
import { readPromptDir } from '../util/promptDir.js';
import { type RunIO, runCommand, runLogger, stagingRestored } from './run.js';
import { type Session, openAgentSession } from '../safety/session.js';
import { trackAgent } from '../safety/processes.js';
import { secretDetector } from '../safety/secretScan.js';
import { gitTopLevel, workTreePath } from '../git/repoPaths.js';
import { LEGACY_STATE_DIR, stateDirOwnPaths } from '../safety/stateDir.js';
import { agentEnvironment } from '../secrets/agentEnv.js';
import { maskOutput } from '../agents/maskOutput.js';
import { type StartProblem, cannotStart, problem } from './problems.js';
import { printable } from '../util/printable.js';

const PROMPT_FILES: Record<AgentPhaseName, string> = {
  research: 'research.md',
  decomposition: 'decomposition.md',
  planning: 'planning.md',
  phase_decomposition: 'phase_decomposition.md',
};

export interface PlanIO extends RunIO {
  /** Where the phase issues go when the caller decides (the action: GitHub issues); else bd or the beads file. */
  sink?: PhaseIssueSink & { readonly where: string };
}

export async function planCommand(options: Options, io: PlanIO): Promise<number> {
  const redact = createRedactor(io.secrets);
  const say = surface(io.terms);
  const problems: StartProblem[] = [];
  const invalid = problem('invalid_input');
  let goal = options.goal;
  if (options.goalFile) {
    try {
      goal = readInput(path.resolve(io.cwd, options.goalFile), MiB).trim();
      if (!goal)
        problems.push(
          invalid(`${say.option('goalFile')}: '${printable(options.goalFile)}' is empty; expected the goal's text.`),
        );
    } catch (error) {
      problems.push(
        invalid(
          `${say.option('goalFile')}: ${(error as Error).message}; expected a readable file (the goal, up to 1 MiB).`,
        ),
      );
    }
  }
  const prompts = options.planPrompts
    ? readPromptDir({ name: say.option('planPrompts'), value: options.planPrompts, cwd: io.cwd }, PROMPT_FILES)
    : { templates: {} };
  if (prompts.problem) problems.push(invalid(prompts.problem));
  const templates: Partial<Record<AgentPhaseName, string>> = prompts.templates;
  if (!options.testCommand && !detectTestCommand(io.cwd)) {
    problems.push(
      invalid(
        `${say.option('testCommand')}: none given and none detected; the implementation phase needs the command ` +
          `that proves a phase done, e.g. ${say.given('testCommand', '"npm test"')}.`,
      ),
    );
  }
  const { agent, problems: agentProblems } = await availableAgent(
    options,
    agentEnvironment(io.env, { githubToken: options.agentGithubToken }),
    say,
  );
  problems.push(...agentProblems.map(problem('agent_not_on_path')));
  const fail = () => cannotStart(io, 'plan', problems, redact);
  if (problems.length > 0 || !agent) return fail();
  // One run at a time; a killed run's agent ended; the repository fit to work in. Before any agent runs.
  const opened = io.session ? { ok: true as const, session: io.session } : await openAgentSession('plan', io);
  if (!opened.ok) {
    problems.push(...opened.problems.map(problem('repository')));
    return fail();
  }
  const session = opened.session;
  try {
    return await planWithSession(options, io, {
      goal,
      templates,
      agent: trackAgent(maskOutput(agent, redact), session.registry),
      session,
      redact,
      fail,
      problems,
    });
  } finally {
    if (!io.session) session.release();
  }
}

async function planWithSession(
  options: Options,
  io: PlanIO,
  ctx: {
    goal: string | undefined;
    templates: Partial<Record<AgentPhaseName, string>>;
    agent: Agent;
    session: Session;
    redact: Redactor;
    fail: () => number;
    problems: StartProblem[];
  },
): Promise<number> {
  const { goal, templates, agent, session, redact, fail, problems } = ctx;
  const logger = runLogger(options, io, redact);
  for (const note of session.notes) logger.warn('run.recovered', note);
  warnUnknownPlaceholders(logger, templates, io.terms);
  const sink = await phaseIssueSink(options, io, logger);
  const { git, artifactsDir } = await openPlanGit(options, io, redact, logger);
  try {
    return await runPipeline({
      ...(goal ? { goal } : {}),
      cwd: io.cwd,
      stateDir: io.stateDir,
      artifactsDir,
      sink,
      agent,
      logger,
      clock: io.clock,
      redact,
      phases: withOverrides(PRE_IMPLEMENTATION_PHASES, { templates }),
      store: new FileCheckpointStore(io.stateDir, {
        clock: io.clock,
        redact,
        ...(io.terms ? { terms: io.terms } : {}),
      }),
      ...(io.terms ? { terms: io.terms } : {}),
      maxRetries: options.maxRetriesPerStep,
      agentTimeoutMs: options.agentTimeoutMinutes * 60_000,
      fresh: options.fresh,
      ...(options.resume ? { resume: options.resume } : {}),
      ...(io.signal ? { signal: io.signal } : {}),
      // Implementation: the loop in this checkpoint, on the created issues, from the same source `run` would use (or the caller's).
      implement: implementWith(options, io, session, logger, sink, git),
    });
  } catch (error) {
    if (error instanceof PipelineStartError) {
      problems.push(problem('invalid_input')(error.message));
      return fail();
    }
    throw error;
  }
}

type PlanLogger = ReturnType<typeof runLogger>;
type PlanGit = Awaited<ReturnType<typeof openGit>>;

/** A prompt template's unknown placeholders are left as written, and said. */
function warnUnknownPlaceholders(
  logger: PlanLogger,
  templates: Partial<Record<AgentPhaseName, string>>,
  terms: PlanIO['terms'],
): void {
  for (const [phase, template] of Object.entries(templates)) {
    const unknown = unknownPlaceholders(template);
    if (unknown.length)
      logger.warn(
        'pipeline.template',
        `${surface(terms).option('planPrompts')} ${PROMPT_FILES[phase as AgentPhaseName]}: unknown placeholder(s) ` +
          `${unknown.map((n) => `{{${n}}}`).join(', ')} are left as written.`,
      );
  }
}

/** The caller's sink, or as `run` picks its source: bd when it is installed and no other file was named, else the file. */
async function phaseIssueSink(
  options: Options,
  io: PlanIO,
  logger: PlanLogger,
): Promise<PhaseIssueSink & { readonly where: string }> {
  const issuesFile = options.issuesFile;
  const useBd = options.issuesFile === '.beads/issues.jsonl' && (await isOnPath('bd', io.env.PATH));
  const onWarning = (message: string) => logger.warn('source.warning', message);
  return (
    io.sink ??
    (useBd
      ? Object.assign(new BdCliPhaseIssueSink({ cwd: io.cwd, onWarning }), { where: 'bd' })
      : Object.assign(new BeadsFilePhaseIssueSink({ file: issuesFile, cwd: io.cwd }), { where: issuesFile }))
  );
}

/**
 * The work tree's git (when there is one), and where the phases' artifacts go: the agent writes them;
 * agents refuse to write under .git/ (Claude Code does), so with the state directory there they go to
 * .agent-loop/ in the work tree: excluded and never staged, like the state directory itself.
 */
async function openPlanGit(
  options: Options,
  io: PlanIO,
  redact: Redactor,
  logger: PlanLogger,
): Promise<{ git: PlanGit; artifactsDir: string }> {
  const top = await gitTopLevel(io.cwd, io.env);
  const artifactsDir =
    top && path.relative(top, io.stateDir).startsWith('.git') ? path.join(top, LEGACY_STATE_DIR) : io.stateDir;
  const git = await openGit(io.cwd, io.env, {
    redact,
    ...(options.commitAuthor ? { author: options.commitAuthor } : {}),
    protect: [...stateDirOwnPaths(io.stateDir), artifactsDir],
    holdsSecret: secretDetector(io.secrets),
    onStagingRestored: (what, when) => stagingRestored(logger, what, when),
  });
  if (git) {
    for (const dir of new Set([io.stateDir, artifactsDir])) {
      const inTree = workTreePath(git.topLevel, dir);
      if (inTree) await git.exclude(inTree);
    }
    await git.exclude(TEMP_FILE_PATTERN);
  }
  return { git, artifactsDir };
}

/** Implementation: the loop in this checkpoint, on the created issues, from the same source `run` would use (or the caller's). */
function implementWith(
  options: Options,
  io: PlanIO,
  session: Session,
  logger: PlanLogger,
  sink: { readonly where: string },
  git: PlanGit,
): (checkpointId: string, issueIds: string[]) => Promise<number> {
  return async (checkpointId, issueIds) => {
    // The new issues are committed on the base branch first: the loop's cycles branch off it,
    // and an escalated cycle returns to it.
    if (
      git &&
      !(await git.currentRef()).startsWith('agent-loop/') &&
      (await git.commitAll(`agent-loop plan: ${issueIds.length} phase issue(s) ${issueIds.join(' ')}`.slice(0, 120)))
    ) {
      logger.info('git.committed', `Committed the phase issues (${sink.where}) on ${await git.currentRef()}.`);
    }
    return runCommand(
      {
        ...options,
        workflow: options.workflow === 'tdd' ? 'tdd' : 'implement',
        resume: checkpointId,
        fresh: false,
      },
      {
        ...io,
        onlyIssues: issueIds,
        session,
      },
    );
  };
}
