/**
 * Options (src/config/options.ts's schema, in this order): The options of status and cleanup, and the JSON
 * output of every command.
 */
import { z } from 'zod';
import { type NameOption, type Terms, registry, ALL, RUN, nonNegative, flagSwitch } from './kinds.js';

/** Where the whole log is, whatever the console shows, in the words of the surface. */
const wholeLog = (n: NameOption, terms: Terms) =>
  terms === 'cli'
    ? `the log file (${n('logFile')}) has everything`
    : 'the whole log, with that output, is logs/run.log in the state directory (uploaded with it)';

export const commandOptions = {
  json: flagSwitch().register(registry, {
    flag: 'json',
    commands: ALL,
    help: 'stdout becomes NDJSON events; the last line is the result.',
    expected: 'true or false',
  }),
  quiet: flagSwitch().register(registry, {
    flag: 'quiet',
    commands: RUN,
    help: (n, terms) =>
      `The ${terms === 'cli' ? 'console' : "job's log"} shows only warnings, errors and the final result; ${wholeLog(n, terms)}.` +
      (terms === 'cli' ? ` With ${n('json')}, every event is written whatever this says.` : ''),
    expected: 'true or false',
  }),
  verbose: flagSwitch().register(registry, {
    flag: 'verbose',
    commands: RUN,
    help: (n, terms) =>
      `The ${terms === 'cli' ? 'console' : "job's log"} also shows the agent's and the test command's output as it is printed. ` +
      `Without it (or ${n('quiet')}), it shows what agent-loop does, each verdict and the failing tests with the first lines of their failure; ${wholeLog(n, terms)}.`,
    expected: 'true or false',
  }),
  // Not an input of the action: its log file is the state directory's, uploaded with it.
  logFile: z
    .string()
    .trim()
    .min(1)
    .optional()
    .register(registry, {
      flag: 'log-file',
      arg: 'PATH',
      commands: ['run', 'plan'],
      defaultText: '<state-dir>/logs/run.log',
      help: "The run's whole log, whatever the console shows: every event, the agent's and the test command's output, masked; replaced at each run's start, at most 32 MiB.",
      expected: 'a path',
    }),
  olderThan: nonNegative(36_500)
    .optional()
    .register(registry, {
      flag: 'older-than',
      arg: 'DAYS',
      commands: ['cleanup'],
      help: 'Delete checkpoints older than DAYS days (the newest resumable one is kept).',
      expected: 'a number of days from 0 to 36500',
    }),
  all: flagSwitch().register(registry, {
    flag: 'all',
    commands: ['cleanup'],
    help: 'Delete every checkpoint, the resumable one included.',
    expected: 'true or false',
  }),
  dryRun: flagSwitch().register(registry, {
    flag: 'dry-run',
    commands: ['cleanup'],
    help: 'Print what would be deleted and delete nothing.',
    expected: 'true or false',
  }),
};
