/**
 * The halt diagnostic built from the loop's state (seed 002 AC4): which issues and steps were
 * involved, the counts, the last output and what a person should do, by halt reason. Pure; the
 * renderers are src/report/diagnostic.ts.
 */
import { type HaltDiagnostic, OUTPUT_CHARS } from '../report/diagnostic.js';
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

const ADVICE: Record<HaltReason, string> = {
  failure_loop:
    'Read the escalated issues and the agent output below; fix what blocks them (the issue text, the tests, the environment). Later runs stay halted until you remove the agent-loop:escalated label from an issue that should be tried again, edit one of those issues (its title or text), or push new commits to the base branch (each resumes the next run by itself), or resume the run by hand (--resume-halted; the action: resume: true).',
  bounce_loop:
    'The workflow keeps stepping back: the agent reports work done that the next step cannot use. Inspect the branch and working tree left checked out, clarify the issue, then resume the run (--resume-halted; the action: resume: true): later runs stay halted until then.',
  all_escalated:
    'Every remaining ready issue has been escalated. Fix them: edit an issue to say more, or remove the agent-loop:escalated label from those to retry (or file a new issue): the next run resumes by itself; until then later runs stay halted.',
  agent_unavailable:
    'The agent cannot work in this environment; no issue was blamed. Fix the environment (the key, the billing, the permissions), then resume the run (--resume-halted; the action: resume: true): later runs stay halted until then.',
  max_iterations:
    'Raise --max-iterations (the action: max-iterations) to continue from here: the count is kept across slices, and the next run resumes by itself. Or inspect why the work does not converge.',
  budget:
    'Raise --max-cost-usd (the action: max-cost-usd) to continue: the next run resumes by itself. Or inspect the spend per iteration in the history.',
  contract_violation:
    "The agent's report contradicted itself under --strict; see errors.jsonl. Resume the run by hand (--resume-halted; the action: resume: true): later runs stay halted until then.",
  stuck:
    'The agent reported no progress; inspect the branch, then resume the run (--resume-halted; the action: resume: true): later runs stay halted until then.',
  repository_moved:
    'Something other than agent-loop (most likely the agent: git reset, checkout, commit on the base branch) moved HEAD or the base branch, so nothing was committed or merged. Inspect with git reflog and git status, put the branches back where they belong (git switch, git reset --hard <commit> from the reflog), then resume the run (--resume-halted; the action: resume: true): later runs stay halted until then.',
  secret_in_change:
    "The agent's change holds what looks like a secret (a declared secret's value or a token), so it was not committed; the files are named above, never the secret. Remove the secret from the working tree, or, when the agent committed it itself (the commits are named above), from the branch's history (git rebase -i or git reset onto the base, then redo the work worth keeping); rotate it if it may have been exposed, then resume the run (--resume-halted; the action: resume: true): later runs stay halted until then.",
  source_unreadable:
    'The issues file had issues and now has none that can be read: the agent left it malformed. Restore it (git diff / git checkout -- <file> on the cycle branch), then resume the run (--resume-halted; the action: resume: true): later runs stay halted until then.',
  baseline_unreadable:
    "The suite fails on the base branch and its output cannot be read per test, so no verdict on an agent's work is possible; no agent ran. Have the test command write a JUnit XML report and pass --junit-file, or make the base branch green: new commits on the base branch resume the next run by itself (or --resume-halted; the action: resume: true).",
  publish_refused:
    "GitHub refused the push or the pull request of a finished cycle, for a reason no retry changes (a permission, a setting, a protection rule), or failed it 30 times in a row for a reason that should have passed by itself (a server error, the network). The cycle's work is kept and recorded: change what is named above, then resume the run (the action: run the workflow with resume: true; the CLI: --resume-halted): later runs stay halted until then. Only the refused step is done again, the agent does not run.",
  workflow_aborted:
    'The red/green/refactor workflow cannot go on by itself (seed 003: manual intervention). Its commits and git notes (refs/notes/agent-loop) are kept: inspect the branch, fix the test or the code by hand, commit, then resume the run (--resume-halted; the action: resume: true): it resumes from the newest note.',
};

/** A halt's own advice, with how to resume when it does not say (later runs stay halted until then). */
function withResume(advice: string): string {
  if (/resume/i.test(advice)) return advice;
  return `${advice.replace(/,? then run again\.?/, '.')} Then resume the run (--resume-halted; the action: resume: true): later runs stay halted until then.`;
}

export function buildDiagnostic(input: {
  reason: HaltReason;
  message: string;
  state: LoopState;
  checkpointId: string;
  maxConsecutiveEscalations: number;
  advice?: string;
}): HaltDiagnostic {
  const { state, reason } = input;
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
    advice: input.advice ? withResume(input.advice) : ADVICE[reason],
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
