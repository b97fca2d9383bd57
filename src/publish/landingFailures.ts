/**
 * Why GitHub did not take a finished cycle's work, read from what it answered: the push's stderr
 * (git's `[remote rejected]` reasons, GitHub's `GH006`/`GH013` lines, HTTP errors) or the REST
 * error of the pull request or the label. A refusal that no retry changes (a permission, a setting,
 * a protection rule) names its fix; anything that may pass by itself is transient (a later run
 * tries again). Pure.
 */
import type { IssueEffectFailure, LandingFailure } from '../core/events.js';
import { surface } from '../config/surface.js';
import { GitError } from '../git/git.js';
import { GitHubSourceError } from '../issues/github/errors.js';

export type LandingStep = 'push' | 'pull_request' | 'label';

export interface LandingContext {
  /** owner/repo */
  repository: string;
  branch: string;
  base: string;
  /** The issue being labelled (the label step). */
  issue?: string;
}

/**
 * Work is published from the action only: its words (src/config/surface.ts). How to resume is not
 * said here: the halt's diagnostic says it (later runs stay halted until it is resumed).
 */
const say = surface('action');

/**
 * How to let GitHub Actions open pull requests (the setting governs the workflow token only), from
 * "to allow it:" on. Shared with the preflight (preflight.ts), which reads the setting before any
 * agent runs.
 */
export function actionsPullRequestsFix(): string {
  return (
    'in the repository\'s Settings → Actions → General → Workflow permissions, tick "Allow GitHub Actions ' +
    'to create and approve pull requests" and Save (in an organisation, allow it first in the organisation\'s ' +
    'Settings → Actions → General, or the box stays greyed out); or pass a github-token that may open ' +
    'pull requests (a GitHub App token, or a fine-grained token with "Pull requests: read and write")'
  );
}

/** How to let the token push to `branch` past a protection rule or ruleset (`base`: the base branch). */
export function protectionFix(branch: string, base: string): string {
  return (
    `Let the token push to ${branch} (Settings → Branches or Rules → Rulesets: ${branch === base ? '' : 'exempt agent-loop/* branches, or '}` +
    `add the app or user of the github-token to the bypass list), or land work through pull requests ` +
    `(${say.given('onSuccess', 'pull-request')}${branch === base ? ', the default' : ''})`
  );
}

/** How to let the token push to `repository`, by who it is (the workflow token, an App's, a person's). */
export function pushPermissionFix(repository: string, token: 'workflow' | 'app' | 'user' = 'workflow'): string {
  if (token === 'user')
    return (
      `give the token's account write access to ${repository} (Settings → Collaborators and teams), or ` +
      `pass a github-token that may push there (a fine-grained token with "Contents: read and write" on ${repository})`
    );
  if (token === 'app')
    return (
      `give the GitHub App "Contents: read and write" on ${repository} (the App's settings → Permissions ` +
      `& events), or pass a github-token that may push there`
    );
  return `give the workflow \`permissions: contents: write\` (or a github-token with write access to the contents of ${repository})`;
}

const sentence = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** The one-line reason of a failed push: git's `[remote rejected] … (reason)` or its last lines. */
function pushReason(stderr: string): string {
  const rejected = /\[remote rejected\][^(\n]*\(([^)\n]+)\)/.exec(stderr)?.[1];
  if (rejected) return rejected;
  const lines = stderr
    .split('\n')
    .map((l) => l.replace(/^remote:\s*/, '').trim())
    .filter((l) => l !== '' && !/^To |^error: failed to push some refs/.test(l));
  return lines.slice(-2).join(' / ') || 'no reason given';
}

/** What git said of a failed push: its stderr, or the error's message. */
function stderrOf(error: unknown): string {
  return error instanceof GitError ? error.stderr : error instanceof Error ? error.message : String(error);
}

const SECRET_FOUND = /GH009: Secrets detected|PUSH PROTECTION|Push cannot contain secrets/i;

/** GitHub's push protection refused the push: its commits hold a secret (they must not travel anywhere else). */
export function pushFoundSecret(error: unknown): boolean {
  return SECRET_FOUND.test(stderrOf(error));
}

/** A failed push, as the rules below read it. */
interface FailedPush {
  stderr: string;
  /** Its one-line reason (pushReason), said in every refusal's message. */
  reason: string;
  ctx: LandingContext;
}

/** A push GitHub refused: `what` it refused, with the reason git gave, and the fix. */
function refused(push: FailedPush, what: string, advice: string): LandingFailure {
  const { ctx, reason } = push;
  return {
    class: 'refused',
    message: `GitHub refused the push of ${ctx.branch} to ${ctx.repository}: ${what} (${reason})`,
    advice,
  };
}

function secretFound(push: FailedPush): LandingFailure | undefined {
  if (!SECRET_FOUND.test(push.stderr)) return undefined;
  return refused(
    push,
    "GitHub's push protection found a secret in its commits",
    `Remove the secret from the commits of ${push.ctx.branch} (it was never pushed; rotate it if it may have ` +
      `been exposed elsewhere), or, if it is no secret, allow it in GitHub's push protection (the link ` +
      `in the refusal). The work is not kept for another runner: it holds the secret.`,
  );
}

