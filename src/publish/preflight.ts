/**
 * Preflight before paying (issue 40): before the first agent run of an action run that lands work on
 * GitHub, what GitHub lets the token see of whether the landing can succeed. A refusal seen here
 * halts publish_refused with no agent run; a fact the token may not read is said once in the job
 * summary and the run goes on as before (a refusal then halts when the first finished work lands, the
 * work kept). Pure: src/publish/preflightReads.ts reads the facts, the action passes them in.
 *
 * When it runs: once per run of the action's serial loop (workflow implement or tdd; not the
 * planning pipeline, not a fan-out job), and only once the run knows it has work (src/app/run.ts:
 * after the halt and idle checks, before install-agent): an idle run, a halt that stands and a
 * paused run read nothing more than before. The halt is recorded as a refused landing's is (the
 * checkpoint, the Discord post, the outputs and summary, an error); `resume: true` runs the check
 * again before the first agent run, and halts again, still without one, while GitHub refuses.
 *
 * What is read, and what GitHub documents about it (docs.github.com/rest):
 * - The token's kind. GitHub's prefixes (github.blog, 2021-04-05 "Behind GitHub's new authentication
 *   token formats"): `ghp_` a personal access token, `github_pat_` a fine-grained one, `gho_` an OAuth
 *   token, `ghu_` a GitHub App's user token: a person's token; `ghs_` a GitHub App's installation
 *   token, which the workflow token (GITHUB_TOKEN) also is. The prefix cannot tell the workflow token
 *   from an App's, so the action compares the token with the workflow token (its input
 *   workflow-token, `${{ github.token }}` by default).
 * - `GET /repos/{owner}/{repo}` `permissions.push`: the person's permission, for a person's token
 *   only. An installation token gets no `permissions` (or all false though it may push:
 *   semantic-release/github#182), so it is not read for one.
 * - `GET /repos/{owner}/{repo}/actions/permissions/workflow` `can_approve_pull_request_reviews`: the
 *   repository setting "Allow GitHub Actions to create and approve pull requests" (Settings →
 *   Actions → General → Workflow permissions), which governs the workflow token only ("configure
 *   whether GITHUB_TOKEN can create and approve pull requests"; an App's or a person's token is not
 *   subject to it). Reading it needs "Administration" repository permission (read), which GitHub
 *   never grants the workflow token: on GitHub as documented this read is refused (403 "Resource not
 *   accessible by integration") and the fact is a note. Read only for the workflow token and
 *   pull-request landings.
 * - on-success merge (beads) pushes onto the base branch:
 *   `GET /repos/{owner}/{repo}/rules/branches/{base}` (every active rule on the branch, from the
 *   repository's and the organisation's rulesets; "Metadata" read, which every token has), then
 *   `GET /repos/{owner}/{repo}/rulesets/{id}` of each ruleset with a rule that refuses a direct push,
 *   for `current_user_can_bypass` (always, pull_requests_only, never: "the bypass type of the user
 *   making the API request"); `GET /repos/{owner}/{repo}/branches/{base}` (`protected`, and the
 *   required status checks' `enforcement_level`), and when it is protected and that does not settle
 *   it, `GET …/branches/{base}/protection` (needs Administration read).
 *
 * When it halts (only when what was read refuses this landing for certain, whatever the work):
 * - the workflow token opens the pull requests and the setting reads off;
 * - a person's token whose `permissions.push` reads false;
 * - merge: an active ruleset on the base has a rule that refuses any direct push (pull_request,
 *   update, required_status_checks, required_deployments, merge_queue) and GitHub says this token
 *   may not bypass it (never, or pull_requests_only);
 * - merge: the base's classic protection requires status checks of everyone (enforcement_level
 *   everyone); or, read in full, requires a pull request (no bypass allowances), status checks or a
 *   lock, or lets no one push, of administrators too (enforce_admins), or of a person's token whose
 *   account is no admin.
 * When it notes instead (never a halt on what might be fine): a fact the token may not read (the
 * setting for the workflow token; an installation token's own push permission; a ruleset's bypass
 * GitHub does not state; protection details that need Administration read, or that name who may
 * push); rules whose effect depends on the work (signatures, linear history, file rules) are not
 * weighed. Notes go into the job summary of each run that checks, until the loop has landed work
 * the same way (the pull requests, or for merge the closed issues, of the checkpoints in its state
 * directory): by then the landing has shown what the note could not. They are never a warning.
 */
