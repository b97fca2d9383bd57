/** The one config parse as the CLI runs it (argv, then loadConfig), and the messages of its ConfigError. */
import { parseArgs } from '../../src/config/argv.js';
import { loadConfig } from '../../src/config/load.js';
import { ConfigError } from '../../src/config/problems.js';

export const load = (argv: string[], env: NodeJS.ProcessEnv = {}, files: Record<string, string> = {}) => {
  const args = parseArgs(argv);
  return loadConfig({
    command: args.command ?? 'run',
    flags: args.values,
    env,
    readFile: (p) => {
      if (p in files) return files[p] as string;
      throw Object.assign(new Error('missing'), { code: 'ENOENT' });
    },
  });
};
export const problemsOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    if (error instanceof ConfigError) return error.problems.map((p) => p.message);
    throw error;
  }
  throw new Error('expected a ConfigError');
};
