/**
 * What the judge's findings (protectedPaths.ts) say: in one line for the log, the history and the
 * verdict's summary, and to the agent in the retry prompt (what it changed, that the judge took it
 * from the base, what to do). Pure.
 */
import type { Finding } from './protectedPaths.js';

/** One finding in a few words: `tests/test_x.py (test-changed)`. */
const named = (f: Finding) => `${f.path} (${f.kind})`;

/** The findings (and the links removed) in one line; '' when there are none. */
export function findingsSummary(findings: readonly Finding[], removedLinks: readonly string[] = []): string {
  const parts: string[] = [];
  if (findings.length > 0) {
    const shown = findings.slice(0, 3).map(named).join(', ');
    parts.push(
      `the agent changed ${findings.length} path(s) the maintainer owns (${shown}${findings.length > 3 ? ', …' : ''}): ` +
        'the work is not accepted while they differ from the base',
    );
  }
  if (removedLinks.length > 0)
    parts.push(
      `${removedLinks.length} symlink(s) of the work point outside the repository (${removedLinks.slice(0, 3).join(', ')}): the judge removed them`,
    );
  return parts.join('; ');
}

/**
 * Why work the tests accepted is held for a person (issue 42): what it changed of the maintainer's,
 * in one line; '' when nothing.
 */
export function findingsHeldWhy(findings: readonly Finding[], removedLinks: readonly string[] = []): string {
  const parts: string[] = [];
  if (findings.length > 0) {
    const shown = findings.slice(0, 3).map(named).join(', ');
    parts.push(
      `it changed ${findings.length} path(s) the maintainer owns (${shown}${findings.length > 3 ? ', …' : ''}); ` +
        "the maintainer's tests pass with the base's version of them",
    );
  }
  if (removedLinks.length > 0)
    parts.push(
      `${removedLinks.length} symlink(s) of the work point outside the repository (${removedLinks.slice(0, 3).join(', ')})`,
    );
  return parts.join('; ');
}

/** What the agent is told: each finding with its detail and what to do, then that adding tests is fine. */
export function findingsForAgent(
  findings: readonly Finding[],
  removedLinks: readonly string[] = [],
  limit = 20,
): string {
  if (findings.length === 0 && removedLinks.length === 0) return '';
  const lines = [
    "You changed what judges the work (tests that were there before, test infrastructure, or agent-loop's configuration). " +
      'The tests ran with those paths as they are on the base branch, and the work cannot be accepted while your change to them stays:',
  ];
  for (const f of findings.slice(0, limit))
    lines.push(
      `- ${f.path} (${f.kind}: ${f.detail}): ${f.kind === 'infrastructure-added' ? 'remove it' : 'restore it as it was'}.`,
    );
  if (findings.length > limit) lines.push(`- … and ${findings.length - limit} more`);
  for (const link of removedLinks.slice(0, limit))
    lines.push(`- ${link}: a symbolic link pointing outside the repository; remove it.`);
  lines.push(
    'Fix the code under test instead. You may add tests: a new test file, or new whole test functions in an existing test file (nothing else in it changed).',
  );
  return lines.join('\n');
}
