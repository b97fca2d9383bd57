/**
 * The process groups a run starts (the agent's, the test command's) are recorded in the state
 * directory while they run, so that after a SIGKILL of the engine the next run ends a group the
 * dead run left behind before it starts anything. A record carries the earliest time its group can
 * have started, in /proc's clock ticks since boot, and the boot's id: a process of that group older
 * than that (the pid given to another group since) is never signalled, and a record of another boot
 * is dropped (nothing it names can still run). The ticks come from this process's own start (read
 * from /proc once) and the monotonic clock: nothing is read from /proc while an agent starts, and a
 * step of the wall clock changes nothing.
 */
import { promises as fs, lstatSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Agent } from '../agents/types.js';
import { rewriteInPlaceSync } from '../util/atomicWrite.js';
import { liveGroupMembers, readProcStat } from '../util/procStat.js';
import { readInput } from '../util/readInput.js';

export { liveGroupMembers, readProcStat };

export interface ProcessRecord {
  pid: number;
  /**
   * No group member started before this (clock ticks since boot, as field 22 of /proc/<pid>/stat),
   * or "" where /proc is not there. Earlier versions wrote the leader's own start here.
   */
  startTime: string;
  /** /proc/sys/kernel/random/boot_id when the record was written (absent in earlier versions). */
  bootId?: string;
  role: 'agent' | 'tests';
  startedAt: string;
}

/** The directory of the records, inside the state directory (never published with it). */
export const RUNTIME_DIR = 'run';

/** A record slot's length: every record fits, padded with spaces (JSON allows them) to this. */
const SLOT_BYTES = 512;
/** A slot whose group has ended. */
const ENDED = '{"pid":0}';

/** Writes `json` into a record slot, padded to SLOT_BYTES, in place; false when it could not be written. */
function writeSlot(file: string, json: string): boolean {
  try {
    rewriteInPlaceSync(file, `${json.padEnd(SLOT_BYTES - 1)}\n`);
    return true;
  } catch {
    return false;
  }
}

/** Whether a directory holds `file`'s name (never throws). */
function heldByDirectory(file: string): boolean {
  try {
    return lstatSync(file, { throwIfNoEntry: false })?.isDirectory() ?? false;
  } catch {
    return false;
  }
}

/** How many slot names a record is tried at before the agent runs without one (a name a directory holds not counted). */
const SLOT_ATTEMPTS = 3;

/**
 * A record file's text: never through a symlink (a record is our own file), then read as any input
 * is (src/util/readInput.ts: a regular file only, never a FIFO or a device, within a record's size).
 */
function readRecordFile(file: string): string {
  if (lstatSync(file).isSymbolicLink()) throw new Error('not a record file');
  return readInput(file, 4 * SLOT_BYTES);
}

/** /proc's clock ticks per second (USER_HZ: 100 on every architecture Linux runs agents on). */
const TICKS_PER_SECOND = 100;
/** How much earlier than the record a member may have started: the fork comes just before it, and node's clock origin a little after this process's start. */
const SLACK_TICKS = TICKS_PER_SECOND;

