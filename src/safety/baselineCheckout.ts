/**
 * A cycle that continues an earlier cycle's branch runs its baseline on the base tip, checked out
 * detached for the suite's run, then checks its branch out again (src/loop/baseline.ts). A run
 * killed in between (SIGKILL, a power cut) leaves the checkout detached there: the marker written
 * before the checkout says where it was, and the next run puts it back before anything else, when
 * nothing moved since (HEAD still at that commit, no changes): else the preconditions say what is
 * wrong, as for any detached checkout.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { gitRunner } from '../git/git.js';
import { RUNTIME_DIR } from './processes.js';

/** Under the state directory's runtime files: this machine's, never published. */
export const baselineCheckoutFile = (stateDir: string) => path.join(stateDir, RUNTIME_DIR, 'baseline-checkout.json');

export interface BaselineCheckout {
  /** The branch (or commit) checked out before. */
  back: string;
  /** The commit checked out, detached, for the baseline. */
  commit: string;
}

/** What the marker held, when it described the checkout as the killed run left it and it was put back. */
export async function restoreBaselineCheckout(
  stateDir: string,
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<string | undefined> {
  const file = baselineCheckoutFile(stateDir);
  let marker: BaselineCheckout;
  try {
    marker = JSON.parse(await fs.readFile(file, 'utf8')) as BaselineCheckout;
  } catch {
    return undefined;
  }
  const git = gitRunner(cwd, { ...env, GIT_TERMINAL_PROMPT: '0' });
  const attached = (await git.run(['symbolic-ref', '--quiet', 'HEAD'])).code === 0;
  const head = (await git.run(['rev-parse', '--verify', '--quiet', 'HEAD'])).stdout.trim();
  const clean = (await git.run(['status', '--porcelain', '--untracked-files=no'])).stdout.trim() === '';
  const restorable = typeof marker.back === 'string' && typeof marker.commit === 'string';
  if (
    restorable &&
    !attached &&
    head === marker.commit &&
    clean &&
    (await git.run(['checkout', '-q', marker.back])).code === 0
  ) {
    await fs.rm(file, { force: true });
    return `A run killed while it ran the baseline on ${marker.commit.slice(0, 12)} left the checkout detached there: ${marker.back} is checked out again.`;
  }
  // Anything else: the checkout moved on since (by a person, or the run got back): the marker says nothing now.
  await fs.rm(file, { force: true });
  return undefined;
}
