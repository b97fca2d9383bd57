/**
 * Issue 40: the halt's "What to do" was cut mid-word on the console (the terminal broke the 400-
 * character line at its edge). agent-loop's own lines are wrapped at word boundaries to the
 * terminal's width; nothing is ever cut.
 */
import { describe, expect, it } from '@jest/globals';
import { ManualClock } from '../../fakes/index.js';
import { createLogger } from '../../src/report/logger.js';
import { renderMarkdown } from '../../src/report/diagnostic.js';
import { consoleWidth, wrapText } from '../../src/report/wrap.js';

const ADVICE =
  'Read the escalated issues and the agent output below; fix what blocks them (the issue text, the tests, the environment). Later runs stay halted until you remove the agent-loop:escalated label from an issue that should be tried again, edit one of those issues (its title or text), or push new commits to the base branch, or resume the run by hand (`agent-loop run --resume-halted`).';

/** The words of `text`, in order, whatever the line breaks and indentation. */
const words = (text: string) => text.split(/\s+/).filter(Boolean);

describe('wrapText', () => {
  it('breaks a long line at spaces, each line at most width - 1, every word whole and in order', () => {
    const wrapped = wrapText(`What to do: ${ADVICE}`, 60);
    const lines = wrapped.split('\n');
    expect(lines.length).toBeGreaterThan(5);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(59);
    expect(words(wrapped)).toEqual(words(`What to do: ${ADVICE}`));
    // The label is whole on one line, as is the inline command.
    expect(lines.some((l) => l.includes('agent-loop:escalated'))).toBe(true);
    expect(lines.some((l) => l.includes('`agent-loop run --resume-halted`).'))).toBe(true);
    // Continued lines hang by two spaces under a top-level line.
    expect(lines.slice(1).every((l) => l.startsWith('  ') && !l.startsWith('   '))).toBe(true);
  });

  it('continues a list item under its text, and an indented line at its indentation', () => {
    const item = wrapText(`- Issues: ${'bd-1 "A long title", '.repeat(6)}`, 40).split('\n');
    expect(item[0]).toMatch(/^- Issues: /);
    expect(item.slice(1).every((l) => /^ {2}\S/.test(l))).toBe(true);
    const indented = wrapText(`  iterations ${'word '.repeat(20)}`, 30).split('\n');
    expect(indented.slice(1).every((l) => /^ {4}\S/.test(l))).toBe(true);
  });

  it('never cuts a word wider than the line: it stands alone', () => {
    const url = `https://example.com/${'x'.repeat(80)}`;
    const lines = wrapText(`see ${url} now`, 40).split('\n');
    expect(lines).toEqual(['see', `  ${url}`, '  now']);
  });

  it('leaves fenced blocks (quoted output), short lines and blank lines as they are', () => {
    const output = `${'y'.repeat(90)} ${'z'.repeat(10)}`;
    const text = ['# agent-loop halted', '', '````', output, '```', 'still inside', '````', '', 'short'].join('\n');
    expect(wrapText(text, 40)).toBe(text);
  });

  it('wraps nothing on a width too narrow to help', () => {
    expect(wrapText(ADVICE, 10)).toBe(ADVICE);
  });
});

describe('consoleWidth', () => {
  it('COLUMNS when it is a whole number, else the terminal, else none (a pipe: not wrapped)', () => {
    expect(consoleWidth('72', 200)).toBe(72);
    expect(consoleWidth(undefined, 120)).toBe(120);
    expect(consoleWidth('wide', 120)).toBe(120);
    expect(consoleWidth(undefined, undefined)).toBeUndefined();
    expect(consoleWidth('5', undefined)).toBeUndefined();
  });
});

describe('the text log on a terminal', () => {
  const logWith = (width: number | undefined) => {
    const lines: string[] = [];
    const clock = new ManualClock();
    const logger = createLogger({
      json: false,
      write: (s) => lines.push(s),
      clock,
      redact: (t) => t.replaceAll('sekrit-value', '***'),
      ...(width !== undefined ? { width } : {}),
    });
    return { logger, text: () => lines.join('') };
  };
  const diagnostic = renderMarkdown({
    reason: 'failure_loop',
    headline: 'FAILURE LOOP DETECTED: 2 consecutive escalations (issues bd-1, bd-2)',
    loopType: 'failure loop',
    issues: [{ id: 'bd-1', title: 'Make the value good' }],
    steps: ['verify'],
    escalations: { consecutive: 2, limit: 2, total: 2 },
    lastOutput: `${'o'.repeat(120)} sekrit-value`,
    advice: ADVICE,
    checkpointId: '2b1c6f2e-3c1a-4d4e-9f00-0123456789ab',
    iteration: 8,
  });

  it("wraps the diagnostic's advice at words to the width, masks first, and leaves the agent output block and the output lines alone", () => {
    const { logger, text } = logWith(72);
    logger.info('halt.diagnostic', diagnostic.trimEnd());
    logger.output('agent', `${'a'.repeat(100)} agent line`, 'stdout');
    logger.result({}, `HALTED (failure_loop): ${'x '.repeat(60)}`);
    const out = text();
    const lines = out.split('\n');
    const advice = out.slice(out.indexOf('What to do:'), out.indexOf('Last 500 characters'));
    expect(words(advice)).toEqual(words(`What to do: ${ADVICE}`));
    for (const line of advice.split('\n')) expect(line.length).toBeLessThanOrEqual(71);
    // The quoted agent output is output: as it was, masked.
    expect(lines).toContain(`${'o'.repeat(120)} ***`);
    expect(lines).toContain(`  │ ${'a'.repeat(100)} agent line`);
    expect(lines.filter((l) => l.startsWith('HALTED')).every((l) => l.length <= 71)).toBe(true);
  });

  it('without a width (a pipe, a file, the action): one line per paragraph, as before', () => {
    const { logger, text } = logWith(undefined);
    logger.info('halt.diagnostic', diagnostic.trimEnd());
    expect(text()).toContain(`What to do: ${ADVICE}\n`);
  });
});
