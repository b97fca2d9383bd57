/** The prompt the agent receives each iteration. Pure. */
import type { CycleState } from '../../core/state.js';
import type { Issue } from '../../issues/types.js';
import { fencedBlock } from '../../report/markdown.js';

export interface PromptInput {
  issues: Pick<Issue, 'id' | 'title' | 'body'>[];
  iteration: number;
  maxIterations: number;
  testCommand: string;
  plan?: string;
  lastFailure?: CycleState['lastFailure'];
  sourceHint: string;
  /** Tests that fail on the cycle's starting tree (the baseline): not this issue's unless it names them. */
  failingBefore?: readonly string[];
  /**
   * Issue 42: what proves the fix, when the issue names no test (`test`: the agent is asked to add one
   * that fails without the fix), or names tests the suite does not have yet (`write`: they are the agent's to write).
   */
  proof?: { test: boolean; write: readonly string[] };
}

const MAX_CONTEXT = 4000;
/** The failing tests' own texts are bounded where they are made (rejectionDetails.ts); this is a last guard. */
const MAX_FAILURES = 16_000;

/**
 * What the last attempt's failure shows the agent: each failing test with its own failure text when
 * the run was read per test (its head kept when long), else the output's end.
 */
function failureContext(f: NonNullable<PromptInput['lastFailure']>): string[] {
  if (f.failures) {
    const text = f.failures.length > MAX_FAILURES ? `${f.failures.slice(0, MAX_FAILURES)}…` : f.failures;
    return ['Each failing test, with what its runner printed for it:', '', ...fencedBlock(text.trim())];
  }
  const tail = f.tail.length > MAX_CONTEXT ? `…${f.tail.slice(-MAX_CONTEXT)}` : f.tail;
  return fencedBlock(tail.trim());
}

export function buildPrompt(p: PromptInput): string {
  const ids = p.issues.map((i) => i.id).join(', ');
  const parts: string[] = [
    `You are an autonomous coding agent working in this repository (iteration ${p.iteration} of at most ${p.maxIterations}).`,
    `Implement the following issue${p.issues.length > 1 ? 's' : ''} completely: ${ids}.`,
    '',
  ];
  for (const issue of p.issues) {
    parts.push(`## ${issue.id}: ${issue.title}`, '', issue.body.trim() || '(no description)', '');
  }
  if (p.plan) parts.push('## Plan', '', p.plan.trim(), '');
  if (p.lastFailure) {
    const what = p.lastFailure.kind === 'tests' ? 'The last attempt was not accepted' : 'The last agent run failed';
    parts.push(
      '## Previous attempt',
      '',
      `${what}: ${p.lastFailure.message}`,
      '',
      ...failureContext(p.lastFailure),
      '',
    );
  }
  parts.push(
    '## Done means',
    '',
    `- \`${p.testCommand}\`: no test that passes now may fail, and the tests this issue is about pass.`,
    ...(p.failingBefore?.length
      ? [
          `- ${p.failingBefore.length} test(s) already fail before your change (${p.failingBefore.slice(0, 10).join(', ')}` +
            `${p.failingBefore.length > 10 ? ', …' : ''}): leave them alone unless this issue is about them; ` +
            `they do not block it.`,
        ]
      : []),
    ...proofLines(p.proof),
    `- Each issue is closed in ${p.sourceHint} once its work is done.`,
    '',
    'End your final message with this report block:',
    '',
    '```yaml',
    'work_remaining: <space-separated ids of issues not finished yet, or 0>',
    'requires_continuation: <true if more work is needed, else false>',
    'stuck_detected: <true if you cannot make progress, else false>',
    'summary: <one line on what you did>',
    '```',
  );
  return parts.join('\n') + '\n';
}

/** What the agent is asked to show the fix with (issue 42). */
function proofLines(proof: PromptInput['proof']): string[] {
  const lines: string[] = [];
  if (proof?.write.length)
    lines.push(
      `- Write the test(s) the issue names that do not exist yet (${proof.write.slice(0, 10).join(', ')}), ` +
        'so that they fail without your change and pass with it.',
    );
  if (proof?.test)
    lines.push(
      '- The issue names no test: add one that fails without your change and passes with it, in the ' +
        "project's test layout (a new test file, or a new test in an existing one). Do not change or remove existing tests.",
    );
  return lines;
}