function workflowFile(push: FailedPush): LandingFailure | undefined {
  const { ctx } = push;
  const workflow = /create or update workflow `([^`]+)` without `(workflows?)` (permission|scope)/.exec(push.stderr);
  if (!workflow) return undefined;
  const [, file, , kind] = workflow;
  return refused(
    push,
    `the change creates or updates the workflow file ${file}, which this token may not push`,
    kind === 'permission'
      ? `The workflow token (GITHUB_TOKEN) can never push a change to .github/workflows. Either pass a github-token ` +
          `that may: a GitHub App installation token with "Workflows: read and write", or a fine-grained personal ` +
          `access token with "Workflows: read and write" on ${ctx.repository}. Or, if the agent should not ` +
          `touch workflows, say so in the issue, delete the branch ${ctx.branch} and ${say.act('startFresh')}.`
      : `The token lacks the \`workflow\` scope: give ${say.option('githubToken')} a token with it (a classic ` +
          `personal access token with \`repo\` and \`workflow\`).`,
  );
}

/**
 * GitHub's size limits: a file over 100 MB (GH001), a push over 2 GB. The same commits are refused
 * every time: retried as transient, every later run would try them again for ever.
 */
function overSizeLimit(push: FailedPush): LandingFailure | undefined {
  const { stderr, ctx } = push;
  if (!/GH001: Large files detected|pack exceeds maximum allowed size/i.test(stderr)) return undefined;
  const files = [...stderr.matchAll(/File (.+?) is [\d.]+ [KMG]B; this exceeds GitHub's file size limit/g)].map(
    (m) => m[1],
  );
  return refused(
    push,
    files.length > 0
      ? `its commits add a file over GitHub's file size limit (${files.slice(0, 5).join(', ')})`
      : "it is over GitHub's size limit for a push or a file",
    `The kept work is pushed as it is, so it is refused again: to have the issue worked again without ` +
      `the file, say so in the issue (or add the file to .gitignore on ${ctx.base}) and ${say.act('startFresh')}` +
      `; to keep the file, track it with Git LFS.`,
  );
}

/** A protection rule, a missing permission or a token not accepted: each names its fix. */
function tokenOrRule(push: FailedPush): LandingFailure | undefined {
  const { stderr, ctx } = push;
  if (
    /GH006: Protected branch update failed|protected branch hook declined|GH013: Repository rule violations/i.test(
      stderr,
    )
  )
    return refused(
      push,
      `a branch protection rule or ruleset covers ${ctx.branch}`,
      `${protectionFix(ctx.branch, ctx.base)}.`,
    );
  if (/Permission to \S+ denied|returned error: 403|403 Forbidden|Write access to repository not granted/i.test(stderr))
    return refused(
      push,
      'the token may not push to this repository',
      `${sentence(pushPermissionFix(ctx.repository))}.`,
    );
  if (
    /Authentication failed|returned error: 401|Invalid username or (password|token)|could not read Username/i.test(
      stderr,
    )
  )
    return refused(
      push,
      'the token was not accepted',
      `Check ${say.option('githubToken')}: a valid token that has not expired or been revoked (the default \${{ github.token }} works).`,
    );
  return undefined;
}

/** on-success merge: the base moved on GitHub, and merging it into the work conflicts. */
function baseConflicts(push: FailedPush): LandingFailure | undefined {
  const { stderr, ctx } = push;
  const conflicts = [...stderr.matchAll(/^CONFLICT \([^)]*\): .*? in (.+)$/gm)].map((m) => m[1]);
  if (conflicts.length === 0 && !/Automatic merge failed/.test(stderr)) return undefined;
  return {
    class: 'refused',
    message:
      `${ctx.base} on ${ctx.repository} moved since the work started and merging it conflicts with the ` +
      `work${conflicts.length ? ` (${conflicts.slice(0, 5).join(', ')})` : ''}; nothing was pushed`,
    advice:
      `Land the work as a pull request instead, where a person resolves the conflict: set ${say.given('onSuccess', 'pull-request')}` +
      ` (the default): the work is kept and pushed as its branch, the agent does not run again.`,
  };
}

/** Another hook of the repository (GitHub Enterprise Server's pre-receive hooks): its own words say why. */
function hookDeclined(push: FailedPush): LandingFailure | undefined {
  const { stderr, ctx } = push;
  if (!/\[remote rejected\][^\n]*\(pre-receive hook declined\)/.test(stderr)) return undefined;
  const said = stderr
    .split('\n')
    .filter((l) => /^remote:/.test(l))
    .map((l) => l.replace(/^remote:\s*/, '').trim())
    .filter((l) => l !== '')
    .slice(-3)
    .join(' / ');
  return refused(
    push,
    `a pre-receive hook of the repository declined it${said ? `: ${said}` : ''}`,
    `Do what the hook asks of ${ctx.branch}'s commits, or have the hook let them through.`,
  );
}

