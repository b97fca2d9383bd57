/** Issue 43: a lock is taken over only when its holder is provably dead (src/safety/lock.ts). */
import { describe, expect, it } from '@jest/globals';
import { mkdtempSync, promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type LockDeps, type LockHolder, acquireLocks, deadHolder, describeHolder } from '../../src/safety/lock.js';

const holder: LockHolder = {
  pid: 4242,
  host: 'here',
  startedAt: '2026-11-30T00:00:00.000Z',
  command: 'agent-loop run',
  cwd: '/repo',
  procStart: '1000',
  bootId: 'boot-a',
};
const deps = (alive: boolean, start: string | undefined, boot = 'boot-a'): LockDeps => ({
  isAlive: () => alive,
  startOf: () => start,
  bootId: boot,
});

describe('lock holders (issue 43: taken over only when provably dead)', () => {
  it('a live pid with the holder’s own start time holds the lock', () => {
    expect(deadHolder(holder, deps(true, '1000'))).toBeUndefined();
    // Where /proc says nothing of the start, or the lock is of a version that did not record it: alive.
    expect(deadHolder(holder, deps(true, undefined))).toBeUndefined();
    const { procStart: _p, ...older } = holder;
    expect(deadHolder(older, deps(true, '2000'))).toBeUndefined();
  });

  it('dead: the pid not running, the pid given to another process (another start), or another boot', () => {
    expect(deadHolder(holder, deps(false, undefined))).toBe('its process is no longer running');
    expect(deadHolder(holder, deps(true, '2000'))).toBe(
      'pid 4242 now belongs to another process (started at tick 2000, the holder at tick 1000)',
    );
    expect(deadHolder(holder, deps(true, '1000', 'boot-b'))).toBe('the machine has restarted since');
  });

  it('acquireLocks takes over a reused pid’s lock and says why; refuses a live holder', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'lock-'));
    try {
      const file = path.join(dir, 'lock.json');
      const me = { ...holder, pid: 7, procStart: '3000' };
      await fs.writeFile(file, JSON.stringify(holder));
      const refused = await acquireLocks([file], me, deps(true, '1000'));
      expect(refused).toMatchObject({ ok: false, file, holder: { pid: 4242, procStart: '1000' } });
      const taken = await acquireLocks([file], me, deps(true, '2000'));
      expect(taken.ok).toBe(true);
      if (taken.ok) {
        expect(taken.tookOver).toEqual([
          {
            file,
            holder,
            why: 'pid 4242 now belongs to another process (started at tick 2000, the holder at tick 1000)',
          },
        ]);
        taken.release();
      }
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});

describe('describeHolder (issue 43: what a lock file says is printed on one line, bounded)', () => {
  it('escapes a forged command and cwd and bounds them', () => {
    const forged = {
      pid: 4242,
      host: 'h',
      startedAt: '2026-11-30T00:00:00Z',
      command: `run\n::error::forged ${'x'.repeat(100_000)}`,
      cwd: '/repo\r\nnext',
    } as LockHolder;
    const said = describeHolder(forged);
    expect(said).not.toMatch(/[\r\n]/);
    expect(said).toContain('run\\n::error::forged');
    expect(said.length).toBeLessThan(1_000);
  });
});
