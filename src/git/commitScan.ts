/**
 * The secret scan of the commits the agent made itself (`git commit` in its own shell): a token it
 * committed, then removed in a later commit, is in no final diff, yet merging or pushing the branch
 * publishes it in the history. Every commit HEAD holds that the base branch does not is read in one
 * `git log -p` (commitLogArgs) and judged here, line by line as the staged change is. Pure.
 */

/** A commit of the agent's that adds a secret: where, never the secret. */
export interface SecretCommit {
  commit: string;
  /** Files whose added lines hold a secret. */
  files: string[];
  /** Its message holds one. */
  inMessage: boolean;
}

/**
 * The one `git log` that reads, parents before children, every commit HEAD holds and `base` (a local branch)
 * does not: each as NUL, its commit and parents, NUL, its message, NUL, then its patch. Pinned
 * against what the repository's configuration could change in the output (prefixes, colours, an
 * external diff or textconv, signatures), and against replace refs an agent could write to show
 * other content than what a push carries. Merges show only what no parent had (--cc): the engine's
 * merge of the base into the branch adds nothing, an agent's evil merge does.
 */
export function commitLogArgs(base: string): string[] {
  return [
    '--no-replace-objects',
    'log',
    '--reverse',
    '--topo-order',
    '--root',
    '--no-color',
    '--no-ext-diff',
    '--no-textconv',
    '--no-show-signature',
    '--no-relative',
    '--src-prefix=a/',
    '--dst-prefix=b/',
    '-p',
    '--cc',
    '-U0',
    '--format=%x00%H %P%x00%B%x00',
    `refs/heads/${base}..HEAD`,
    '--',
  ];
}

/**
 * Per file, the secrets a patch's added lines hold, and all those its removed lines held. A line
 * added against every parent counts (a merge's lines carry one column per parent); headers only
 * outside a hunk, so an added line reading `++ x` is not taken for a file's name. A file's name is
 * scanned as its lines are (a new or renamed name as added, an old one as removed): a file named
 * with a token publishes it in the tree as surely as its content would.
 */
export function patchSecrets(
  patch: string,
  holdsSecret: (line: string) => string[],
): { added: Array<{ file: string; secrets: string[] }>; removed: Set<string> } {
  const added: Array<{ file: string; secrets: string[] }> = [];
  const removed = new Set<string>();
  let file = '';
  let width = 0; // 0: outside a hunk; else the columns of a line's prefix (the parents compared)
  for (const line of patch.split('\n')) {
    if (line.startsWith('diff ')) width = 0;
    else if (line.startsWith('@@')) width = (/^@+/.exec(line)?.[0].length ?? 2) - 1;
    else if (width === 0) {
      const named = /^(\+\+\+ |rename to |copy to )/.exec(line);
      if (named) {
        file = line.slice(named[0].length).replace(/^b\//, '');
        const secrets = holdsSecret(file);
        if (secrets.length > 0) added.push({ file, secrets });
      } else if (/^(--- |rename from |copy from )/.test(line)) for (const s of holdsSecret(line)) removed.add(s);
    } else {
      const prefix = line.slice(0, width);
      if (prefix.includes('-')) for (const s of holdsSecret(line.slice(width))) removed.add(s);
      else if (/^\++$/.test(prefix)) added.push({ file, secrets: holdsSecret(line.slice(width)) });
    }
  }
  return { added, removed };
}

/** The files of `added` whose secrets are not in `before` (the repository held them already), once each. */
export function filesAdding(added: Array<{ file: string; secrets: string[] }>, before: ReadonlySet<string>): string[] {
  return [...new Set(added.filter((a) => a.secrets.some((s) => !before.has(s))).map((a) => a.file))];
}

const COMMIT_LINE = /^[0-9a-f]{40,64}( [0-9a-f]{40,64})*$/;

/**
 * The commits of a commitLogArgs log that add a secret, oldest first; undefined when the log is not
 * of that shape (then it cannot be scanned, and nothing goes unscanned). A secret first seen on a
 * removed line was the repository's before the range (a user's fixture, moved or rewritten): only
 * one a commit brings in counts, as in the staged change; a commit removing it does not undo that.
 * A message counts whatever it holds: it is new text wherever the secret came from.
 */
export function secretCommits(log: string, holdsSecret: (line: string) => string[]): SecretCommit[] | undefined {
  if (log.trim() === '') return [];
  const fields = log.split('\0');
  if (fields[0]?.trim() !== '' || (fields.length - 1) % 3 !== 0) return undefined;
  const before = new Set<string>();
  const seen = new Set<string>();
  const hits: SecretCommit[] = [];
  for (let i = 1; i < fields.length; i += 3) {
    const [header, message, patch] = [fields[i] ?? '', fields[i + 1] ?? '', fields[i + 2] ?? ''];
    if (!COMMIT_LINE.test(header)) return undefined;
    const { added, removed } = patchSecrets(patch, holdsSecret);
    for (const s of removed) if (!seen.has(s)) before.add(s);
    const files = filesAdding(added, new Set([...before, ...removed]));
    const inMessage = message.split('\n').some((line) => holdsSecret(line).length > 0);
    for (const s of [...removed, ...added.flatMap((a) => a.secrets)]) seen.add(s);
    if (files.length > 0 || inMessage) hits.push({ commit: header.split(' ')[0] as string, files, inMessage });
  }
  return hits;
}

/** The commits in a sentence: each by its short id, with its files and whether its message holds a secret. */
export function describeSecretCommits(hits: readonly SecretCommit[]): string {
  return hits
    .map((h) => `${h.commit.slice(0, 12)} (${[...h.files, ...(h.inMessage ? ['its message'] : [])].join(', ')})`)
    .join(', ');
}