function branchMoved(push: FailedPush): LandingFailure | undefined {
  const { ctx } = push;
  if (!/\[rejected\].*\((fetch first|non-fast-forward|stale info)\)/.test(push.stderr)) return undefined;
  return refused(
    push,
    `${ctx.branch} on GitHub has commits this run does not have (someone pushed to it)`,
    `Look at ${ctx.branch} on GitHub: merge its commits by hand or delete the branch.`,
  );
}

/** The refusals a push may meet, the first that matches wins. */
const PUSH_REFUSALS = [secretFound, workflowFile, overSizeLimit, tokenOrRule, baseConflicts, hookDeclined, branchMoved];

/** The line src/git/network.ts ends a git network call's stderr with when the call ran out of time. */
const TIMED_OUT = /^agent-loop ended `git [a-z-]+`.*$/m;

/** A refusal that no retry changes names its fix; a push that ran out of time is transient, said so; anything else is transient. */
function classifyPush(error: unknown, ctx: LandingContext): LandingFailure {
  const stderr = stderrOf(error);
  const timedOut = TIMED_OUT.exec(stderr)?.[0];
  if (timedOut)
    return { class: 'transient', message: `could not push ${ctx.branch} to ${ctx.repository}: ${timedOut}` };
  const push: FailedPush = { stderr, reason: pushReason(stderr), ctx };
  for (const rule of PUSH_REFUSALS) {
    const failure = rule(push);
    if (failure) return failure;
  }
  return {
    class: 'transient',
    message: `could not push ${ctx.branch} to ${ctx.repository} (${push.reason})`,
  };
}

function classifyRest(
  step: 'pull_request' | 'label',
  error: unknown,
  ctx: LandingContext,
  action?: string,
): LandingFailure {
  const what =
    action ??
    (step === 'pull_request'
      ? `open the pull request from ${ctx.branch} into ${ctx.base}`
      : `label issue #${ctx.issue ?? '?'}`);
  const message = error instanceof Error ? error.message : String(error);
  if (!(error instanceof GitHubSourceError)) return { class: 'transient', message: `could not ${what}: ${message}` };
  if (/not permitted to create or approve pull requests/i.test(message))
    return {
      class: 'refused',
      message:
        `GitHub does not let GitHub Actions open pull requests in ${ctx.repository} (403 GitHub Actions is ` +
        `not permitted to create or approve pull requests.); the branch ${ctx.branch} is pushed`,
      advice: `Allow it: ${actionsPullRequestsFix()}.`,
    };
  switch (error.kind) {
    case 'permission':
    case 'auth':
      return {
        class: 'refused',
        message: `GitHub refused to ${what}: ${message}`,
        advice: `Give the workflow \`permissions: pull-requests: write\` and \`issues: write\` (or a github-token with them on ${ctx.repository}).`,
      };
    case 'not-found':
      return {
        class: 'refused',
        message: `GitHub could not ${what}: ${message}`,
        advice: `Check that ${ctx.repository} and its branch ${ctx.base} exist and that the github-token can read and write them.`,
      };
    case 'rate-limit':
    case 'server':
      return { class: 'transient', message: `could not ${what}: ${message}` };
    default:
      // A 422 (validation) and the like: GitHub will answer the same until something changes.
      return error.status !== undefined && error.status >= 400 && error.status < 500
        ? {
            class: 'refused',
            message: `GitHub refused to ${what}: ${message}`,
            advice: `Look at ${ctx.branch} and the pull requests of ${ctx.repository}: fix what GitHub names.`,
          }
        : { class: 'transient', message: `could not ${what}: ${message}` };
  }
}

/**
 * The issue is gone: deleted (410 Gone) or transferred to a repository this token cannot see (404,
 * or 301 Moved Permanently where it can). Nothing done to it here can ever succeed.
 */
export function issueGone(error: unknown): boolean {
  return error instanceof GitHubSourceError && (error.status === 410 || error.status === 404 || error.status === 301);
}

/**
 * What a failed issue effect (its label, comment or close) means: `gone` when the issue was
 * deleted or transferred (the effect is dropped with a warning: the pull request, if any, is the
 * work), else as the landing's label step: a permission refusal names its fix, a 5xx is transient.
 */
export function classifyIssueFailure(error: unknown, issue: string, what: string, where: string): IssueEffectFailure {
  const ref = /^\d+$/.test(issue) ? `#${issue}` : issue;
  if (issueGone(error))
    return {
      class: 'gone',
      message: `Could not ${what} issue ${ref} (${where}): it was deleted or transferred (${error instanceof Error ? error.message : String(error)})`,
    };
  return classifyRest('label', error, { repository: where, branch: '', base: '', issue }, `${what} issue ${ref}`);
}

/** What a failed landing step means: refused (with its fix) or transient. */
export function classifyLandingFailure(step: LandingStep, error: unknown, ctx: LandingContext): LandingFailure {
  return step === 'push' ? classifyPush(error, ctx) : classifyRest(step, error, ctx);
}
