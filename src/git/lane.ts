/**
 * The agent stays in its lane: the engine knows where it left the repository (HEAD on the branch
 * it checked out, the base branch at the commit it last saw or made), and before it commits,
 * merges or resets anything it checks that nothing else moved them. An agent that reset main,
 * switched branches or committed on the base branch makes the run halt (repository_moved) with
 * what moved, instead of merging its work somewhere nobody expects.
 */
import type { Git } from './git.js';
import { laneRewound } from './messages.js';

/** Where the engine left the repository. */
export interface Lane {
  /** The branch (or commit) the engine last checked out. */
  head: string;
  baseBranch: string;
  /** The base branch's commit when the engine last saw or moved it. */
  baseTip: string;
  /**
   * The commit HEAD's branch was at when the engine last moved it (checked out, committed, merged):
   * the agent may add commits on top, never take the branch below it. Unknown: not checked.
   */
  headTip?: string;
}

/** What was found before a commit, merge or reset. */
export interface Found {
  head: string;
  /** undefined when the base branch no longer exists. */
  baseTip: string | undefined;
  /** HEAD's branch is the lane's and no longer holds `Lane.headTip` (the agent reset it below it). */
  rewoundTo?: string;
}

export class RepositoryMovedError extends Error {
  constructor(readonly what: string) {
    super(what);
    this.name = 'RepositoryMovedError';
  }
}

const short = (sha: string | undefined) => (sha === undefined ? 'nothing (the branch is gone)' : sha.slice(0, 12));

/** Pure: what moved, in a sentence, or undefined when the repository is where the engine left it. */
export function laneProblem(lane: Lane, found: Found): string | undefined {
  const moved: string[] = [];
  if (found.head !== lane.head) {
    moved.push(
      `HEAD was on ${lane.head} and is now ${/^[0-9a-f]{40}$/.test(found.head) ? `detached at ${short(found.head)}` : `on ${found.head}`}`,
    );
  }
  if (found.baseTip !== lane.baseTip) {
    moved.push(
      `the base branch ${lane.baseBranch} was at ${short(lane.baseTip)} and is now at ${short(found.baseTip)}`,
    );
  }
  if (found.rewoundTo !== undefined && found.head === lane.head) {
    moved.push(laneRewound(lane.head, short(lane.headTip), short(found.rewoundTo)));
  }
  return moved.length ? moved.join('; ') : undefined;
}

export interface LaneGuard {
  /** The guarded Git: commitAll, merge and resetHard check the lane first; checkouts move it. */
  git: Git;
  /** Takes the repository as it is now as the lane (at the start of a slice, once the base is known). */
  anchor(baseBranch: string): Promise<Lane>;
  current(): Lane | undefined;
  /** Throws RepositoryMovedError when something moved the repository since the engine last did (after each iteration). */
  verify(before: string): Promise<void>;
  /** What moved since the engine last moved the repository, if anything (right after each agent run, before its work is judged). */
  moved(before: string): Promise<string | undefined>;
}

/** Wraps `git` so that every commit, merge and reset first checks that nothing moved behind the engine's back. */
export function guardLane(git: Git): LaneGuard {
  let lane: Lane | undefined;
  /** HEAD's branch's commit, when it can be read without a process (quickTipOf). */
  const tipOfHead = async (head: string) =>
    git.quickTipOf && !/^[0-9a-f]{40,64}$/.test(head) ? git.quickTipOf(head) : undefined;
  /** Where HEAD's branch is now, when it moved to a commit that does not hold the lane's (one git process, only then). */
  const rewound = async (l: Lane, head: string): Promise<string | undefined> => {
    if (l.headTip === undefined || head !== l.head) return undefined;
    const now = await tipOfHead(head);
    if (now === undefined || now === l.headTip) return undefined;
    return (await git.holds(head, l.headTip)) ? undefined : now;
  };
  /** The lane where `found` says HEAD is, with HEAD's branch's commit when it can be read. */
  const laneAt = async (found: { head: string }, baseBranch: string, baseTip: string): Promise<Lane> => {
    const headTip = await tipOfHead(found.head);
    return { head: found.head, baseBranch, baseTip, ...(headTip !== undefined ? { headTip } : {}) };
  };
  const moved = async (what: string) => {
    if (!lane) return undefined;
    const state = await git.laneState(lane.baseBranch);
    const rewoundTo = await rewound(lane, state.head);
    const found: Found = rewoundTo === undefined ? state : { ...state, rewoundTo };
    const problem = laneProblem(lane, found);
    return problem
      ? `something other than agent-loop moved the repository before it would ${what}: ${problem}`
      : undefined;
  };
  const check = async (what: string) => {
    const problem = await moved(what);
    if (problem) throw new RepositoryMovedError(problem);
  };
  /** After the engine's own move: the lane follows it. */
  const follow = async () => {
    if (!lane) return;
    const found = await git.laneState(lane.baseBranch);
    lane = await laneAt(found, lane.baseBranch, found.baseTip ?? lane.baseTip);
  };
  const guarded: Git = {
    ...git,
    async switchToBranch(branch, from) {
      await git.switchToBranch(branch, from);
      await follow();
    },
    async checkout(ref, options) {
      await git.checkout(ref, options);
      await follow();
    },
    async commitAll(message, options) {
      await check('commit');
      const committed = await git.commitAll(message, options);
      await follow();
      return committed;
    },
    async merge(branch, message, options) {
      await check(`merge ${branch}`);
      await git.merge(branch, message, options);
      await follow();
    },
    async resetHard(ref) {
      await check(`reset to ${ref.slice(0, 12)}`);
      await git.resetHard(ref);
      await follow();
    },
  };
  return {
    git: guarded,
    async anchor(baseBranch) {
      const found = await git.laneState(baseBranch);
      lane = await laneAt(found, baseBranch, found.baseTip ?? '');
      return lane;
    },
    current: () => lane,
    verify: (before) => check(before),
    moved,
  };
}
