/**
 * The young generation held at its first size (src/util/youngGeneration.ts): the flag it sets, and
 * that the Node running the tests honours it when set from inside the process, as the CLI and the
 * action set it. The child processes allocate strings of which some survive each scavenge, as an
 * engine streaming an agent's output does.
 */
import { describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { HOLD_YOUNG_GENERATION, holdYoungGeneration } from '../../src/util/youngGeneration.js';

/** The size of V8's new space, in MiB, after allocating 20 MB of strings with survivors, in a child node. */
function newSpaceMiB(flags?: string): number {
  const script = `
    const v8 = require('node:v8');
    const flags = process.env.V8_FLAGS_AT_RUNTIME;
    if (flags) v8.setFlagsFromString(flags);
    const kept = [];
    for (let i = 0; i < 200000; i++) {
      kept.push('x'.repeat(100) + i);
      if (kept.length > 5000) kept.splice(0, 2500);
    }
    const space = v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
    process.stdout.write(String(space.space_size / 1048576));
  `;
  const r = spawnSync(process.execPath, ['-e', script], {
    encoding: 'utf8',
    env: { ...process.env, V8_FLAGS_AT_RUNTIME: flags ?? '' },
  });
  if (r.status !== 0) throw new Error(`the child node failed: ${r.stderr}`);
  expect(r.stderr).toBe(''); // V8 names a flag it does not know on stderr
  return Number(r.stdout);
}

describe('holdYoungGeneration', () => {
  it('sets V8’s growth factor of the young generation to 1', () => {
    const set: string[] = [];
    holdYoungGeneration((flags) => set.push(flags));
    expect(set).toEqual(['--semi-space-growth-factor=1']);
  });

  it(`on this Node (${process.version}), set from inside the process, it keeps the new space at its first size where it would grow`, () => {
    const grown = newSpaceMiB();
    const held = newSpaceMiB(HOLD_YOUNG_GENERATION);
    expect(grown).toBeGreaterThanOrEqual(8);
    expect(held).toBeLessThanOrEqual(2);
  });
});
