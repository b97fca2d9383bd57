import { describe, expect, it } from '@jest/globals';
import { cleanIssue, cleanLine, guardIssues } from '../../src/issues/guard.js';
import { createRedactor } from '../../src/secrets/redact.js';
import type { Issue, IssueSource } from '../../src/issues/types.js';

const token = `ghp_${'A1b2C3d4E5'.repeat(4)}`;
const hostile: Issue = {
  id: 'bd-1',
  title: `Fix\u0000 the\r value \u001b[31mred\u001b[0m\n::error ::forged ${token}`,
  body: 'line one\r\nline two \u001b]0;title\u0007 end\u0000',
  status: 'open',
  labels: ['bug\nx'],
  dependencies: [],
};

describe('issue text where it enters the engine (issue 11)', () => {
  it('a title becomes one clean line: no NUL, CR, ANSI, no line of its own starting with ::, the token masked', () => {
    const clean = cleanIssue(hostile, createRedactor([]));
    expect(clean.title).toBe('Fix the value red ::error ::forged ghp_***');
    expect(clean.title).not.toMatch(/\n|\r/);
  });

  it('a body keeps its lines, loses its control characters and escapes', () => {
    expect(cleanIssue(hostile, createRedactor([])).body).toBe('line one\nline two  end');
  });

  it('labels are single lines', () => {
    expect(cleanLine('bug\nx')).toBe('bug x');
  });

  it('guardIssues cleans what ready() and get() return and passes writes through by id', async () => {
    const closed: string[] = [];
    const source: IssueSource = {
      description: 'memory',
      ready: async () => [hostile],
      get: async () => hostile,
      close: async (id) => {
        closed.push(id);
      },
      markEscalated: async () => undefined,
    };
    const guarded = guardIssues(source, createRedactor([]));
    expect((await guarded.ready())[0]?.title).not.toContain('\u0000');
    expect((await guarded.get('bd-1'))?.title).not.toContain(token);
    await guarded.close('bd-1', 'done');
    expect(closed).toEqual(['bd-1']);
  });
});

describe('what the engine writes into an issue, on its way out (issue 41 review)', () => {
  const SECRET = 'sk-ant-api03-' + 'x'.repeat(40);
  const redact = createRedactor([SECRET]);
  function recordingSource(): IssueSource & { written: string[] } {
    const written: string[] = [];
    return {
      description: 'recording',
      written,
      ready: async () => [],
      get: async () => undefined,
      close: async (id, reason) => void written.push(`close ${id}: ${reason}`),
      markEscalated: async (id, note) => void written.push(`escalate ${id}: ${note}`),
      markNoChange: async (id, note, close) => void written.push(`no-change ${id} ${close}: ${note}`),
    };
  }

  it('masks a close reason, an escalation note and a no-change note before the source writes them (a beads file or bd masks nothing itself)', async () => {
    const source = recordingSource();
    const guarded = guardIssues(source, redact);
    await guarded.close('bd-1', `fixed with ${SECRET}`);
    await guarded.markEscalated('bd-2', `stuck: the agent printed ${SECRET}`);
    await guarded.markNoChange!('bd-3', `nothing to do (${SECRET})`, true);
    expect(source.written).toHaveLength(3);
    for (const line of source.written) {
      expect(line).not.toContain(SECRET);
      expect(line).toContain('***');
    }
    expect(source.written[0]).toBe('close bd-1: fixed with ***');
  });
});
