/**
 * The end of a slice mends the baselines the run remembers: the agent has a shell and the state
 * directory is in reach, and a baseline rewritten to say a test failed before would excuse that
 * test's breakage in any later cycle or run on the same base tip.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { mendBaselines } from '../../src/loop/baseline.js';
import { stateFiles } from '../../src/persist/stateFiles.js';
import { createLogger } from '../../src/report/logger.js';
import { createRedactor } from '../../src/secrets/redact.js';
import { initialLoopState } from '../../src/core/state.js';
import { baselineDigest, baselineStore, rememberBaseline } from '../../src/verdict/baseline.js';
import type { SuiteRun } from '../../src/verdict/results.js';
import { ManualClock } from '../../fakes/index.js';

const red: SuiteRun = { exitCode: 1, tests: { 's::A': 'failed', 's::B': 'passed' }, groups: {}, messages: {} };
const forged: SuiteRun = { exitCode: 1, tests: { 's::A': 'failed', 's::B': 'failed' }, groups: {}, messages: {} };

let stateDir: string;
beforeEach(async () => {
  stateDir = await fs.mkdtemp(path.join(os.tmpdir(), 'agent-loop-mend-'));
});
afterEach(async () => {
  await fs.rm(stateDir, { recursive: true, force: true });
});

function deps() {
  const lines: string[] = [];
  const clock = new ManualClock();
  const logger = createLogger({ json: true, write: (s) => lines.push(s), clock, redact: createRedactor([]) });
  return { d: { stateDir, logger }, lines };
}

describe('mendBaselines', () => {
  it("writes the slice's own baseline back as recorded, removes another that changed, and leaves the rest", async () => {
    const store = baselineStore(stateFiles(stateDir));
    for (const key of ['aaa1', 'bbb2', 'ccc3', 'ddd4']) await store.save(key, red);
    let baselines: Record<string, string> | undefined;
    for (const key of ['aaa1', 'bbb2', 'ccc3', 'ddd4'])
      baselines = rememberBaseline(baselines, key, baselineDigest(red));
    const state = { ...initialLoopState(10), baselines };
    await store.save('aaa1', forged); // the slice's own, rewritten
    await store.save('bbb2', forged); // an earlier base tip's, rewritten
    await store.remove('ddd4'); // removed: nothing to remove, nothing held to write back
    const { d, lines } = deps();
    const done = await mendBaselines(d, state, { key: 'aaa1', run: red });
    expect(done).toEqual({ restored: ['aaa1'], removed: ['bbb2'] });
    expect(await store.load('aaa1')).toEqual(red);
    expect(await store.load('bbb2')).toBeUndefined();
    expect(await store.load('ccc3')).toEqual(red);
    expect(await store.load('ddd4')).toBeUndefined();
    const warned = lines.map((l) => JSON.parse(l) as { level: string; message: string });
    expect(warned.map((w) => w.level)).toEqual(['warn', 'warn']);
    expect(warned[0]?.message).toMatch(/aaa1.*written back as this run recorded it/);
    expect(warned[1]?.message).toMatch(/removed, so that no later run trusts it: bbb2/);
  });

  it('says nothing and changes nothing when every baseline is as recorded', async () => {
    const store = baselineStore(stateFiles(stateDir));
    await store.save('aaa1', red);
    const { d, lines } = deps();
    const state = { ...initialLoopState(10), baselines: rememberBaseline(undefined, 'aaa1', baselineDigest(red)) };
    expect(await mendBaselines(d, state, { key: 'aaa1', run: red })).toEqual({ restored: [], removed: [] });
    expect(lines).toEqual([]);
  });
});
