/**
 * The three agents' prompts of the red/green/refactor workflow: a test agent (RED), an
 * implementing agent (GREEN) and a refactor agent (REFACTOR). Each is a template with
 * `{{placeholder}}`s; a user overrides one by putting `red.md`, `green.md` or `refactor.md` in the
 * `--tdd-prompts` directory. Rendering is pure.
 */
import type { TddPhase } from './notes.js';

export interface PromptValues {
  /** "bd-3: Add login" and the issue's body. */
  issue: string;
  /** The test this round is about. */
  test: string;
  /** The whole test list as a checklist. */
  tests: string;
  testCommand: string;
  /** The file RED wrote the test in (GREEN, REFACTOR), or "". */
  testFile: string;
  /** What went wrong in the previous attempt of this phase, or "". */
  failure: string;
  /** "2 of 6". */
  attempt: string;
}

const REPORT = `End your final message with this report block:

\`\`\`yaml
work_remaining: 0
requires_continuation: false
summary: <one line on what you did>
\`\`\``;

export const DEFAULT_TEMPLATES: Readonly<Record<TddPhase, string>> = {
  RED: `You are the test agent of a red/green/refactor (TDD) workflow in this repository (attempt {{attempt}}).

Issue {{issue}}

Test list:
{{tests}}

Write exactly ONE new failing test, for: {{test}}
- Only the test: do not implement the behaviour, do not change non-test code.
- It must compile and run, and fail because the behaviour is missing (not because of a syntax error or a missing import).
- If a test for this already exists, write nothing and add \`duplicate_test: true\` to the report block.
- Check it with: {{testCommand}} (it must fail, on your new test).
{{failure}}
${REPORT}
`,
  GREEN: `You are the implementing agent of a red/green/refactor (TDD) workflow in this repository (attempt {{attempt}}).

Issue {{issue}}

The failing test for "{{test}}" is in {{testFile}}. Make it pass with the simplest change, without breaking any other test and without changing the test.
Check with: {{testCommand}} (everything must pass).
{{failure}}
${REPORT}
`,
  REFACTOR: `You are the refactor agent of a red/green/refactor (TDD) workflow in this repository (attempt {{attempt}}).

Issue {{issue}}

All tests pass after implementing "{{test}}" (test in {{testFile}}). Improve the code's structure and names where it helps, without changing behaviour and without changing tests. Changing nothing is fine.
Every test must still pass: {{testCommand}}.
{{failure}}
${REPORT}
`,
};

/** Fills `{{name}}` placeholders; unknown ones are left as they are. */
export function renderPrompt(template: string, values: PromptValues): string {
  return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) =>
    name in values ? String(values[name as keyof PromptValues]) : whole,
  );
}

/** The "previous attempt" section of a retry prompt. */
export function failureSection(message: string, details: string): string {
  return `\nThe previous attempt of this phase failed: ${message}\n\n\`\`\`\n${details.trim().slice(-4000)}\n\`\`\`\n`;
}
