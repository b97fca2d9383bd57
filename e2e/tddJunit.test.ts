/**
 * --workflow tdd reading the test runner's JUnit XML report (--junit-file): the failing tests'
 * names and messages in the retry prompt come from the report (the runner's output names no test:
 * without the report this would read as a compile error). The runner is a shell script writing the XML that jest-junit, pytest
 * --junitxml and gotestsum write (a <testsuite> of <testcase>s with <failure message="…">).
 */
import { describe, expect, it } from '@jest/globals';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { calcSandbox, expectExit, lastResult, runCli, writeAgent } from './helpers.js';

describe('--workflow tdd with --junit-file', () => {
  it('the retry prompt names the failing test and its message from the JUnit report', async () => {
    const sb = await calcSandbox();
    try {
      const agent = await writeAgent(
        sb,
        'tdd',
        `P="$AGENT_LOOP_PROMPT_FILE"
if grep -q "You are the test agent" "$P"; then
  echo '[ "$(sh calc.sh 2 3)" = 5 ] || { echo "calc 2 3 gave $(sh calc.sh 2 3)"; exit 1; }' > tests/adds.sh
elif grep -q "You are the implementing agent" "$P"; then
  if ! grep -q "The previous attempt of this phase failed" "$P"; then echo "doing nothing useful"; else cp "$P" "$NOTES/green-retry-prompt"; printf '#!/bin/sh\\necho $(($1 + $2))\\n' > calc.sh; fi
fi
printf 'Done.\\n\\n\`\`\`yaml\\nwork_remaining: 0\\nrequires_continuation: false\\n\`\`\`\\n'
`,
      );
      const r = await runCli(sb, [
        'run',
        '--json',
        '--workflow',
        'tdd',
        '--agent',
        'command',
        '--agent-command',
        agent,
        '--iteration-delay',
        '0',
        '--test-command',
        'sh run-tests.sh',
        '--junit-file',
        'reports/junit.xml',
        '--issues-file',
        './.beads/issues.jsonl',
      ]);
      expectExit(r, 0);
      const result = lastResult(r.stdout);
      expect(
        result.history.map((h) => `${h.tdd?.phase}:${h.tdd?.decision}${h.tdd?.error ? `:${h.tdd.error}` : ''}`),
      ).toEqual(['RED:commit', 'GREEN:retry:TEST_UNEXPECTED_FAIL', 'GREEN:commit', 'REFACTOR:commit']);
      const prompt = await fs.readFile(path.join(sb.root, 'green-retry-prompt'), 'utf8');
      expect(prompt).toContain(
        'The previous attempt of this phase failed: The test for "adds" still fails (attempt 1 of 6)',
      );
      expect(prompt).toContain('1 failing test:\n- calc › adds: calc 2 3 gave 0');
      expect(prompt).toContain('attempt 2 of 6');
    } finally {
      await sb.cleanup();
    }
  });
});
