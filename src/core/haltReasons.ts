/**
 * The halt reasons (issue 41): one row each, and every list of them derives from this table: the
 * state's zod enum (state.ts), the run's exit code (result.ts exitCodeFor), the diagnostic's loop
 * type and advice (diagnostic.ts), the --help and README lines (src/cli/help.ts), the halts that
 * are one job's own in a fan-out wave (waveReduce.ts), how a halt is resumed (resumeWays.ts) and
 * what lifts it by itself (haltGate.ts, src/app/haltCheck.ts). A Record: a new reason cannot be
 * left out of any of them. Every text a person reads is a function of the surface that ran
 * (src/config/surface.ts), so the CLI names its flags and the action its inputs. Pure.
 *
 * A new reason is one row here (docs/architecture.md "Adding a halt reason"), then the code that
 * raises it and its tests.
 */
import type { Surface } from '../config/surface.js';
import { ESCALATED_LABEL } from '../issues/types.js';

/**
 * A change of its cause that lifts a standing halt by itself (src/core/haltGate.ts), each also a
 * way to resume it (resumeWays.ts): a person removes the escalated label from an issue or edits it;
 * the base branch gets new commits; the iteration limit or the spend cap is raised above what was used.
 */
export type SelfLift = 'unlabel' | 'base_commits' | 'max_iterations' | 'budget';

export interface HaltReasonRow {
  /** The run's exit code when it halts for this reason (the README's Exit codes). */
  readonly exitCode: number;
  /** The diagnostic's loop type (halt.md's "Loop type"). */
  readonly loopType: string;
  /** What the reason means, in a line: --help's exit codes and the README's table of halt reasons. */
  readonly help: (say: Surface) => string;
  /**
   * What a person fixes (a halt's own advice, when it has one, stands instead). How to resume is
   * not said here: the diagnostic words the row's resume ways after it.
   */
  readonly advice: (say: Surface) => string;
  /** What a resumed run does first, where it is not the obvious (the halt's work picked up where it stopped). */
  readonly onResume?: string;
  /** In a fan-out wave: the job's share (or its one issue) ran out, the run goes on with the other jobs. */
  readonly jobLocal: boolean;
  /**
   * How a standing halt is resumed, in this order: by hand once its cause is fixed (--resume-halted),
   * by a change of its cause (liftedBy: the next run resumes by itself), by starting over (--fresh).
   */
  readonly resume: { readonly byHand: boolean; readonly liftedBy: readonly SelfLift[]; readonly startOver: boolean };
}

/** A halt resumed by hand once its cause is fixed, or by starting over: nothing lifts it by itself. */
const BY_A_PERSON = { byHand: true, liftedBy: [], startOver: true } as const;

/** What resuming a halt that escalated issues does with them (issue 40): the loop goes on without them. */
const WITHOUT_ESCALATED =
  `Resumed, or started over, the loop goes on with the issues that are not escalated: an escalated ` +
  `issue is tried again once its ${ESCALATED_LABEL} label is removed, or, unless started over, once it is edited.`;

