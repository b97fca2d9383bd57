/**
 * The implement iteration after the tests (decide.ts asked `judge`): the verdict against the
 * baseline decides: a suite that cannot run steps back to implement, a rejection is retried with
 * the failures as context, and an accepted one finishes the cycle: closed (or labelled as needing
 * no change when nothing changed and its targets already pass), or held for a person (issue 42:
 * it changed the maintainer's tests, or nothing shows it fixes the issue). Pure.
 */
import type { AgentResult } from '../../agents/types.js';
import { describeTargets } from '../../core/describe.js';
import { type IssueAction, log } from '../../core/events.js';
import { closedByPullRequest } from '../../core/landing.js';
import type { CycleState, IterationRecord, LoopState } from '../../core/state.js';
import { inlineCode } from '../../report/markdown.js';
import { findingsForAgent, findingsHeldWhy, findingsSummary } from '../../judge/findingWords.js';
import type { Held } from '../../core/held.js';
import { holdIssues } from '../../core/holdIssues.js';
import type { Finding } from '../../judge/protectedPaths.js';
import type { Verdict } from '../../verdict/judge.js';
import { hasFailureText, rejectionDetails } from '../../verdict/rejectionDetails.js';
import { failuresSaid } from '../../verdict/failuresSaid.js';
import { withOutputEnd } from '../../verdict/failureText.js';
import { isReadable } from '../../verdict/results.js';
import {
  type IterationContext,
  type IterationEvent,
  type IterationModel,
  type IterationStep,
  TARGETS_KEPT,
  close,
  cycleOf,
  finish,
  setCycle,
  stepCycle,
  tagOf,
} from './model.js';
import { MESSAGES } from './messages.js';

/** What every branch of the verdict works from: the event, the record with the tests, the state with testsPassed. */
interface Judged {
  ctx: IterationContext;
  model: IterationModel;
  event: Extract<IterationEvent, { type: 'judged' }>;
  record: IterationRecord;
  state: LoopState;
  tag: string;
  n: number;
  cycle: CycleState;
}

export function afterVerdict(
  ctx: IterationContext,
  model: IterationModel,
  event: Extract<IterationEvent, { type: 'judged' }>,
): IterationStep {
  const { tests } = event;
  // Issue 42: a change to what the maintainer owns is never a pass, whatever the tests say.
  const findings = event.findings ?? [];
  const removedLinks = event.removedLinks ?? [];
  const protectedChanged = findings.length > 0 || removedLinks.length > 0;
  // The maintainer's tests (run with those paths as the base has them) accept the code: a person judges
  // the change to the tests (held, no retry); else rejected with the findings, as any failure is.
  const heldForTests = protectedChanged && event.verdict.kind === 'accepted';
  const verdict = heldForTests
    ? { ...event.verdict, summary: `${event.verdict.summary}; but ${findingsHeldWhy(findings, removedLinks)}` }
    : protectedChanged
      ? withFindings(event.verdict, findings, removedLinks)
      : event.verdict;
  const record: IterationRecord = {
    ...model.record,
    tests: { passed: tests.passed, exitCode: tests.exitCode, durationMs: Math.round(tests.durationMs) },
    verdict: {
      kind: verdict.kind,
      summary: verdict.summary,
      ...(verdict.targets.length ? { targets: verdict.targets.slice(0, TARGETS_KEPT) } : {}),
    },
  };
  // The verdict, not the exit code: a test that failed before the cycle and still fails, targeted by no
  // issue, does not make the work's tests fail (it is reported in preexistingFailures).
  const state: LoopState = { ...model.state, testsPassed: verdict.kind === 'accepted' };
  const j: Judged = {
    ctx,
    model,
    event: { ...event, verdict },
    record,
    state,
    tag: tagOf(ctx),
    n: model.record.n,
    cycle: cycleOf(model.state),
  };
  if (protectedChanged && !heldForTests) return rejected(j, findingsForAgent(findings, removedLinks));
  if (verdict.kind === 'cannot_run') return cannotRun(j);
  if (verdict.kind === 'rejected') return rejected(j);
  const accepted = { ...j, state: { ...state, preexistingFailures: verdict.preexisting } };
  if (heldForTests)
    return held(accepted, {
      reason: 'tests-changed',
      why: [findingsHeldWhy(findings, removedLinks), event.unverified ? `and ${event.unverified}` : '']
        .filter(Boolean)
        .join('; '),
      paths: [...findings.map((f) => f.path), ...removedLinks],
    });
  if (!event.changed && !(model.closed ?? []).every(Boolean)) return noChangeNeeded(accepted);
  // No evidence the work fixes the issue: a person decides, unless the maintainer accepts such work.
  if (event.unverified && !ctx.settings.acceptUnverified)
    return held(accepted, { reason: 'unverified', why: event.unverified });
  return complete(accepted);
}

