/**
 * Options (src/config/options.ts's schema, in this order): Where a run reads its options and its issues:
 * the options file, the issue source and the beads file.
 */
import { z } from 'zod';
import { SOURCE_NAMES, sourcesSaid } from '../../issues/catalog.js';
import { registry, RUN, ALL } from './kinds.js';

export const inputOptions = {
  config: z.string().min(1).optional().register(registry, {
    flag: 'config',
    arg: 'FILE',
    commands: ALL,
    defaultText: '.agent-loop.yml if it exists',
    help: 'YAML file of options (kebab-case keys, same names as the flags).',
    expected: 'a path to a YAML file',
  }),
  source: z
    .enum(SOURCE_NAMES)
    .default('beads')
    .register(registry, {
      flag: 'source',
      arg: SOURCE_NAMES.join('|'),
      commands: RUN,
      help: `Where issues come from: ${sourcesSaid('cli')}.`,
      expected: `one of ${SOURCE_NAMES.join(', ')}`,
    }),
  issuesFile: z.string().min(1).default('.beads/issues.jsonl').register(registry, {
    flag: 'issues-file',
    arg: 'PATH',
    commands: RUN,
    help: 'The beads JSONL file, read and rewritten directly when bd is not on PATH.',
    expected: 'a path',
  }),
};
