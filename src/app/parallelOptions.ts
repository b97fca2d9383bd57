/** run --parallel's options: what it refuses (each with what to do instead), and the flags passed on to its jobs. Pure. */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { configFileNamed } from '../config/configFile.js';
import type { Options } from '../config/options.js';
import { ISSUE_SOURCES } from '../issues/catalog.js';

/** Jobs at once on one machine. */
export const MAX_LOCAL_PARALLEL = 32;

const REFUSALS = {
  tooMany: (n: number) =>
    `--parallel ${n}: at most ${MAX_LOCAL_PARALLEL} on one machine (each job is a worktree, an agent and a test run at once); ` +
    "256 is the action's bound, for matrix jobs on runners of their own.",
  batch: '--parallel with --batch: a batch is one cycle for every ready issue; use one or the other.',
  workflow: (w: string) =>
    `--parallel with --workflow ${w}: only the implement workflow runs in parallel; use --parallel 1.`,
  onSuccess: (o: string) =>
    `--parallel with --on-success ${o}: parallel jobs are merged into the base branch one at a time; use --on-success merge (the default).`,
  resume: '--parallel with --resume: the parallel run resumes its newest checkpoint by itself; leave --resume out.',
  source: '--parallel needs --source beads locally (the action fans out with a matrix).',
};

/** Why --parallel cannot run with these options; each names what to do instead. */
export function parallelProblems(options: Options): string[] {
  const out: string[] = [];
  if (options.parallel > MAX_LOCAL_PARALLEL) out.push(REFUSALS.tooMany(options.parallel));
  if (options.batch) out.push(REFUSALS.batch);
  if (options.workflow !== 'implement') out.push(REFUSALS.workflow(options.workflow));
  if (options.onSuccess !== 'merge') out.push(REFUSALS.onSuccess(options.onSuccess));
  if (options.resume) out.push(REFUSALS.resume);
  // Each lane closes its issues in its worktree's copy of the issues file, merged back with its work.
  if (!ISSUE_SOURCES[options.source].inRepository) out.push(REFUSALS.source);
  return out;
}

/**
 * The configuration file every job reads: the coordinator's, absolute (--config or AGENT_LOOP_CONFIG
 * given relative to where the user is, or the checkout's `.agent-loop.yml`), so that a job never
 * reads a `.agent-loop.yml` its agent wrote in the job's worktree (a resumed job would obey it).
 * Where the checkout has none, no `config` is set: each job is given an empty one (jobArgs).
 */
export function jobConfig(
  flags: ReadonlyMap<string, string | true>,
  env: NodeJS.ProcessEnv,
  cwd: string,
): Map<string, string | true> {
  const out = new Map(flags);
  const named = path.resolve(cwd, configFileNamed(flags, env));
  const given = typeof flags.get('config') === 'string' || typeof env.AGENT_LOOP_CONFIG === 'string';
  if (given || existsSync(named)) out.set('config', named);
  return out;
}
