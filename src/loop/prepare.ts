/**
 * The repository made ready for a slice, before the core runs: agent-loop's own files excluded, the
 * base branch chosen, the work a halted loop left on a cycle's branch parked, the lane anchored.
 */
import { surface } from '../config/surface.js';
import { recordTips } from '../core/cycleTips.js';
import type { LoopState } from '../core/state.js';
import type { LaneGuard } from '../git/lane.js';
import { workTreePath } from '../git/repoPaths.js';
import { TEMP_FILE_PATTERN } from '../util/atomicWrite.js';
import type { Ports } from './effects/context.js';
import { labelEscalated } from './issueWork.js';
import { changedSinceHalt, loopLeftOn } from './parking.js';
import { StartError } from './startError.js';

/**
 * The loop state to start from, its base branch set and a parked branch cleared; `opened` is the
 * checkpoint's loop as read (what a halt left), `state` the slice's copy of it.
 */
export async function prepareRepository(
  ports: Ports,
  opened: LoopState,
  given: LoopState,
  guard: LaneGuard | undefined,
): Promise<LoopState> {
  const { deps } = ports;
  const { git, settings, store } = deps;
  if (!git) return given;
  let state = given;
  // An in-tree --state-dir is excluded (and never staged: see openGit's protect).
  const inTree = workTreePath(git.topLevel, deps.stateDir);
  if (inTree) await git.exclude(inTree);
  await git.exclude(TEMP_FILE_PATTERN);
  // Issue 42: the judge trees a killed run left (a worktree each, registered in the repository).
  const leftovers = (await deps.judgeTrees?.clear()) ?? [];
  if (leftovers.length > 0)
    deps.logger.info(
      'judge.leftovers',
      `Removed ${leftovers.length} judge tree(s) an earlier run left when it was killed: ${leftovers.join(', ')}.`,
      { paths: leftovers },
    );
  if (!state.baseBranch) {
    const current = await git.currentRef();
    if (current.startsWith('agent-loop/')) {
      // Starting over (--fresh) on the branch a halted loop left checked out: parked as the run
      // that resumed it would, then started from its base branch.
      const left = settings.fresh ? await loopLeftOn(store, current) : undefined;
      if (!left)
        throw new StartError(
          `the checked-out branch ${current} is a cycle branch of an earlier run, not a base branch. Check ` +
            `out the branch the work should land on (e.g. git checkout main; edits that run left uncommitted ` +
            `here would go along to it, so commit or stash them on this branch first: git stash -u), or resume ` +
            `that run instead of starting over (${surface(settings.terms).given('fresh')}).`,
        );
      state = recordTips(state, await park(ports, left, current, left.baseBranch));
      state.baseBranch = left.baseBranch;
    } else state.baseBranch = current;
  }
  // A halt left an escalated cycle's branch checked out for inspection: park its work now, and
  // record the escalation on the base branch, where later runs read the issues.
  if (state.parkedBranch && state.baseBranch) {
    if ((await git.currentRef()) === state.parkedBranch)
      state = recordTips(state, await park(ports, opened, state.parkedBranch, state.baseBranch));
    else {
      // A person left the branch themselves: the escalation is recorded on the base all the same.
      const last = state.escalations.at(-1);
      if (last && (await git.currentRef()) === state.baseBranch)
        await labelEscalated(ports, last.issueIds, last.note, state.baseBranch);
    }
    state = { ...state, parkedBranch: undefined };
  }
  if (guard && state.baseBranch) await guard.anchor(state.baseBranch);
  return state;
}

/**
 * The work a halted (or stopped) loop left on `branch` committed there as wip:, the base branch
 * checked out again; the escalation that halted it labelled there, and the issues a person
 * changed on the branch since the halt carried there (parking.ts), where later runs read them.
 */
async function park(ports: Ports, left: LoopState, branch: string, base: string): Promise<Record<string, string>> {
  const { source, logger } = ports.deps;
  const git = ports.deps.git!;
  const changed = changedSinceHalt(
    left.halt?.issues,
    (await source.openRecords?.().catch(() => undefined)) ?? new Map(),
  );
  const escalated = left.parkedBranch === branch;
  await git.commitAll(`wip: ${branch} (${escalated ? 'escalated' : 'stopped'}; parked by the next run)`);
  // Issue 42: the commit agent-loop leaves it at, the only one a later cycle continues from.
  const tip = await git.head();
  await git.checkout(base);
  const last = left.escalations.at(-1);
  if (escalated && last) await labelEscalated(ports, last.issueIds, last.note, base);
  logger.info('git.parked', `Committed the work left on ${branch} as wip: and returned to ${base}.`);
  if (changed.length === 0 || !source.reinstate) return { [branch]: tip };
  const ids = changed.map(([id]) => id);
  for (const [id, open] of changed) await source.reinstate(id, open.record);
  await git.commitAll(`agent-loop: ${ids.join(' ')} as changed by hand on ${branch}`.slice(0, 120));
  logger.info(
    'issue.carried',
    `${ids.join(', ')} ${ids.length === 1 ? 'was' : 'were'} changed on ${branch} after the halt (by a person): carried to ${base}, where the issues are read.`,
    { issueIds: ids },
  );
  return { [branch]: tip };
}
