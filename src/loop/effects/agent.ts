/**
 * The iteration's reads and its agent run (the workflow's sub-machine asks, src/core/iteration.ts):
 * the cycle's issues as the source holds them, and one agent turn on the prompt it built.
 */
import { cycleInFlight } from '../../core/inFlight.js';
import { agentTurn } from '../turn.js';
import type { Handler } from './context.js';

export const readCycleIssues: Handler<'readCycleIssues'> = async (_effect, ctx) => {
  const { deps } = ctx;
  const cycle = cycleInFlight(ctx.run.model.loop);
  const issues = await Promise.all(
    cycle.issueIds.map(async (id, i) => {
      const issue = await deps.source.get(id);
      if (!issue) return { id, title: cycle.titles[i] ?? id, body: '' };
      const { title, body, labels, type } = issue;
      return { id: issue.id, title, body, labels, ...(type ? { type } : {}) };
    }),
  );
  return { type: 'cycleIssuesRead', issues, now: deps.clock.now().getTime() };
};

export const runAgent: Handler<'runAgent'> = async (effect, ctx) => {
  const { deps } = ctx;
  const loop = ctx.run.model.loop;
  // What the prompt quotes (the issue, the previous failure's output, the tests' output and report) was
  // masked where it entered the engine; prompt.md is masked on its way out.
  const turn = await agentTurn(deps, loop, effect.prompt, effect.what, effect.tdd);
  if (!turn) return { type: 'interrupted' };
  const { result } = turn;
  const base = loop.baseBranch;
  const git = deps.git;
  // Asked only when it matters: a successful run that was denied edits.
  const deniedEverything =
    !turn.moved &&
    result.ok &&
    (result.permissionDenials ?? 0) > 0 &&
    git !== undefined &&
    base !== undefined &&
    !(await git.hasWorkSince(base));
  return {
    type: 'agentRan',
    result,
    started: turn.started.getTime(),
    ...(turn.moved ? { moved: turn.moved } : {}),
    deniedEverything,
    now: deps.clock.now().getTime(),
  };
};
