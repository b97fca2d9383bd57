import { describe, expect, it } from '@jest/globals';
import os from 'node:os';
import { LineSplitter } from '../../src/agents/lines.js';
import { runProcess } from '../../src/agents/process.js';
import { createLogger } from '../../src/report/logger.js';
import { createRedactor } from '../../src/secrets/redact.js';

describe('secrets cut across the pieces of an overlong line', () => {
  it('the splitter says which edges of each piece are cuts inside one line', () => {
    const s = new LineSplitter(8);
    const pieces = s.pushPieces(Buffer.from('short\n0123456789abcdefXYZ\nend'));
    expect(pieces).toEqual([
      { text: 'short', cutBefore: false, cutAfter: false },
      { text: '01234567', cutBefore: false, cutAfter: true },
      { text: '89abcdef', cutBefore: true, cutAfter: true },
      { text: 'XYZ', cutBefore: true, cutAfter: false },
    ]);
    expect(s.flushPieces()).toEqual([{ text: 'end', cutBefore: false, cutAfter: false }]);
  });

  it("a secret straddling a 16 KiB cut of a real process's output never reaches the log, even with the pieces put back together", async () => {
    const secret = 'ghs_not-a-shape-but-a-declared-secret-value-1234567890';
    for (const offset of [10, secret.length / 2, secret.length - 10]) {
      // The secret starts `offset` bytes before a cut (64 KiB is a multiple of the 16 KiB pieces).
      const before = 64 * 1024 - offset;
      const script = `process.stdout.write('a'.repeat(${before}) + process.env.S + 'b'.repeat(1000) + '\\n')`;
      const lines: string[] = [];
      const redact = createRedactor([secret]);
      const logger = createLogger({
        json: true,
        write: (t) => lines.push(t),
        clock: { now: () => new Date(0), sleep: async () => {} },
        redact,
      });
      const r = await runProcess({
        command: process.execPath,
        args: ['-e', script],
        cwd: os.tmpdir(),
        env: { ...process.env, S: secret },
        onLine: (line, stream, cut) => logger.output('agent', line, stream, cut),
      });
      expect(r.exitCode).toBe(0);
      const pieces = lines.map((l) => JSON.parse(l) as { line: string; cut?: { before: boolean; after: boolean } });
      expect(pieces.length).toBeGreaterThan(1);
      expect(pieces[0]?.cut).toEqual({ before: false, after: true });
      const joined = pieces.map((p) => p.line).join('');
      expect(joined).not.toContain(secret);
      expect(lines.join('')).not.toContain(secret);
    }
  });
});
