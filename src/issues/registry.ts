/**
 * The issue sources by name: one line per source, how it is built from what its builder holds. A
 * source any run builds (builtBy 'any' in catalog.ts) takes the repository and --issues-file; a source
 * only the action builds takes what the action holds for its service (the client, the repository, the
 * label). What is said and decided about each source by name is its entry in catalog.ts; the compiler
 * requires a line here for every entry there.
 */
import path from 'node:path';
import type { Options } from '../config/options.js';
import type { Terms } from '../config/surface.js';
import { ISSUE_SOURCES, type SourceName } from './catalog.js';
import { GitHubIssueSource, type GitHubIssueSourceOptions } from './github/issueSource.js';
import { createBeadsSource } from './index.js';
import type { IssueSource, SourceWarning } from './types.js';

/** What a run holds for a source any run builds: the repository, the run's options and environment. */
export interface RunSourceContext {
  /** The repository: a relative issues file resolves against it, bd runs there. */
  cwd: string;
  /** The run's options (a source reads its own: --issues-file for beads). */
  options: Pick<Options, 'issuesFile'>;
  /** The run's environment (a service's token; masked as config/secrets.ts lists them). */
  env: NodeJS.ProcessEnv;
  /** Whose words its errors use (default: the CLI's). */
  terms?: Terms;
  onWarning: SourceWarning;
}

export type SourceFactory<Context> = (context: Context) => IssueSource | Promise<IssueSource>;

export const SOURCE_FACTORIES = {
  // An explicit --issues-file means that file, even when bd is installed.
  beads: ((c) =>
    createBeadsSource({
      issuesFile: path.resolve(c.cwd, c.options.issuesFile),
      cwd: c.cwd,
      ...(c.terms ? { terms: c.terms } : {}),
      preferCli: c.options.issuesFile === '.beads/issues.jsonl',
      onWarning: c.onWarning,
    })) as SourceFactory<RunSourceContext>,
  github: ((options) => new GitHubIssueSource(options)) as (options: GitHubIssueSourceOptions) => GitHubIssueSource,
} satisfies { readonly [Name in SourceName]: SourceFactory<never> };

/** The factory of a source any run builds (builtBy 'any'); undefined for one only the action builds. */
export function runSourceFactory(name: SourceName): SourceFactory<RunSourceContext> | undefined {
  return ISSUE_SOURCES[name].builtBy === 'any'
    ? (SOURCE_FACTORIES[name] as SourceFactory<RunSourceContext>)
    : undefined;
}
