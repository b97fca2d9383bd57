/**
 * The failing tests of a rejection as the console shows them (without --verbose the test output is
 * not echoed, issue 42): each id with its message and the first lines of its own failure text,
 * pytest's `E` lines first. Bounded. Pure.
 */
import type { Failure, Verdict } from './judge.js';

/** Tests named, and lines of each one's failure text shown. */
export const SAID = { tests: 10, lines: 4 } as const;

/** The lines of a failure text worth a glance: pytest's `E` lines when it has some, else its first non-blank lines. */
function glance(text: string | undefined, message: string | undefined): string[] {
  if (!text) return [];
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  const first = message?.split('\n')[0]?.trim();
  // The message is said already: not again as the text's first line.
  const news = lines.filter((l) => l.replace(/^E\s+/, '').trim() !== first);
  const errors = news.filter((l) => /^E /.test(l));
  return (errors.length > 0 ? errors : news).slice(0, SAID.lines);
}

/** The broken tests and failing targets, each with a few lines; empty when there are none. */
export function failuresSaid(v: Pick<Verdict, 'broken' | 'targetsFailing' | 'failureText'>): string {
  const failures: Array<Failure & { what: string }> = [
    ...v.broken.map((f) => ({ ...f, what: 'broken' })),
    ...v.targetsFailing.map((f) => ({ ...f, what: 'target' })),
  ];
  if (failures.length === 0) return '';
  const lines = [`Failing tests (${failures.length}):`];
  for (const f of failures.slice(0, SAID.tests)) {
    lines.push(`  ${f.what === 'target' ? 'target ' : ''}${f.id}${f.message ? `: ${f.message.split('\n')[0]}` : ''}`);
    for (const line of glance(v.failureText?.[f.id], f.message)) lines.push(`      ${line}`);
  }
  if (failures.length > SAID.tests) lines.push(`  … and ${failures.length - SAID.tests} more`);
  return lines.join('\n');
}
