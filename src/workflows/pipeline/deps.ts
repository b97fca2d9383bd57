/** What the planning pipeline (run.ts) is given, and its part of a checkpoint's state. */
import type { Terms } from '../../config/surface.js';
import type { Agent } from '../../agents/types.js';
import type { CheckpointStore } from '../../checkpoint/types.js';
import type { Logger } from '../../report/logger.js';
import type { Redactor } from '../../secrets/redact.js';
import type { Clock } from '../../util/clock.js';
import type { PhaseIssueSink } from './beadsCreate.js';
import type { PhaseSpec } from './phases.js';

export interface PipelineDeps {
  /** The goal given now (--goal / --goal-file); may be absent when a pipeline is resumed. */
  goal?: string;
  cwd: string;
  stateDir: string;
  /**
   * Where the agent writes its artifacts (`<dir>/pipeline/`); default the state directory. Agents
   * refuse to write under `.git/` (Claude Code does), so with the state directory there, `plan`
   * gives an excluded, never-staged directory of the work tree instead.
   */
  artifactsDir?: string;
  /** Where the phase issues go: the beads JSONL file, or bd. `where` names it in the log and checkpoint. */
  sink: PhaseIssueSink & { readonly where: string };
  agent: Agent;
  store: CheckpointStore;
  logger: Logger;
  clock: Clock;
  redact: Redactor;
  /** The phases, their templates and sizes (PRE_IMPLEMENTATION_PHASES with --plan-prompts applied). */
  phases?: readonly PhaseSpec[];
  /** Retries of a phase whose artifact fails its barrier (or whose agent fails). */
  maxRetries: number;
  agentTimeoutMs: number;
  fresh: boolean;
  resume?: string;
  signal?: AbortSignal;
  /** Whose words its messages use (default: the CLI's). */
  terms?: Terms;
  /** The implementation phase: the loop in this checkpoint, on these issues. Returns its exit code. */
  implement: (checkpointId: string, issueIds: string[]) => Promise<number>;
}

export type { PipelineState } from '../../core/pipeline.js';
