/**
 * Preflight before paying (issue 40, src/publish/preflight.ts): from what GitHub let the token read,
 * whether the landing will be refused (a halt before any agent runs), and what could not be read (a
 * note, said until the loop has landed work). Never a halt on what might be fine.
 */
import { describe, expect, it } from '@jest/globals';
import {
  type LandingFacts,
  decidePreflight,
  preflightSummary,
  protectionToRead,
  rulesetsToRead,
  tokenKind,
} from '../../src/publish/preflight.js';

const REPO = 'octo-org/widgets';
const nothingLanded = { pullRequests: 0, issuesClosed: 0 };
const facts = (over: Partial<LandingFacts>): LandingFacts => ({
  repository: REPO,
  base: 'main',
  landing: 'pull-request',
  token: 'workflow',
  landed: nothingLanded,
  ...over,
});
const refusedRead = { ok: false as const, status: 403, message: 'Resource not accessible by integration' };
const merge = (over: Partial<LandingFacts>) =>
  facts({
    landing: 'merge',
    token: 'app',
    rules: { ok: true, value: [] },
    rulesets: {},
    branch: { ok: true, value: { protected: false } },
    ...over,
  });

describe('the token kind', () => {
  it("the workflow token is told by comparing it with the workflow token; GitHub's prefixes tell a person's from an App's", () => {
    expect(tokenKind('ghs_abc', 'ghs_abc')).toBe('workflow');
    expect(tokenKind('ghs_app', 'ghs_abc')).toBe('app');
    expect(tokenKind('ghp_x', 'ghs_abc')).toBe('user');
    expect(tokenKind('github_pat_x', undefined)).toBe('user');
    expect(tokenKind('gho_x', undefined)).toBe('user');
    expect(tokenKind('ghu_x', undefined)).toBe('user');
    // An installation token without the workflow token to compare with: an App's or the workflow's.
    expect(tokenKind('ghs_abc', undefined)).toBe('unknown');
    expect(tokenKind('v1.0123456789abcdef', 'ghs_abc')).toBe('unknown');
  });
});

describe('the pull-request setting ("Allow GitHub Actions to create and approve pull requests")', () => {
  it('read as off while the workflow token opens the pull requests: a halt naming the setting and where it is', () => {
    const v = decidePreflight(facts({ pullRequestSetting: { ok: true, value: { allowed: false } } }));
    expect(v.halt?.message).toContain(
      `GitHub does not let GitHub Actions open pull requests in ${REPO}: its setting "Allow GitHub Actions to create and approve pull requests"`,
    );
    expect(v.halt?.message).toContain('read before any agent ran');
    expect(v.halt?.advice).toContain('Settings → Actions → General → Workflow permissions');
    expect(v.halt?.advice).toContain('resume: true');
    expect(v.halt?.advice).toContain('No agent has run');
  });

  it('read as on: no halt, and nothing said of it', () => {
    const v = decidePreflight(facts({ pullRequestSetting: { ok: true, value: { allowed: true } } }));
    expect(v.halt).toBeUndefined();
    expect(v.notes.join('\n')).not.toContain('open pull requests');
  });

  it('unreadable (the workflow token has no Administration read): a note naming the setting and its place, no halt', () => {
    const v = decidePreflight(facts({ pullRequestSetting: refusedRead }));
    expect(v.halt).toBeUndefined();
    const note = v.notes.find((n) => n.includes('open pull requests'));
    expect(note).toContain('the workflow token may not read');
    expect(note).toContain('403 Resource not accessible by integration');
    expect(note).toContain('Allow GitHub Actions to create and approve pull requests');
    expect(note).toContain('Settings → Actions → General → Workflow permissions');
  });

  it("an App's or a person's token is not subject to it: off is no halt for them", () => {
    for (const token of ['app', 'user', 'unknown'] as const)
      expect(
        decidePreflight(facts({ token, pullRequestSetting: { ok: true, value: { allowed: false } } })).halt,
      ).toBeUndefined();
  });

  it('on-success merge opens no pull request: the setting is no reason to halt', () => {
    expect(
      decidePreflight(merge({ token: 'workflow', pullRequestSetting: { ok: true, value: { allowed: false } } })).halt,
    ).toBeUndefined();
  });
});

