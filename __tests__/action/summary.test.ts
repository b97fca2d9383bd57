import { describe, expect, it } from '@jest/globals';
import type { RunResult } from '../../src/core/result.js';
import { SUMMARY_LIMIT, buildSummary, haltFailure, resultOutputs } from '../../src/action/summary.js';
import { cliVocabulary } from '../../e2e/support/vocabulary.js';
import { ACTION_OUTPUTS } from '../../src/action/manifest.js';
import { createRedactor } from '../../src/secrets/redact.js';

const result = (over: Partial<RunResult> = {}): RunResult => ({
  status: 'halted',
  haltReason: 'failure_loop',
  error: 'FAILURE LOOP DETECTED: 2 consecutive escalations (issues #10, #11)',
  iterations: 2,
  maxIterations: 100,
  failedIterations: 1,
  successfulIterations: 1,
  testFailures: 1,
  testsPassed: false,
  issuesClosed: ['9'],
  issuesEscalated: ['10', '11'],
  issuesNoChange: [],
  issuesClaimedElsewhere: [],
  preexistingFailures: [],
  pullRequests: [],
  completedIterations: [],
  checkpointId: '2b1c6f2e-3c1a-4d4e-9f00-0123456789ab',
  costUsd: 0.05,
  tokens: { input: 0, output: 0 },
  loop: {
    iterations: 8,
    failedIterations: 1,
    successfulIterations: 7,
    testFailures: 7,
    testsPassed: false,
    issuesClosed: ['5', '9'],
    issuesEscalated: ['10', '11'],
    issuesNoChange: [],
    pullRequests: [
      { issueIds: ['5'], number: 20, url: 'https://github.com/octo/widgets/pull/20', reused: false, iteration: 3 },
    ],
    completedIterations: [3, 6],
    costUsd: 0.125,
    tokens: { input: 0, output: 0 },
  },
  sliceIterations: 2,
  history: [
    {
      n: 7,
      issueIds: ['11'],
      startedAt: '2026-11-21T10:00:00Z',
      durationMs: 61_000,
      outcome: 'tests_failed',
      agent: { ok: true, exitCode: 0, signal: null, durationMs: 60_000, costUsd: 0.05 },
      tests: { passed: false, exitCode: 1, durationMs: 900 },
    },
    {
      n: 8,
      issueIds: ['11'],
      startedAt: '2026-11-21T10:01:01Z',
      durationMs: 5_000,
      outcome: 'agent_failed',
      agent: {
        ok: false,
        exitCode: 1,
        signal: null,
        durationMs: 5_000,
        failure: { class: 'transient', reason: 'overloaded', message: 'x' },
      },
    },
  ],
  durationMs: 66_000,
  interrupted: false,
  tddError: null,
  diagnostic: '# agent-loop halted: FAILURE LOOP DETECTED\n\n- Loop type: consecutive escalations\n',
  standing: null,
  resume: ['explicit', 'unlabel', 'base_commits', 'fresh'],
  idle: false,
  deferred: null,
  unchanged: false,
  ...over,
});

describe('action outputs', () => {
  it("are exactly the outputs the manifest (and so action.yml) declares, in its order, but the fan-out plan's own", () => {
    const planOnly = ['matrix', 'wave', 'jobs'];
    expect(Object.keys(resultOutputs(result(), (t) => t))).toEqual(
      ACTION_OUTPUTS.map((o) => o.name).filter((n) => !planOnly.includes(n)),
    );
  });

  it('map the run result to the outputs action.yml declares, result-json redacted', () => {
    const secret = 'ghs_0123456789abcdefghijklmnopqrstuvwxyzAB';
    const out = resultOutputs(result({ error: `token ${secret}` }), createRedactor([secret]));
    expect(out).toMatchObject({
      status: 'halted',
      'halt-reason': 'failure_loop',
      iterations: '2',
      'failed-iterations': '1',
      'successful-iterations': '1',
      'issues-closed': '9',
      'issues-escalated': '10,11',
      'pull-requests': '',
      'cost-usd': '0.0500',
      'loop-iterations': '8',
      'loop-issues-closed': '5,9',
      'loop-issues-escalated': '10,11',
      'loop-pull-requests': 'https://github.com/octo/widgets/pull/20',
      'loop-cost-usd': '0.1250',
      'checkpoint-id': '2b1c6f2e-3c1a-4d4e-9f00-0123456789ab',
    });
    expect(out['result-json']).not.toContain(secret);
    expect(JSON.parse(out['result-json']!)).toMatchObject({ status: 'halted' });
  });
});

