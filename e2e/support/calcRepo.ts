/**
 * A repository whose suite is red for a reason no issue covers (issue 12): src/calc.mjs with three
 * bugs (add, mul, clamp), a function that works (sub), and a legacy test that always fails; the
 * tests run with node's own runner. check.sh runs them, so the sandboxes' usual `sh check.sh` is
 * this suite.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { commit, type Sandbox, git } from '../helpers.js';

export const CALC = `export const add = (a, b) => a - b;
export const sub = (a, b) => a - b;
export const mul = (a, b) => a + b;
export const clamp = (x, lo, hi) => x;
export const legacy = () => 'broken';
`;

export const CALC_TESTS = `import { test } from 'node:test';
import assert from 'node:assert/strict';
import { add, sub, mul, clamp, legacy } from '../src/calc.mjs';

test('add adds', () => assert.equal(add(2, 3), 5));
test('sub subtracts', () => assert.equal(sub(5, 3), 2));
test('mul multiplies', () => assert.equal(mul(2, 3), 6));
test('clamp clamps', () => assert.equal(clamp(9, 0, 5), 5));
test('legacy works', () => assert.equal(legacy(), 'fixed'));
`;

/** The one-line fixes, as sed commands run in the repository. */
export const FIX = {
  add: "sed -i 's/export const add = (a, b) => a - b;/export const add = (a, b) => a + b;/' src/calc.mjs",
  mul: "sed -i 's/export const mul = (a, b) => a + b;/export const mul = (a, b) => a * b;/' src/calc.mjs",
  clamp:
    "sed -i 's/export const clamp = (x, lo, hi) => x;/export const clamp = (x, lo, hi) => Math.min(hi, Math.max(lo, x));/' src/calc.mjs",
  breakSub: "sed -i 's/export const sub = (a, b) => a - b;/export const sub = (a, b) => 0;/' src/calc.mjs",
  restoreSub: "sed -i 's/export const sub = (a, b) => 0;/export const sub = (a, b) => a - b;/' src/calc.mjs",
};

/** Adds the calculator, its tests and a check.sh that runs them to the sandbox's repository, committed on main. */
export async function addCalculator(sb: Sandbox): Promise<void> {
  await fs.mkdir(path.join(sb.repo, 'src'));
  await fs.mkdir(path.join(sb.repo, 'test'));
  await fs.writeFile(path.join(sb.repo, 'src', 'calc.mjs'), CALC);
  await fs.writeFile(path.join(sb.repo, 'test', 'calc.test.mjs'), CALC_TESTS);
  await fs.writeFile(path.join(sb.repo, 'check.sh'), '#!/bin/sh\nexec node --test test/\n');
  git(sb, 'add', '-A');
  commit(sb, 'calc with bugs');
}
