/**
 * The action's way to land a finished cycle: push its branch `agent-loop/issue-<n>` and open a pull
 * request that closes the issue when merged (a draft with `draft-pr`), then label the issue
 * PR_OPEN_LABEL so later runs leave it alone. Re-runs reuse the branch (fetched before the cycle)
 * and the open pull request instead of duplicating them.
 */
import { existsSync, promises as fs } from 'node:fs';
import path from 'node:path';
import type { Git } from '../git/git.js';
import type { GitHubIssueSource } from '../issues/github/issueSource.js';
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

export interface PullRequestPublisherOptions {
  git: Git;
  github: Pick<GitHubIssueSource, 'openPullRequest' | 'addLabel'>;
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
}

export function createPullRequestPublisher(options: PullRequestPublisherOptions): CyclePublisher {
  const { git, github } = options;
  const remote = options.remote ?? 'origin';
  // git beside `git` for the notes and the bundles, with the same credentials in its environment only.
  const raw = notesGit(git.topLevel, { ...process.env, ...options.remoteEnv });
  const notes = options.notes ? (options.notes.git ?? raw) : undefined;
  const pushNotes = async () => {
    if (!notes || (await notes.run(['show-ref', '--verify', '--quiet', NOTES_REF])).code !== 0) return;
    const r = await notes.run(pushNotesArgs(remote));
    if (r.code !== 0)
      options.notes?.warn(
        `could not push the git notes ${NOTES_REF} to ${remote}: ${options.redact(r.stderr.trim().split('\n').slice(-2).join(' / '))}`,
      );
  };
  const push = async (branch: string) => {
    await git.push(remote, branch);
    await pushNotes();
  };
  const bundleOf = (branch: string) =>
    options.keepDir ? path.join(options.keepDir, `${branch.replace(/[^\w.-]+/g, '-')}.bundle`) : undefined;
  /** The branch's commits beyond the base, kept for the next runner; best effort (the outbox entry stands anyway). */
  const keepBundle = async (branch: string, base: string) => {
    const file = bundleOf(branch);
    if (!file) return;
    let why: string;
    try {
      await fs.mkdir(path.dirname(file), { recursive: true });
      const r = await raw.run(['bundle', 'create', file, `refs/heads/${branch}`, `^refs/heads/${base}`]);
      if (r.code === 0) return;
      why = r.stderr.trim();
    } catch (error) {
      why = (error as Error).message;
    }
    (options.warn ?? options.notes?.warn)?.(`could not keep ${branch} as a bundle: ${options.redact(why)}`);
  };
  const dropBundle = async (branch: string) => {
    const file = bundleOf(branch);
    if (file) await fs.rm(file, { force: true });
  };
  /** One step of landing: a failure is classified (refused with its fix, or transient) and thrown as LandingError. */
  const step = async <T>(name: LandingStep, ctx: LandingContext, run: () => Promise<T>): Promise<T> => {
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
  };
  return {
    description: `pull requests to ${options.repository}`,
    async fetchBranch(branch) {
      // The notes first: the workflow resumes from the newest note on the branch. None yet is fine.
      if (notes) await notes.run(fetchNotesArgs(remote));
      const fromRemote = await git.fetchBranch(remote, branch);
      // An earlier runner whose push failed kept the work as a bundle: it wins when it holds what the
      // remote has and more (a fast-forward; the remote may hold only an older wip: of the cycle).
      const file = bundleOf(branch);
      if (!file || !existsSync(file)) return fromRemote;
      const r = await raw.run(['fetch', '--quiet', '--no-tags', file, `refs/heads/${branch}:refs/heads/${branch}`]);
      return r.code === 0 || fromRemote;
    },
    async keep(branch) {
      try {
        await push(branch);
      } catch (error) {
        throw new Error(`could not push ${branch} to ${remote} (${options.redact((error as Error).message)})`);
      }
    },
    async publish(work: CycleWork): Promise<PublishedPullRequest> {
      const ctx: LandingContext = { repository: options.repository, branch: work.branch, base: work.base };
      await step('push', ctx, async () => {
        try {
          await push(work.branch);
        } catch (error) {
          // Kept for the next runner, unless what GitHub refused is a secret in it (the bundle is published).
          if (!pushFoundSecret(error)) await keepBundle(work.branch, work.base);
          else await dropBundle(work.branch);
          throw error;
        }
      });
      const pr = await step('pull_request', ctx, () =>
        github.openPullRequest({
          head: work.branch,
          base: work.base,
          draft: options.draft,
          title:
            work.titles.length === 1
              ? (work.titles[0] ?? work.branch)
              : `agent-loop: ${work.issueIds.map((id) => `#${id}`).join(', ')}`,
          body: pullRequestBody(work, options.testCommand),
        }),
      );
      for (const id of work.issueIds)
        await step('label', { ...ctx, issue: id }, async () => {
          try {
            await github.addLabel(id, PR_OPEN_LABEL);
          } catch (error) {
            // Deleted or transferred since: it can never be labelled, and the pull request is the work.
            if (!issueGone(error)) throw error;
            (options.warn ?? options.notes?.warn)?.(
              `issue #${id} of ${options.repository} is gone (deleted or transferred): it is not labelled ${PR_OPEN_LABEL}; pull request #${pr.number} holds the work (${options.redact((error as Error).message)})`,
            );
          }
        });
      await dropBundle(work.branch);
      return pr;
    },
    stash: keepBundle,
  };
}

/** `Closes #n` for each issue (GitHub closes them when the pull request is merged), then what was done. */
export function pullRequestBody(
  work: Pick<CycleWork, 'issueIds' | 'iteration' | 'verdict' | 'preexisting'>,
  testCommand: string,
): string {
  const pre = work.preexisting ?? [];
  return [
    ...work.issueIds.map((id) => `Closes #${id}`),
    '',
    `agent-loop worked on ${work.issueIds.length === 1 ? 'this issue' : 'these issues'} until \`${testCommand}\` accepted the work against the suite as it stood before (iteration ${work.iteration})${work.verdict ? `: ${work.verdict}` : ''}.`,
    ...(pre.length
      ? [
          '',
          `${pre.length} test(s) failed before this change and still fail; no issue here targets them:`,
          ...pre.slice(0, 30).map((id) => `- \`${id.replace(/`/g, "'")}\``),
          ...(pre.length > 30 ? [`- … and ${pre.length - 30} more`] : []),
          '',
        ]
      : []),
    `Merging closes ${work.issueIds.length === 1 ? 'the issue' : 'the issues'}; to have agent-loop work on ${work.issueIds.length === 1 ? 'it' : 'them'} again instead, close this pull request and remove the \`${PR_OPEN_LABEL}\` label.`,
  ].join('\n');
}