import { actionsPullRequestsFix, pushPermissionFix } from './landingFailures.js';

/** What one read told: its value, or that GitHub did not let the token read it (the status and GitHub's words). */
export type Seen<T> = { ok: true; value: T } | { ok: false; status?: number; message: string };

export type TokenKind =
  /** The workflow's own GITHUB_TOKEN. */
  | 'workflow'
  /** Another installation token (`ghs_`): a GitHub App's. */
  | 'app'
  /** A person's: a personal access token (classic or fine-grained), an OAuth token, a GitHub App's user token. */
  | 'user'
  /** None of these can be told (an installation token with no workflow token to compare, an unknown format). */
  | 'unknown';

/** The token's kind, from its prefix and whether it is the workflow token. Pure. */
export function tokenKind(token: string, workflowToken: string | undefined): TokenKind {
  if (workflowToken && token === workflowToken) return 'workflow';
  if (/^(ghp_|github_pat_|gho_|ghu_)/.test(token)) return 'user';
  if (token.startsWith('ghs_') && workflowToken) return 'app';
  return 'unknown';
}

/** One rule of `GET …/rules/branches/{base}`. */
export interface BranchRule {
  type: string;
  rulesetId: number;
  /** required_status_checks' contexts, where given. */
  contexts?: string[];
}

/** The parts of a classic branch protection (`GET …/branches/{base}/protection`) that refuse a direct push. */
export interface ClassicProtection {
  enforceAdmins: boolean;
  /** "Require a pull request before merging", and whether anyone may bypass it (bypass_pull_request_allowances). */
  pullRequest?: { bypassAllowed: boolean };
  statusChecks: string[];
  locked: boolean;
  /** "Restrict who can push": set, and whether it names anyone (none named: no one but administrators). */
  restricted?: { named: boolean };
}

export interface LandingFacts {
  /** owner/repo */
  repository: string;
  base: string;
  landing: 'pull-request' | 'merge';
  token: TokenKind;
  /** What the loop has landed so far (its checkpoints): a fact the landing itself has shown is not noted again. */
  landed: { pullRequests: number; issuesClosed: number };
  /** `GET /repos/{owner}/{repo}` `permissions` (a person's token only; undefined when GitHub gave none). */
  permissions?: Seen<{ push?: boolean; admin?: boolean } | undefined>;
  /** `GET …/actions/permissions/workflow` `can_approve_pull_request_reviews` (the workflow token, pull requests). */
  pullRequestSetting?: Seen<{ allowed: boolean }>;
  /** `GET …/rules/branches/{base}` (merge). */
  rules?: Seen<BranchRule[]>;
  /** `GET …/rulesets/{id}` of the rulesets `rulesetsToRead` names: name and `current_user_can_bypass`. */
  rulesets?: Record<number, Seen<{ name: string; bypass?: string }>>;
  /** `GET …/branches/{base}` (merge): protected, and the required status checks' enforcement. */
  branch?: Seen<{ protected: boolean; statusChecks?: { enforcement: string; contexts: string[] } }>;
  /** `GET …/branches/{base}/protection`, when `protectionToRead` says so: 'none' for 404 "Branch not protected". */
  protection?: Seen<ClassicProtection | 'none'>;
}

export interface PreflightRefusal {
  message: string;
  advice: string;
}

export interface PreflightVerdict {
  /** GitHub will refuse this landing: halt publish_refused before any agent runs. */
  halt?: PreflightRefusal;
  /** What could not be checked, each a sentence for the job summary. */
  notes: string[];
}

/** Rules that refuse every direct push of new commits, whatever they hold (what they ask of it, for the message). */
const REFUSING: Record<string, string> = {
  pull_request: 'requires a pull request',
  update: 'restricts updates to those who may bypass it',
  required_status_checks: 'requires status checks to pass first',
  required_deployments: 'requires deployments to succeed first',
  merge_queue: 'requires the merge queue',
};

/** The rulesets whose bypass decides (those with a rule that refuses a direct push), at most three. Pure. */
export function rulesetsToRead(rules: readonly BranchRule[]): number[] {
  return [...new Set(rules.filter((r) => r.type in REFUSING).map((r) => r.rulesetId))].slice(0, 3);
}

