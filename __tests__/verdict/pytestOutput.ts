/** Test support: pytest -rA's output as pytest 9 prints it, with `lines` in its short summary, read per test. */
import { readSuiteOutput } from '../../src/verdict/readers/index.js';
import type { SuiteRun } from '../../src/verdict/results.js';

export const pytestRun = (lines: string[]): SuiteRun =>
  readSuiteOutput(
    [
      '============================= test session starts ==============================',
      `collected ${lines.length} items`,
      '=========================== short test summary info ============================',
      ...lines,
      `========================= ${lines.length} passed in 0.10s ==========================`,
    ].join('\n'),
    lines.some((l) => !l.startsWith('PASSED')) ? 1 : 0,
  );
