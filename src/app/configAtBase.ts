/**
 * Issue 42: the configuration comes from the maintainer only — the flags, the environment, and the
 * configuration file as it is on the base branch. A run started on a cycle branch (the checkout a
 * halted cycle left: `agent-loop/<id>`, its wip commit holding whatever the agent wrote) would read
 * the agent's `.agent-loop.yml`; this finds the base branch's version instead, so that the caller
 * parses that. On the base branch itself the working tree's file is the maintainer's (their own
 * uncommitted edit included): it is read as it is.
 */
import { promises as fs, realpathSync } from 'node:fs';
import path from 'node:path';
import { FileCheckpointStore } from '../checkpoint/fileStore.js';
import { isHaltedCheckpoint } from '../checkpoint/phase.js';
import { isResumable, newestFirst } from '../checkpoint/resume.js';
import { parseLoopState } from '../core/state.js';
import { type Git, openGit, gitRunner } from '../git/git.js';
import type { Clock } from '../util/clock.js';

/** The base branch's configuration file, where the checkout's differs from it. */
export interface ConfigAtBase {
  /** The configuration file, absolute (as the run names it). */
  file: string;
  /** The file relative to the repository's top level. */
  relative: string;
  /** The branch checked out, and the base branch the run continues. */
  head: string;
  base: string;
  /** The file's text on the base branch; undefined: the base has no such file. */
  text: string | undefined;
}

/**
 * The base branch's configuration file when the run starts on another branch than the base of the
 * checkpoint it continues and the file differs there; undefined when the checkout's file is the one
 * to read (no checkpoint, on the base branch, outside the repository, the same text).
 */
export async function configAtBase(input: {
  cwd: string;
  env: NodeJS.ProcessEnv;
  stateDir: string;
  clock: Clock;
  /** The configuration file as the command line names it, absolute. */
  file: string;
}): Promise<ConfigAtBase | undefined> {
  const git = await openGit(input.cwd, input.env);
  if (!git) return undefined;
  const relative = insideRepository(git, input.file);
  if (relative === undefined) return undefined;
  const base = await checkpointBase(input);
  const head = await git.currentRef().catch(() => undefined);
  if (!base || !head || head === base) return undefined;
  const runner = gitRunner(git.topLevel, input.env);
  if ((await runner.run(['rev-parse', '--verify', '--quiet', `refs/heads/${base}`])).code !== 0) return undefined;
  const blob = await runner.run(['cat-file', 'blob', `refs/heads/${base}:${relative}`]);
  const text = blob.code === 0 ? blob.stdout : undefined;
  const here = await fs.readFile(input.file, 'utf8').catch(() => undefined);
  if (here === text) return undefined;
  return { file: input.file, relative, head, base, text };
}

/** What the run says when it reads the base's file. */
export function configAtBaseNote(found: ConfigAtBase): string {
  const at = `${found.relative} on the checked-out branch ${found.head}`;
  return found.text === undefined
    ? `${at} is not the maintainer's: the base branch ${found.base} has no such file, so the run reads none ` +
        '(the configuration comes from the flags, the environment and the base branch only; a change the agent made to it is never obeyed).'
    : `${at} differs from the base branch ${found.base}'s: the run reads ${found.base}'s ` +
        '(the configuration comes from the flags, the environment and the base branch only; a change the agent made to it is never obeyed).';
}

/** `file` relative to the repository's top level with `/`, or undefined when it is outside the repository. */
function insideRepository(git: Git, file: string): string | undefined {
  const real = (p: string) => {
    try {
      return realpathSync(p);
    } catch {
      return path.join(realpathSync(path.dirname(p)), path.basename(p));
    }
  };
  let rel: string;
  try {
    rel = path.relative(real(git.topLevel), real(file));
  } catch {
    return undefined;
  }
  if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) return undefined;
  return rel.split(path.sep).join('/');
}

/**
 * The base branch of the newest checkpoint a run continues (resumable, or halted: --resume-halted
 * continues it); undefined when there is none (a finished loop's next run starts on the branch
 * checked out), or none can be read.
 */
async function checkpointBase(input: { stateDir: string; clock: Clock }): Promise<string | undefined> {
  try {
    const store = new FileCheckpointStore(input.stateDir, { clock: input.clock });
    for (const checkpoint of newestFirst((await store.list()).checkpoints)) {
      if (!isResumable(checkpoint) && !isHaltedCheckpoint(checkpoint)) continue;
      const loop = parseLoopState(checkpoint.state);
      if (typeof loop === 'object' && loop.baseBranch) return loop.baseBranch;
    }
  } catch {
    // The run reads the checkpoints again and says what is wrong with them.
  }
  return undefined;
}
