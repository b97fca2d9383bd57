#!/usr/bin/env node
// A scripted stand-in for a coding agent, for `npm run demo`: it reads the issue ids agent-loop
// gives it ($AGENT_LOOP_ISSUE_IDS), makes the change each demo issue asks for, and ends with the
// report block. On its second call it fails once the way a real agent does under load.
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';

const ids = (process.env.AGENT_LOOP_ISSUE_IDS ?? '').split(',').filter(Boolean);
const iteration = Number(process.env.AGENT_LOOP_ITERATION);
const prompt = readFileSync(process.env.AGENT_LOOP_PROMPT_FILE, 'utf8');
console.log(`demo-agent: iteration ${iteration}, prompt of ${prompt.length} characters for ${ids.join(', ')}`);

if (iteration === 2 && !existsSync('.git/demo-failed-once')) {
  writeFileSync('.git/demo-failed-once', '');
  console.error('API Error: 529 {"type":"overloaded_error","message":"Overloaded"} (simulated)');
  process.exit(1);
}

const fixes = {
  'demo-1': () => {
    console.log('  ▸ Edit: src/calc.js');
    writeFileSync('src/calc.js', readFileSync('src/calc.js', 'utf8').replace('return a - b;', 'return a + b;'));
  },
  'demo-2': () => {
    console.log('  ▸ Edit: src/calc.js');
    appendFileSync('src/calc.js', '\nexport function multiply(a, b) {\n  return a * b;\n}\n');
    console.log('  ▸ Write: test/multiply.test.js');
    writeFileSync('test/multiply.test.js', "import test from 'node:test';\nimport assert from 'node:assert/strict';\nimport { multiply } from '../src/calc.js';\n\ntest('multiply multiplies', () => {\n  assert.equal(multiply(4, 5), 20);\n});\n");
  },
  'demo-3': () => {
    console.log('  ▸ Edit: src/calc.js');
    appendFileSync('src/calc.js', '\nexport function clamp(x, lo, hi) {\n  return Math.min(hi, Math.max(lo, x));\n}\n');
    console.log('  ▸ Write: test/clamp.test.js');
    writeFileSync('test/clamp.test.js', "import test from 'node:test';\nimport assert from 'node:assert/strict';\nimport { clamp } from '../src/calc.js';\n\ntest('clamp keeps x within [lo, hi]', () => {\n  assert.equal(clamp(7, 0, 5), 5);\n  assert.equal(clamp(-1, 0, 5), 0);\n});\n");
  },
};

for (const id of ids) fixes[id]?.();
console.log('  ▸ Bash: npm test');
console.log(['Done.', '```yaml', 'work_remaining: 0', 'requires_continuation: false', 'stuck_detected: false', `summary: fixed ${ids.join(', ')}`, '```'].join('\n'));
