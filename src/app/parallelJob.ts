/**
 * One job of a `--parallel` wave (issue 16): `agent-loop run` as a child process in the job's own
 * worktree and state directory, for its one issue (`--issue`) and its share of the iterations; its
 * own process group (src/agents/process.ts), recorded so that a killed coordinator's jobs are ended
 * by the next run. Its NDJSON events become one progress line each, prefixed with the issue; its
 * final checkpoint is the job's partial state for the reduce (src/core/waveReduce.ts).
 */
import { existsSync, promises as fs } from 'node:fs';
import path from 'node:path';
import { runProcess } from '../agents/process.js';
import { FileCheckpointStore } from '../checkpoint/fileStore.js';
import { isHaltedCheckpoint } from '../checkpoint/phase.js';
import { isResumable, newestFirst } from '../checkpoint/resume.js';
import { type IssueCounts, IssueCountsSchema, type LoopState, type WaveJob, parseLoopState } from '../core/state.js';
import type { Level, Logger } from '../report/logger.js';
import type { ProcessRegistry } from '../safety/processes.js';
import type { Clock } from '../util/clock.js';

/** Flags the coordinator sets for each job itself; the user's others are passed through. */
const JOB_FLAGS = new Set([
  'parallel',
  'issue',
  'max-iterations',
  'max-cost-usd',
  'state-dir',
  'json',
  'on-success',
  'fresh',
  'resume',
  'resume-halted',
  'plan',
  'discord-webhook',
  'slice-iterations',
  'slice-minutes',
]);

/** The environment variable that gives a job its issue's carried counts (JSON IssueCounts; empty: none). */
export const WAVE_COUNTS_ENV = 'AGENT_LOOP_WAVE_COUNTS';

