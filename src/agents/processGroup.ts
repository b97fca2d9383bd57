/**
 * The end of a run's processes (issue 42): nothing a run started outlives it. Its process group is
 * sent SIGTERM, then SIGKILL after the grace period, and waited for; with a mark, the processes that
 * left the group (setsid) but carry the mark in their environment are ended too.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { liveGroupMembers } from '../util/procStat.js';

/** After SIGKILL, how long to wait for the processes to be gone (and the pipes to close). */
export const PIPE_DRAIN_MS = 1000;

/** Send `sig` to the process group led by `pid`; false when the group is gone. */
export function killGroup(pid: number, sig: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pid, sig);
    return true;
  } catch {
    // ESRCH: nothing left in the group. EPERM cannot happen for our own children.
    return false;
  }
}

/** How often a group that outlives its leader is looked at, until it is gone. */
const GROUP_POLL_MS = 20;

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Whether the group led by `pid` has a member left that is not a zombie (a killed orphan stays one
 * until PID 1 reaps it, and some containers' PID 1 never does). Where there is no /proc, any member.
 */
function groupLives(pid: number): boolean {
  if (!killGroup(pid, 0)) return false;
  return !existsSync('/proc/self/stat') || liveGroupMembers(pid, '').length > 0;
}

/**
 * Issue 42: nothing of the group outlives the run. What the leader left running (`nohup writer &`,
 * a process that ignores SIGTERM, with its output elsewhere so that the pipes closed with the
 * leader's exit) is sent SIGTERM, then SIGKILL after the grace period, and waited for: when the run
 * resolves, no process of the group can still write (in the repository, or in a judge tree made
 * after it). A process that left the group (setsid, setpgid) is not reached here: see endMarked.
 */
export async function endGroup(pid: number, killGraceMs: number): Promise<void> {
  if (!groupLives(pid)) return;
  killGroup(pid, 'SIGTERM');
  for (let waited = 0; waited < killGraceMs && groupLives(pid); waited += GROUP_POLL_MS) await wait(GROUP_POLL_MS);
  if (!groupLives(pid)) return;
  killGroup(pid, 'SIGKILL');
  for (let waited = 0; waited < PIPE_DRAIN_MS && groupLives(pid); waited += GROUP_POLL_MS) await wait(GROUP_POLL_MS);
}

/** The variable that marks the processes of a run with `endEscaped` (a random value per run). */
export const PROCESS_MARK_VARIABLE = 'AGENT_LOOP_PROCESS_MARK';

/** The live processes (this one aside) whose environment holds `VARIABLE=mark`; none where there is no /proc. */
function markedProcesses(mark: string): number[] {
  const entry = Buffer.from(`${PROCESS_MARK_VARIABLE}=${mark}\0`);
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return [];
  }
  const found: number[] = [];
  for (const name of names) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    let environ: Buffer;
    try {
      environ = readFileSync(`/proc/${name}/environ`); // a zombie's is empty
    } catch {
      continue; // gone, or another user's
    }
    const at = environ.indexOf(entry);
    if (at === 0 || (at > 0 && environ[at - 1] === 0)) found.push(Number(name));
  }
  return found;
}

/**
 * Issue 42: the processes of a run that left its group (`setsid`) and kept its mark are SIGKILLed
 * (they were never sent SIGTERM: they are not the group's), and waited for. One started with a
 * clean environment (`env -i setsid …`) is not found: there is no cgroup to hold a run here.
 */
export async function endMarked(mark: string): Promise<void> {
  const left = markedProcesses(mark);
  if (left.length === 0) return;
  for (const pid of left) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone already
    }
  }
  for (let waited = 0; waited < PIPE_DRAIN_MS && markedProcesses(mark).length > 0; waited += GROUP_POLL_MS)
    await wait(GROUP_POLL_MS);
}