/** The table, in the order --help and the README list the reasons. */
const TABLE = {
  max_iterations: {
    exitCode: 1,
    loopType: 'max iterations',
    help: (say) => `${say.option('maxIterations')} agent runs used up, counted across slices`,
    advice: () =>
      'The run used all the agent runs it was allowed. Inspect why the work does not converge (the history), or allow it more.',
    jobLocal: true,
    resume: { byHand: false, liftedBy: ['max_iterations'], startOver: true },
  },
  stuck: {
    exitCode: 1,
    loopType: 'stuck',
    help: () =>
      'not reached by a run any more: a cycle whose agent makes no progress is escalated as stuck (then ' +
      'all_escalated or failure_loop); read from checkpoints of the first version',
    advice: () => 'The agent reported no progress; inspect the branch, and clarify the issue.',
    jobLocal: false,
    resume: BY_A_PERSON,
  },
  contract_violation: {
    exitCode: 1,
    loopType: 'contract violation',
    help: (say) => `the agent's report contradicted itself (${say.option('strict')})`,
    advice: (say) =>
      `The agent's report contradicted itself under ${say.option('strict')}; see errors.jsonl, and fix the agent or its prompt.`,
    jobLocal: false,
    resume: BY_A_PERSON,
  },
  budget: {
    exitCode: 1,
    loopType: 'budget',
    help: (say) => `the run's spend reached ${say.option('maxCostUsd')}`,
    advice: () =>
      'The run spent what it was allowed. Inspect the spend per iteration in the history, or allow it more.',
    jobLocal: true,
    resume: { byHand: false, liftedBy: ['budget'], startOver: true },
  },
  failure_loop: {
    exitCode: 1,
    loopType: 'consecutive escalations',
    help: (say) => `${say.option('maxConsecutiveEscalations')} escalated cycles in a row (FAILURE LOOP DETECTED)`,
    advice: () =>
      'Read the escalated issues and the agent output below; fix what blocks them (the issue text, the tests, the environment).',
    onResume: WITHOUT_ESCALATED,
    jobLocal: true,
    resume: { byHand: true, liftedBy: ['unlabel', 'base_commits'], startOver: true },
  },
  bounce_loop: {
    exitCode: 1,
    loopType: 'step bounce',
    help: (say) =>
      `more step-back transitions in one cycle than ${say.option('maxRetriesPerStep')} (BOUNCE LOOP DETECTED)`,
    advice: () =>
      'The workflow keeps stepping back: the agent reports work done that the next step cannot use. Inspect ' +
      'the branch and working tree left checked out, and clarify the issue.',
    onResume: WITHOUT_ESCALATED,
    jobLocal: false,
    resume: { byHand: true, liftedBy: ['unlabel'], startOver: true },
  },
  all_escalated: {
    exitCode: 1,
    loopType: 'only escalated issues remain',
    help: () => 'only escalated issues remain',
    advice: () =>
      'Every remaining ready issue has been escalated. Read them and the agent output below, and fix what ' +
      'blocks them (the issue text, the tests, the environment), or file a new issue: the next run resumes by itself for it.',
    jobLocal: true,
    // Resumed by hand or started over, the loop would find the same labels and halt again at once
    // (issue 40): an issue is what changes it.
    resume: { byHand: false, liftedBy: ['unlabel'], startOver: false },
  },
  agent_unavailable: {
    exitCode: 1,
    loopType: 'agent unavailable',
    help: () =>
      'the agent cannot work here: permanent failures of the environment (auth, billing, permissions, not installed)',
    advice: () =>
      'The agent cannot work in this environment; no issue was blamed. Fix the environment (the key, the billing, the permissions).',
    jobLocal: false,
    resume: BY_A_PERSON,
  },
  workflow_aborted: {
    exitCode: 1,
    loopType: 'red/green/refactor workflow aborted',
    help: (say) => `the red/green/refactor workflow (${say.given('workflow', 'tdd')}) aborted its cycle`,
    advice: () =>
      'The red/green/refactor workflow cannot go on by itself (seed 003: manual intervention). Its commits ' +
      'and git notes (refs/notes/agent-loop) are kept: inspect the branch, fix the test or the code by hand, and commit.',
    onResume: 'Resumed, it goes on from the newest note.',
    jobLocal: false,
    resume: BY_A_PERSON,
  },
  repository_moved: {
    exitCode: 1,
    loopType: 'the repository moved behind the loop',
    help: () => 'something other than agent-loop moved HEAD or the base branch',
    advice: () =>
      'Something other than agent-loop (most likely the agent: git reset, checkout, commit on the base ' +
      'branch) moved HEAD or the base branch, so nothing was committed or merged. Inspect with git reflog ' +
      'and git status, and put the branches back where they belong (git switch, git reset --hard <commit> from the reflog).',
    jobLocal: false,
    resume: BY_A_PERSON,
  },
  secret_in_change: {
    exitCode: 1,
    loopType: 'a secret in the change',
    help: () => "the agent's change adds a secret (not committed)",
    advice: () =>
      "The agent's change holds what looks like a secret (a declared secret's value or a token), so it " +
      'was not committed; the files are named above, never the secret. Remove the secret from the working ' +
      "tree, or, when the agent committed it itself (the commits are named above), from the branch's history " +
      '(git rebase -i or git reset onto the base, then redo the work worth keeping); rotate it if it may have been exposed.',
    jobLocal: false,
    resume: BY_A_PERSON,
  },
  source_unreadable: {
    exitCode: 1,
    loopType: 'the issues became unreadable',
    help: () => 'the agent left the issues unreadable',
    advice: () =>
      'The issues file had issues and now has none that can be read: the agent left it malformed. Restore ' +
      'it (git diff / git checkout -- <file> on the cycle branch).',
    jobLocal: false,
    resume: BY_A_PERSON,
  },
  baseline_unreadable: {
    exitCode: 1,
    loopType: 'no verdict possible on the base branch',
    help: () => 'before any change the suite fails and cannot be read per test, or cannot run (no agent ran)',
    advice: (say) =>
      `The suite fails on the base branch and its output cannot be read per test, so no verdict on an agent's ` +
      `work is possible; no agent ran. Have the test command write a JUnit XML report and name it with ` +
      `${say.option('junitFile')}, or make the base branch green.`,
    jobLocal: false,
    resume: { byHand: true, liftedBy: ['base_commits'], startOver: true },
  },
  publish_refused: {
    exitCode: 1,
    loopType: 'GitHub refused, or kept failing, to take the work',
    help: () =>
      "GitHub refused a finished cycle's push or pull request for a reason no retry changes, or failed it 30 times in a row (the action)",
    advice: () =>
      'GitHub refused the push or the pull request of a finished cycle, for a reason no retry changes (a ' +
      'permission, a setting, a protection rule), or failed it 30 times in a row for a reason that should ' +
      "have passed by itself (a server error, the network). The cycle's work is kept and recorded: change " +
      'what is named above.',
    onResume: 'Resumed, only the refused step is done again: the agent does not run.',
    jobLocal: false,
    resume: BY_A_PERSON,
  },
} satisfies Record<string, HaltReasonRow>;

export type HaltReason = keyof typeof TABLE;

/** Every halt reason's row. */
export const HALT_REASONS: Readonly<Record<HaltReason, HaltReasonRow>> = TABLE;

/** The reasons, in the table's order (the state's zod enum takes them). */
export const HaltReasons = Object.keys(TABLE) as [HaltReason, ...HaltReason[]];

const where = (keep: (row: HaltReasonRow) => boolean): ReadonlySet<HaltReason> =>
  new Set(HaltReasons.filter((r) => keep(HALT_REASONS[r])));

/** A job's halt that says its share (or its one issue) ran out, not that the run must stop. */
export const JOB_LOCAL_HALTS = where((row) => row.jobLocal);

/** The halts new commits on the base branch lift (haltGate.ts reads the base branch's tip for them). */
export const NEEDS_BASE_TIP = where((row) => row.resume.liftedBy.includes('base_commits'));

/**
 * The halts that escalated issues: a person lifts them by taking an issue's label away or editing
 * it (haltGate.ts reads the issues for them).
 */
export const NEEDS_ISSUES = where((row) => row.resume.liftedBy.includes('unlabel'));

/** The halts on a limit (the iterations, the spend): the work is sound, raising the limit resumes it. */
export const LIMIT_HALTS = where((row) => row.resume.liftedBy.some((l) => l === 'max_iterations' || l === 'budget'));
