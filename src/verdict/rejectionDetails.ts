/**
 * What the agent is told of a rejected verdict (issue 42): each failing test with its own failure
 * text, bounded. Pure.
 */
import { VERDICT_MESSAGES as SAY, firstIds } from './messages.js';
import type { Failure, Verdict } from './judge.js';

/** Characters of the failing tests' own texts that one rejection gives the agent, in all (each text is bounded too). */
export const DETAILS_TEXT_BUDGET = 12_000;

/**
 * What the agent is told after a rejection: each broken test and failing target with its message
 * and, where the runner's output was read per test, its own failure text (assertion, diff,
 * traceback head; DETAILS_TEXT_BUDGET in all, the failures past it named with their message). Pure.
 */
export function rejectionDetails(v: Verdict, limit = 20): string {
  const lines: string[] = [];
  let budget = DETAILS_TEXT_BUDGET;
  const list = (heading: string, failures: Failure[]) => {
    if (failures.length === 0) return;
    lines.push(heading);
    for (const f of failures.slice(0, limit)) {
      const own = v.failureText?.[f.id];
      const text = own && own.length <= budget ? own : undefined;
      if (text) {
        budget -= text.length;
        lines.push(`- ${f.id}${f.message ? `: ${f.message.split('\n')[0]}` : ''}`, indent(text));
      } else lines.push(`- ${f.id}${f.message ? `: ${f.message.split('\n').slice(0, 6).join('\n    ')}` : ''}`);
    }
    if (failures.length > limit) lines.push(`- … and ${failures.length - limit} more`);
  };
  list('Tests that passed before this cycle and fail now (you broke them):', v.broken);
  list("The issue's tests that do not pass yet:", v.targetsFailing);
  for (const f of v.verifyFailing)
    lines.push(
      `The issue's verify command \`${f.command}\` exited with code ${f.exitCode}:`,
      f.tail.trim().split('\n').slice(-10).join('\n'),
    );
  if (v.preexisting.length) lines.push(SAY.preexistingForAgent(v.preexisting));
  if (v.removed?.length)
    lines.push(
      `Tests that failed before this cycle and no longer run (removed, not fixed): ${firstIds(v.removed, 10)}.`,
    );
  return lines.join('\n');
}

/** Whether the verdict holds any failing test's own failure text: then the log's tail adds nothing the agent needs. */
export const hasFailureText = (v: Pick<Verdict, 'failureText'>): boolean => Object.keys(v.failureText ?? {}).length > 0;

const indent = (text: string) =>
  text
    .split('\n')
    .map((l) => (l === '' ? '' : `    ${l}`))
    .join('\n');
