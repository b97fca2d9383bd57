/**
 * The retry prompt after a rejection read per test (issue 42): each failing test's id and its own
 * failure text (the assertion, the diff, the traceback head), not the end of the test output, which
 * with agent-loop's own `-rA` is mostly the passing tests' lines. From a real pytest run
 * (__tests__/fixtures/runners/pytest-9.0.3-rA-tracebacks.txt) through the verdict, the rejection
 * (afterVerdict) and the prompt.
 */
import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { type CycleState, type LoopState, initialLoopState } from '../../../src/core/state.js';
import { judge } from '../../../src/verdict/judge.js';
import { readSuiteOutput } from '../../../src/verdict/readers/index.js';
import type { SuiteRun } from '../../../src/verdict/results.js';
import { afterVerdict } from '../../../src/workflows/implement/afterVerdict.js';
import type { IterationContext } from '../../../src/workflows/implement/model.js';
import { buildPrompt } from '../../../src/workflows/implement/prompt.js';
import { cycle, implementSettings, ok, turnRecord } from '../../core/fixtures.js';

const T0 = Date.parse('2026-11-29T22:00:00Z');
const output = readFileSync(new URL('../../fixtures/runners/pytest-9.0.3-rA-tracebacks.txt', import.meta.url), 'utf8');

/** The same suite before the agent's change: every test passed. */
function allPassed(run: SuiteRun): SuiteRun {
  return {
    ...run,
    exitCode: 0,
    tests: Object.fromEntries(Object.keys(run.tests).map((id) => [id, 'passed' as const])),
    groups: Object.fromEntries(Object.keys(run.groups).map((g) => [g, 'passed' as const])),
    messages: {},
  };
}

/** The prompt of the iteration after the agent's work was judged on `now` against `baseline`. */
function nextPrompt(now: SuiteRun, baseline: SuiteRun, targetTests: string[] = []): { prompt: string; tail: string } {
  const before: LoopState = { ...initialLoopState(10), baseBranch: 'main', currentCycle: cycle(['a-1']) };
  const ctx: IterationContext = {
    settings: implementSettings,
    agentName: 'Claude Code',
    before,
    targets: { tests: targetTests, verify: [] },
    canMarkNoChange: false,
    startedAt: T0,
  };
  // What runTestCommand keeps of the output: its end.
  const tail = output.slice(-16 * 1024);
  const step = afterVerdict(
    ctx,
    { state: { ...before, iteration: 1 }, record: turnRecord(before, T0), result: ok() },
    {
      type: 'judged',
      changed: true,
      tests: { passed: false, exitCode: 1, durationMs: 900, tail, run: now },
      verdict: judge({ baseline, now, targetTests }),
      now: T0 + 9000,
    },
  );
  const finish = step.effects.at(-1);
  if (finish?.kind !== 'finish') throw new Error('the rejection did not finish the iteration');
  const lastFailure = (finish.outcome.state.currentCycle as CycleState).lastFailure;
  const prompt = buildPrompt({
    issues: [{ id: 'a-1', title: 'Totals', body: 'total() adds one too many.' }],
    iteration: 2,
    maxIterations: 10,
    testCommand: 'pytest',
    sourceHint: 'the issues file',
    ...(lastFailure ? { lastFailure } : {}),
  });
  return { prompt, tail };
}

describe('the retry prompt after a rejection read per test (issue 42)', () => {
  it("carries each broken test's id and its own assertion, not the passing tests' lines of the output's end", () => {
    const now = readSuiteOutput(output, 1);
    const { prompt, tail } = nextPrompt(now, allPassed(now));
    expect(tail).toContain('PASSED tests/test_calc.py::test_many[29]');
    for (const id of [
      'tests/test_calc.py::test_total',
      'tests/test_calc.py::test_parse_words',
      'tests/test_calc.py::test_ratio',
      'tests/test_calc.py::TestNested::test_dict',
      'tests/test_other.py::test_total',
    ])
      expect(prompt).toContain(`- ${id}`);
    // The first failure's assertion (the earliest in the output) and the last one's, each under its test.
    expect(prompt).toContain(
      '- tests/test_calc.py::test_total: AssertionError: assert 7 == 6\n        def test_total():\n    >       assert total("1,2,3") == 6\n    E       AssertionError: assert 7 == 6',
    );
    expect(prompt).toContain("    E       AssertionError: the other file's test_total");
    expect(prompt).toContain('    E       ZeroDivisionError: division by zero');
    expect(prompt).toContain("    E         {'version': 2} != {'version': 3}");
    // Then what the output ends with, without the passing tests' lines: pytest's FAILED lines and its count.
    expect(prompt).toContain("The end of the test output (passing tests' lines left out):\n");
    expect(prompt).toMatch(
      /short test summary info =+\nFAILED tests\/test_calc\.py::test_total - AssertionError: assert 7 == 6\n/,
    );
    expect(prompt).toContain('========================= 5 failed, 31 passed in 0.26s =========================\n```');
    expect(prompt).not.toContain('PASSED');
  });

  it("a failing target's own text is given too", () => {
    const now = readSuiteOutput(output, 1);
    const baseline = allPassed(now);
    baseline.tests['tests/test_calc.py::test_total'] = 'failed';
    const { prompt } = nextPrompt(now, baseline, ['tests/test_calc.py::test_total']);
    expect(prompt).toContain("The issue's tests that do not pass yet:\n- tests/test_calc.py::test_total");
    expect(prompt).toContain('    E       AssertionError: assert 7 == 6');
  });

  it("without any failure text read per test, the output's end is given, as before", () => {
    const now = readSuiteOutput(output, 1);
    delete now.failureText;
    const { prompt } = nextPrompt(now, allPassed(now));
    expect(prompt).toContain('PASSED tests/test_other.py::test_ok');
    expect(prompt).toContain('- tests/test_calc.py::test_total: AssertionError: assert 7 == 6');
  });
});
