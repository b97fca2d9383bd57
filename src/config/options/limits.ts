/**
 * Options (src/config/options.ts's schema, in this order): How long a run goes: iterations, slices, delays,
 * timeouts, retries and escalations.
 */
import { registry, RUN, int, positive, nonNegative, delaysByAgent } from './kinds.js';

export const limitOptions = {
  maxIterations: int(1).default(100).register(registry, {
    flag: 'max-iterations',
    arg: 'N',
    commands: RUN,
    help: 'Agent invocations allowed in the whole run, counted across slices; then the run halts.',
    expected: 'a whole number from 1 to 1000000',
  }),
  sliceIterations: int(1).optional().register(registry, {
    flag: 'slice-iterations',
    arg: 'N',
    commands: RUN,
    defaultText: 'unbounded',
    help: 'End this invocation after N iterations with status continuing (exit 0); the next run resumes.',
    expected: 'a whole number from 1 to 1000000',
  }),
  sliceMinutes: positive(10_080).optional().register(registry, {
    flag: 'slice-minutes',
    arg: 'M',
    commands: RUN,
    defaultText: 'unbounded',
    help: 'Start no new iteration after M minutes; end with status continuing (exit 0).',
    expected: 'a number of minutes > 0, at most 10080 (a week)',
  }),
  iterationDelay: nonNegative(3600).optional().register(registry, {
    flag: 'iteration-delay',
    arg: 'SECONDS',
    commands: RUN,
    defaultText: delaysByAgent(),
    help: 'Least time between two agent invocations (the tests and any rate-limit wait in between count toward it); none before the first or after the last.',
    expected: 'a number of seconds from 0 to 3600',
  }),
  agentTimeoutMinutes: positive(1440).default(30).register(registry, {
    flag: 'agent-timeout-minutes',
    arg: 'M',
    commands: RUN,
    help: "Kill the agent's whole process group after M minutes (decimals allowed); also bounds the test gate.",
    expected: 'a number of minutes > 0, at most 1440 (a day)',
  }),
  gitTimeoutSeconds: positive(3600).default(120).register(registry, {
    flag: 'git-timeout-seconds',
    arg: 'SECONDS',
    commands: RUN,
    help: "Each of agent-loop's own git network calls (push, fetch, ls-remote) may take SECONDS: past them its processes are ended and it is tried once more; a landing (all its pushes and fetches) gets three times as long. A landing that runs out is a landing failure, tried again by a later run.",
    expected: 'a number of seconds > 0, at most 3600 (an hour)',
  }),
  maxRetriesPerStep: int(0, 100).default(3).register(registry, {
    flag: 'max-retries-per-step',
    arg: 'N',
    commands: RUN,
    help: 'Retries of a failing step (tests failing, transient agent failures), and step-back transitions allowed in one cycle, before the cycle is escalated.',
    expected: 'a whole number from 0 to 100',
  }),
  maxIterationsPerIssue: int(0, 1_000_000)
    .default(20)
    .register(registry, {
      flag: 'max-iterations-per-issue',
      arg: 'N',
      commands: RUN,
      help: (n) =>
        `Agent runs of one issue that may end with its work still remaining (a cycle of K issues, with ${n('batch')}, gets K times as many): at the N-th the cycle is escalated as stuck (its work kept as wip:), not run until ${n('maxIterations')}. Failed runs and rejected work do not count (${n('maxRetriesPerStep')} bounds those). 0: no limit. Not used by ${n('workflow', 'tdd')}, whose phases are judged by the tests each run.`,
      expected: 'a whole number from 0 to 1000000',
    }),
  maxConsecutiveEscalations: int(1, 100).default(2).register(registry, {
    flag: 'max-consecutive-escalations',
    arg: 'N',
    commands: RUN,
    help: 'Escalated cycles in a row, with no successful cycle between them, before the run halts (FAILURE LOOP DETECTED).',
    expected: 'a whole number from 1 to 100',
  }),
};
