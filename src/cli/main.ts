/** Dispatches a command line to run, status or cleanup. Exit codes: 0 ok/continuing, 1 halted, 2 usage. */
import { MiB, readInput } from '../util/readInput.js';
import path from 'node:path';
import { type ParsedArgs, parseArgs } from '../config/argv.js';
import { loadConfig } from '../config/load.js';
import { COMMANDS, type Command, type Options } from '../config/options.js';
import { ConfigError } from '../config/problems.js';
import { FileCheckpointStore } from '../checkpoint/fileStore.js';
import { CheckpointError } from '../checkpoint/types.js';
import { systemClock, type Clock } from '../util/clock.js';
import { cleanupCommand } from './cleanup.js';
import { openSession } from '../safety/session.js';
import { gitTopLevel } from '../git/repoPaths.js';
import { resolveStateDir, stateDirProblem } from '../safety/stateDir.js';
import { commandHelp, mainHelp } from './help.js';
import { planCommand } from '../app/plan.js';
import { runCommand } from '../app/run.js';
import { parallelCommand } from '../app/parallel.js';
import { statusCommand } from './status.js';
import { consoleWidth } from '../report/wrap.js';
import { invalidUsage } from './messages.js';
import { configAtBase, configAtBaseNote } from '../app/configAtBase.js';
import { configFileNamed } from '../config/configFile.js';

export const VERSION = '0.1.0';

export interface CliIO {
  cwd: string;
  env: NodeJS.ProcessEnv;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  signal?: AbortSignal;
  clock?: Clock;
  /** The command that runs agent-loop itself (node and this script): `run --parallel` starts its jobs with it. */
  self?: readonly string[];
  /** The terminal's columns when stdout is one (else undefined: a pipe or a file is never wrapped). */
  columns?: number;
}

/** The command line read and checked: the command, its options and secrets; or the exit code already given. */
type Parsed = { exit: number } | { command: Command; options: Options; secrets: string[]; flags: ParsedArgs['values'] };

function readCommandLine(
  argv: readonly string[],
  io: CliIO,
  readFile = (p: string) => readInput(path.resolve(io.cwd, p), MiB),
): Parsed {
  const args = parseArgs(argv);
  if (args.version) {
    io.stdout(`${VERSION}\n`);
    return { exit: 0 };
  }
  if (args.help || argv.length === 0) {
    io.stdout(`${args.command ? commandHelp(args.command) : mainHelp(VERSION)}\n`);
    // The help asked for, and what was wrong with the rest of the line (`clean --help`: did you mean cleanup?).
    if (args.problems.length)
      return {
        exit: usageError(
          io,
          args.command,
          args.problems.map((p) => p.message),
        ),
      };
    return { exit: argv.length === 0 ? 2 : 0 };
  }
  // A mistyped command (`agent-loop stauts`) or none at all: what went wrong, not the whole help.
  if (!args.command) {
    const said = args.problems.length
      ? args.problems.map((p) => p.message)
      : [`a command is needed first: one of ${COMMANDS.join(', ')} (agent-loop <command> [options]).`];
    return { exit: usageError(io, args.command, said) };
  }
  // Every problem at once: those of the command line's shape and those of the values.
  try {
    const { options, secrets } = loadConfig({
      command: args.command,
      flags: args.values,
      env: io.env,
      readFile,
    });
    if (args.problems.length > 0)
      return {
        exit: usageError(
          io,
          args.command,
          args.problems.map((p) => p.message),
        ),
      };
    return { command: args.command, options, secrets, flags: args.values };
  } catch (error) {
    if (error instanceof ConfigError)
      return {
        exit: usageError(
          io,
          args.command,
          [...args.problems, ...error.problems].map((p) => p.message),
        ),
      };
    throw error;
  }
}

