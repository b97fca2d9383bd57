/** What /proc says of a process and of a process group (Linux; nothing where there is no /proc). */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';

export interface ProcStat {
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
