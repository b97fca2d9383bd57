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
