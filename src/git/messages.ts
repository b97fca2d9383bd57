/** The git layer's long messages (what happened, to what, what to do next), one string each so a search finds them whole. */

/** After git's own stderr: a staged change too large to scan for secrets. */
export const STAGED_TOO_LARGE =
  'the staged change could not be read whole to scan it for secrets (more than 16 MiB of diff?); nothing was committed: remove the large files from the change, or commit them yourself';

/** After git's own stderr: the agent's commits since `base` too large to scan for secrets. */
export const commitsTooLarge = (base: string) =>
  `the commits on HEAD that ${base} does not hold could not be read whole to scan them for secrets (more than 16 MiB of diff?); nothing was committed: remove the large files from the branch's history, or commit them yourself`;

/** After git's own stderr: blobs of the change that could not be read whole (or expand past the bound) to scan them for secrets. */
export const blobsTooLarge = (files: readonly string[]) =>
  `the files ${files.slice(0, 10).join(', ')}${files.length > 10 ? ` and ${files.length - 10} more` : ''} could not be read whole to scan them for secrets as bytes (more than 64 MiB together, or a gzip or zip file expanding past 16 MiB); nothing was committed: remove them from the change and its history, or commit them yourself`;

export const mergeConflict = (branch: string, into: string, conflicted: readonly string[]) =>
  `merging ${branch} into ${into} conflicts in ${conflicted.join(', ')}; the merge was undone (git merge --abort) and ${into} is as it was before it. Merge ${branch} into ${into} by hand, then run again`;

/** `described`: the commits and their files (commitScan.ts's describeSecretCommits). */
export const secretInCommits = (described: string) =>
  `the agent's own commits add what looks like a secret (a declared secret's value or a token): ${described}; they stay on the branch, which is neither merged nor pushed`;

export const secretInFiles = (files: readonly string[]) =>
  `the change holds what looks like a secret (a declared secret's value or a token) in ${files.join(', ')}`;

export const laneRewound = (head: string, from: string, to: string) =>
  `${head} was taken back from ${from} to ${to}, which does not hold it (a reset below agent-loop's last commit on it: what was tested would not be what lands)`;

export const untrackedInTheWay = (inTheWay: readonly string[]) =>
  `the branch adds ${inTheWay.join(', ')}, which your checkout holds untracked or ignored: git would overwrite ${inTheWay.length === 1 ? 'it' : 'them'}`;