/** This boot's id, or undefined where /proc does not say it. */
export function bootId(procRoot = '/proc'): string | undefined {
  try {
    return readFileSync(path.join(procRoot, 'sys', 'kernel', 'random', 'boot_id'), 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}

/**
 * A clock of /proc ticks since boot: this process's start (its own /proc stat, read once) plus the
 * monotonic time since; undefined where /proc is not there.
 */
export function bootTicks(
  procRoot = '/proc',
  sinceStartMs: () => number = () => performance.now(),
): (() => bigint) | undefined {
  const start = readProcStat(process.pid, procRoot)?.startTime;
  if (start === undefined || !/^\d+$/.test(start)) return undefined;
  const origin = BigInt(start);
  return () => origin + BigInt(Math.floor((sinceStartMs() * TICKS_PER_SECOND) / 1000));
}

export class ProcessRegistry {
  readonly dir: string;
  private readonly ticks: (() => bigint) | undefined;
  private readonly boot: string | undefined;
  /** `now` only dates the record for a person (startedAt); the ticks are the kernel's. */
  constructor(
    stateDir: string,
    private readonly now: () => Date = () => new Date(),
    procRoot = '/proc',
    sinceStartMs?: () => number,
  ) {
    this.dir = path.join(stateDir, RUNTIME_DIR, 'processes');
    this.ticks = bootTicks(procRoot, sinceStartMs);
    this.boot = bootId(procRoot);
  }

  /** The record file of each group running now, by its leader's pid. */
  private readonly slots = new Map<number, string>();
  /** Record files of groups that have ended, to be rewritten for the next one. */
  private readonly free: string[] = [];
  private made = 0;

  /**
   * Records a group leader as it is spawned (synchronous: the engine may be killed right after).
   * The record files are slots (`<engine pid>-<k>.json`, one per group running at once) made at the
   * first spawn and rewritten in place after that, always at the same length: no file is made or
   * removed per agent run (on ext4 that costs about as much as the checkpoint's own write), and a
   * kill in the middle of a rewrite never leaves a longer record's tail behind.
   */
  spawned(pid: number, role: ProcessRecord['role']): void {
    const ticks = this.ticks?.();
    const record: ProcessRecord = {
      pid,
      startTime: ticks === undefined ? '' : String(ticks > BigInt(SLACK_TICKS) ? ticks - BigInt(SLACK_TICKS) : 0n),
      ...(this.boot ? { bootId: this.boot } : {}),
      role,
      startedAt: this.now().toISOString(),
    };
    const json = JSON.stringify(record);
    // A slot that cannot be written (something else was put at its name: a directory, say) is left
    // for good, and the record goes to a new one. A name a directory holds is not counted as a failed
    // attempt: an agent can make any number of them at the names it can guess, and each is passed
    // once. Never fatal: the agent runs without a record after SLOT_ATTEMPTS other failures.
    for (let failures = 0; failures < SLOT_ATTEMPTS;) {
      const file = this.free.pop() ?? path.join(this.dir, `${process.pid}-${this.made++}.json`);
      if (writeSlot(file, json)) {
        this.slots.set(pid, file);
        return;
      }
      if (!heldByDirectory(file)) failures++;
    }
  }

  /** The group has ended: its slot says so (pid 0, never read as a record) and is free for the next. */
  exited(pid: number): void {
    const file = this.slots.get(pid);
    if (file === undefined) return;
    this.slots.delete(pid);
    if (writeSlot(file, ENDED)) this.free.push(file);
  }

  /**
   * The records left in the directory, which is emptied. Only a regular file of a record's size is
   * read (never through a symlink, never a FIFO, which would wait for a writer, nor /dev/zero, which
   * never ends); anything else there is removed like a record, except a directory (an agent made it:
   * what is in it is not ours to remove). A directory that is a symlink is not ours either: nothing
   * in it is read or removed.
   */
  async records(): Promise<ProcessRecord[]> {
    if (!(await fs.lstat(this.dir).catch(() => undefined))?.isDirectory()) return [];
    const names = await fs.readdir(this.dir).catch(() => [] as string[]);
    const out: ProcessRecord[] = [];
    for (const name of names) {
      const file = path.join(this.dir, name);
      try {
        const r = JSON.parse(readRecordFile(file)) as ProcessRecord;
        if (Number.isInteger(r.pid) && r.pid > 1) out.push(r);
      } catch {
        // unreadable: dropped below
      }
      await fs.rm(file, { force: true }).catch(() => fs.rmdir(file).catch(() => undefined));
    }
    return out;
  }
}

/**
 * The recorded group's number leads another group now: its leader started more than the slack after
 * the record. Linux gives a pid again only once no process group uses it, so the recorded group had
 * ended before this one took the number; nothing in it is ours.
 */
function anotherGroupNow(pid: number, since: string, procRoot?: string): boolean {
  if (since === '') return false;
  const leader = readProcStat(pid, procRoot);
  return (
    leader !== undefined &&
    leader.pgrp === pid &&
    /^\d+$/.test(leader.startTime) &&
    BigInt(leader.startTime) > BigInt(since) + BigInt(2 * SLACK_TICKS)
  );
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
    // A record of another boot: its processes ended with that boot.
    if (record.bootId !== undefined && record.bootId !== bootId(deps.procRoot)) continue;
    const since = typeof record.startTime === 'string' && /^\d*$/.test(record.startTime) ? record.startTime : '';
    if (anotherGroupNow(record.pid, since, deps.procRoot)) continue;
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
