/**
 * What the action tells of a run as it ends: the outputs, the job summary and the warnings of a run
 * that stopped or finished (a halt that stands, a deferral, a work job's own end); and, once the run
 * returned, whether the step fails and with what one error (decided apart from the I/O, stepFailure).
 */
import type { StartProblem } from '../app/problems.js';
import type { RunIO } from '../app/run.js';
import type { Options } from '../config/options.js';
import { surface } from '../config/surface.js';
import { JOB_LOCAL_HALTS } from '../core/haltReasons.js';
import type { RunResult } from '../core/result.js';
import { describeResumeWay } from '../core/resumeWays.js';
import type { GitHubIssueSource } from '../issues/github/issueSource.js';
import { preflightSummary } from '../publish/preflight.js';
import type { ActionCore } from './actionCore.js';
import type { FanOutRole } from './fanOut.js';
import type { RunRefs } from './persistence.js';
import type { ActionSite } from './site.js';
import { buildSummary, haltFailure, resultOutputs, stoppedOutputs, stoppedSummary } from './summary.js';
import { stillHalted } from './messages.js';
import { ISSUE_SOURCES } from '../issues/catalog.js';
import { escapeControls } from '../util/printable.js';

/** The action's words (src/config/surface.ts). */
const say = surface('action');

/** What the run said as it ended, recorded by the handlers for stepFailure. */
export interface RunOutcome {
  problems: readonly StartProblem[];
  /** A halt that stands (an earlier run's): green, with a warning. */
  standing: boolean;
  /** A listing GitHub did not answer: green, with one warning (the next run retries). */
  deferred: boolean;
  halted: Pick<RunResult, 'haltReason' | 'error' | 'resume'>;
  /** A work job's halt that only says its share or its issue ran out: the reduce decides for the run. */
  jobLocal: boolean;
  /** A run that stopped without a result: what it said (the step's one error). */
  stopped?: string;
}

export function newOutcome(): RunOutcome {
  return {
    problems: [],
    standing: false,
    deferred: false,
    halted: { haltReason: null, error: null, resume: null },
    jobLocal: false,
  };
}

/**
 * The step's one error, or undefined when it is green: the run could not start (exit 2), or it halted
 * (its reason and message, issue 40); a halt that stands, a work job's own end and a deferral are green. Pure.
 */
export function stepFailure(code: number, outcome: RunOutcome, installAgent: boolean): string | undefined {
  if (code === 2) return cannotStartMessage(outcome.problems, installAgent);
  if (code === 0 || outcome.standing || outcome.jobLocal || outcome.deferred) return undefined;
  return outcome.stopped !== undefined ? `agent-loop: ${outcome.stopped}` : haltFailure(outcome.halted);
}

/** Why the action cannot start, in its own terms: the input that would fix an agent missing from PATH. */
export function cannotStartMessage(problems: readonly StartProblem[], installAgent: boolean): string {
  const hint =
    problems.some((p) => p.code === 'agent_not_on_path') && !installAgent
      ? `\nOn a hosted runner, set the input ${say.given('installAgent')} to have the action install the pinned CLI.`
      : '';
  return `agent-loop: cannot start\n${problems.map((p) => `  - ${escapeControls(p.message)}`).join('\n')}${hint}`;
}

export interface ReportInput {
  core: ActionCore;
  outcome: RunOutcome;
  fanOut: FanOutRole;
  options: Options;
  site: ActionSite;
  refs: RunRefs | undefined;
  redact: (text: string) => string;
  /** The GitHub issue source, once built (its skipped outsiders go into the summary). */
  issues: () => GitHubIssueSource | undefined;
  /** What the preflight could not read (for the summary). */
  notChecked: () => string[];
}

/** The run's handlers that record the outcome and tell it: outputs, summary, warnings, post's state. */
export function reportHandlers(input: ReportInput): Pick<RunIO, 'cannotStart' | 'onStopped' | 'onResult'> {
  const { core, outcome, fanOut, redact } = input;
  return {
    cannotStart: (found) => {
      outcome.problems = found;
    },
    onStopped: async ({ message, unchanged }) => {
      outcome.stopped = message;
      // Nothing written: post publishes nothing (a work job's state is published all the same, as for a deferral).
      if (unchanged && fanOut.role !== 'work') core.saveState('unchanged', 'stopped');
      for (const [name, value] of Object.entries(stoppedOutputs(message, unchanged))) core.setOutput(name, value);
      await core.writeSummary(redact(stoppedSummary(message, unchanged)));
    },
    onResult: async (result) => {
      outcome.standing = result.standing !== null;
      outcome.deferred = result.status === 'deferred';
      outcome.halted = result;
      outcome.jobLocal = fanOut.role === 'work' && result.haltReason !== null && JOB_LOCAL_HALTS.has(result.haltReason);
      // Nothing changed: post publishes nothing (the published state is the one restored). But a
      // work job's partial state is always published: without it the reduce takes the job for lost.
      if (result.unchanged && !(outcome.deferred && fanOut.role === 'work'))
        core.saveState('unchanged', outcome.standing ? 'halt' : result.idle ? 'idle' : 'deferred');
      // Post (which runs where the state is published) never prunes the checkpoint this run used.
      else if (input.refs) core.saveState('checkpoint-id', result.checkpointId);
      for (const [name, value] of Object.entries(resultOutputs(result, redact))) core.setOutput(name, value);
      await core.writeSummary(redact(resultSummary(result, input)));
      const warning = resultWarning(result, outcome.jobLocal);
      if (warning !== undefined) core.warning(redact(warning));
    },
  };
}

/** The job summary of a run that finished: its result, and what the preflight could not check. */
function resultSummary(result: RunResult, input: ReportInput): string {
  const github = input.issues();
  const { serverUrl, repository } = input.site;
  return [
    buildSummary(result, {
      resumeHint: `to resume from it explicitly, run the workflow with ${say.given('resume', result.checkpointId)}`,
      ...(github ? { skippedOutsiders: github.skippedOutsiders } : {}),
      // GitHub issues link to themselves; beads issues are only named.
      ...(ISSUE_SOURCES[input.options.source].linked ? { issueLinks: { serverUrl, repository } } : {}),
    }),
    preflightSummary(input.notChecked()),
  ]
    .filter(Boolean)
    .join('\n');
}

/** The warning of a green end that is not plain success; a halt is an error once, later runs over it are green (issue 14). Pure. */
export function resultWarning(result: RunResult, jobLocal: boolean): string | undefined {
  if (result.standing)
    return stillHalted(
      result.haltReason,
      result.standing.since ?? 'an earlier run',
      result.error ?? '',
      result.standing.resume.map((w) => describeResumeWay(w, 'action')).join('; '),
    );
  if (result.deferred)
    return `agent-loop deferred: ${result.deferred.message.replace(/\.$/, '')}. Nothing was started or lost; the next run lists the issues again.`;
  if (jobLocal)
    return `agent-loop: this job's slice ended (${result.haltReason}): ${result.error ?? ''}; the reduce job decides for the run.`;
  return undefined;
}