/** The counts a job's coordinator gave it; undefined when none, or not readable (a job starts from 0). Pure. */
export function waveJobCounts(env: NodeJS.ProcessEnv): IssueCounts | undefined {
  const text = env[WAVE_COUNTS_ENV];
  if (!text) return undefined;
  try {
    const parsed = IssueCountsSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

export interface JobPlace {
  /** The job's worktree. */
  tree: string;
  /** The job's state directory (outside its worktree). */
  stateDir: string;
  /** A plan file for the job's prompt (the user's plan and why the issue is worked again), when there is one. */
  planFile?: string;
  /** An empty configuration file outside the worktree, for a job whose checkout has none (jobArgs). */
  noConfig?: string;
}

/** The branch a job's worktree is on: its work is merged from here into the base branch. */
export const jobBranch = (issueId: string) => `agent-loop-wave/${issueId}`;

/** Where a job of a wave works: under the run's state directory, never in the user's tree. Pure. */
export function jobPlace(stateDir: string, waveId: string, issueId: string): JobPlace {
  const dir = path.join(stateDir, 'parallel', waveId, issueId.replace(/[^A-Za-z0-9._-]/g, '_'));
  // git names a worktree's admin directory after the tree's basename: one of its own per job.
  return { tree: path.join(dir, `tree-${path.basename(dir)}`), stateDir: path.join(dir, 'state') };
}

/** The job's command line after `run`: the user's flags, then the job's own. Pure. */
export function jobArgs(
  flags: ReadonlyMap<string, string | true>,
  job: WaveJob,
  place: JobPlace,
  fresh: boolean,
): string[] {
  const args: string[] = ['run'];
  for (const [flag, value] of flags) {
    if (JOB_FLAGS.has(flag)) continue;
    args.push(value === true ? `--${flag}` : `--${flag}=${value}`);
  }
  args.push('--json', '--parallel', '1', '--issue', job.issueId, '--max-iterations', String(job.maxIterations));
  // No Discord post from a job (its halt is often only its share running out): the coordinator posts
  // once; a job knows it is one (AGENT_LOOP_WAVE_JOB, src/safety/session.ts: isWaveJob).
  args.push('--state-dir', place.stateDir, '--on-success', 'merge');
  if (job.maxCostUsd !== undefined) args.push('--max-cost-usd', String(Math.max(job.maxCostUsd, 0.0001)));
  if (place.planFile) args.push('--plan', place.planFile);
  // The checkout has no configuration file: the job reads an empty one, never one its agent wrote in its worktree.
  if (!flags.has('config') && place.noConfig) args.push('--config', place.noConfig);
  if (fresh) args.push('--fresh');
  return args;
}

export interface JobEnd {
  /** The job's final state; undefined when it saved none (it could not start, or was killed first). */
  loop?: LoopState;
  /** Whether its newest checkpoint is finished (complete or halted): a resumed wave does not run it again. */
  finished: boolean;
  exitCode: number | null;
  /** The end of its stderr (why it could not start). */
  stderrTail: string;
}

/** The job's newest checkpoint, as a partial state. */
export async function readJobState(stateDir: string, clock: Clock): Promise<Omit<JobEnd, 'exitCode' | 'stderrTail'>> {
  if (!existsSync(stateDir)) return { finished: false };
  const { checkpoints } = await new FileCheckpointStore(stateDir, { clock }).list().catch(() => ({ checkpoints: [] }));
  const newest = newestFirst(checkpoints)[0];
  if (!newest) return { finished: false };
  const loop = parseLoopState(newest.state);
  // Complete, or halted (its share ran out, its issue escalated): run again, it would only say so.
  const finished = !isResumable(newest) || isHaltedCheckpoint(newest);
  return typeof loop === 'string' ? { finished: false } : { loop, finished };
}

export interface RunJobDeps {
  /** The command that runs agent-loop itself (node and the CLI's script). */
  self: readonly string[];
  env: NodeJS.ProcessEnv;
  flags: ReadonlyMap<string, string | true>;
  logger: Logger;
  json: boolean;
  stderr: (text: string) => void;
  registry: ProcessRegistry;
  clock: Clock;
  signal?: AbortSignal;
}

const LEVELS = new Set(['debug', 'info', 'warn', 'error']);

/** Runs the job's child to its end and reads what it left. */
export async function runJob(deps: RunJobDeps, job: WaveJob, place: JobPlace, fresh: boolean): Promise<JobEnd> {
  const [command, ...pre] = deps.self;
  const tag = `[${job.issueId}]`;
  let pid: number | undefined;
  const result = await runProcess({
    command: command as string,
    args: [...pre, ...jobArgs(deps.flags, job, place, fresh)],
    cwd: place.tree,
    // A job is never itself parallel, and posts no halt of its own: the coordinator posts once.
    env: {
      ...deps.env,
      // Empty is unset: the coordinator's own choices of these do not reach the job through its environment.
      ...Object.fromEntries(
        [
          'PARALLEL',
          'ISSUE',
          'DISCORD_WEBHOOK',
          'FRESH',
          'RESUME',
          'RESUME_HALTED',
          'SLICE_ITERATIONS',
          'SLICE_MINUTES',
        ].map((name) => [`AGENT_LOOP_${name}`, '']),
      ),
      // The coordinator holds the repository's lock for its jobs (src/safety/session.ts).
      AGENT_LOOP_WAVE_JOB: String(process.pid),
      // What the issue's earlier jobs counted: the job's cycle starts from it.
      [WAVE_COUNTS_ENV]: job.counts ? JSON.stringify(job.counts) : '',
    },
    signal: deps.signal,
    tailBytes: 16 * 1024,
    onSpawn: (p) => {
      pid = p;
      deps.registry.spawned(p, 'agent');
    },
    onLine: (line, stream) => {
      if (stream === 'stderr') {
        deps.stderr(`${tag} ${line}\n`);
        return;
      }
      let event: Record<string, unknown>;
      try {
        event = JSON.parse(line) as Record<string, unknown>;
      } catch {
        return;
      }
      // The job's own result (the line with no event) is read from its checkpoint; the coordinator prints the run's.
      if (typeof event.event !== 'string') return;
      if (event.event.endsWith('.output')) {
        if (deps.json) deps.logger.event(event.event, 'debug', String(event.line ?? ''), { issue: job.issueId });
        return;
      }
      // The agent's output is not echoed in text mode: its cap (src/report/echo.ts) says nothing there.
      if (event.event === 'output.capped' && !deps.json) return;
      const { time: _time, level, event: name, message, ...fields } = event;
      deps.logger.event(
        name as string,
        (LEVELS.has(String(level)) ? level : 'info') as Level,
        // Every line of a long message (a diagnostic) carries the issue: two jobs' blocks never mix unmarked.
        String(message ?? name)
          .split('\n')
          .map((l) => `${tag} ${l}`)
          .join('\n'),
        { ...fields, issue: job.issueId },
      );
    },
  });
  if (pid !== undefined) deps.registry.exited(pid);
  const state = await readJobState(place.stateDir, deps.clock);
  return { ...state, exitCode: result.exitCode, stderrTail: result.stderrTail };
}

/** Writes the job's plan file (the user's plan, and why the issue is worked again); its path, or undefined when there is nothing to say. */
export async function writeJobPlan(
  dir: string,
  userPlan: string | undefined,
  context: string | undefined,
): Promise<string | undefined> {
  if (!userPlan && !context) return undefined;
  const text = [
    ...(userPlan ? [userPlan.trim(), ''] : []),
    ...(context ? ['### Worked again', '', context.trim(), ''] : []),
  ].join('\n');
  await fs.mkdir(dir, { recursive: true });
  const file = path.join(dir, 'plan.md');
  await fs.writeFile(file, text);
  return file;
}

/** JobPlace.noConfig: an empty configuration file in the job's directory `dir` (outside its worktree). */
export async function writeNoConfig(dir: string): Promise<string> {
  await fs.mkdir(dir, { recursive: true });
  const file = path.join(dir, 'no-config.yml');
  await fs.writeFile(file, '');
  return file;
}
