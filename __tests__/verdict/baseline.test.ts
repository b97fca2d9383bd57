import { describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import { promises as fs, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { stateFiles } from '../../src/persist/stateFiles.js';
import {
  BASELINES_REMEMBERED,
  baselineKey,
  baselineStore,
  describeBaseline,
  needsConfirmation,
  rememberBaseline,
} from '../../src/verdict/baseline.js';
import { readSuiteOutput } from '../../src/verdict/readers/index.js';

describe("issue 42: the baseline's log line says what the runner counted and was not read", () => {
  const read = (name: string, exitCode: number) =>
    readSuiteOutput(readFileSync(new URL(`../fixtures/runners/${name}`, import.meta.url), 'utf8'), exitCode);
  it('pytest printed an id over two lines (a newline in a parameter): 2 read of the 3 it counted, said', () => {
    expect(describeBaseline(read('pytest-9.0.3-rA-newline-id.txt', 0))).toBe(
      '2 test(s) read (pytest; pytest counted 3 result(s), 1 of them not read one by one), none failing',
    );
  });
  it('every result read: the line as before', () => {
    expect(describeBaseline(read('pytest-9.0.3-rA-ids.txt', 1))).toBe(
      '10 test(s) read (pytest), 3 failing before any change: tests/test_ids.py::test_words[a b], tests/test_ids.py::test_words[x - y], tests/test_ids.py::test_spaced[three]',
    );
  });
  it('a baseline kept by an earlier reading (pytest XFAIL read as passed) is not found under the new key', () => {
    const before = createHash('sha256').update('tree\0pytest\0').digest('hex').slice(0, 24);
    expect(baselineKey('tree', 'pytest')).not.toBe(before);
    expect(baselineKey('tree', 'pytest')).toMatch(/^[0-9a-f]{24}$/);
  });
});

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
