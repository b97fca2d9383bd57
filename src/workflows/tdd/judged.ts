/**
 * A red/green/refactor phase's attempt judged (issue 42), pure (afterAgent.ts carries the decision
 * out): seed 003's decision (decide.ts) on the judge tree's run, then the judge's findings
 * (judgeBase.ts); and the cycle held for a person when the phase's tests pass but the work changed
 * what the maintainer owns.
 */
import type { AgentResult } from '../../agents/types.js';
import { log } from '../../core/events.js';
import type { Held } from '../../core/held.js';
import { holdIssues } from '../../core/holdIssues.js';
import { commitNaming } from './commitNaming.js';
import { type TestsSeen, decidePhase } from './decide.js';
import { type JudgedDecision, withFindings } from './judgeBase.js';
import { type TddContext, type TddModel, type TddStep, close, cycleOf, finish, n, stateOf, tagOf } from './model.js';
import { isDuplicateReport } from './phaseNote.js';

/** The phase's decision: seed 003's on the judge tree's run, then what the judge found (a change to a protected path is no pass). */
export function phaseDecision(ctx: TddContext, m: TddModel, changed: boolean): JudgedDecision {
  const { tdd, test } = m;
  const seen = m.seen as TestsSeen;
  return withFindings(
    decidePhase({
      phase: tdd.phase,
      description: test,
      changed,
      reportedDuplicate: isDuplicateReport(m.result as AgentResult),
      tests: seen,
      targetTests: tdd.targetTests,
      retries: tdd.retries,
      naming: commitNaming(ctx.issue, test),
    }),
    { phase: tdd.phase, retries: tdd.retries, found: m.found, testsSummary: seen.summary },
  );
}

/**
 * The phase's tests pass on the judge tree, but the work changed what the maintainer owns (issue 42):
 * held for a person, as the implement workflow holds such work. The cycle is over without closing
 * its issue: the engine commits the work to the cycle's branch and publishes it as a draft pull
 * request where work is published, else leaves it there (src/loop/landing.ts); the issue is
 * labelled, with a note, and not worked again by this loop (issuesHeld).
 */
export function hold(ctx: TddContext, m: TddModel, held: Held): TddStep {
  const cycle = cycleOf(ctx.before);
  const { state, issueActions, label } = holdIssues(stateOf(m), cycle, held, n(ctx));
  return finish(
    m,
    [
      log(
        'warn',
        'cycle.held',
        `${tagOf(ctx, m)} ${cycle.issueIds.join(', ')} held for a person (${label}): the phase's tests pass, but ${held.why}. ` +
          `The work is left on ${cycle.branch ? `the branch ${cycle.branch}` : 'the working tree'}; agent-loop neither merges it nor closes the issue: ` +
          `review it, or restore those paths and remove the label to have agent-loop work on the issue again.`,
        {
          iteration: n(ctx),
          issueIds: cycle.issueIds,
          reason: held.reason,
          why: held.why,
          paths: held.paths ?? [],
          findings: m.found?.findings ?? [],
        },
      ),
    ],
    { state: close(m, state, 'held', 'hold'), cycleDone: true, held, issueActions },
  );
}