/** Whether the full classic protection is worth a read: protected, and the summary does not settle it. Pure. */
export function protectionToRead(branch: LandingFacts['branch']): boolean {
  return branch?.ok === true && branch.value.protected && !statusChecksForEveryone(branch.value);
}

function statusChecksForEveryone(branch: { statusChecks?: { enforcement: string; contexts: string[] } }): boolean {
  return branch.statusChecks?.enforcement === 'everyone' && branch.statusChecks.contexts.length > 0;
}

const CHECKED = 'read before any agent ran';
/** How a preflight halt is resumed: no agent has run, and the resumed run checks again first. */
export const REFUSAL_HINT =
  'then run the workflow by hand (workflow_dispatch) with the input resume: true. No agent has run: ' +
  'the resumed run checks again before its first agent run, and halts again without one while GitHub still refuses';
const why = (seen: { status?: number; message: string }) =>
  seen.status !== undefined ? `${seen.status} ${seen.message}` : seen.message;

export function decidePreflight(f: LandingFacts): PreflightVerdict {
  const notes: string[] = [];
  const halt = (message: string, fix: string): PreflightVerdict => ({
    halt: {
      message: `${message} (${CHECKED})`,
      advice: `${fix.charAt(0).toUpperCase()}${fix.slice(1)}; ${REFUSAL_HINT}.`,
    },
    notes: shown(f, notes),
  });

  // The token's own push permission: GitHub reports it for a person's token.
  if (f.token === 'user' && f.permissions?.ok && f.permissions.value?.push === false)
    return halt(
      `the github-token may not push to ${f.repository}: GitHub reports no push permission for its account there`,
      pushPermissionFix(f.repository, 'user'),
    );
  if (f.token === 'workflow' || f.token === 'app')
    notes.push(
      `Whether the token may push to ${f.repository}: GitHub reports no push permission for ` +
        `${f.token === 'workflow' ? 'the workflow token' : "a GitHub App's installation token"}` +
        `; ${pushPermissionFix(f.repository, f.token)}.`,
    );

  if (f.landing === 'pull-request' && f.token === 'workflow') {
    const setting = f.pullRequestSetting;
    if (setting?.ok && !setting.value.allowed)
      return halt(
        `GitHub does not let GitHub Actions open pull requests in ${f.repository}: its setting "Allow GitHub ` +
          `Actions to create and approve pull requests", which governs the workflow token this run opens them with, is off`,
        `Allow it: ${actionsPullRequestsFix()}`,
      );
    if (setting && !setting.ok)
      notes.push(
        `Whether GitHub Actions may open pull requests in ${f.repository}: the workflow token may not read ` +
          `the repository's Actions settings (${why(setting)}). New repositories start with it off; to allow ` +
          `it: ${actionsPullRequestsFix()}.`,
      );
  }

  if (f.landing === 'merge') {
    const refused = rulesetRefusal(f, notes) ?? protectionRefusal(f, notes);
    if (refused)
      return halt(
        refused.message,
        `${refused.fix}, or land the work through pull requests (the input on-success: pull-request, the default)`,
      );
  }
  return { notes: shown(f, notes) };
}

/** Notes are said until the loop has landed work the same way. */
function shown(f: LandingFacts, notes: string[]): string[] {
  const landed = f.landing === 'merge' ? f.landed.issuesClosed : f.landed.pullRequests;
  return landed > 0 ? [] : notes;
}

/** A refusal of the base branch: what refuses, and where to let the token through. */
type BaseRefusal = { message: string; fix: string };

