/**
 * A halt's advice in the words of the surface that ran (issue 40, src/core/diagnostic.ts): what to
 * fix, then how to resume from the halt's resume ways, each said once and only in that surface's
 * words; the ways kept beside the text.
 */
import { describe, expect, it } from '@jest/globals';
import type { Terms } from '../../src/config/surface.js';
import { buildDiagnostic } from '../../src/core/diagnostic.js';
import { resumeWays } from '../../src/core/resumeWays.js';
import { type HaltReason, HaltReasons, initialLoopState } from '../../src/core/state.js';
import { actionVocabulary, cliVocabulary } from '../../e2e/support/vocabulary.js';
import { surface } from '../../src/config/surface.js';
import { environmentAdvice } from '../../src/failure/policy.js';
import { baselineProblem } from '../../src/verdict/baseline.js';
import { emptyRun } from '../../src/verdict/results.js';

const diagnose = (reason: HaltReason, terms: Terms, advice?: string) =>
  buildDiagnostic({
    reason,
    message: 'HALTED',
    state: { ...initialLoopState(10), baseBranch: 'main' },
    checkpointId: '3b241101-e2bb-4255-8caf-4136c566a962',
    maxConsecutiveEscalations: 2,
    terms,
    ...(advice ? { advice } : {}),
  });

describe("a halt's advice (issue 40)", () => {
  it.each<[Terms, (text: string) => string[]]>([
    ['cli', actionVocabulary],
    ['action', cliVocabulary],
  ])('of every halt reason, in the words of %s only', (terms, otherWords) => {
    const found = HaltReasons.map((reason) => [reason, otherWords(diagnose(reason, terms).advice)]);
    expect(found).toEqual(HaltReasons.map((reason) => [reason, []]));
  });

  it('keeps the ways to resume beside the text, and says each of them once, in their order', () => {
    for (const reason of HaltReasons) {
      const d = diagnose(reason, 'action');
      expect([reason, d.resume]).toEqual([reason, resumeWays({ reason })]);
      expect(d.advice.match(/Later runs stay halted until it is resumed: /g)).toHaveLength(1);
    }
    expect(diagnose('failure_loop', 'cli').advice).toContain(
      "Later runs stay halted until it is resumed: once the cause is fixed, run agent-loop run --resume-halted with the halted run's other options; remove the agent-loop:escalated label from an issue that should be tried again, or edit the issue (its title or text) to say more: the next run resumes by itself; commit a fix to main: the next run resumes by itself; or start over with --fresh",
    );
  });

  it('issue 40: a halt that escalated issues says what resuming does with them (the loop goes on without them); only escalated issues left, it offers no resume by hand', () => {
    const goesOn =
      'Resumed, or started over, the loop goes on with the issues that are not escalated: an escalated issue is tried again once its agent-loop:escalated label is removed, or, unless started over, once it is edited.';
    expect(diagnose('failure_loop', 'action').advice).toContain(goesOn);
    expect(diagnose('bounce_loop', 'cli').advice).toContain(goesOn);
    const all = diagnose('all_escalated', 'action').advice;
    expect(all).toBe(
      'Every remaining ready issue has been escalated. Read them and the agent output below, and fix what blocks them (the issue text, the tests, the environment), or file a new issue: the next run resumes by itself for it. Later runs stay halted until it is resumed: remove the agent-loop:escalated label from an issue that should be tried again, or edit the issue (its title or text) to say more: the next run resumes by itself.',
    );
    expect(all).not.toContain('resume: true');
  });

  it('names the action’s inputs where the action ran: resume: true, the input max-iterations', () => {
    expect(diagnose('stuck', 'action').advice).toContain(
      'once the cause is fixed, run the workflow by hand (workflow_dispatch) with the input resume: true; or start over with the input fresh: true',
    );
    const limit = diagnose('max_iterations', 'action').advice;
    expect(limit).toContain(
      'raise the input max-iterations (the count is kept across runs): the next run resumes by itself',
    );
    // Resumed as it is, a limit's halt would halt again at once: not offered.
    expect(limit).not.toContain('resume: true');
    expect(diagnose('baseline_unreadable', 'action').advice).toContain('name it with the input junit-file');
    expect(diagnose('baseline_unreadable', 'cli').advice).toContain('name it with --junit-file');
  });

  it('publish_refused: later runs stay halted until resumed, as the words say (no scheduled run lifts it)', () => {
    const own = 'Allow it in the repository settings.';
    const d = diagnose('publish_refused', 'action', own);
    expect(d.advice).toBe(
      `${own} Later runs stay halted until it is resumed: once the cause is fixed, run the workflow by hand (workflow_dispatch) with the input resume: true; or start over with the input fresh: true (the loop's counts begin again). Resumed, only the refused step is done again: the agent does not run.`,
    );
    expect(d.advice).not.toMatch(/scheduled run/);
  });

  it("a halt's own advice (the agent's environment, the baseline) names the options in the words of the surface that ran, and leaves resuming to the diagnostic", () => {
    const texts = (terms: Terms) => [
      ...['not_found', 'permission_denied', 'auth', 'other'].map((r) => environmentAdvice(r, surface(terms))),
      baselineProblem({ ...emptyRun(1), cannotRun: 'no module named x' }, 'pytest', surface(terms))!.advice,
      baselineProblem(emptyRun(1), 'make test', surface(terms))!.advice,
    ];
    expect(texts('action').flatMap(cliVocabulary)).toEqual([]);
    expect(texts('cli').flatMap(actionVocabulary)).toEqual([]);
    expect(texts('action').join(' ')).toContain('check the input agent / the input agent-command');
    expect(texts('action').join(' ')).toContain('give a test command that runs here (the input test-command;');
    expect(texts('cli').join(' ')).toContain('allow its tools (--agent-allowed-tools "Bash Edit Write Read")');
    for (const text of [...texts('cli'), ...texts('action')]) expect(text).not.toMatch(/resume/i);
  });
});
