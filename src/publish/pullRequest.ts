/**
 * The action's way to land a finished cycle: push its branch `agent-loop/issue-<n>` and open a pull
 * request that closes the issue when merged (a draft with `draft-pr`), then label the issue
 * PR_OPEN_LABEL so later runs leave it alone. Re-runs reuse the branch (fetched before the cycle)
 * and the open pull request instead of duplicating them. Beads issues live in the repository: their
 * pull request names them (a hidden marker lists their ids, which `inReview` reads back), the issue's
 * closing travels in the branch, and no label is set; with on-success merge their work is pushed to
 * the base branch instead (`pushToBase`).
 */
import { existsSync, promises as fs } from 'node:fs';
import path from 'node:path';
import { cycleBranchName } from '../core/branch.js';
import { GitError, type Git } from '../git/git.js';
import { DEFAULT_NETWORK_LIMITS, type LandingLimits, type NetworkLimits, networkRunner } from '../git/network.js';
import type { GitHubIssueSource } from '../issues/github/issueSource.js';
import type { ListedPullRequest } from '../issues/github/pullRequests.js';
import { PR_OPEN_LABEL } from '../issues/types.js';
import { type CyclePublisher, type CycleWork, LandingError, type PublishedPullRequest } from '../loop/publish.js';
import {
  type LandingContext,
  type LandingStep,
  classifyLandingFailure,
  issueGone,
  pushFoundSecret,
} from './landingFailures.js';
import { NOTES_REF, type NotesGit, fetchNotesArgs, notesGit, pushNotesArgs } from '../workflows/tdd/notes.js';
import { mergeBundledNotes, publishableNotes } from './landingNotes.js';
import { pullRequestBody } from './pullRequestBody.js';
import { draftsRefused, heldDiff } from './heldWork.js';
import { heldLabel } from '../core/held.js';

export interface PullRequestPublisherOptions {
  git: Git;
  /** Opens (or reuses) the pull request; labels the GitHub issues it closes (absent for beads issues). */
  github: Pick<GitHubIssueSource, 'openPullRequest'> & Partial<Pick<GitHubIssueSource, 'addLabel'>>;
  /**
   * Beads issues: the issues file (named in the pull request's body, closed on the branch) and the
   * repository's open pull requests from agent-loop/ branches, for `inReview`.
   */
  beads?: { issuesFile: string; openPullRequests?: () => Promise<ListedPullRequest[]> };
  /** owner/repo, for the log. */
  repository: string;
  /** The git remote to push to. Default origin. */
  remote?: string;
  /**
   * The credentials of the notes' push and fetch (remoteAuth.ts); the branch's go through `git`,
   * opened with the same. Nothing else holds them.
   */
  remoteEnv?: Record<string, string>;
  draft: boolean;
  /** Test command, named in the pull request's body. */
  testCommand: string;
  /** The workflow run's page, linked from the pull request's body (issue 15). */
  runUrl?: string;
  redact: (text: string) => string;
  /**
   * --workflow tdd: also fetch and push the git notes (refs/notes/agent-loop), which actions/checkout
   * does not fetch; a failure is told to `warn` (the branch and pull request are what matter).
   */
  notes?: { warn: (message: string) => void; git?: NotesGit };
  /**
   * Where the work of a branch GitHub did not take (its push failed) is kept as a git bundle, for
   * the next runner to land: a folder of the state directory, which travels between runs. Not when
   * GitHub's push protection found a secret in those commits: the state directory is published.
   */
  keepDir?: string;
  /** Told what went wrong keeping a bundle (the landing itself goes on). Default: the notes' warn. */
  warn?: (message: string) => void;
  /**
   * The timeout and retry of the landing's pushes and fetches, and with `landing` its overall deadline
   * (src/git/network.ts's networkLimits, from git-timeout-seconds). Default: DEFAULT_NETWORK_LIMITS, no deadline.
   */
  network?: NetworkLimits | LandingLimits;
}

/** The landing's git side, shared by the publisher's methods: pushes with the notes, bundles, classified steps. */
interface Landing {
  options: PullRequestPublisherOptions;
  remote: string;
  /** git beside `git` for the notes and the bundles, with the same credentials in its environment only. */
  raw: ReturnType<typeof notesGit>;
  /** `raw` for the calls that reach the remote (push, fetch): each timed and retried, within the landing's deadline. */
  net: ReturnType<typeof notesGit>;
  /** Runs `work` as one landing, under the landing's deadline (LandingLimits.landing). */
  within<T>(work: () => Promise<T>): Promise<T>;
  notes: NotesGit | undefined;
  pushNotes(): Promise<void>;
  /** The branch, then the notes. */
  push(branch: string): Promise<void>;
  bundleOf(branch: string): string | undefined;
  hasNotes(): Promise<boolean>;
  dropBundle(branch: string): Promise<void>;
  /** One step of landing: a failure is classified (refused with its fix, or transient) and thrown as LandingError. */
  step<T>(name: LandingStep, ctx: LandingContext, run: () => Promise<T>): Promise<T>;
}

