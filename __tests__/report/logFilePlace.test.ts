/**
 * --log-file where it can do no harm (issue 42's console levels, found by the input fuzzing): not a
 * FIFO (the run would block), not a symlink (the log would overwrite what it points at), not inside
 * the run's working tree (an untracked file the next run refuses as a dirty tree).
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, promises as fs, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openLogFile, workTreeHolding } from '../../src/report/logFile.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));
const temp = () => {
  const d = mkdtempSync(path.join(os.tmpdir(), 'agent-loop-logfile-'));
  dirs.push(d);
  return d;
};

describe('the log file’s place', () => {
  it('a FIFO or a symlink is refused with a problem, and the symlink’s target is not written', async () => {
    const d = temp();
    execFileSync('mkfifo', [path.join(d, 'fifo')]);
    expect(openLogFile(path.join(d, 'fifo'))).toEqual({
      problem: expect.stringMatching(/is not a regular file \(a FIFO\)/),
    });
    writeFileSync(path.join(d, 'precious'), 'keep\n');
    symlinkSync(path.join(d, 'precious'), path.join(d, 'link'));
    expect(openLogFile(path.join(d, 'link'))).toEqual({ problem: expect.stringMatching(/\(a symlink\)/) });
    expect(readFileSync(path.join(d, 'precious'), 'utf8')).toBe('keep\n');
  });

  it('inside the run’s working tree: that tree; under its .git, or beside it: none', async () => {
    const d = temp();
    const repo = path.join(d, 'repo');
    await fs.mkdir(path.join(repo, '.git', 'agent-loop'), { recursive: true });
    await fs.mkdir(path.join(repo, 'src'));
    expect(workTreeHolding(path.join(repo, 'run.log'), repo)).toBe(repo);
    expect(workTreeHolding(path.join(repo, 'src', 'x', 'run.log'), path.join(repo, 'src'))).toBe(repo);
    expect(workTreeHolding(path.join(repo, '.git', 'agent-loop', 'run.log'), repo)).toBeUndefined();
    expect(workTreeHolding(path.join(d, 'run.log'), repo)).toBeUndefined();
  });
});
