import { describe, expect, it } from '@jest/globals';
import { buildDiagnostic } from '../../src/core/diagnostic.js';
import { type HaltReason, type LoopState, initialLoopState } from '../../src/core/state.js';
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

describe('the halt diagnostic says which agent run its output comes from', () => {
  const record = (n: number, issueIds: string[]) => ({
    n,
    issueIds,
    startedAt: '2026-11-27T10:00:00Z',
    durationMs: 5,
    outcome: 'agent_failed' as const,
    agent: { ok: true, exitCode: 0, signal: null, durationMs: 3 },
  });
  const escalation = (issueIds: string[], iteration: number) => ({
    issueIds,
    titles: issueIds.map((id) => `title of ${id}`),
    iteration,
    steps: ['implement'],
    reason: 'cannot verify',
    at: '2026-11-27T10:00:00Z',
    note: '',
  });
  const halted = (state: LoopState, reason: HaltReason) =>
    renderMarkdown(buildDiagnostic({ reason, message: 'm', state, checkpointId: 'c', maxConsecutiveEscalations: 2 }));

  it('names the run and its issue among those halted on (a failure loop whose last issue was escalated before any agent run)', () => {
    const state: LoopState = {
      ...initialLoopState(50),
      iteration: 7,
      history: [record(6, ['qs-1']), record(7, ['qs-3'])],
      lastAgentOutput: 'the output of qs-3',
      escalations: [escalation(['qs-3'], 7), escalation(['qs-2'], 7)],
      consecutiveEscalations: 2,
      totalEscalations: 2,
    };
    const md = halted(state, 'failure_loop');
    expect(md).toContain('- Issues: qs-3 "title of qs-3", qs-2 "title of qs-2"');
    expect(md).toContain('- Last agent run: iteration 7 on qs-3\n');
    expect(md).toContain('the output of qs-3');
  });

  it("says so when the output is another issue's than those halted on", () => {
    const state: LoopState = {
      ...initialLoopState(50),
      iteration: 4,
      history: [record(4, ['qs-1'])],
      lastAgentOutput: 'the output of qs-1',
      escalations: [escalation(['qs-1'], 4), escalation(['qs-2'], 4)],
      consecutiveEscalations: 1,
      totalEscalations: 2,
    };
    expect(halted(state, 'failure_loop')).toContain(
      "- Last agent run: iteration 4 on qs-1, not one of the issues above: the agent output below is that run's\n",
    );
    expect(halted({ ...state, history: [], lastAgentOutput: '' }, 'failure_loop')).toContain(
      '- Last agent run: none in this run, so there is no agent output below\n',
    );
  });
});

describe('issue titles in a halt diagnostic (issue 43)', () => {
  it('a 5 MB title is bounded, head and tail kept, in the markdown and in Discord', () => {
    const title = `Start ${'x'.repeat(5 * 1024 * 1024)} end`;
    const d = { ...diagnostic('', ''), issues: [{ id: 'bd-a1', title }] };
    const line = renderMarkdown(d)
      .split('\n')
      .find((l) => l.startsWith('- Issues:'))!;
    expect(line.length).toBeLessThan(400);
    expect(line).toMatch(/"Start x+…\[[\d,]+ characters cut\]…x+ end"/);
    expect(JSON.stringify(toDiscordMessage(d)).length).toBeLessThan(100_000);
  });
});
