/**
 * `run --parallel`: what a job that halted the run leaves before its worktree goes (the wave's
 * worktrees and state directories are removed at its end). Its uncommitted work is committed as
 * `wip:` on a branch of its own, as an escalated cycle's is in the serial loop, but never a change
 * that holds a secret (discarded with the worktree); its halt.md is kept in the run's state
 * directory, and is the run's own diagnostic when its halt is the run's.
 */
import { existsSync, promises as fs } from 'node:fs';
import path from 'node:path';
import type { HaltReason } from '../core/state.js';
import type { GitRunner } from '../git/git.js';
import { stateFiles } from '../persist/stateFiles.js';

/** The branch that keeps a halted job's work. Pure. */
export const haltedBranch = (issueId: string, waveId: string) => `agent-loop-halted/${issueId}-${waveId}`;

/** Where a halted job's diagnostic is kept, in the run's state directory. Pure. */
export function haltedDiagnosticFile(stateDir: string, waveId: string, issueId: string): string {
  return path.join(stateDir, 'parallel', 'halts', `${waveId}-${issueId.replace(/[^A-Za-z0-9._-]/g, '_')}.md`);
}

export interface KeptHalt {
  /** The job's halt.md, when it wrote one. */
  diagnostic?: string;
  /** Where it was kept. */
  diagnosticFile?: string;
  /** The branch that holds its work, when it left any. */
  branch?: string;
  /** What was kept, in a sentence. */
  note: string;
}

export async function keepHaltedJob(input: {
  /** git in the job's worktree. */
  runner: GitRunner;
  issueId: string;
  waveId: string;
  reason: HaltReason;
  /** The job's own state directory (its halt.md) and the run's. */
  jobStateDir: string;
  stateDir: string;
  /** Masks what is kept (the state directory's writer masks everything it writes). */
  mask?: (text: string) => string;
  /** The base branch's commit the job's branch was cut from. */
  baseTip: string | undefined;
}): Promise<KeptHalt> {
  const { runner, issueId, waveId, reason } = input;
  const out: Omit<KeptHalt, 'note'> = {};
  const own = path.join(input.jobStateDir, 'halt.md');
  if (existsSync(own)) {
    out.diagnostic = await fs.readFile(own, 'utf8');
    out.diagnosticFile = haltedDiagnosticFile(input.stateDir, waveId, issueId);
    // Kept through the state directory's one writer: masked, replaced atomically, never outside it.
    await stateFiles(input.stateDir, input.mask).write(out.diagnosticFile, out.diagnostic);
  }
  const where = out.diagnosticFile ? `; its diagnostic is kept in ${out.diagnosticFile}` : '';
  if (reason === 'secret_in_change')
    return {
      ...out,
      note: `${issueId}'s change held what looks like a secret: it was not committed and was discarded with the job's worktree (nothing of it is kept)${where}`,
    };
  let committed = false;
  if ((await runner.run(['add', '-A'])).code === 0 && (await runner.run(['diff', '--cached', '--quiet'])).code === 1)
    committed =
      (
        await runner.run([
          'commit',
          '--quiet',
          '--no-verify',
          '-m',
          `wip: ${issueId} halted (${reason}), kept by run --parallel`,
        ])
      ).code === 0;
  const head = (await runner.run(['rev-parse', '--verify', '--quiet', 'HEAD'])).stdout.trim();
  if (!head || (!committed && head === input.baseTip))
    return { ...out, note: `${issueId}'s job left no change to keep${where}` };
  const branch = haltedBranch(issueId, waveId);
  if ((await runner.run(['branch', '--force', branch, head])).code !== 0)
    return { ...out, note: `${issueId}'s work could not be kept on ${branch}${where}` };
  return {
    ...out,
    branch,
    note: `${issueId}'s work is kept on ${branch}${committed ? ' (its uncommitted changes as a wip: commit)' : ''}${where}`,
  };
}
