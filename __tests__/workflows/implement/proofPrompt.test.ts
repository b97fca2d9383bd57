/**
 * Issue 42: the prompt asks the agent for a test that shows the fix when the issue names none, and
 * names the tests the issue asks for that the suite does not have yet. Pure.
 */
import { describe, expect, it } from '@jest/globals';
import { type CoreConfig, initialModel, step } from '../../../src/core/slice.js';
import { type LoopState, initialLoopState } from '../../../src/core/state.js';
import { readSuiteOutput } from '../../../src/verdict/readers/index.js';
import { implementMachine } from '../../../src/workflows/implement/machine.js';
import { buildPrompt } from '../../../src/workflows/implement/prompt.js';
import { cycle, implementSettings } from '../../core/fixtures.js';

const input = {
  issues: [{ id: 'bd-1', title: 'add() subtracts', body: 'add(2, 3) should be 5' }],
  iteration: 1,
  maxIterations: 10,
  testCommand: 'pytest -q',
  sourceHint: '.beads/issues.jsonl',
};

describe('the prompt asks for proof of the fix (issue 42)', () => {
  it("the issue names no test: add one that fails without the change and passes with it, in the project's layout; existing tests left alone", () => {
    const prompt = buildPrompt({ ...input, proof: { test: true, write: [] } });
    expect(prompt).toContain(
      "- The issue names no test: add one that fails without your change and passes with it, in the project's test layout " +
        '(a new test file, or a new test in an existing one). Do not change or remove existing tests.',
    );
  });

  it("the issue names tests the suite does not have: they are the agent's to write", () => {
    const prompt = buildPrompt({ ...input, proof: { test: false, write: ['tests/test_new.py::test_it'] } });
    expect(prompt).toContain(
      '- Write the test(s) the issue names that do not exist yet (tests/test_new.py::test_it), so that they fail without your change and pass with it.',
    );
    expect(prompt).not.toContain('The issue names no test');
  });

  it('the issue names tests the suite has: nothing asked', () => {
    const prompt = buildPrompt({ ...input, proof: { test: false, write: [] } });
    expect(prompt).not.toMatch(/names no test|Write the test/);
  });
});

describe("the implement machine's prompt, from the issue's targets and the baseline (issue 42)", () => {
  const T0 = Date.parse('2026-11-25T10:00:00Z');
  const machine = implementMachine({
    settings: implementSettings,
    agentName: 'Claude Code',
    canMarkNoChange: false,
    sourceHint: 'issues.jsonl',
  });
  const config: CoreConfig = {
    settings: { maxIterations: 10, batch: false, maxConsecutiveEscalations: 3, testCommand: 'pytest -q' },
    checkpointId: 'cp-1',
    publishes: false,
    branches: true,
    machine,
  };
  const baseline = readSuiteOutput(
    [
      '=========================== short test summary info ============================',
      'PASSED tests/test_calc.py::test_sub',
      '============================== 1 passed in 0.01s ===============================',
    ].join('\n'),
    0,
  );
  /** The prompt of the first iteration of an issue with `body`. */
  const promptFor = (body: string): string => {
    const loop: LoopState = {
      ...initialLoopState(10),
      baseBranch: 'main',
      currentCycle: cycle(['a-1'], { iterations: 0, baselineKey: 'k' }),
    };
    let s = step(
      initialModel(loop, T0),
      { type: 'baselineRan', baseline: { key: 'k', source: 'ran', run: baseline } },
      config,
    );
    s = step(
      s.model,
      { type: 'cycleIssuesRead', issues: [{ id: 'a-1', title: 'add() subtracts', body }], now: T0 },
      config,
    );
    const run = s.effects.find((e) => e.kind === 'runAgent');
    return run?.kind === 'runAgent' ? run.prompt : '';
  };

  it('an issue naming no test: the agent is asked for one', () => {
    expect(promptFor('add(2, 3) should be 5')).toContain('The issue names no test: add one');
  });

  it('an issue naming a test the suite does not have: the agent is asked to write it', () => {
    const prompt = promptFor('add(2, 3) should be 5: write tests/test_add.py::test_add');
    expect(prompt).toContain('Write the test(s) the issue names that do not exist yet (tests/test_add.py::test_add)');
    expect(prompt).not.toContain('The issue names no test');
  });

  it('an issue naming a test the suite has: nothing asked', () => {
    expect(promptFor('tests/test_calc.py::test_sub must keep passing')).not.toMatch(/names no test|Write the test/);
  });
});