function createLanding(options: PullRequestPublisherOptions): Landing {
  const { git } = options;
  const remote = options.remote ?? 'origin';
  const env = { ...process.env, ...options.remoteEnv };
  const raw = notesGit(git.topLevel, env, git.author);
  const limits = options.network ?? DEFAULT_NETWORK_LIMITS;
  const net = networkRunner(git.topLevel, env, git.author, limits);
  const within: Landing['within'] = (work) => ('landing' in limits ? (limits as LandingLimits).landing(work) : work());
  const notes = options.notes ? (options.notes.git ?? net) : undefined;
  const hasNotes = publishableNotes(notes, git, (m) => (options.notes?.warn ?? options.warn)?.(options.redact(m)));
  const pushNotes = async () => {
    if (!notes || !(await hasNotes())) return;
    const r = await notes.run(pushNotesArgs(remote));
    if (r.code !== 0)
      options.notes?.warn(
        `could not push the git notes ${NOTES_REF} to ${remote}: ${options.redact(r.stderr.trim().split('\n').slice(-2).join(' / '))}`,
      );
  };
  const bundleOf = (branch: string) => (options.keepDir ? path.join(options.keepDir, bundleName(branch)) : undefined);
  return {
    options,
    remote,
    raw,
    net,
    within,
    notes,
    pushNotes,
    async push(branch) {
      // Not --quiet: the remote's own lines (GitHub's GH006, a hook's reason) say why a push is refused.
      const args = ['push', '--no-verify', '--no-follow-tags', remote, `refs/heads/${branch}:refs/heads/${branch}`];
      const r = await net.run(args);
      if (r.code !== 0) throw new GitError(args, r.code, r.stderr || r.stdout);
      await pushNotes();
    },
    bundleOf,
    hasNotes,
    async dropBundle(branch) {
      const kept = bundleOf(branch);
      if (kept) await fs.rm(kept, { force: true });
    },
    async step(name, ctx, run) {
      try {
        return await run();
      } catch (error) {
        const failure = classifyLandingFailure(name, error, ctx);
        throw new LandingError({
          ...failure,
          message: options.redact(failure.message),
          ...(failure.advice ? { advice: options.redact(failure.advice) } : {}),
        });
      }
    },
  };
}

/**
 * The branch's commits beyond the base, kept for the next runner, with the git notes (tdd: the
 * phase notes the next run resumes from, whose push failed too); best effort (the outbox entry
 * stands anyway).
 */
async function keepBundle(landing: Landing, branch: string, base: string): Promise<void> {
  const { options, raw } = landing;
  const file = landing.bundleOf(branch);
  if (!file) return;
  let why: string;
  try {
    await fs.mkdir(path.dirname(file), { recursive: true });
    const refs = [`refs/heads/${branch}`, `^refs/heads/${base}`, ...((await landing.hasNotes()) ? [NOTES_REF] : [])];
    const r = await raw.run(['bundle', 'create', file, ...refs]);
    if (r.code === 0) return;
    why = r.stderr.trim();
  } catch (error) {
    why = (error as Error).message;
  }
  (options.warn ?? options.notes?.warn)?.(`could not keep ${branch} as a bundle: ${options.redact(why)}`);
}

async function fetchBranch(landing: Landing, branch: string): Promise<boolean> {
  const { notes, raw, remote } = landing;
  // The notes first: the workflow resumes from the newest note on the branch. None yet is fine.
  if (notes) await notes.run(fetchNotesArgs(remote));
  const fromRemote = await landing.options.git.fetchBranch(remote, branch);
  // An earlier runner whose push failed kept the work as a bundle: it wins when it holds what the
  // remote has and more (a fast-forward; the remote may hold only an older wip: of the cycle).
  const file = landing.bundleOf(branch);
  if (!file || !existsSync(file)) return fromRemote;
  const r = await raw.run(['fetch', '--quiet', '--no-tags', file, `refs/heads/${branch}:refs/heads/${branch}`]);
  if (notes) await mergeBundledNotes(notes, file, r.code === 0 ? 'theirs' : 'ours');
  return r.code === 0 || fromRemote;
}

/** The work's one title, or the issues it closes. */
function pullRequestTitle(work: CycleWork, beads: boolean): string {
  return work.titles.length === 1
    ? (work.titles[0] ?? work.branch)
    : `agent-loop: ${work.issueIds.map((id) => (beads ? id : `#${id}`)).join(', ')}`;
}

