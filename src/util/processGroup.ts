/**
 * The end of a process group: SIGTERM, then SIGKILL after a grace period, and waited for (issue 42,
 * for the agents; issue 43, for agent-loop's own git network calls that ran over their timeout).
 */
import { existsSync } from 'node:fs';
import { liveGroupMembers } from './procStat.js';

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
