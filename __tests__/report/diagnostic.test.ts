import { describe, expect, it } from '@jest/globals';
import { renderMarkdown, toDiscordMessage, type HaltDiagnostic } from '../../src/report/diagnostic.js';
import { buildDiscordPayload } from '../../src/report/discordPayload.js';
import { fencedBlock } from '../../src/report/markdown.js';
import { buildPrompt } from '../../src/workflows/implement/prompt.js';

const ZERO_WIDTH = /[\u200b-\u200d\u2060\ufeff]/;

/** The body of every fenced block in `markdown` (CommonMark: closed by a fence at least as long). */
function fencedBodies(markdown: string): string[] {
  const bodies: string[] = [];
  let open: { fence: string; lines: string[] } | undefined;
  for (const line of markdown.split('\n')) {
    if (!open) {
      const m = /^(`{3,})[^`]*$/.exec(line);
      if (m?.[1]) open = { fence: m[1], lines: [] };
    } else if (/^`{3,}\s*$/.test(line) && line.trim().length >= open.fence.length) {
      bodies.push(open.lines.join('\n'));
      open = undefined;
    } else open.lines.push(line);
  }
  return bodies;
}

const quoted = [
  'npm test\n```\ninside a fence\n```\nafter',
  '````\nfour backticks\n````',
  'a `code` span and ``two`` and ```` run',
  '`'.repeat(12),
];

const diagnostic = (lastOutput: string, tail: string): HaltDiagnostic => ({
  reason: 'failure_loop',
  headline: 'FAILURE LOOP DETECTED: 2 consecutive escalations (issues bd-a1, bd-b2)',
  loopType: 'failure_loop',
  issues: [{ id: 'bd-a1', title: 'uses ``` in its title' }],
  steps: ['implement', 'verify'],
  escalations: { consecutive: 2, limit: 2, total: 2 },
  lastOutput,
  lastFailure: { kind: 'tests', message: '1 test failed', tail },
  advice: 'Fix the tests, then run again.',
  checkpointId: '0b7c4f8e-2d5a-4c1e-9f3b-6a1d2e3f4a5b',
  iteration: 7,
});

describe('no invisible characters in diagnostics (issue 15)', () => {
  it('fencedBlock: text holding ``` and ```` sits in a longer fence and comes back unchanged', () => {
    for (const text of quoted) {
      const block = fencedBlock(text).join('\n');
      expect(fencedBodies(block)).toEqual([text]);
    }
    expect(fencedBlock('plain')).toEqual(['```', 'plain', '```']);
    expect(fencedBlock('x: 1', 'yaml')[0]).toBe('```yaml');
  });

  it('halt.md quotes the agent output and the failing tests as they are, with no zero-width character anywhere', () => {
    for (const text of quoted) {
      const md = renderMarkdown(diagnostic(text, `FAIL ${text}`));
      expect(fencedBodies(md)).toEqual([`FAIL ${text}`, text]);
      expect(md).not.toMatch(ZERO_WIDTH);
    }
  });

  it('the retry prompt quotes the last failure unchanged', () => {
    const tail = quoted[0]!;
    const prompt = buildPrompt({
      issues: [{ id: 'bd-a1', title: 't', body: 'b' }],
      iteration: 2,
      maxIterations: 10,
      testCommand: 'npm test',
      sourceHint: 'the beads file',
      lastFailure: { kind: 'tests', message: 'not accepted', tail },
    });
    expect(fencedBodies(prompt)).toContain(tail);
    expect(prompt).not.toMatch(ZERO_WIDTH);
  });

  it('the Discord message has no zero-width character either, and its code block cannot be broken out of', () => {
    for (const text of quoted) {
      const body = buildDiscordPayload(toDiscordMessage(diagnostic(text, text)));
      expect(JSON.stringify(body)).not.toMatch(/\\u200b|\u200b/i);
      expect(JSON.stringify(body)).not.toMatch(ZERO_WIDTH);
    }
    // In the summary a run of backticks is escaped (shown as it is); a single pair stays inline code.
    const summary = buildDiscordPayload({ title: 't', summary: 'use `--fresh`, not ``` or \\``', fields: [] });
    expect(summary.embeds[0].description).toBe('use `--fresh`, not \\`\\`\\` or \\\\\\`\\`');
  });
});
