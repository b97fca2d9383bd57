/**
 * A pull request's body, made of the cycle's work: pure text. Posted by the publisher
 * (pullRequest.ts), redacted where it is posted (pullRequests.ts), like every text that reaches GitHub.
 */
import { PR_OPEN_LABEL } from '../issues/types.js';
import { heldLabel, heldWords } from '../core/held.js';
import type { CycleWork } from '../loop/publish.js';
import { fencedBlock, oneLine } from '../report/markdown.js';
import { dollars } from '../util/dollars.js';

/** The most commits a body lists. */
export const COMMITS_SHOWN = 20;

/** Marks the beads issues a pull request carries, in its body: `inReview` reads them back. */
export const issuesMarker = (ids: readonly string[]) => `<!-- agent-loop:issues ${ids.join(' ')} -->`;

/** Inline code whatever the text holds (a backtick would end it early). */
const code = (text: string) => `\`${oneLine(text).replace(/`/g, "'")}\``;

/**
 * `Closes #n` for each issue (GitHub closes them when the pull request is merged), or the beads
 * issues it fixes (closed in the branch's issues file, behind a marker); then what was done (the
 * issues and their titles, the agent's own summary, the commits and diffstat), the verdict (against
 * the suite as it stood before: the targets that pass now, the failures that were there before and
 * are left alone), the iterations and spend, and what merging does. Redacted where it is posted
 * (pullRequests.ts), like every text that reaches GitHub.
 */
/** What a body is made of: the cycle's work, with its issues' titles. */
type BodyWork = Pick<
  CycleWork,
  'issueIds' | 'iteration' | 'verdict' | 'preexisting' | 'targets' | 'summary' | 'iterations' | 'costUsd' | 'held'
> & { titles?: string[] };

/**
 * What the branch holds beyond the base, and where the run is; held work (issue 42): the diff of the
 * protected paths it changed, bounded (`heldDiffCut`: characters left out).
 */
type BodyMore = { commits?: string[]; diffstat?: string; runUrl?: string; heldDiff?: string; heldDiffCut?: number };

/** The most characters of a held change's diff a body shows (GitHub takes 65,536 in all). */
export const HELD_DIFF_CHARS = 30_000;

export function pullRequestBody(
  work: BodyWork,
  testCommand: string,
  beads?: { issuesFile: string },
  more: BodyMore = {},
): string {
  const one = work.issueIds.length === 1;
  const refs = beads
    ? [
        issuesMarker(work.issueIds),
        `${work.held ? 'The work on' : 'Fixes'} the beads issue${one ? '' : 's'} ${beadsIssues(work)} of \`${beads.issuesFile}\`, ` +
          `${work.held ? 'left open there with a note in this branch' : 'closed there in this branch'}.`,
      ]
    : work.issueIds.map((id) => `Closes #${id}`);
  const issueLabel = work.held ? heldLabel(work.held.reason) : PR_OPEN_LABEL;
  const after = beads
    ? `Merging lands the work and closes ${one ? 'the issue' : 'the issues'} on the base branch; while ` +
      `this pull request is open agent-loop does not work on ${one ? 'it' : 'them'} again. To have agent-loop ` +
      `work on ${one ? 'it' : 'them'} again instead, close this pull request and delete its branch.`
    : `Merging closes ${one ? 'the issue' : 'the issues'}; to have agent-loop work on ${one ? 'it' : 'them'} ` +
      `again instead, close this pull request and remove the \`${issueLabel}\` label.`;
  const facts = [
    work.iterations !== undefined ? `${work.iterations} iteration${work.iterations === 1 ? '' : 's'}` : '',
    work.costUsd !== undefined ? `${dollars(work.costUsd)} reported by the agent` : '',
    more.runUrl ? `[the workflow run](${more.runUrl})` : '',
  ].filter(Boolean);
  return [
    ...refs,
    '',
    `agent-loop worked on ${one ? 'this issue' : 'these issues'} until the tests accepted the work.`,
    '',
    ...heldSection(work, one, more),
    ...whatWasDone(work, beads !== undefined, more),
    ...verdictSection(work, testCommand),
    ...(facts.length ? [`${facts.join(' · ')}.`, ''] : []),
    after,
  ].join('\n');
}

