/**
 * What the configuration reports: one problem per invalid value or combination, naming the option,
 * and the error that carries them all.
 */

/** One invalid value: which option, what was given, where it came from, what is expected. */
export interface ConfigProblem {
  option: string;
  message: string;
}

export class ConfigError extends Error {
  constructor(readonly problems: ConfigProblem[]) {
    super(problems.map((p) => p.message).join('\n'));
    this.name = 'ConfigError';
  }
}
