/**
 * The halt diagnostic built from the loop's state (seed 002 AC4): which issues and steps were
 * involved, the counts, the last output and what a person should do, by halt reason, in the words
 * of the surface that ran (src/config/surface.ts), with the ways to resume kept beside the text.
 * Pure; the renderers are src/report/diagnostic.ts.
 */
import { type Surface, type Terms, surface } from '../config/surface.js';
import { ESCALATED_LABEL } from '../issues/types.js';
import { type HaltDiagnostic, OUTPUT_CHARS } from '../report/diagnostic.js';
import { type ResumeWay, describeResume, resumeWays } from './resumeWays.js';
import type { HaltReason, LoopState } from './state.js';

const LOOP_TYPES: Record<HaltReason, string> = {
  failure_loop: 'consecutive escalations',
  bounce_loop: 'step bounce',
  all_escalated: 'only escalated issues remain',
  agent_unavailable: 'agent unavailable',
  max_iterations: 'max iterations',
  budget: 'budget',
  contract_violation: 'contract violation',
  stuck: 'stuck',
  workflow_aborted: 'red/green/refactor workflow aborted',
  repository_moved: 'the repository moved behind the loop',
  secret_in_change: 'a secret in the change',
  source_unreadable: 'the issues became unreadable',
  baseline_unreadable: 'no verdict possible on the base branch',
  publish_refused: 'GitHub refused, or kept failing, to take the work',
};

/**
 * What a person fixes, by halt reason, in the words of the surface that ran (a halt's own advice,
 * when it has one, stands instead). How to resume is not said here: the diagnostic adds it from
 * the halt's resume ways (resumeWays.ts), so that every halt says it the same way.
 */
const ADVICE: Record<HaltReason, (say: Surface) => string> = {
  failure_loop: () =>
    'Read the escalated issues and the agent output below; fix what blocks them (the issue text, the tests, the environment).',
  bounce_loop: () =>
    'The workflow keeps stepping back: the agent reports work done that the next step cannot use. Inspect the branch and working tree left checked out, and clarify the issue.',
  all_escalated: () =>
    'Every remaining ready issue has been escalated. Read them and the agent output below, and fix what blocks them (the issue text, the tests, the environment), or file a new issue: the next run resumes by itself for it.',
  agent_unavailable: () =>
    'The agent cannot work in this environment; no issue was blamed. Fix the environment (the key, the billing, the permissions).',
  max_iterations: () =>
    'The run used all the agent runs it was allowed. Inspect why the work does not converge (the history), or allow it more.',
  budget: () => 'The run spent what it was allowed. Inspect the spend per iteration in the history, or allow it more.',
  contract_violation: (say) =>
    `The agent's report contradicted itself under ${say.option('strict')}; see errors.jsonl, and fix the agent or its prompt.`,
  stuck: () => 'The agent reported no progress; inspect the branch, and clarify the issue.',
  repository_moved: () =>
    'Something other than agent-loop (most likely the agent: git reset, checkout, commit on the base branch) moved HEAD or the base branch, so nothing was committed or merged. Inspect with git reflog and git status, and put the branches back where they belong (git switch, git reset --hard <commit> from the reflog).',
  secret_in_change: () =>
    "The agent's change holds what looks like a secret (a declared secret's value or a token), so it was not committed; the files are named above, never the secret. Remove the secret from the working tree, or, when the agent committed it itself (the commits are named above), from the branch's history (git rebase -i or git reset onto the base, then redo the work worth keeping); rotate it if it may have been exposed.",
  source_unreadable: () =>
    'The issues file had issues and now has none that can be read: the agent left it malformed. Restore it (git diff / git checkout -- <file> on the cycle branch).',
  baseline_unreadable: (say) =>
    `The suite fails on the base branch and its output cannot be read per test, so no verdict on an agent's work is possible; no agent ran. Have the test command write a JUnit XML report and name it with ${say.option('junitFile')}, or make the base branch green.`,
  publish_refused: () =>
    "GitHub refused the push or the pull request of a finished cycle, for a reason no retry changes (a permission, a setting, a protection rule), or failed it 30 times in a row for a reason that should have passed by itself (a server error, the network). The cycle's work is kept and recorded: change what is named above.",
  workflow_aborted: () =>
    'The red/green/refactor workflow cannot go on by itself (seed 003: manual intervention). Its commits and git notes (refs/notes/agent-loop) are kept: inspect the branch, fix the test or the code by hand, and commit.',
};

