/**
 * Issue 43: with `--state-dir .` the state directory's own files never count as dirt and are never
 * staged. Its own files are the names agent-loop writes at its top: the list is kept true here
 * against the modules that write each one.
 */
import { describe, expect, it } from '@jest/globals';
import path from 'node:path';
import { OUTBOX_DIR } from '../../src/action/outboxHandover.js';
import { RUN_LOG } from '../../src/app/runPorts.js';
import { HALT_FILE } from '../../src/loop/effects/notices.js';
import { GENERATION_FILE } from '../../src/persist/stateGenerations.js';
import { RUNTIME_DIR } from '../../src/safety/processes.js';
import { STATE_DIR_ENTRIES, stateDirOwnPaths } from '../../src/safety/stateDir.js';
import { BASELINES_DIR, LAST_FAILING_DIR } from '../../src/verdict/baseline.js';
import { PIPELINE_DIR } from '../../src/workflows/pipeline/phases.js';

describe("the state directory's own entries (issue 43)", () => {
  it('names every file and directory agent-loop writes at its top', () => {
    for (const name of [
      OUTBOX_DIR,
      HALT_FILE,
      GENERATION_FILE,
      RUNTIME_DIR,
      BASELINES_DIR,
      LAST_FAILING_DIR,
      'prompt.md',
      'checkpoints',
      'errors.jsonl',
      PIPELINE_DIR,
    ])
      expect(STATE_DIR_ENTRIES).toContain(name);
    expect(RUN_LOG).toBe('run.log'); // under logs/
    expect(STATE_DIR_ENTRIES).toContain('logs');
  });

  it('are the directory itself and each entry in it, absolute', () => {
    const own = stateDirOwnPaths('/repo');
    expect(own[0]).toBe('/repo');
    expect(own).toContain(path.join('/repo', 'checkpoints'));
    expect(own).toContain(path.join('/repo', 'run'));
    expect(own).not.toContain(path.join('/repo', 'src'));
  });
});