async function publishPullRequest(landing: Landing, work: CycleWork): Promise<PublishedPullRequest> {
  const { options, step } = landing;
  const ctx: LandingContext = { repository: options.repository, branch: work.branch, base: work.base };
  await step('push', ctx, async () => {
    try {
      await landing.within(() => landing.push(work.branch));
    } catch (error) {
      // Kept for the next runner, unless what GitHub refused is a secret in it (the bundle is published).
      if (!pushFoundSecret(error)) await keepBundle(landing, work.branch, work.base);
      else await landing.dropBundle(work.branch);
      throw error;
    }
  });
  const told = {
    ...(await commitsOf(landing.raw, work)),
    ...(options.runUrl ? { runUrl: options.runUrl } : {}),
    ...(work.held?.paths?.length ? await heldDiff(landing.raw, work, work.held.paths) : {}),
  };
  const pr = await step('pull_request', ctx, () =>
    openPullRequest(landing, work, pullRequestBody(work, options.testCommand, options.beads, told)),
  );
  // Held for a person (issue 42): the pull request carries the label; the issues got theirs with the note.
  if (work.held) await labelPullRequest(landing, ctx, pr, heldLabel(work.held.reason));
  else await labelIssues(landing, ctx, work, pr);
  await landing.dropBundle(work.branch);
  return pr;
}

/**
 * Opens (or reuses) the pull request: a draft with `draft-pr`, and always for held work (issue 42).
 * Where the repository has no draft pull requests (GitHub answers 422 "Draft pull requests are not
 * supported in this repository.": private repositories on the Free and Pro plans), held work is opened
 * as a regular pull request, said in the log; its label says that agent-loop does not merge it.
 */
async function openPullRequest(landing: Landing, work: CycleWork, body: string): Promise<PublishedPullRequest> {
  const { options } = landing;
  const ask = (draft: boolean) =>
    options.github.openPullRequest({
      head: work.branch,
      base: work.base,
      draft,
      title: pullRequestTitle(work, !!options.beads),
      body,
    });
  if (!work.held) return ask(options.draft);
  try {
    return { ...(await ask(true)), draft: true };
  } catch (error) {
    if (!draftsRefused(error)) throw error;
    (options.warn ?? options.notes?.warn)?.(
      `${options.repository} has no draft pull requests (GitHub answered: ${options.redact((error as Error).message)}; ` +
        `drafts need a public repository or the GitHub Team plan): the work held for a person (${heldLabel(work.held.reason)}) ` +
        `goes in a regular pull request instead, labelled so; agent-loop does not merge it.`,
    );
    return { ...(await ask(false)), draft: false };
  }
}

/** The held label on the pull request itself (a pull request is an issue to GitHub's labels API). */
async function labelPullRequest(landing: Landing, ctx: LandingContext, pr: PublishedPullRequest, label: string) {
  const add = landing.options.github.addLabel?.bind(landing.options.github);
  if (add) await landing.step('label', { ...ctx, issue: String(pr.number) }, () => add(String(pr.number), label));
}

/** PR_OPEN_LABEL on each GitHub issue the pull request closes; an issue gone since is told, not fatal. */
async function labelIssues(landing: Landing, ctx: LandingContext, work: CycleWork, pr: PublishedPullRequest) {
  const { options } = landing;
  const label = options.github.addLabel?.bind(options.github);
  if (label)
    for (const id of work.issueIds)
      await landing.step('label', { ...ctx, issue: id }, async () => {
        try {
          await label(id, PR_OPEN_LABEL);
        } catch (error) {
          // Deleted or transferred since: it can never be labelled, and the pull request is the work.
          if (!issueGone(error)) throw error;
          (options.warn ?? options.notes?.warn)?.(
            `issue #${id} of ${options.repository} is gone (deleted or transferred): it is not labelled ${PR_OPEN_LABEL}; ` +
              `pull request #${pr.number} holds the work (${options.redact((error as Error).message)})`,
          );
        }
      });
}

async function pushWorkToBase(landing: Landing, work: CycleWork): Promise<void> {
  const { options } = landing;
  const ctx: LandingContext = { repository: options.repository, branch: work.base, base: work.base };
  await landing.step('push', ctx, async () => {
    try {
      await landing.within(() => pushOntoBase(landing, work, options.redact));
    } catch (error) {
      if (!pushFoundSecret(error)) await keepBundle(landing, work.branch, work.base);
      throw error;
    }
  });
  await landing.within(() => landing.pushNotes());
  await landing.dropBundle(work.branch);
}