/** The beads issues with their titles: `bd-1 (Title), bd-2`. */
const beadsIssues = (work: BodyWork) =>
  work.issueIds.map((id, i) => `${id}${work.titles?.[i] ? ` (${work.titles[i]})` : ''}`).join(', ');

/**
 * Held for a person (issue 42): why agent-loop does not merge it, what to do, and (tests changed) the
 * diff of the protected paths, bounded. Nothing for other work.
 */
function heldSection(work: BodyWork, one: boolean, more: BodyMore): string[] {
  const held = work.held;
  if (!held) return [];
  const label = heldLabel(held.reason);
  const paths = held.paths ?? [];
  const diff = more.heldDiff?.trim() ?? '';
  return [
    `### Held for a person (\`${label}\`)`,
    '',
    `${heldWords(held.reason)}: ${oneLine(held.why)}. agent-loop does not merge this pull request nor close ` +
      `${one ? 'the issue' : 'the issues'}: review it, and merge it (marked ready for review) if the change is right.`,
    '',
    ...(paths.length
      ? [
          `The protected path${paths.length === 1 ? '' : 's'} it changed (the tests ran with the base's version):`,
          ...paths.slice(0, 30).map((p) => `- ${code(p)}`),
          ...(paths.length > 30 ? [`- … and ${paths.length - 30} more`] : []),
          '',
        ]
      : []),
    ...(diff
      ? [
          ...fencedBlock(diff, 'diff'),
          ...(more.heldDiffCut ? [`(… ${more.heldDiffCut} more characters of the diff left out)`] : []),
          '',
        ]
      : []),
  ];
}

/** "What was done": the issues and their titles, the agent's own summary, the commits and diffstat. */
function whatWasDone(work: BodyWork, beads: boolean, more: BodyMore): string[] {
  const issues = beads
    ? []
    : work.issueIds.map((id, i) => `- #${id}${work.titles?.[i] ? `: ${oneLine(work.titles[i])}` : ''}`);
  const commits = more.commits ?? [];
  return [
    '### What was done',
    '',
    ...(issues.length ? [...issues, ''] : []),
    ...(work.summary
      ? [
          "The agent's summary of its last iteration, as it wrote it:",
          '',
          // Verbatim in a code block: GitHub acts on no @mention, no `Fixes #n` and no markup in it.
          ...fencedBlock(work.summary.trim().replace(/\r\n?/g, '\n')),
          '',
        ]
      : []),
    ...(commits.length
      ? [
          `${commits.length} commit${commits.length === 1 ? '' : 's'}${more.diffstat ? ` (${more.diffstat})` : ''}:`,
          ...commits.slice(0, COMMITS_SHOWN).map((c) => `- ${code(c)}`),
          ...(commits.length > COMMITS_SHOWN ? [`- … and ${commits.length - COMMITS_SHOWN} more`] : []),
          '',
        ]
      : more.diffstat
        ? [`${more.diffstat}.`, '']
        : []),
  ];
}

/** "Verdict": against the suite as it stood before, the targets that pass now, the failures left alone. */
function verdictSection(work: BodyWork, testCommand: string): string[] {
  const pre = work.preexisting ?? [];
  const targets = work.targets ?? [];
  return [
    '### Verdict',
    '',
    `\`${testCommand}\` accepted the work against the suite as it stood before the change (iteration ` +
      `${work.iteration})${work.verdict ? `: ${work.verdict}` : ''}.`,
    '',
    ...(targets.length
      ? [
          `Passing now (the target${targets.length === 1 ? '' : 's'}):`,
          ...targets.slice(0, 30).map((id) => `- ${code(id)}`),
          '',
        ]
      : []),
    ...(pre.length
      ? [
          `Failing before this change and still failing, left alone (no issue here targets them): ${pre.length}`,
          ...pre.slice(0, 30).map((id) => `- ${code(id)}`),
          ...(pre.length > 30 ? [`- … and ${pre.length - 30} more`] : []),
          '',
        ]
      : ['No test that passed before fails now.', '']),
  ];
}
