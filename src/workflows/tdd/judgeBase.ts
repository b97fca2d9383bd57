/**
 * Where --workflow tdd's test runs are judged, and what the judge's findings make of a phase
 * (issue 42). Pure.
 *
 * A phase's tests run in a judge tree (src/loop/judgePlace.ts) of its judge base: the cycle's last
 * phase commit the judge passed (judgeBaseOf), or the cycle's base before the first. Every
 * test file of that commit, the test infrastructure and agent-loop's configuration are protected: in
 * RED the tests the cycle had when the phase started (the agent may add tests, and they run: they
 * are the phase's aim); from GREEN on the tests as RED committed them (what GREEN must satisfy), the
 * agent's added tests left out. Infrastructure and configuration stand as at the cycle's base: no
 * phase commit the judge passed changed them (a finding is never committed, but where `allowed:` lets
 * it).
 *
 * A finding (the phase changed a protected path) means the phase is not passed: the agent is told to
 * restore those paths (a retry); when GREEN's or REFACTOR's tests pass on the judge tree anyway, the
 * work is held for a person (`tests-changed`), as the implement workflow holds accepted work that
 * changed the maintainer's tests: never merged, its issue never closed by the loop.
 */
import type { TreeJudge } from '../../judge/judgeRun.js';
import type { Held } from '../../core/held.js';
import type { TddCycle } from '../../core/state.js';
import { findingsForAgent, findingsHeldWhy, findingsSummary } from '../../judge/findingWords.js';
import type { Finding } from '../../judge/protectedPaths.js';
import { issueTargets } from '../../verdict/targets.js';
import { type PhaseDecision, TDD_MAX_RETRIES } from './decide.js';

/**
 * The commit a cycle's phases are judged by: its last phase commit the judge passed (`lastCommit`,
 * unless an abort's wip: commit took its place: then `judgeBase`), else the cycle's base.
 */
export const judgeBaseOf = (tdd: Pick<TddCycle, 'judgeBase' | 'lastCommit'>, baseTip: string | undefined) =>
  tdd.judgeBase ?? tdd.lastCommit ?? baseTip;

/**
 * The judge of a phase's test run: undefined without git or without a commit to judge by (the tests
 * then run in the working tree, as before issue 42).
 */
export function treeJudge(
  tdd: Pick<TddCycle, 'phase' | 'judgeBase' | 'lastCommit'>,
  cycle: { git: boolean; baseTip?: string; issueBody: string },
): TreeJudge | undefined {
  if (!cycle.git) return undefined;
  const base = judgeBaseOf(tdd, cycle.baseTip);
  if (!base) return undefined;
  return {
    base,
    addedTests: tdd.phase === 'RED' ? 'run' : 'leftOut',
    allowed: issueTargets(cycle.issueBody, undefined).allowed ?? [],
  };
}

/** The judge's findings on a phase's attempt. */
export interface Found {
  findings: readonly Finding[];
  removedLinks: readonly string[];
}

/** The phase's decision (decide.ts), or the work held for a person. */
export type JudgedDecision = PhaseDecision | { kind: 'hold'; held: Held };

/**
 * Seed 003's decision on the phase (decidePhase, made on the judge tree's run) with the judge's
 * findings: none leave it as it is; GREEN's or REFACTOR's commit is held for a person; anything else
 * is retried with the findings (what to restore) before the phase's own failure, and once the
 * retries are spent, RED's commit aborts (TESTS_CHANGED) and any other decision stands (an abort, a
 * rollback or a skip: the last two put the phase's start back, the changed paths with it).
 */
export function withFindings(
  d: PhaseDecision,
  o: { phase: TddCycle['phase']; retries: number; found: Found | undefined; testsSummary: string },
): JudgedDecision {
  const findings = o.found?.findings ?? [];
  const links = o.found?.removedLinks ?? [];
  if (findings.length === 0 && links.length === 0) return d;
  if (d.kind === 'commit' && o.phase !== 'RED')
    return {
      kind: 'hold',
      held: {
        reason: 'tests-changed',
        why: findingsHeldWhy(findings, links),
        paths: [...findings.map((f) => f.path), ...links],
      },
    };
  const theTests = d.kind === 'commit' ? '' : `; and ${lowerFirst(d.error.message)}`;
  const details = [findingsForAgent(findings, links), d.kind === 'commit' ? o.testsSummary : d.error.details]
    .filter(Boolean)
    .join('\n\n');
  if (o.retries < TDD_MAX_RETRIES)
    return {
      kind: 'retry',
      error: {
        type: 'TESTS_CHANGED',
        message: `${upperFirst(findingsSummary(findings, links))} (attempt ${o.retries + 1} of ${TDD_MAX_RETRIES + 1})${theTests}`,
        details,
      },
    };
  if (d.kind === 'commit')
    return {
      kind: 'abort',
      error: {
        type: 'TESTS_CHANGED',
        message: `The ${o.phase} work still changes what the maintainer owns after ${o.retries + 1} attempts: ${findingsSummary(findings, links)}`,
        details,
      },
    };
  return d;
}

const upperFirst = (s: string) => `${s.charAt(0).toUpperCase()}${s.slice(1)}`;
const lowerFirst = (s: string) => `${s.charAt(0).toLowerCase()}${s.slice(1)}`;