export function createPullRequestPublisher(options: PullRequestPublisherOptions): CyclePublisher {
  const landing = createLanding(options);
  return {
    description: `pull requests to ${options.repository}`,
    fetchBranch: (branch) => fetchBranch(landing, branch),
    async keep(branch) {
      try {
        await landing.within(() => landing.push(branch));
      } catch (error) {
        throw new Error(`could not push ${branch} to ${landing.remote} (${options.redact((error as Error).message)})`);
      }
    },
    publish: (work: CycleWork) => publishPullRequest(landing, work),
    pushToBase: (work: CycleWork) => pushWorkToBase(landing, work),
    ...(options.beads?.openPullRequests
      ? { inReview: (ids: readonly string[]) => inReview(options.beads!.openPullRequests!, ids) }
      : {}),
    stash: (branch: string, base: string) => keepBundle(landing, branch, base),
  };
}

/** Pushes attempts at most: a base that keeps moving between the fetch and the push is a transient failure. */
const PUSH_ATTEMPTS = 3;

/**
 * Pushes the cycle branch (checked out) onto the base branch on the remote as a fast-forward. When the
 * base moved there since the cycle started, it is fetched and merged into the cycle branch, and the
 * push tried again; a conflict is thrown as git's refusal (classified: the base moved and conflicts).
 */
async function pushOntoBase(landing: Landing, work: CycleWork, redact: (text: string) => string): Promise<void> {
  const { raw, net, remote } = landing;
  for (let attempt = 1; ; attempt++) {
    const args = [
      'push',
      '--no-verify',
      '--no-follow-tags',
      remote,
      `refs/heads/${work.branch}:refs/heads/${work.base}`,
    ];
    const pushed = await net.run(args);
    if (pushed.code === 0) return;
    if (!/\[rejected\].*\((fetch first|non-fast-forward)\)/.test(pushed.stderr))
      throw new GitError(args, pushed.code, pushed.stderr);
    if (attempt >= PUSH_ATTEMPTS)
      throw new Error(`${work.base} on ${remote} moved again during each of ${PUSH_ATTEMPTS} attempts to push onto it`);
    const fetch = ['fetch', '--quiet', '--no-tags', remote, `refs/heads/${work.base}`];
    const fetched = await net.run(fetch);
    if (fetched.code !== 0) throw new GitError(fetch, fetched.code, fetched.stderr);
    const merge = ['merge', '--no-edit', '-m', `Merge ${work.base} from ${remote} into ${work.branch}`, 'FETCH_HEAD'];
    const merged = await raw.run(merge);
    if (merged.code !== 0) {
      await raw.run(['merge', '--abort']);
      throw new GitError(merge, merged.code, redact(`${merged.stdout}\n${merged.stderr}`));
    }
  }
}

/** Of `ids`, those an open pull request carries (its marker, or the branch of that one issue). */
async function inReview(
  list: () => Promise<ListedPullRequest[]>,
  ids: readonly string[],
): Promise<Map<string, { number: number; url: string }>> {
  const found = new Map<string, { number: number; url: string }>();
  for (const pr of await list()) {
    const marked = /<!-- agent-loop:issues ([^>]*?) -->/.exec(pr.body)?.[1]?.split(/\s+/) ?? [];
    for (const id of ids)
      if (!found.has(id) && (marked.includes(id) || pr.head === cycleBranchName([id])))
        found.set(id, { number: pr.number, url: pr.url });
  }
  return found;
}

/** The pull request's commits told in its body, at most; the rest counted. */

/**
 * The branch's commits beyond the base (`%h %s`, oldest first) and its diffstat: 2 git calls, best
 * effort (a failure tells nothing, the pull request opens anyway).
 */
async function commitsOf(
  raw: ReturnType<typeof notesGit>,
  work: CycleWork,
): Promise<{ commits?: string[]; diffstat?: string }> {
  const range = `refs/heads/${work.base}..refs/heads/${work.branch}`;
  const log = await raw.run(['log', '--reverse', '--no-merges', '--format=%h %s', range]).catch(() => undefined);
  const stat = await raw
    .run(['diff', '--shortstat', `refs/heads/${work.base}...refs/heads/${work.branch}`])
    .catch(() => undefined);
  const commits = log?.code === 0 ? log.stdout.split('\n').filter((l) => l.trim() !== '') : [];
  const diffstat = stat?.code === 0 ? stat.stdout.trim() : '';
  return { ...(commits.length ? { commits } : {}), ...(diffstat ? { diffstat } : {}) };
}

/** The file a branch GitHub did not take is kept as, in the keep directory (the state directory's outbox/). */
export function bundleName(branch: string): string {
  return `${branch.replace(/[^\w.-]+/g, '-')}.bundle`;
}

export { issuesMarker, pullRequestBody } from './pullRequestBody.js';
