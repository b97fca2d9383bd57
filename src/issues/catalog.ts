/**
 * The issue sources agent-loop can read, as data: one entry per source, everything the rest of the
 * code says or decides about a source by its name (the --source values and their help, where a
 * source can be built, whether its issues live in the repository). A pure table every layer may read
 * (rule words-are-leaves in .dependency-cruiser.cjs: it imports nothing); how each source is built is
 * its line in src/issues/registry.ts. Adding a source: docs/architecture.md, "Adding an issue source".
 */

export interface IssueSourceEntry {
  /** The source in --source's help, as the CLI and as the action say it. */
  readonly says: { readonly cli: string; readonly action: string };
  /** Who can build it: any run, or only the action, which holds the service's token and repository. */
  readonly builtBy: 'any' | 'action';
  /** Its name in a sentence ("the GitHub issue source"). */
  readonly title: string;
  /**
   * Its issues live in the repository's files (the beads file): closing one is committed with the
   * work it lands with, a label set on a runner does not last, and in the action a finished cycle
   * must be pushed (a branch left on the runner is lost).
   */
  readonly inRepository: boolean;
  /**
   * In the action, a finished cycle lands as a pull request whatever on-success says: the pull
   * request's merge closes the issues on the service ("Fixes #N").
   */
  readonly landsAsPullRequest: boolean;
  /** Its issues have pages on the site the action reports to: the job summary links them. */
  readonly linked: boolean;
  /** The action's fan-out works on it: its issues can be claimed across a wave's jobs (a label on the service). */
  readonly fansOut: boolean;
}

export const ISSUE_SOURCES = {
  beads: {
    says: {
      cli: 'the bd CLI when on PATH, else the JSONL file',
      action: 'the bd CLI or the JSONL file in the repository',
    },
    builtBy: 'any',
    title: 'the beads issue source',
    inRepository: true,
    landsAsPullRequest: false,
    linked: false,
    fansOut: false,
  },
  github: {
    says: { cli: 'the action', action: 'open issues carrying the label' },
    builtBy: 'action',
    title: 'the GitHub issue source',
    inRepository: false,
    landsAsPullRequest: true,
    linked: true,
    fansOut: true,
  },
} as const satisfies Record<string, IssueSourceEntry>;

export type SourceName = keyof typeof ISSUE_SOURCES;

/** The --source values, in the catalog's order. */
export const SOURCE_NAMES = Object.keys(ISSUE_SOURCES) as [SourceName, ...SourceName[]];

/** The entry of `name`, or undefined when it names no source (a string from outside). */
export const sourceEntry = (name: string): IssueSourceEntry | undefined =>
  Object.hasOwn(ISSUE_SOURCES, name) ? (ISSUE_SOURCES as Record<string, IssueSourceEntry>)[name] : undefined;

/** "beads (…) or github (…)": the sources with what each is, `first` first, in the words of `surface`. */
export function sourcesSaid(surface: 'cli' | 'action', first: SourceName = SOURCE_NAMES[0]): string {
  const names = [first, ...SOURCE_NAMES.filter((name) => name !== first)];
  const said = names.map((name) => `${name} (${ISSUE_SOURCES[name].says[surface]})`);
  return said.length < 2 ? (said[0] ?? '') : `${said.slice(0, -1).join(', ')} or ${said[said.length - 1]}`;
}