describe('issues that needed no change (issue 40)', () => {
  it('issues-no-change and the summary row name those left open for a person, not those closed as no change (in issues-closed)', () => {
    const r = result({ issuesClosed: ['9', '15'], issuesNoChange: ['13', '15'] });
    expect(resultOutputs(r, (t) => t)).toMatchObject({ 'issues-closed': '9,15', 'issues-no-change': '13' });
    const md = buildSummary(r);
    expect(md).toContain('| no change needed (left open, `agent-loop:no-change`) | #13 |');
    const closedOnly = buildSummary(result({ issuesClosed: ['15'], issuesNoChange: ['15'] }));
    expect(closedOnly).not.toContain('left open');
  });
});

describe('job summary', () => {
  it("shows the status, the diagnostic, this run's iterations and issues apart from the loop's totals, a gantt chart and how to resume", () => {
    const md = buildSummary(result(), {
      skippedOutsiders: [{ id: '12', author: 'stranger|x', association: 'NONE' }],
      resumeHint: 'or dispatch the workflow with checkpoint-id',
    });
    expect(md).toContain('## 🛑 agent-loop: halted (failure_loop)');
    expect(md).toContain(
      'This run: 2 iterations, 1 agent ok, 1 agent failed, 1 test failures; spend $0.0500.\n\nThe loop so far (all runs of this checkpoint): iterations 8/100, 2 issue(s) done, 2 escalated; spend $0.1250.',
    );
    expect(md).toContain('| in this run | issues |');
    expect(md).toContain('Loop type: consecutive escalations');
    expect(md).toContain('| 7 | #11 | tests_failed | ok | failed (1) | 61.0s | $0.0500 |');
    expect(md).toContain('| 8 | #11 | agent_failed | transient overloaded | — | 5.0s | — |');
    expect(md).toContain('| escalated | #10, #11 |');
    expect(md).toContain('#12 by stranger\\|x (NONE)');
    expect(md).toMatch(/```mermaid\ngantt[\s\S]*iteration 8 · 11 · agent failed : crit, \d+, 5000ms/);
    // A halt is not resumed by the next run: it says how it is.
    expect(md).toContain(
      'Checkpoint `2b1c6f2e-3c1a-4d4e-9f00-0123456789ab`: later runs stay halted (each ends at once, green, with a warning) until it is resumed: once the cause is fixed, run the workflow by hand (workflow_dispatch) with the input resume: true; remove the agent-loop:escalated label',
    );
    // Each way of the halt's (the result's resume), in the action's words only.
    expect(md).toContain("or start over with the input fresh: true (the loop's counts begin again).");
    expect(buildSummary(result({ haltReason: 'max_iterations', resume: ['max_iterations', 'fresh'] }))).toContain(
      'until it is resumed: raise the input max-iterations (the count is kept across runs): the next run resumes by itself; or start over',
    );
    expect(
      buildSummary(result({ status: 'continuing', haltReason: null }), {
        resumeHint: 'or dispatch the workflow with checkpoint-id',
      }),
    ).toContain(
      'Checkpoint `2b1c6f2e-3c1a-4d4e-9f00-0123456789ab`: the next run resumes it; or dispatch the workflow with checkpoint-id.',
    );
  });

  it('issue 15: links each issue it names (closed, pull requests, escalated, no change, left to others, skipped, worked) to the issue on GitHub; the whole summary as a snapshot', () => {
    const r = result({
      status: 'complete',
      haltReason: null,
      error: null,
      diagnostic: null,
      issuesClosed: ['9'],
      issuesEscalated: ['10'],
      issuesNoChange: ['13'],
      issuesClaimedElsewhere: ['14'],
      preexistingFailures: ['test/flaky.test.ts > times out'],
      pullRequests: [
        { issueIds: ['9'], number: 21, url: 'https://github.com/octo/widgets/pull/21', reused: false, iteration: 7 },
      ],
    });
    const md = buildSummary(r, {
      skippedOutsiders: [{ id: '12', author: 'stranger', association: 'NONE' }],
      issueLinks: { serverUrl: 'https://github.com/', repository: 'octo/widgets' },
    });
    const link = (n: number) => `[#${n}](https://github.com/octo/widgets/issues/${n})`;
    expect(md).toContain(`| done | ${link(9)} |`);
    expect(md).toContain(`| pull requests | [#21](https://github.com/octo/widgets/pull/21) (${link(9)}) |`);
    expect(md).toContain(`| escalated | ${link(10)} |`);
    expect(md).toContain(`| ${link(13)} |`);
    expect(md).toContain(`| ${link(14)} |`);
    expect(md).toContain(`${link(12)} by stranger (NONE)`);
    expect(md).toContain(`| worked | ${link(11)} |`);
    expect(md).toContain(`| 7 | ${link(11)} | tests_failed |`);
    expect(md).toMatchSnapshot();
    // Beads issues (no issueLinks) are named, not linked.
    expect(buildSummary(r)).toContain('| escalated | #10 |');
    expect(buildSummary(r)).not.toContain('/issues/');
  });

  it('stays under 1 MiB whatever the history', () => {
    const big = Array.from({ length: 5000 }, (_, i) => ({
      ...result().history[0]!,
      n: i + 1,
      issueIds: [`${i}`.repeat(50)],
    }));
    const md = buildSummary(result({ history: big, diagnostic: 'x'.repeat(2 * SUMMARY_LIMIT) }));
    expect(Buffer.byteLength(md)).toBeLessThanOrEqual(SUMMARY_LIMIT);
    expect(md).toContain('summary cut to stay under the 1 MiB job summary limit');
  });

  it("a halt that still stands: since when, why, the fix, and the ways to resume in the action's inputs; no diagnostic again", () => {
    const md = buildSummary(
      result({
        diagnostic: null,
        sliceIterations: 0,
        history: [],
        standing: {
          since: '2026-11-25T03:00:00Z',
          advice: 'Allow GitHub Actions to create and approve pull requests.',
          resume: ['explicit', 'unlabel', 'base_commits', 'fresh'],
        },
      }),
    );
    expect(md).toContain('## ⏸️ agent-loop: still halted (failure_loop)');
    expect(md).toContain('Halted since 2026-11-25T03:00:00Z: FAILURE LOOP DETECTED: 2 consecutive escalations');
    expect(md).toContain('no agent was installed or run, no checkpoint was written, nothing was posted');
    expect(md).toContain('**The fix it named:** Allow GitHub Actions to create and approve pull requests.');
    expect(md).toContain(
      '- once the cause is fixed, run the workflow by hand (workflow_dispatch) with the input resume: true',
    );
    expect(md).toContain('- remove the agent-loop:escalated label from an issue that should be tried again');
    expect(md).toContain('- push a fix to the base branch: the next run resumes by itself');
    expect(md).toContain('- or start over with the input fresh: true');
    expect(md).not.toMatch(/--resume-halted|--fresh/);
    expect(md).not.toContain('Halt diagnostic');
  });
});

describe("a halt's error annotation (issue 40)", () => {
  it('is one text: the reason, the message and how to resume, in the action’s words', () => {
    const text = haltFailure(
      result({
        haltReason: 'max_iterations',
        error: 'Max iterations (1) reached',
        resume: ['max_iterations', 'fresh'],
      }),
    );
    expect(text).toBe(
      "agent-loop halted (max_iterations): Max iterations (1) reached. Later runs stay halted until it is resumed: raise the input max-iterations (the count is kept across runs): the next run resumes by itself; or start over with the input fresh: true (the loop's counts begin again). The job summary holds the diagnostic.",
    );
    expect(cliVocabulary(text)).toEqual([]);
  });

  it('says the run stopped without a result when there is no halt to name', () => {
    expect(haltFailure({ haltReason: null, error: null, resume: null })).toBe(
      'agent-loop stopped before it had a result: the log above says why.',
    );
  });
});