/**
 * The verdict with the judge's findings (issue 42): rejected, its summary what the tests said (run
 * with those paths as the base has them), then the findings.
 */
function withFindings(verdict: Verdict, findings: Finding[], removedLinks: string[]): Verdict {
  return {
    ...verdict,
    kind: 'rejected',
    summary: `${verdict.summary}; ${verdict.kind === 'accepted' ? 'but ' : ''}${findingsSummary(findings, removedLinks)}`,
  };
}

/** A real step back: nothing could be verified. */
function cannotRun({ ctx, model, event, record, state, tag, n }: Judged): IterationStep {
  const { verdict, tests, now } = event;
  const t = stepCycle(ctx, state, { type: 'precondition_failed', reason: verdict.summary });
  const failed = setCycle(t.state, {
    lastFailure: { kind: 'tests', message: `\`${ctx.settings.testCommand}\`: ${verdict.summary}`, tail: tests.tail },
  });
  const bounced = close(ctx, failed, { ...record, outcome: 'bounced' }, now);
  const { violation } = model;
  return finish(
    model,
    [
      log('warn', 'step.bounce', `${tag} verify cannot run: ${verdict.summary}; back to implement.`, {
        iteration: n,
        from: 'verify',
        to: 'implement',
      }),
    ],
    t.decision.kind === 'escalate'
      ? { state: bounced, violation, escalate: { reason: t.decision.reason, bounceLoop: t.decision.bounceLoop } }
      : { state: bounced, violation },
  );
}

/**
 * Rejected: the next iteration gets the failures as context (read per test: each broken test and
 * failing target with its message; else the exit code and the output). The judge's findings (`found`,
 * what the agent is told to restore) go in the message, which the prompt gives whole: the context is
 * cut to its end.
 */
function rejected({ ctx, model, event, record, state, tag, n }: Judged, found = ''): IterationStep {
  const { verdict, tests, now } = event;
  if (verdict.kind !== 'rejected') throw new Error('agent-loop: rejected() on a verdict that is not a rejection');
  const perTest = tests.run !== undefined && isReadable(tests.run);
  const details = perTest ? rejectionDetails(verdict) : '';
  const said =
    perTest || verdict.verifyFailing.length > 0 || found
      ? verdict.summary
      : `\`${ctx.settings.testCommand}\` exited with code ${tests.exitCode}`;
  const message = found ? `${said}\n\n${found}` : said;
  // Each failing test with its own failure text (issue 42), then the output's last lines without the
  // passing tests' (which were most of it): not the output's end as it was. Without any text read per
  // test, the output's end and the details after it: the prompt keeps the context's end when it is long.
  const lastFailure = hasFailureText(verdict)
    ? { kind: 'tests' as const, message, tail: tests.tail, failures: withOutputEnd(details, tests.tail) }
    : { kind: 'tests' as const, message, tail: `${tests.tail}${details ? '\n\n' : ''}${details}` };
  const failing = setCycle({ ...state, testFailures: state.testFailures + 1 }, { lastFailure });
  const t = stepCycle(ctx, failing, { type: 'failed', reason: `tests: ${verdict.summary}`, resumeAt: 0 });
  const closed = close(ctx, t.state, { ...record, outcome: 'tests_failed' }, now);
  const { violation } = model;
  // With the failing tests and a few lines each: the console shows no test output by default (issue 42).
  const failingSaid = failuresSaid(verdict);
  const rejectedSaid = `${MESSAGES.rejected(tag, verdict.summary, tests.exitCode, tests.durationMs)}${failingSaid ? `\n${failingSaid}` : ''}`;
  return finish(
    model,
    [
      log('warn', 'tests.failed', rejectedSaid, {
        iteration: n,
        exitCode: tests.exitCode,
        broken: verdict.broken.map((f) => f.id),
        targetsFailing: verdict.targetsFailing.map((f) => f.id),
        ...(event.findings?.length ? { findings: event.findings } : {}),
        ...(event.removedLinks?.length ? { removedLinks: event.removedLinks } : {}),
      }),
    ],
    t.decision.kind === 'escalate'
      ? { state: closed, violation, escalate: { reason: t.decision.reason, bounceLoop: false } }
      : { state: closed, violation },
  );
}

