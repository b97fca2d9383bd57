/**
 * Options (src/config/options.ts's schema, in this order): where a run keeps its state, whether it resumes
 * it, and whether a self-contradicting report halts it.
 */
import { z } from 'zod';
import { registry, RUN, ALL, flagSwitch, UUID_V4 } from './kinds.js';

export const stateOptions = {
  stateDir: z.string().trim().min(1).optional().register(registry, {
    flag: 'state-dir',
    arg: 'DIR',
    commands: ALL,
    defaultText: '<git dir>/agent-loop in a git repository ($RUNNER_TEMP/agent-loop in the action), else .agent-loop',
    help: 'Where checkpoints, logs, the lock and errors.jsonl live; by default outside the working tree, where no commit can take it.',
    expected: 'a path',
  }),
  resume: z
    .string()
    .regex(UUID_V4)
    .optional()
    .register(registry, {
      flag: 'resume',
      arg: 'ID',
      commands: RUN,
      defaultText: 'the newest resumable checkpoint',
      help: 'Resume this checkpoint instead of the newest one.',
      input: 'checkpoint-id',
      expected: (_n, terms) =>
        terms === 'cli'
          ? 'a checkpoint id (UUID v4, see agent-loop status)'
          : "a checkpoint id (UUID v4, as a run's checkpoint-id output or job summary names it)",
    }),
  resumeHalted: flagSwitch().register(registry, {
    flag: 'resume-halted',
    commands: RUN,
    input: 'resume',
    help: (n) =>
      `Resume a halted run. A halt stands otherwise: later runs stop at once (no agent, no checkpoint written, no Discord post) until this, ${n('fresh')}, or a change of the halt's cause (an escalated issue's label removed or the issue edited, new commits on the base branch after a failure loop, a raised ${n('maxIterations')} or ${n('maxCostUsd')}).`,
    expected: 'true or false',
  }),
  fresh: flagSwitch().register(registry, {
    flag: 'fresh',
    commands: RUN,
    help: "Ignore existing checkpoints and start a new run; the recorded test baselines are forgotten too, so each cycle's suite runs again on its base.",
    expected: 'true or false',
  }),
  strict: flagSwitch().register(registry, {
    flag: 'strict',
    commands: RUN,
    help: "Halt when the agent's report contradicts itself, instead of overriding it and continuing.",
    expected: 'true or false',
  }),
};
