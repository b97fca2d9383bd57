/**
 * `install-agent`: a hosted runner has Node but no agent CLI. When the chosen agent is a CLI (its
 * `cli` in src/agents/catalog.ts: claude, codex) and not on PATH, install its pinned version with
 * npm into a directory of the runner's temp space and put that directory's bin first on PATH for
 * the run. Installing only when missing
 * keeps the common case (a self-hosted runner, or an earlier setup step) free.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { AGENT_CATALOG, CLI_AGENT_NAMES, type CliAgentName, agentEntry } from '../agents/catalog.js';
import { isOnPath } from '../util/onPath.js';

/** The CLI versions agent-loop is tested against, by agent (src/agents/catalog.ts: each CLI agent's `cli`). */
export const PINNED_AGENT_CLIS = Object.fromEntries(CLI_AGENT_NAMES.map((name) => [name, AGENT_CATALOG[name].cli])) as {
  readonly [Name in CliAgentName]: (typeof AGENT_CATALOG)[Name]['cli'];
};

export type RunCommand = (
  command: string,
  args: string[],
  options: { env: NodeJS.ProcessEnv; onLine: (line: string) => void },
) => Promise<{ code: number | null; output: string }>;

export interface EnsureAgentInput {
  agent: string;
  env: NodeJS.ProcessEnv;
  /** Where to install (e.g. $RUNNER_TEMP/agent-loop-clis). */
  prefix: string;
  log: (message: string) => void;
  run?: RunCommand;
}

export type EnsureAgentResult =
  | { kind: 'not-needed' | 'present' }
  | { kind: 'installed'; env: NodeJS.ProcessEnv; version: string; pkg: string }
  | { kind: 'failed'; message: string };

export async function ensureAgent(input: EnsureAgentInput): Promise<EnsureAgentResult> {
  const pin = agentEntry(input.agent)?.cli;
  if (pin === undefined) return { kind: 'not-needed' };
  if (await isOnPath(pin.bin, input.env.PATH)) return { kind: 'present' };
  const run = input.run ?? runCommand;
  const spec = `${pin.pkg}@${pin.version}`;
  input.log(`${pin.bin} is not on PATH: installing ${spec} into ${input.prefix} (install-agent).`);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const args = [
    'install',
    '--prefix',
    input.prefix,
    '--no-save',
    '--no-package-lock',
    '--no-audit',
    '--no-fund',
    '--loglevel',
    'error',
    spec,
  ];
  const result = await run(npm, args, { env: input.env, onLine: (line) => input.log(`npm: ${line}`) });
  const bin = path.join(input.prefix, 'node_modules', '.bin');
  const env = { ...input.env, PATH: [bin, input.env.PATH ?? ''].filter(Boolean).join(path.delimiter) };
  if (result.code !== 0 || !(await isOnPath(pin.bin, env.PATH))) {
    const tail = result.output.trim().split('\n').slice(-5).join(' / ');
    return {
      kind: 'failed',
      message:
        `install-agent: \`npm ${args.join(' ')}\` ${result.code !== 0 ? `exited with code ${result.code}` : `did not leave ${pin.bin} in ${bin}`}` +
        `${tail ? `: ${tail}` : ''}. ` +
        'Check that the runner reaches the npm registry, or install the CLI in an earlier step and set install-agent: false.',
    };
  }
  return { kind: 'installed', env, version: pin.version, pkg: pin.pkg };
}

/** Runs a command, its output line by line to `onLine`; the last 64 KiB kept for the error message. */
const runCommand: RunCommand = (command, args, options) =>
  new Promise((resolve) => {
    const child = spawn(command, args, { env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    let pending = '';
    const take = (chunk: Buffer) => {
      const text = chunk.toString();
      output = (output + text).slice(-65_536);
      const lines = (pending + text).split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) if (line.trim() !== '') options.onLine(line);
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.on('error', (error) => resolve({ code: null, output: `${output}\n${error.message}` }));
    child.on('close', (code) => {
      if (pending.trim() !== '') options.onLine(pending);
      resolve({ code, output });
    });
  });
