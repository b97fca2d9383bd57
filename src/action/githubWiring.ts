/**
 * What the action's run gets from GitHub: the issues (source github: labelled issues, claimed by this
 * run, with their pull requests; workflow pipeline: its phase issues too), or for beads issues the
 * pull requests (or pushes onto the base) their finished cycles land as.
 */
import { networkLimits } from '../git/network.js';
import path from 'node:path';
import type { Options } from '../config/options.js';
import type { Git } from '../git/git.js';
import type { GitHubClient } from '../issues/github/client.js';
import type { GitHubIssueSource } from '../issues/github/issueSource.js';
import { listOpenPullRequests, openOrReusePullRequest } from '../issues/github/pullRequests.js';
import { GitHubRequests } from '../issues/github/requests.js';
import { SOURCE_FACTORIES } from '../issues/registry.js';
import { type PullRequestPublisherOptions, createPullRequestPublisher } from '../publish/pullRequest.js';
import type { PlanIO } from '../app/plan.js';
import type { Clock } from '../util/clock.js';
import { GitHubPhaseIssueSink } from '../workflows/pipeline/githubSink.js';
import type { FanOutRole } from './fanOut.js';
import { OUTBOX_DIR } from './outboxHandover.js';
import type { ActionSite } from './site.js';
import { ISSUE_SOURCES } from '../issues/catalog.js';

export interface GitHubWiring {
  /** The run's source, publisher, phase sink and remote credentials. */
  fromGitHub: Pick<PlanIO, 'source' | 'publisher' | 'sink' | 'remoteEnv'>;
  /** The GitHub issue source once built (built when the run asks for its source), else undefined. */
  issues(): GitHubIssueSource | undefined;
}

export interface WiringInput {
  options: Options;
  fanOut: FanOutRole;
  site: ActionSite;
  owner: string;
  repo: string;
  octokit: GitHubClient;
  redact: (text: string) => string;
  remoteEnv: Record<string, string>;
  stateDir: string;
  /** A warning annotation, masked. */
  warn: (message: string) => void;
  clock: Clock;
}

export function wireGitHub(input: WiringInput): GitHubWiring {
  const { options, site, redact, remoteEnv, warn } = input;
  const landing: Landing = (git, testCommand) => ({
    git,
    repository: site.repository,
    draft: options.draftPr,
    testCommand,
    redact,
    remoteEnv,
    ...(site.runUrl ? { runUrl: site.runUrl } : {}),
    keepDir: path.join(input.stateDir, OUTBOX_DIR),
    warn,
    network: networkLimits(options.gitTimeoutSeconds * 1000, input.clock),
    ...(options.workflow === 'tdd' ? { notes: { warn } } : {}),
  });
  if (ISSUE_SOURCES[options.source].builtBy === 'action') return githubIssues(input, landing);
  // Beads issues: the pull request names them (no GitHub issue to close or label); one whose pull
  // request is open is not worked again (it is closed on its branch, still open on the base).
  // on-success merge pushes onto the base instead, and asks nothing of the API.
  const api = new GitHubRequests(input.octokit, input.owner, input.repo);
  const fromGitHub: GitHubWiring['fromGitHub'] = {
    remoteEnv,
    publisher: (git, testCommand) =>
      createPullRequestPublisher({
        ...landing(git, testCommand),
        github: { openPullRequest: (pr) => openOrReusePullRequest(api, redact, pr) },
        beads: {
          issuesFile: options.issuesFile,
          // on-success merge asks nothing of the API: the work is on the base, closed there.
          ...(options.onSuccess === 'merge'
            ? {}
            : { openPullRequests: () => listOpenPullRequests(api, 'agent-loop/') }),
        },
      }),
  };
  return { fromGitHub, issues: () => undefined };
}

/** What a publisher lands with, but where the pull request (or the beads issues) goes. */
type Landing = (git: Git, testCommand: string) => Omit<PullRequestPublisherOptions, 'github' | 'beads'>;

/** Source github: the issues labelled for the loop, built once the run hands over its warning sink. */
function githubIssues(input: WiringInput, landing: Landing): GitHubWiring {
  const { options, fanOut, site, redact, warn } = input;
  let github: GitHubIssueSource | undefined;
  const allowedAuthors = options.allowedAuthors
    .split(',')
    .map((a) => a.trim())
    .filter((a) => a !== '');
  const make = (onWarning: (m: string) => void) =>
    SOURCE_FACTORIES.github({
      octokit: input.octokit,
      owner: input.owner,
      repo: input.repo,
      label: options.label,
      allowedAuthors,
      redact,
      onWarning,
      runId: site.runId,
      ...(site.runUrl ? { runUrl: site.runUrl } : {}),
      ...(fanOut.role === 'work' ? { claimsOf: [fanOut.issue] } : {}),
      now: () => input.clock.now().getTime(),
    });
  // workflow: pipeline creates its phase issues before the loop starts: the source exists from the start.
  const early = options.workflow === 'pipeline' ? (github = make(warn)) : undefined;
  const fromGitHub: GitHubWiring['fromGitHub'] = {
    remoteEnv: input.remoteEnv,
    ...(early
      ? { sink: Object.assign(new GitHubPhaseIssueSink(early), { where: `GitHub issues labelled ${options.label}` }) }
      : {}),
    source: (onWarning) => early ?? (github = make(onWarning)),
    publisher: (git, testCommand) =>
      createPullRequestPublisher({ ...landing(git, testCommand), github: github as GitHubIssueSource }),
  };
  return { fromGitHub, issues: () => github };
}
