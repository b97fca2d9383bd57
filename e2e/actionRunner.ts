/**
 * Runs the bundled action's steps as the runner does: `main` then `post`, inputs as INPUT_*
 * variables, GITHUB_OUTPUT / GITHUB_STATE / GITHUB_STEP_SUMMARY files, main's saved state handed to
 * post as STATE_* variables.
 */
import { spawn } from 'node:child_process';
import { promises as fs, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist');

/** name<<DELIMITER \n value \n DELIMITER, as @actions/core writes GITHUB_OUTPUT and GITHUB_STATE. */
export function parseFileCommands(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of text.matchAll(/^([^\n<]+)<<(\S+)\n([\s\S]*?)\n\2$/gm)) out[m[1] as string] = m[3] as string;
  return out;
}

export function runStep(
  script: 'main' | 'post',
  env: NodeJS.ProcessEnv,
  cwd: string,
): Promise<{ code: number | null; log: string }> {
  return runNode([path.join(DIST, script, 'index.js')], env, cwd);
}

/** `node args…` to its exit: its code and what it printed (stdout and stderr, interleaved). */
export async function runNode(
  args: string[],
  env: NodeJS.ProcessEnv,
  cwd: string,
): Promise<{ code: number | null; log: string }> {
  const child = spawn(process.execPath, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  child.stdout.on('data', (c: Buffer) => {
    log += c.toString();
  });
  child.stderr.on('data', (c: Buffer) => {
    log += c.toString();
  });
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return { code, log };
}

export interface WorkflowRun {
  main: { code: number | null; log: string };
  post: { code: number | null; log: string };
  outputs: Record<string, string>;
  state: Record<string, string>;
  summary: string;
}

/**
 * One workflow run on a fresh runner: the state directory is removed first, then main and post run
 * with `env` (the runner's variables and the inputs). Files go under `scratch` with the run's id.
 */
export async function workflowRun(opts: {
  runId: number;
  repo: string;
  scratch: string;
  env: NodeJS.ProcessEnv;
  stateDir?: string;
  /** Runs between main and post (a test changes what post finds). */
  beforePost?: () => Promise<void>;
}): Promise<WorkflowRun> {
  await fs.rm(
    opts.stateDir ? path.join(opts.repo, opts.stateDir) : path.join(opts.env.RUNNER_TEMP ?? os.tmpdir(), 'agent-loop'),
    { recursive: true, force: true },
  );
  const files = {
    GITHUB_OUTPUT: path.join(opts.scratch, `output-${opts.runId}`),
    GITHUB_STATE: path.join(opts.scratch, `state-${opts.runId}`),
    GITHUB_STEP_SUMMARY: path.join(opts.scratch, `summary-${opts.runId}`),
  };
  for (const f of Object.values(files)) await fs.writeFile(f, '');
  const env: NodeJS.ProcessEnv = { ...opts.env, ...files, GITHUB_WORKSPACE: opts.repo };
  const main = await runStep('main', env, opts.repo);
  const state = parseFileCommands(readFileSync(files.GITHUB_STATE, 'utf8'));
  await opts.beforePost?.();
  const post = await runStep(
    'post',
    { ...env, ...Object.fromEntries(Object.entries(state).map(([k, v]) => [`STATE_${k}`, v])) },
    opts.repo,
  );
  return {
    main,
    post,
    outputs: parseFileCommands(readFileSync(files.GITHUB_OUTPUT, 'utf8')),
    state,
    summary: readFileSync(files.GITHUB_STEP_SUMMARY, 'utf8'),
  };
}