/** Already satisfied: nothing changed and nothing broke. Closed with the evidence; never a bounce. */
function noChangeNeeded({ ctx, model, event, record, state, tag, n, cycle }: Judged): IterationStep {
  const closed = model.closed ?? [];
  const result = model.result as AgentResult;
  const { targets } = ctx;
  const named = targets.tests.length > 0 || targets.verify.length > 0;
  const why = named
    ? `its targets pass (${[...targets.tests, ...targets.verify.map((c) => `\`${c}\``)].join(', ')})`
    : // The agent's words as code: GitHub acts on no @mention or `Fixes #n` in them.
      `the agent reports ${inlineCode(result.report?.summary?.trim() || 'the work is already done')}`;
  const note = `agent-loop: no change was needed: ${why} (iteration ${n}).`;
  const noChange: string[] = [];
  const issueActions: IssueAction[] = [];
  for (const [i, id] of cycle.issueIds.entries()) {
    if (closed[i]) continue;
    // Where a person decides (GitHub): labelled with the evidence, closed only when the issue's own targets pass.
    issueActions.push({ kind: 'markNoChange', id, note, close: named });
    if (ctx.canMarkNoChange && !named) noChange.push(id);
  }
  const closedNow = cycle.issueIds.filter((id) => !noChange.includes(id));
  const done: LoopState = {
    ...state,
    consecutiveEscalations: 0,
    issuesClosed: [...state.issuesClosed, ...closedNow.filter((id) => !state.issuesClosed.includes(id))],
    // Every issue of the cycle was found already satisfied, closed or left open (those left open are
    // the ones not in issuesClosed): a beads issue closed as no change is one too (issue 40).
    issuesNoChange: [...state.issuesNoChange, ...cycle.issueIds.filter((id) => !state.issuesNoChange.includes(id))],
    completedIterations: [...state.completedIterations, n],
  };
  return finish(
    model,
    [
      log('info', 'cycle.no_change', MESSAGES.noChange(tag, describeTargets(cycle), why, noChange, closedNow), {
        iteration: n,
        issueIds: cycle.issueIds,
      }),
    ],
    {
      state: close(ctx, done, { ...record, outcome: 'no_change' }, event.now),
      violation: model.violation,
      cycleDone: true,
      noChange: true,
      issueActions,
    },
  );
}

/**
 * Accepted, and held for a person (issue 42): no retry (the code passes the maintainer's tests, or
 * nothing more the agent does can be judged better), never merged, its issues left open and marked
 * for a person (the label and the note, issue actions that travel with the work). The cycle is
 * over: its work is committed on its branch and published as a draft pull request where work is
 * published, else left there (src/loop/landing.ts). Neither a success nor an escalation: the
 * escalations in a row are neither reset nor counted (a failure loop's halt sees neither), and the
 * issues are not picked again by this loop (issuesHeld) nor, where the label lasts, by any.
 */
function held({ ctx, model, event, record, state, tag, n, cycle }: Judged, hold: Held): IterationStep {
  const { verdict, tests } = event;
  const { state: done, issueActions, label } = holdIssues(state, cycle, hold, n);
  return finish(
    model,
    [
      log('warn', 'cycle.held', MESSAGES.held(tag, describeTargets(cycle), hold, label, tests.durationMs), {
        iteration: n,
        issueIds: cycle.issueIds,
        reason: hold.reason,
        why: hold.why,
        ...(hold.paths?.length ? { paths: hold.paths } : {}),
        ...(event.findings?.length ? { findings: event.findings } : {}),
        verdict: verdict.summary,
      }),
    ],
    {
      state: close(ctx, done, { ...record, outcome: 'held' }, event.now),
      violation: model.violation,
      cycleDone: true,
      held: hold,
      issueActions,
    },
  );
}

/** Success: close what the agent did not; with pull requests, their merge closes the issues. */
function complete({ ctx, model, event, record, state, tag, n, cycle }: Judged): IterationStep {
  const { verdict, tests } = event;
  const { settings } = ctx;
  const closed = model.closed ?? [];
  const viaPullRequest = closedByPullRequest(settings);
  const issueActions: IssueAction[] = viaPullRequest
    ? []
    : cycle.issueIds
        .filter((_, i) => !closed[i])
        .map((id) => ({ kind: 'close', id, note: `agent-loop: accepted at iteration ${n}: ${verdict.summary}` }));
  const done: LoopState = {
    ...state,
    consecutiveEscalations: 0,
    issuesClosed: [...state.issuesClosed, ...cycle.issueIds.filter((id) => !state.issuesClosed.includes(id))],
    completedIterations: [...state.completedIterations, n],
  };
  const said = MESSAGES.complete(
    tag,
    describeTargets(cycle),
    verdict.summary,
    tests.durationMs,
    viaPullRequest,
    cycle.issueIds,
  );
  return finish(
    model,
    [
      log('info', 'cycle.complete', said, {
        iteration: n,
        issueIds: cycle.issueIds,
        preexistingFailures: verdict.preexisting,
      }),
    ],
    {
      state: close(ctx, done, { ...record, outcome: 'complete' }, event.now),
      violation: model.violation,
      cycleDone: true,
      issueActions,
    },
  );
}
