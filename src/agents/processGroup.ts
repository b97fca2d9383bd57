/**
 * The end of a run's processes (issue 42): nothing a run started outlives it. Its process group is
 * sent SIGTERM, then SIGKILL after the grace period, and waited for; with a mark, the processes that
 * left the group (setsid) but carry the mark in their environment are ended too.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { PIPE_DRAIN_MS } from '../util/processGroup.js';

export { PIPE_DRAIN_MS, endGroup, killGroup } from '../util/processGroup.js';

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const GROUP_POLL_MS = 20;

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
