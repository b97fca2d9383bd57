/**
 * What each job of the action's fan-out (issue 16) works with: the plan (src/action/planJob.ts)
 * and the reduce (src/action/reduceJob.ts), and the handlers they drive the wave machine with.
 */
import type { Options } from '../config/options.js';
import type { GitHubIssueSource } from '../issues/github/issueSource.js';
import type { Clock } from '../util/clock.js';
import type { ActionCore } from './actionCore.js';
import type { SummaryContext } from './summary.js';

export interface FanOutJob {
  core: ActionCore;
  options: Options;
  stateDir: string;
  clock: Clock;
  redact: (text: string) => string;
  /** This workflow run, as its claims name it (`github-<run id>-<attempt>`): the wave's id too. */
  runId: string;
  issueLinks?: SummaryContext['issueLinks'];
}

/** What the plan asks of the GitHub issues: the ready ones, and claims on them. */
export type WaveSource = Pick<GitHubIssueSource, 'ready' | 'claim' | 'releaseClaim' | 'importState'>;