describe("the token's push permission", () => {
  it("a person's token whose account may not push: a halt naming the repository and how to let it", () => {
    const v = decidePreflight(
      facts({ token: 'user', permissions: { ok: true, value: { push: false, admin: false } } }),
    );
    expect(v.halt?.message).toContain(`the github-token may not push to ${REPO}`);
    expect(v.halt?.advice).toContain('write access');
  });

  it("a person's token that may push, or whose permissions GitHub did not give: no halt", () => {
    expect(
      decidePreflight(facts({ token: 'user', permissions: { ok: true, value: { push: true } } })).halt,
    ).toBeUndefined();
    expect(decidePreflight(facts({ token: 'user', permissions: { ok: true, value: undefined } })).halt).toBeUndefined();
    expect(decidePreflight(facts({ token: 'user', permissions: refusedRead })).halt).toBeUndefined();
  });

  it('an installation token (the workflow token, an App): GitHub reports no push permission for it, so a note says what it needs', () => {
    const workflow = decidePreflight(facts({}));
    expect(workflow.notes.find((n) => n.startsWith('Whether the token may push'))).toContain(
      'permissions: contents: write',
    );
    const app = decidePreflight(facts({ token: 'app' }));
    expect(app.notes.find((n) => n.startsWith('Whether the token may push'))).toContain('Contents: read and write');
  });
});

