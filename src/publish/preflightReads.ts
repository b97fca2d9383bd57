/**
 * The preflight's reads (preflight.ts decides): the few GETs that tell what GitHub lets the token see
 * of a landing, each answered as a value or as GitHub's refusal (its status and words), never thrown.
 * Which it makes follows the landing and the token (preflight.ts's header lists them and why): the
 * token's permissions for a person's token, the pull-request setting for the workflow token's pull
 * requests, and for on-success merge the rules and protection of the base branch (then the rulesets
 * and the full protection only where they decide). At most six requests; usually one or two.
 */
import type { GitHubClient } from '../issues/github/client.js';
import { apiMessage, asHttpError } from '../issues/github/errors.js';
import { isObject } from '../issues/github/json.js';
import {
  type BranchRule,
  type ClassicProtection,
  type LandingFacts,
  type Seen,
  type TokenKind,
  protectionToRead,
  rulesetsToRead,
} from './preflight.js';

export interface LandingPlan {
  owner: string;
  repo: string;
  base: string;
  landing: 'pull-request' | 'merge';
  token: TokenKind;
}

type Get = (route: string, params?: Record<string, unknown>) => Promise<Seen<unknown>>;

/** One GET through the action's Octokit: its body, or GitHub's status and words. */
export function getter(octokit: GitHubClient, owner: string, repo: string): Get {
  const request = octokit.request as unknown as (
    route: string,
    params: Record<string, unknown>,
  ) => Promise<{ data: unknown }>;
  return async (route, params = {}) => {
    try {
      return { ok: true, value: (await request(route, { owner, repo, ...params })).data };
    } catch (error) {
      const http = asHttpError(error);
      return http
        ? { ok: false, status: http.status, message: apiMessage(http) }
        : { ok: false, message: (error as Error)?.message ?? String(error) };
    }
  };
}

export async function readLandingFacts(plan: LandingPlan, get: Get): Promise<Omit<LandingFacts, 'landed'>> {
  const facts: Omit<LandingFacts, 'landed'> = {
    repository: `${plan.owner}/${plan.repo}`,
    base: plan.base,
    landing: plan.landing,
    token: plan.token,
  };
  if (plan.token === 'user')
    facts.permissions = map(await get('GET /repos/{owner}/{repo}'), (r) => {
      const p = isObject(r) && isObject(r.permissions) ? r.permissions : undefined;
      return p ? { push: p.push === true, admin: p.admin === true } : undefined;
    });
  if (plan.landing === 'pull-request' && plan.token === 'workflow')
    facts.pullRequestSetting = map(await get('GET /repos/{owner}/{repo}/actions/permissions/workflow'), (s) => ({
      allowed: !(isObject(s) && s.can_approve_pull_request_reviews === false),
    }));
  if (plan.landing !== 'merge') return facts;

  const branch = { branch: plan.base };
  facts.rules = map(
    await get('GET /repos/{owner}/{repo}/rules/branches/{branch}', { ...branch, per_page: 100 }),
    rules,
  );
  if (facts.rules.ok) {
    facts.rulesets = {};
    for (const id of rulesetsToRead(facts.rules.value))
      facts.rulesets[id] = map(
        await get('GET /repos/{owner}/{repo}/rulesets/{ruleset_id}', { ruleset_id: id }),
        (r) => ({
          name: isObject(r) && typeof r.name === 'string' ? r.name : `#${id}`,
          ...(isObject(r) && typeof r.current_user_can_bypass === 'string'
            ? { bypass: r.current_user_can_bypass }
            : {}),
        }),
      );
  }
  facts.branch = map(await get('GET /repos/{owner}/{repo}/branches/{branch}', branch), (b) => {
    const checks = isObject(b) && isObject(b.protection) ? b.protection.required_status_checks : undefined;
    return {
      protected: isObject(b) && b.protected === true,
      ...(isObject(checks)
        ? { statusChecks: { enforcement: String(checks.enforcement_level ?? ''), contexts: names(checks) } }
        : {}),
    };
  });
  if (protectionToRead(facts.branch)) {
    const read = await get('GET /repos/{owner}/{repo}/branches/{branch}/protection', branch);
    // 404 "Branch not protected": no classic protection (the branch is protected by rulesets only).
    facts.protection =
      !read.ok && read.status === 404 && /not protected/i.test(read.message)
        ? { ok: true, value: 'none' }
        : map(read, protection);
  }
  return facts;
}

function map<T>(seen: Seen<unknown>, f: (value: unknown) => T): Seen<T> {
  return seen.ok ? { ok: true, value: f(seen.value) } : seen;
}

function rules(list: unknown): BranchRule[] {
  if (!Array.isArray(list)) return [];
  return list.filter(isObject).flatMap((r) =>
    typeof r.type === 'string' && typeof r.ruleset_id === 'number'
      ? [
          {
            type: r.type,
            rulesetId: r.ruleset_id,
            ...(isObject(r.parameters) && Array.isArray(r.parameters.required_status_checks)
              ? {
                  contexts: r.parameters.required_status_checks
                    .map((c) => (isObject(c) ? c.context : undefined))
                    .filter((c): c is string => typeof c === 'string'),
                }
              : {}),
          },
        ]
      : [],
  );
}

/** Required status checks' names: `contexts`, else `checks[].context`. */
function names(checks: Record<string, unknown>): string[] {
  const contexts = Array.isArray(checks.contexts) ? checks.contexts.filter((c) => typeof c === 'string') : [];
  const fromChecks = Array.isArray(checks.checks)
    ? checks.checks.map((c) => (isObject(c) ? c.context : undefined)).filter((c) => typeof c === 'string')
    : [];
  return [...new Set([...contexts, ...fromChecks])] as string[];
}

function protection(p: unknown): ClassicProtection {
  const o = isObject(p) ? p : {};
  const enabled = (v: unknown) => isObject(v) && v.enabled === true;
  const someone = (v: unknown) =>
    isObject(v) && ['users', 'teams', 'apps'].some((k) => Array.isArray(v[k]) && (v[k] as unknown[]).length > 0);
  const reviews = isObject(o.required_pull_request_reviews) ? o.required_pull_request_reviews : undefined;
  return {
    enforceAdmins: enabled(o.enforce_admins),
    ...(reviews ? { pullRequest: { bypassAllowed: someone(reviews.bypass_pull_request_allowances) } } : {}),
    statusChecks: isObject(o.required_status_checks) ? names(o.required_status_checks) : [],
    locked: enabled(o.lock_branch),
    ...(isObject(o.restrictions) ? { restricted: { named: someone(o.restrictions) } } : {}),
  };
}
