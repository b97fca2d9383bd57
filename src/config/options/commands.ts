/**
 * Options (src/config/options.ts's schema, in this order): The options of status and cleanup, and the JSON
 * output of every command.
 */
import { registry, ALL, nonNegative, flagSwitch } from './kinds.js';

export const commandOptions = {
  json: flagSwitch().register(registry, {
    flag: 'json',
    commands: ALL,
    help: 'stdout becomes NDJSON events; the last line is the result.',
    expected: 'true or false',
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
