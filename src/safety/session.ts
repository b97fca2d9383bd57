/**
 * What `run`, `plan` and `cleanup` do before anything else: take the lock (one run at a time per
 * state directory and per repository), end the process groups a killed run left behind, and, for
 * the commands that run agents, check the repository's preconditions. Either the session is open
 * (release it when the command ends) or the command must not start: exit 2 with the problems.
 */
import os from 'node:os';
import path from 'node:path';
import { type Terms, surface } from '../config/surface.js';
import { tempFileOwner } from '../util/atomicWrite.js';
import type { Clock } from '../util/clock.js';
import { LOCK_FILE, type LockDeps, type LockHolder, acquireLocks, describeHolder } from './lock.js';
import { adoptedChanges, gatherRepoFacts, preconditionProblems } from './preconditions.js';
import { restoreBaselineCheckout } from './baselineCheckout.js';
import { ProcessRegistry, RUNTIME_DIR, bootId, endLeftovers, readProcStat } from './processes.js';
import { repoPaths } from '../git/repoPaths.js';
import { SAFETY_MESSAGES } from './messages.js';
import { stateDirOwnPaths } from './stateDir.js';
import { checkStateDirOwner } from './stateDirOwner.js';

export interface SessionRequest {
  /** For the lock's holder line: `run`, `plan`, `cleanup`. */
  command: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  stateDir: string;
  now: () => Date;
  sleep: (ms: number) => Promise<void>;
  /** Check the repository's preconditions (the commands that run agents). */
  checkRepository: boolean;
  /** Whose words its problems use (default: the CLI's). */
  terms?: Terms;
}

export interface Session {
  registry: ProcessRegistry;
  /** What happened on the way in, for the log: a stale lock taken over, leftover processes ended. */
  notes: string[];
  release(): void;
}

export type SessionResult = { ok: true; session: Session } | { ok: false; problems: string[] };

/** Whether `pid` is a live process here (a zombie is not). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
  }
  const state = readProcStat(pid)?.state;
  return state !== 'Z' && state !== 'X';
}

/** How a lock's holder on this host is judged (src/safety/lock.ts deadHolder): /proc's word on its pid and this boot. */
export function localLockDeps(): LockDeps {
  return { isAlive, startOf: (pid) => readProcStat(pid)?.startTime, ...definedOnly({ bootId: bootId() }) };
}

/**
 * The session of a command that runs agents (`run`, `plan`), from its I/O: the lock, leftover
 * processes ended, the repository's preconditions checked.
 */
export function openAgentSession(
  command: 'run' | 'plan',
  io: {
    cwd: string;
    env: NodeJS.ProcessEnv;
    stateDir: string;
    clock: Pick<Clock, 'now' | 'sleep'>;
    terms?: Terms;
  },
): Promise<SessionResult> {
  return openSession({
    command,
    ...(io.terms ? { terms: io.terms } : {}),
    cwd: io.cwd,
    env: io.env,
    stateDir: io.stateDir,
    now: () => io.clock.now(),
    sleep: (ms) => io.clock.sleep(ms),
    checkRepository: true,
  });
}

export async function openSession(req: SessionRequest): Promise<SessionResult> {
  const me: LockHolder = {
    pid: process.pid,
    host: os.hostname(),
    startedAt: req.now().toISOString(),
    command: `agent-loop ${req.command}`,
    cwd: req.cwd,
    ...definedOnly({ procStart: readProcStat(process.pid)?.startTime, bootId: bootId() }),
  };
  const commonDir = (await repoPaths(req.cwd, req.env))?.commonDir;
  // A job of `run --parallel` (src/app/parallelJob.ts) works its own worktree and state directory:
  // its coordinator, its parent process, holds the repository's lock for it.
  const jobOfParent = isWaveJob(req.env);
  const files = [
    path.join(req.stateDir, RUNTIME_DIR, LOCK_FILE),
    ...(commonDir && !jobOfParent ? [path.join(commonDir, 'agent-loop.lock')] : []),
  ];
  const locked = await acquireLocks(files, me, localLockDeps());
  if (!locked.ok) {
    return {
      ok: false,
      problems: [
        SAFETY_MESSAGES.locked(locked.file, describeHolder(locked.holder), surface(req.terms).act('seeProgress')),
      ],
    };
  }
  const onExit = () => locked.release();
  process.once('exit', onExit);
  const release = () => {
    process.removeListener('exit', onExit);
    locked.release();
  };
  const notes = locked.tookOver.map(
    ({ file, holder, why }) => `Took over the lock ${file} from ${describeHolder(holder)}: ${why}.`,
  );

  const registry = new ProcessRegistry(req.stateDir, req.now);
  try {
    for (const ended of await endLeftovers(registry, { sleep: req.sleep })) {
      notes.push(SAFETY_MESSAGES.endedLeftover(ended.role, ended.pid, ended.members.length, ended.startedAt));
    }
    if (req.checkRepository) {
      // A state directory is one repository's (issue 43): another's checkpoints are never resumed here.
      const foreign = await checkStateDirOwner(req.stateDir, req.cwd, req.env, surface(req.terms).option('stateDir'));
      if (foreign) {
        release();
        return { ok: false, problems: [foreign] };
      }
      // A run killed during a baseline on the base tip: its branch checked out again first.
      const putBack = await restoreBaselineCheckout(req.stateDir, req.cwd, req.env);
      if (putBack) notes.push(putBack);
      const facts = await gatherRepoFacts(req.cwd, req.env, {
        paths: stateDirOwnPaths(req.stateDir),
        isOwnFile: (name) => tempFileOwner(name) !== undefined,
        now: req.now,
      });
      const problems = preconditionProblems(facts);
      if (problems.length > 0) {
        release();
        return { ok: false, problems };
      }
      const adopted = adoptedChanges(facts);
      if (adopted) notes.push(adopted);
    }
  } catch (error) {
    release();
    throw error;
  }
  return { ok: true, session: { registry, notes, release } };
}

/**
 * This process is a job of `run --parallel` started by its parent, the coordinator (which sets
 * AGENT_LOOP_WAVE_JOB to its own pid): the coordinator holds the repository's lock and posts to
 * Discord for it.
 */
export function isWaveJob(env: NodeJS.ProcessEnv): boolean {
  return env.AGENT_LOOP_WAVE_JOB !== undefined && env.AGENT_LOOP_WAVE_JOB === String(process.ppid);
}

/** The fields whose value is defined (an optional field is absent, never undefined). */
function definedOnly<T extends Record<string, string | undefined>>(fields: T): { [K in keyof T]?: string } {
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined && v !== '')) as {
    [K in keyof T]?: string;
  };
}
