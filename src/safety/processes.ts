/**
 * The process groups a run starts (the agent's, the test command's) are recorded in the state
 * directory while they run, so that after a SIGKILL of the engine the next run ends a group the
 * dead run left behind before it starts anything. A record carries the time its group was started:
 * a process of that group older than that (the pid given to another group since, across a reboot)
 * is never signalled, and a record older than the system's boot is dropped (nothing it names can
 * still run). The start is the wall clock at the spawn, turned into /proc's clock ticks when the
 * next run reads the record: nothing is read from /proc while an agent starts.
 */
import { mkdirSync, promises as fs, readFileSync, readdirSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Agent } from '../agents/types.js';

export interface ProcessRecord {
  pid: number;
  /** Field 22 of /proc/<pid>/stat (clock ticks since boot), as earlier versions recorded it. */
  startTime?: string;
  role: 'agent' | 'tests';
  startedAt: string;
}

/** The directory of the records, inside the state directory (never published with it). */
export const RUNTIME_DIR = 'run';

interface ProcStat {
  state: string;
  pgrp: number;
  startTime: string;
}

/** /proc/<pid>/stat's state, process group and start time; undefined when there is no such process. */
export function readProcStat(pid: number, procRoot = '/proc'): ProcStat | undefined {
  let text: string;
  try {
    text = readFileSync(path.join(procRoot, String(pid), 'stat'), 'utf8');
  } catch {
    return undefined;
  }
  // "pid (comm) state ppid pgrp …": comm may hold spaces and parentheses, so split after the last ')'.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return { state: fields[0] ?? '?', pgrp: Number(fields[2]), startTime: fields[19] ?? '' };
}

/** /proc's clock ticks per second (USER_HZ: 100 on every architecture Linux runs agents on). */
const TICKS_PER_SECOND = 100;

/**
 * The earliest start (clock ticks since boot, as in /proc/<pid>/stat) a member of a group started
 * at `startedAt` can have: "" when the boot time cannot be read (no /proc: nothing is filtered),
 * undefined when `startedAt` is before the boot (the group died with the system). /proc/stat's
 * btime is in whole seconds and the record is written just after the fork: a second and a half of
 * slack. Pure but for the read of `<procRoot>/stat`.
 */
export function earliestStart(startedAt: string, procRoot = '/proc'): string | undefined {
  const at = Date.parse(startedAt);
  let bootMs: number;
  try {
    const btime = /^btime (\d+)$/m.exec(readFileSync(path.join(procRoot, 'stat'), 'utf8'))?.[1];
    if (btime === undefined || !Number.isFinite(at)) return '';
    bootMs = Number(btime) * 1000;
  } catch {
    return '';
  }
  if (at < bootMs) return undefined;
  return String(Math.max(0, Math.floor(((at - bootMs) / 1000 - 1.5) * TICKS_PER_SECOND)));
}

/** Live (not zombie) members of process group `pgid` started no earlier than `since` (clock ticks). */
export function liveGroupMembers(pgid: number, since: string, procRoot = '/proc'): number[] {
  let names: string[];
  try {
    names = readdirSync(procRoot);
  } catch {
    return [];
  }
  const members: number[] = [];
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    const stat = readProcStat(Number(name), procRoot);
    if (!stat || stat.pgrp !== pgid || stat.state === 'Z' || stat.state === 'X') continue;
    if (since !== '' && stat.startTime !== '' && BigInt(stat.startTime) < BigInt(since)) continue;
    members.push(Number(name));
  }
  return members;
}

export class ProcessRegistry {
  readonly dir: string;
  constructor(
    stateDir: string,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.dir = path.join(stateDir, RUNTIME_DIR, 'processes');
  }

  /** Records a group leader as it is spawned (synchronous: the engine may be killed right after). */
  spawned(pid: number, role: ProcessRecord['role']): void {
    const record: ProcessRecord = { pid, role, startedAt: this.now().toISOString() };
    const file = path.join(this.dir, `${pid}.json`);
    const text = `${JSON.stringify(record)}\n`;
    try {
      try {
        writeFileSync(file, text);
      } catch (error) {
        // The directory is made once, when it is missing (not a mkdir per agent run).
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        mkdirSync(this.dir, { recursive: true });
        writeFileSync(file, text);
      }
    } catch {
      // A record we cannot write must never stop the agent.
    }
  }

  exited(pid: number): void {
    try {
      unlinkSync(path.join(this.dir, `${pid}.json`));
    } catch {
      // Already gone (or never written): nothing to do.
    }
  }

  async records(): Promise<ProcessRecord[]> {
    const names = await fs.readdir(this.dir).catch(() => [] as string[]);
    const out: ProcessRecord[] = [];
    for (const name of names) {
      try {
        const r = JSON.parse(await fs.readFile(path.join(this.dir, name), 'utf8')) as ProcessRecord;
        if (Number.isInteger(r.pid) && r.pid > 1) out.push(r);
      } catch {
        // unreadable: dropped below
      }
      await fs.rm(path.join(this.dir, name), { force: true });
    }
    return out;
  }
}

export interface EndLeftoversDeps {
  sleep: (ms: number) => Promise<void>;
  kill?: (pid: number, signal: NodeJS.Signals) => void;
  graceMs?: number;
  procRoot?: string;
}

/**
 * Ends the process groups an earlier run recorded and did not see end (it was killed): SIGTERM,
 * then SIGKILL after the grace period. Returns what was still running.
 */
export async function endLeftovers(
  registry: ProcessRegistry,
  deps: EndLeftoversDeps,
): Promise<Array<ProcessRecord & { members: number[] }>> {
  const kill = deps.kill ?? ((pid, signal) => process.kill(pid, signal));
  const ended: Array<ProcessRecord & { members: number[] }> = [];
  for (const record of await registry.records()) {
    if (record.pid === process.pid) continue;
    const since = record.startTime ?? earliestStart(record.startedAt, deps.procRoot);
    if (since === undefined) continue;
    const members = liveGroupMembers(record.pid, since, deps.procRoot);
    if (members.length === 0) continue;
    const signal = (sig: NodeJS.Signals) => {
      try {
        kill(-record.pid, sig);
      } catch {
        for (const m of members) {
          try {
            kill(m, sig);
          } catch {
            // already gone
          }
        }
      }
    };
    signal('SIGTERM');
    const grace = deps.graceMs ?? 5000;
    for (let waited = 0; waited < grace && liveGroupMembers(record.pid, since, deps.procRoot).length > 0; waited += 100)
      await deps.sleep(100);
    if (liveGroupMembers(record.pid, since, deps.procRoot).length > 0) signal('SIGKILL');
    ended.push({ ...record, members });
  }
  return ended;
}

/** The agent, with every process group it spawns recorded while it runs. */
export function trackAgent(agent: Agent, registry: ProcessRegistry): Agent {
  return {
    displayName: agent.displayName,
    async run(request) {
      const pids: number[] = [];
      try {
        return await agent.run({
          ...request,
          onSpawn: (pid) => {
            pids.push(pid);
            registry.spawned(pid, 'agent');
            request.onSpawn?.(pid);
          },
        });
      } finally {
        for (const pid of pids) registry.exited(pid);
      }
    },
  };
}