function rulesetRefusal(f: LandingFacts, notes: string[]): BaseRefusal | undefined {
  if (!f.rules) return undefined;
  if (!f.rules.ok) {
    notes.push(`Which rulesets apply to ${f.base} on ${f.repository}: GitHub did not say (${why(f.rules)}).`);
    return undefined;
  }
  for (const id of rulesetsToRead(f.rules.value)) {
    const asks = [
      ...new Set(f.rules.value.filter((r) => r.rulesetId === id && r.type in REFUSING).map((r) => REFUSING[r.type])),
    ].join(' and ');
    const ruleset = f.rulesets?.[id];
    const name = ruleset?.ok ? `the ruleset "${ruleset.value.name}" (#${id})` : `the ruleset #${id}`;
    const bypass = ruleset?.ok ? ruleset.value.bypass : undefined;
    if (bypass === 'never' || bypass === 'pull_requests_only')
      return {
        message:
          `${name} on ${f.base} in ${f.repository} refuses the direct push that on-success: merge makes: it ` +
          `${asks}, and GitHub says this token may not bypass it (current_user_can_bypass: ${bypass})`,
        fix:
          `let the token bypass it: in the repository's Settings → Rules → Rulesets → ${ruleset?.ok ? `"${ruleset.value.name}"` : `the ruleset #${id}`}` +
          ` → Bypass list → Add bypass, add the app or user of the github-token with "Always allow", and Save`,
      };
    if (bypass === 'always' || bypass === 'exempt') continue;
    notes.push(
      `Whether ${name} lets this token push to ${f.base}: it ${asks}, and GitHub did not say whether this ` +
        `token may bypass it (${ruleset && !ruleset.ok ? why(ruleset) : 'no current_user_can_bypass'}).`,
    );
  }
  return undefined;
}

function protectionRefusal(f: LandingFacts, notes: string[]): BaseRefusal | undefined {
  const branch = f.branch;
  if (!branch) return undefined;
  const where = `the branch protection of ${f.base} in ${f.repository}`;
  if (!branch.ok) {
    notes.push(`Whether ${f.base} in ${f.repository} is protected: GitHub did not say (${why(branch)}).`);
    return undefined;
  }
  if (!branch.value.protected) return undefined;
  const fix =
    `let the token push to ${f.base}: in the repository's Settings → Branches → the rule for ${f.base}` +
    ` → Edit, lift what the message names for it (or untick "Do not allow bypassing the above settings" ` +
    `when the github-token's account is an administrator), and Save`;
  if (statusChecksForEveryone(branch.value))
    return {
      message:
        `${where} refuses the direct push that on-success: merge makes: it requires the status checks ${branch.value.statusChecks?.contexts.join(', ')}` +
        ` of everyone, which a new commit does not have`,
      fix,
    };
  const read = f.protection;
  if (!read || !read.ok) {
    notes.push(
      `Whether ${where} lets this token push: reading its rules needs Administration read (${read ? why(read) : 'not read'}` +
        `); if they require a pull request or status checks, the direct push is refused.`,
    );
    return undefined;
  }
  if (read.value === 'none') return undefined;
  const p = read.value;
  const asks = [
    p.pullRequest && !p.pullRequest.bypassAllowed ? 'requires a pull request' : '',
    p.statusChecks.length > 0 ? `requires the status checks ${p.statusChecks.join(', ')}` : '',
    p.locked ? 'is locked' : '',
    p.restricted && !p.restricted.named ? 'lets no one push' : '',
  ].filter(Boolean);
  const notAdmin = f.token === 'user' && f.permissions?.ok && f.permissions.value?.admin === false;
  if (asks.length > 0 && (p.enforceAdmins || notAdmin))
    return {
      message:
        `${where} refuses the direct push that on-success: merge makes: it ${asks.join(' and ')}, ` +
        (p.enforceAdmins ? 'of administrators too' : "and the token's account is no administrator"),
      fix,
    };
  const named = [
    p.restricted?.named ? 'names who may push' : '',
    p.pullRequest?.bypassAllowed ? 'requires a pull request of all but those it names' : '',
  ].filter(Boolean);
  if (asks.length > 0 || named.length > 0)
    notes.push(
      `Whether ${where} lets this token push: it ${[...asks, ...named].join(' and ')}, and agent-loop cannot ` +
        `tell whether this token is exempt (administrators are, unless it applies to them).`,
    );
  return undefined;
}

/** The job summary's section for the notes (empty when there are none). Pure. */
export function preflightSummary(notes: readonly string[]): string {
  if (notes.length === 0) return '';
  return [
    '### Not checked before the agent ran',
    '',
    "GitHub does not let this run's token read these. If one refuses the landing, the run halts publish_refused " +
      'when the first finished work lands; the work is kept and lands without the agent once the cause ' +
      'is fixed (run the workflow with resume: true). Said until this loop has landed work.',
    '',
    ...notes.map((n) => `- ${n}`),
    '',
  ].join('\n');
}
