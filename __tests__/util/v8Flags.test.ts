/**
 * The V8 flags the engine's process sets from inside (src/util/v8Flags.ts): which flags, per V8
 * version, and that the Node running the tests honours each when set from inside the process, as
 * the CLI and the action set them. The child processes do what the engine does: allocate strings of
 * which some survive each scavenge (an agent's output streamed), and call a function many times.
 */
import { describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { engineV8Flags, HOLD_YOUNG_GENERATION, laterTierUp, setEngineV8Flags } from '../../src/util/v8Flags.js';

/** Runs a script in a child node that first sets V8_FLAGS_AT_RUNTIME from inside; returns its stdout. */
function childNode(script: string, flags: string[], nodeArgs: string[] = []): string {
  const prelude = `
    const v8 = require('node:v8');
    for (const f of JSON.parse(process.env.V8_FLAGS_AT_RUNTIME)) v8.setFlagsFromString(f);
  `;
  const r = spawnSync(process.execPath, [...nodeArgs, '-e', prelude + script], {
    encoding: 'utf8',
    env: { ...process.env, V8_FLAGS_AT_RUNTIME: JSON.stringify(flags) },
  });
  if (r.status !== 0) throw new Error(`the child node failed: ${r.stderr}`);
  expect(r.stderr).toBe(''); // V8 names a flag it does not know on stderr
  return r.stdout;
}

/** The size of V8's new space, in MiB, after allocating 20 MB of strings with survivors, in a child node. */
function newSpaceMiB(flags: string[]): number {
  return Number(
    childNode(
      `
      const kept = [];
      for (let i = 0; i < 200000; i++) {
        kept.push('x'.repeat(100) + i);
        if (kept.length > 5000) kept.splice(0, 2500);
      }
      const space = v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
      process.stdout.write(String(space.space_size / 1048576));
    `,
      flags,
    ),
  );
}

/**
 * The optimizing tiers (TurboFan; Maglev from V8 12) that compiled a function of the engine's size
 * called 3,500 times, in a child node (V8's --trace-opt; compiled on the main thread, so the answer
 * does not race the background threads). By default V8 11 and 12 take it with TurboFan, V8 13 with
 * Maglev; ten times later, neither.
 */
function tiersAfter3500Calls(flags: string[]): string[] {
  const out = childNode(
    `
    function hotEngineStep(state, i) {
      const outcome = i % 3 === 0 ? 'continuing' : i % 3 === 1 ? 'retry' : 'done';
      const stuck = outcome === state.outcome && state.last.length > 2;
      const next = { n: state.n + (i % 7), last: String(i), outcome, stuck, runs: state.runs + 1 };
      if (stuck) next.note = 'same outcome as the run before: ' + outcome;
      return next;
    }
    let state = { n: 0, last: '', outcome: '', runs: 0 };
    for (let i = 0; i < 3500; i++) state = hotEngineStep(state, i);
  `,
    flags,
    ['--trace-opt', '--no-concurrent-recompilation'],
  );
  return [...out.matchAll(/completed compiling[^\n]*hotEngineStep[^\n]*\(target ([A-Z_]+)/g)].map((m) => m[1] ?? '');
}

describe('the engine’s V8 flags', () => {
  it('sets V8’s growth factor of the young generation to 1, and the later tier-up for this V8', () => {
    const set: string[] = [];
    setEngineV8Flags((flags) => set.push(flags), '11.3.244.8-node.34');
    expect(set).toEqual(['--semi-space-growth-factor=1', '--interrupt-budget=675840']);
  });

  it('names the tier-up flags each V8 version knows, ten times its defaults, and none for a version not checked', () => {
    expect(laterTierUp('11.3.244.8-node.34')).toEqual(['--interrupt-budget=675840']);
    for (const v8 of ['12.4.254.21-node.57', '13.6.233.17-node.63'])
      expect(laterTierUp(v8)).toEqual(['--invocation-count-for-turbofan=30000', '--invocation-count-for-maglev=4000']);
    expect(laterTierUp('14.1.146.11-node.29')).toEqual([]);
    expect(laterTierUp('10.2.154.26-node.22')).toEqual([]);
    expect(engineV8Flags('14.1.146.11-node.29')).toEqual([HOLD_YOUNG_GENERATION]);
  });

  it(`on this Node (${process.version}), set from inside the process, the young generation stays at its first size where it would grow`, () => {
    const grown = newSpaceMiB([]);
    const held = newSpaceMiB([HOLD_YOUNG_GENERATION]);
    expect(grown).toBeGreaterThanOrEqual(8);
    expect(held).toBeLessThanOrEqual(2);
  });

  const tierUp = laterTierUp(process.versions.v8);
  (tierUp.length > 0 ? it : it.skip)(
    `on this Node (${process.version}), set from inside the process, every flag is known and a function called 3,500 times is not yet compiled by an optimizing tier, where by default it is`,
    () => {
      expect(tiersAfter3500Calls([])).not.toEqual([]);
      expect(tiersAfter3500Calls(engineV8Flags())).toEqual([]);
    },
  );
});