export async function main(argv: readonly string[], given: CliIO): Promise<number> {
  let io = given;
  const parsed = readCommandLine(argv, io);
  if ('exit' in parsed) return parsed.exit;
  const { command } = parsed;
  let { options, secrets } = parsed;
  const clock = io.clock ?? systemClock;
  // Started in a subdirectory of a repository: work at its root (the issues, the tests, the agent),
  // with the paths given relative to where the user is.
  const top = command === 'run' || command === 'plan' ? await gitTopLevel(io.cwd, io.env) : undefined;
  const rooted = top !== undefined && path.resolve(top) !== path.resolve(io.cwd);
  if (rooted) {
    options = atRoot(options, io.cwd);
    io.stderr(`agent-loop: working at the repository's root ${top} (started in ${io.cwd}).\n`);
    io = { ...io, cwd: top };
  }
  // Outside the working tree by default (under the git directory); an old in-tree one is moved there once.
  let { dir: stateDir, notes } = await resolveStateDir(options.stateDir, io.cwd, io.env);
  // Issue 42: on a branch other than the base of the checkpoint a run continues, the configuration
  // file is read as the base branch has it: the agent's version (on a halted cycle's branch) is never obeyed.
  const atBase = top
    ? await configAtBase({
        cwd: io.cwd,
        env: io.env,
        stateDir,
        clock,
        file: path.resolve(given.cwd, configFileNamed(parsed.flags, io.env)),
      })
    : undefined;
  if (atBase) {
    const fromBase = readCommandLine(argv, given, (p) => {
      if (path.resolve(given.cwd, p) !== atBase.file) return readInput(path.resolve(given.cwd, p), MiB);
      if (atBase.text === undefined) throw Object.assign(new Error(`not on ${atBase.base}`), { code: 'ENOENT' });
      return atBase.text;
    });
    if ('exit' in fromBase) return fromBase.exit;
    io.stderr(`agent-loop: ${configAtBaseNote(atBase)}\n`);
    options = rooted ? atRoot(fromBase.options, given.cwd) : fromBase.options;
    secrets = fromBase.secrets;
    ({ dir: stateDir, notes } = await resolveStateDir(options.stateDir, io.cwd, io.env));
  }
  // status only reads: it creates nothing.
  const unusable = await stateDirProblem(stateDir, { create: command !== 'status' });
  if (unusable) return usageError(io, command, [unusable]);
  for (const note of notes) io.stderr(`agent-loop: ${note}\n`);
  // The text log fits the terminal, broken at words (src/report/wrap.ts); COLUMNS sets the width.
  const width = consoleWidth(io.env.COLUMNS, io.columns);
  const ready = { io: { ...io, clock, secrets, stateDir, ...(width !== undefined ? { width } : {}) }, options };
  switch (command) {
    case 'run':
      if (options.parallel > 1)
        return parallelCommand(options, {
          ...ready.io,
          self: io.self ?? [process.execPath, process.argv[1] ?? 'agent-loop'],
          flags: parsed.flags,
        });
      return runCommand(options, ready.io);
    case 'plan':
      return planCommand(options, ready.io);
    case 'status':
    case 'cleanup':
      return checkpointsCommand(command, ready.io, options);
  }
}

/** status and cleanup: the checkpoints listed, or cleaned up under the run's lock. */
async function checkpointsCommand(
  command: 'status' | 'cleanup',
  io: CliIO & { clock: Clock; stateDir: string },
  options: Options,
): Promise<number> {
  const { clock, stateDir } = io;
  const out = (line: string) => io.stdout(`${line}\n`);
  const deps = () => ({ store: new FileCheckpointStore(stateDir, { clock }), now: clock.now(), out });
  if (command === 'status')
    try {
      return await statusCommand({ stateDir, json: options.json }, deps());
    } catch (error) {
      // The checkpoints cannot be listed (their directory is a file, unreadable): exit 2, as its help says.
      if (error instanceof CheckpointError) return usageError(io, command, [error.message]);
      throw error;
    }
  // Never under a running loop's feet: cleanup takes the same lock.
  const opened = await openSession({
    command: 'cleanup',
    cwd: io.cwd,
    env: io.env,
    stateDir,
    now: () => clock.now(),
    sleep: (ms) => clock.sleep(ms),
    checkRepository: false,
  });
  if (!opened.ok) {
    io.stderr(`agent-loop cleanup: cannot start\n${opened.problems.map((p) => `  - ${p}`).join('\n')}\n`);
    return 2;
  }
  try {
    return await cleanupCommand(
      { stateDir, olderThanDays: options.olderThan, all: options.all, dryRun: options.dryRun, json: options.json },
      deps(),
    );
  } catch (error) {
    if (error instanceof CheckpointError) return usageError(io, command, [error.message]);
    throw error;
  } finally {
    opened.session.release();
  }
}

function usageError(io: CliIO, command: Command | undefined, messages: string[]): number {
  io.stderr(invalidUsage(command, messages).replace('  --help', ' --help'));
  return 2;
}

/** The options with the paths the user gave made absolute from `cwd` (the default issues file stays at the root). Pure. */
export function atRoot(options: Options, cwd: string): Options {
  const abs = (p: string | undefined) => (p === undefined ? undefined : path.resolve(cwd, p));
  return {
    ...options,
    ...(options.issuesFile !== '.beads/issues.jsonl' ? { issuesFile: path.resolve(cwd, options.issuesFile) } : {}),
    ...(options.plan !== undefined ? { plan: abs(options.plan) } : {}),
    ...(options.junitFile !== undefined ? { junitFile: abs(options.junitFile) } : {}),
    ...(options.tddPrompts !== undefined ? { tddPrompts: abs(options.tddPrompts) } : {}),
    ...(options.stateDir !== undefined ? { stateDir: abs(options.stateDir) } : {}),
  };
}