/** What a resumed run does first, where it is not the obvious (the halt's work picked up where it stopped). */
/** What resuming a halt that escalated issues does with them (issue 40): the loop goes on without them. */
const WITHOUT_ESCALATED = `Resumed, or started over, the loop goes on with the issues that are not escalated: an escalated issue is tried again once its ${ESCALATED_LABEL} label is removed, or, unless started over, once it is edited.`;

const ON_RESUME: Partial<Record<HaltReason, string>> = {
  failure_loop: WITHOUT_ESCALATED,
  bounce_loop: WITHOUT_ESCALATED,
  publish_refused: 'Resumed, only the refused step is done again: the agent does not run.',
  workflow_aborted: 'Resumed, it goes on from the newest note.',
};

/** A halt's advice: what to fix (its own, or its reason's), then how to resume, in the words of `terms`. */
export function haltAdvice(input: { reason: HaltReason; advice?: string; terms: Terms; baseBranch?: string }): {
  advice: string;
  resume: ResumeWay[];
} {
  const resume = resumeWays(input);
  const fix = input.advice ?? ADVICE[input.reason](surface(input.terms));
  const onResume = ON_RESUME[input.reason];
  return {
    advice: [fix, describeResume(resume, input.terms, input.baseBranch), ...(onResume ? [onResume] : [])].join(' '),
    resume,
  };
}

export function buildDiagnostic(input: {
  reason: HaltReason;
  message: string;
  state: LoopState;
  checkpointId: string;
  maxConsecutiveEscalations: number;
  /** The halt's own advice (what to fix), when it has one. */
  advice?: string;
  /** Whose words the advice uses (default: the CLI's). */
  terms?: Terms;
}): HaltDiagnostic {
  const { state, reason } = input;
  const { advice, resume } = haltAdvice({
    reason,
    terms: input.terms ?? 'cli',
    ...(input.advice ? { advice: input.advice } : {}),
    ...(state.baseBranch ? { baseBranch: state.baseBranch } : {}),
  });
  const involved =
    reason === 'failure_loop' || reason === 'all_escalated'
      ? state.escalations.slice(reason === 'failure_loop' ? -state.consecutiveEscalations : 0)
      : [];
  const issues =
    involved.length > 0
      ? involved.flatMap((e) => e.issueIds.map((id, i) => ({ id, title: e.titles[i] ?? '' })))
      : (state.currentCycle?.issueIds ?? state.escalations.at(-1)?.issueIds ?? []).map((id, i) => ({
          id,
          title: state.currentCycle?.titles[i] ?? state.escalations.at(-1)?.titles[i] ?? '',
        }));
  // A halting escalation has already closed its cycle: then its steps are in its record.
  const cycleSteps = state.currentCycle
    ? state.currentCycle.progress.trail
    : involved.length === 0
      ? (state.escalations.at(-1)?.steps ?? [])
      : [];
  const steps = [...new Set([...involved.flatMap((e) => e.steps), ...cycleSteps])];
  return {
    reason,
    headline: input.message,
    loopType: LOOP_TYPES[reason],
    issues: dedupe(issues),
    steps,
    escalations: {
      consecutive: state.consecutiveEscalations,
      limit: input.maxConsecutiveEscalations,
      total: state.totalEscalations,
    },
    lastOutput: state.lastAgentOutput.slice(-OUTPUT_CHARS),
    ...lastRunOf(state),
    ...(lastFailureOf(state, involved) ? { lastFailure: lastFailureOf(state, involved) } : {}),
    advice,
    resume,
    checkpointId: input.checkpointId,
    iteration: state.iteration,
    ...(reason === 'workflow_aborted' && state.tddError
      ? {
          tddError: {
            type: state.tddError.type,
            message: state.tddError.message,
            retry_count: state.tddError.retry_count,
          },
        }
      : {}),
  };
}

/** The run whose output the state keeps (the history's last record: every agent run adds one, and sets that output). */
function lastRunOf(state: LoopState): Pick<HaltDiagnostic, 'lastRun'> {
  const last = state.history.at(-1);
  return last ? { lastRun: { iteration: last.n, issueIds: [...last.issueIds] } } : {};
}

function lastFailureOf(state: LoopState, involved: LoopState['escalations']): HaltDiagnostic['lastFailure'] {
  const f = involved.at(-1)?.lastFailure ?? state.currentCycle?.lastFailure ?? state.escalations.at(-1)?.lastFailure;
  return f ? { ...f, tail: f.tail.slice(-OUTPUT_CHARS) } : undefined;
}

function dedupe<T extends { id: string }>(items: T[]): T[] {
  const seen = new Set<string>();
  return items.filter((i) => (seen.has(i.id) ? false : (seen.add(i.id), true)));
}
