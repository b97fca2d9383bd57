import { describe, expect, it } from '@jest/globals';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { stateFiles } from '../../src/persist/stateFiles.js';
import {
  BASELINES_REMEMBERED,
  baselineKey,
  baselineStore,
  needsConfirmation,
  rememberBaseline,
} from '../../src/verdict/baseline.js';

describe('needsConfirmation: whether a red baseline is run a second time', () => {
  it('not for a green baseline', () => {
    expect(needsConfirmation([], undefined)).toBe(false);
  });
  it('for the first red baseline of a test command (nothing recorded before)', () => {
    expect(needsConfirmation(['s::legacy'], undefined)).toBe(true);
  });
  it('not when every failure failed in the last baseline too (a suite that stays red the same way)', () => {
    expect(needsConfirmation(['s::legacy'], ['s::legacy', 's::old'])).toBe(false);
  });
  it('when a test fails that did not in the last baseline (a flake, or a break on the base)', () => {
    expect(needsConfirmation(['s::legacy', 's::A'], ['s::legacy'])).toBe(true);
  });
});

describe('the last baseline’s failing tests', () => {
  it('are kept per test command, and forgotten (not counted as baselines) by forget()', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'agent-loop-last-failing-'));
    try {
      const store = baselineStore(stateFiles(dir));
      await store.save(baselineKey('tree', 'npm test'), { exitCode: 0, tests: {}, groups: {}, messages: {} });
      await store.rememberFailing('npm test', ['s::legacy']);
      expect(await store.lastFailing('npm test')).toEqual(['s::legacy']);
      expect(await store.lastFailing('pytest')).toBeUndefined();
      expect(await store.forget()).toBe(1);
      expect(await store.lastFailing('npm test')).toBeUndefined();
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});

describe('rememberBaseline: the digests a run keeps of its baselines', () => {
  it('adds a key newest last, and moves a key recorded again to the end with its new digest', () => {
    const one = rememberBaseline(undefined, 'k1', 'd1');
    const two = rememberBaseline(one, 'k2', 'd2');
    expect(Object.entries(rememberBaseline(two, 'k1', 'd3'))).toEqual([
      ['k2', 'd2'],
      ['k1', 'd3'],
    ]);
    expect(one).toEqual({ k1: 'd1' });
  });
  it(`keeps the newest ${BASELINES_REMEMBERED}`, () => {
    let kept: Record<string, string> | undefined;
    for (let i = 0; i <= BASELINES_REMEMBERED; i++) kept = rememberBaseline(kept, `k${i}`, `d${i}`);
    expect(Object.keys(kept!)).toHaveLength(BASELINES_REMEMBERED);
    expect(kept!.k0).toBeUndefined();
    expect(kept![`k${BASELINES_REMEMBERED}`]).toBe(`d${BASELINES_REMEMBERED}`);
  });
});