describe('on-success merge: the base branch refuses a direct push', () => {
  const rule = (type: string, rulesetId = 7) => ({ type, rulesetId });

  it('a ruleset that requires a pull request, which this token may not bypass: a halt naming the ruleset and the fix', () => {
    for (const bypass of ['never', 'pull_requests_only']) {
      const v = decidePreflight(
        merge({
          rules: { ok: true, value: [rule('deletion'), rule('pull_request')] },
          rulesets: { 7: { ok: true, value: { name: 'protect main', bypass } } },
        }),
      );
      expect(v.halt?.message).toContain('the ruleset "protect main" (#7) on main');
      expect(v.halt?.message).toContain('requires a pull request');
      expect(v.halt?.message).toContain(`current_user_can_bypass: ${bypass}`);
      expect(v.halt?.advice).toContain('Settings → Rules → Rulesets → "protect main" → Bypass list');
      expect(v.halt?.advice).toContain('on-success: pull-request, the default');
    }
  });

  it('the same ruleset when this token may bypass it: no halt', () => {
    const v = decidePreflight(
      merge({
        rules: { ok: true, value: [rule('pull_request')] },
        rulesets: { 7: { ok: true, value: { name: 'protect main', bypass: 'always' } } },
      }),
    );
    expect(v).toEqual({ notes: [expect.stringContaining('Whether the token may push')] });
  });

  it('a ruleset whose bypass GitHub did not state: a note, never a halt', () => {
    const v = decidePreflight(
      merge({ rules: { ok: true, value: [rule('update')] }, rulesets: { 7: { ok: true, value: { name: 'r' } } } }),
    );
    expect(v.halt).toBeUndefined();
    expect(v.notes.some((n) => n.includes('the ruleset "r" (#7)') && n.includes('restricts updates'))).toBe(true);
  });

  it('rules whose effect depends on the work (signatures, linear history, deletion, non-fast-forward): neither a halt nor a ruleset read', () => {
    const rules = ['required_signatures', 'required_linear_history', 'deletion', 'non_fast_forward'].map((t) =>
      rule(t),
    );
    expect(rulesetsToRead(rules)).toEqual([]);
    expect(decidePreflight(merge({ rules: { ok: true, value: rules } })).halt).toBeUndefined();
  });

  it('classic protection that requires status checks of everyone: a halt from the branch summary alone', () => {
    const branch = {
      ok: true as const,
      value: { protected: true, statusChecks: { enforcement: 'everyone', contexts: ['ci'] } },
    };
    expect(protectionToRead(branch)).toBe(false);
    const v = decidePreflight(merge({ branch }));
    expect(v.halt?.message).toContain('the branch protection of main');
    expect(v.halt?.message).toContain('requires the status checks ci of everyone');
    expect(v.halt?.advice).toContain('Settings → Branches → the rule for main → Edit');
  });

  it('classic protection read in full: a pull request required of administrators too halts; without them, only a person who is no admin is refused', () => {
    const branch = { ok: true as const, value: { protected: true } };
    const requiresPr = (enforceAdmins: boolean) => ({
      ok: true as const,
      value: { enforceAdmins, pullRequest: { bypassAllowed: false }, statusChecks: [], locked: false },
    });
    expect(protectionToRead(branch)).toBe(true);
    expect(decidePreflight(merge({ branch, protection: requiresPr(true) })).halt?.message).toContain(
      'requires a pull request, of administrators too',
    );
    // An App's token: whether it counts as an administrator is not said: a note.
    const app = decidePreflight(merge({ branch, protection: requiresPr(false) }));
    expect(app.halt).toBeUndefined();
    expect(app.notes.some((n) => n.includes('the branch protection of main'))).toBe(true);
    const person = decidePreflight(
      merge({
        token: 'user',
        permissions: { ok: true, value: { push: true, admin: false } },
        branch,
        protection: requiresPr(false),
      }),
    );
    expect(person.halt?.message).toContain("the token's account is no administrator");
  });

  it('protection that cannot be read (it needs Administration read): a note; a branch protected by rulesets only: nothing', () => {
    const branch = { ok: true as const, value: { protected: true } };
    const v = decidePreflight(merge({ branch, protection: refusedRead }));
    expect(v.halt).toBeUndefined();
    expect(v.notes.some((n) => n.includes('needs Administration read'))).toBe(true);
    expect(decidePreflight(merge({ branch, protection: { ok: true, value: 'none' } })).notes).toEqual([
      expect.stringContaining('Whether the token may push'),
    ]);
  });

  it('a protection that names who may push or bypass: a note (who this token is cannot be told), no halt', () => {
    const v = decidePreflight(
      merge({
        branch: { ok: true, value: { protected: true } },
        protection: {
          ok: true,
          value: { enforceAdmins: true, statusChecks: [], locked: false, restricted: { named: true } },
        },
      }),
    );
    expect(v.halt).toBeUndefined();
    expect(v.notes.some((n) => n.includes('names who may push'))).toBe(true);
  });

  it('pull-request landings read nothing of the base: a protected base is no reason to halt', () => {
    expect(
      decidePreflight(
        facts({
          token: 'app',
          branch: { ok: true, value: { protected: true, statusChecks: { enforcement: 'everyone', contexts: ['ci'] } } },
        }),
      ).halt,
    ).toBeUndefined();
  });
});

describe('notes', () => {
  it('are said until the loop has landed work the same way, then never again; a halt is not held back', () => {
    const unreadable = { pullRequestSetting: refusedRead };
    expect(decidePreflight(facts(unreadable)).notes.length).toBeGreaterThan(0);
    expect(decidePreflight(facts({ ...unreadable, landed: { pullRequests: 1, issuesClosed: 0 } })).notes).toEqual([]);
    // Merge counts its closed issues (each landed on the base); pull requests do not count for it.
    expect(decidePreflight(merge({ landed: { pullRequests: 3, issuesClosed: 0 } })).notes.length).toBeGreaterThan(0);
    expect(decidePreflight(merge({ landed: { pullRequests: 0, issuesClosed: 1 } })).notes).toEqual([]);
    const off = { pullRequestSetting: { ok: true as const, value: { allowed: false } } };
    expect(decidePreflight(facts({ ...off, landed: { pullRequests: 5, issuesClosed: 5 } })).halt).toBeDefined();
  });

  it('go into one section of the job summary; none, no section', () => {
    expect(preflightSummary([])).toBe('');
    const text = preflightSummary(['one', 'two']);
    expect(text).toMatch(/^### Not checked before the agent ran\n/);
    expect(text).toContain('- one\n- two\n');
    expect(text).toContain('resume: true');
  });
});
