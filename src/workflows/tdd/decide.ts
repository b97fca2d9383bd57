/**
 * What happens after a phase attempt of the red/green/refactor workflow: seed 003's summary table
 * as data and one pure decision function. The iteration's step machine (step.ts) asks for what the
 * attempt shows (did the agent change anything, what did the tests say) and turns the decision into
 * effects (commit, retry, skip, roll back, abort) that iteration.ts performs.
 */
import { POLICIES } from '../../failure/policy.js';
import type { CommitNaming } from './commitNaming.js';
import type { TddErrorType, TddPhase } from './notes.js';
import type { TestsSeen } from '../../verdict/results.js';

/** Seed 003: "Default retry limit: 5 retries (6 total attempts)". */
export const TDD_MAX_RETRIES = 5;
/** Seed 003: "Network timeouts: retry up to 3 times with the same timeout setting" (the policy table's timeout row). */
export const TDD_TIMEOUT_RETRIES = (POLICIES.timeout.maximumAttempts ?? 1) - 1;

/** Seed 003's summary table, every row, for the log, the docs and the tests. */
export const TDD_FAILURE_TABLE = [
  {
    scenario: 'Non-compiling test',
    strategy: 'Retry with error',
    maxRetries: TDD_MAX_RETRIES,
    onExhaustion: 'Abort',
    error: 'COMPILATION_ERROR',
  },
  {
    scenario: 'Test passes immediately',
    strategy: 'Skip test',
    maxRetries: null,
    onExhaustion: 'Continue',
    error: 'TEST_UNEXPECTED_PASS',
  },
  {
    scenario: 'Duplicate test',
    strategy: 'Skip test',
    maxRetries: null,
    onExhaustion: 'Continue',
    error: 'DUPLICATE_TEST',
  },
  {
    scenario: "Can't make test pass",
    strategy: 'Abort',
    maxRetries: null,
    onExhaustion: 'Manual intervention',
    error: 'IMPLEMENTATION_FAILED',
  },
  {
    scenario: 'Implementation breaks tests',
    strategy: 'Retry with info',
    maxRetries: TDD_MAX_RETRIES,
    onExhaustion: 'Abort',
    error: 'REGRESSION',
  },
  {
    scenario: 'Refactoring breaks tests',
    strategy: 'Retry with info',
    maxRetries: TDD_MAX_RETRIES,
    onExhaustion: 'Rollback & continue',
    error: 'REGRESSION',
  },
  {
    scenario: 'API rate limit',
    strategy: 'Exponential backoff',
    maxRetries: null,
    onExhaustion: '—',
    error: 'API_RATE_LIMIT',
  },
  {
    scenario: 'Network timeout',
    strategy: 'Retry same timeout',
    maxRetries: TDD_TIMEOUT_RETRIES,
    onExhaustion: 'Abort',
    error: 'NETWORK_TIMEOUT',
  },
] as const satisfies readonly {
  scenario: string;
  strategy: string;
  maxRetries: number | null;
  onExhaustion: string;
  error: TddErrorType;
}[];

export type { TestsSeen } from '../../verdict/results.js';

export interface PhaseObservation {
  phase: TddPhase;
  description: string;
  /** Anything changed since the phase started (working tree or commits). */
  changed: boolean;
  /** The test agent said the test already exists (its report's `duplicate_test: true`). */
  reportedDuplicate: boolean;
  tests: TestsSeen;
  /** The tests RED left failing (the new test): GREEN tells them from regressions. */
  targetTests: readonly string[];
  /** Failed attempts of this phase before this one. */
  retries: number;
  /** How the phase's commit names the work (commitNaming.ts); without it, the description, a feature. */
  naming?: CommitNaming;
}

export interface PhaseError {
  type: TddErrorType;
  message: string;
  details: string;
}

export type PhaseDecision =
  /** Commit the phase (`message`), then go to `next`. */
  | { kind: 'commit'; message: string; next: TddPhase | 'next-test'; testResult: 'PASS' | 'FAIL' }
  /** Run the phase's agent again with the error as context. */
  | { kind: 'retry'; error: PhaseError }
  /** Drop the attempt (reset to the phase's start), mark the test, go on with the next one. */
  | { kind: 'skip'; mark: 'problematic' | 'duplicate'; error: PhaseError }
  /** Roll the refactoring back, commit "refactor: no changes (tests would break)", go on. */
  | { kind: 'rollback'; message: string; error: PhaseError }
  /** Stop the workflow: commits and notes stay for a person. */
  | { kind: 'abort'; error: PhaseError };

export const ROLLBACK_MESSAGE = 'refactor: no changes (tests would break)';

/**
 * Whether a phase may start on the tree as it is (checked when the branch changed since the engine
 * last tested it: a person's commit between runs, a crash): GREEN needs a failing target test
 * (else back to RED), REFACTOR needs nothing failing that did not fail at the baseline (else back
 * to GREEN, with the failures). undefined: it may start. Pure.
 */
export function phaseStart(
  phase: TddPhase,
  tests: TestsSeen,
  targetTests: readonly string[],
  description: string,
): { back: TddPhase; error: PhaseError } | undefined {
  const details = tests.summary;
  if (phase === 'GREEN') {
    const failing =
      !tests.passed &&
      (tests.compileError || targetTests.length === 0 || tests.failing.some((name) => targetTests.includes(name)));
    if (failing) return undefined;
    return {
      back: 'RED',
      error: {
        type: 'TEST_UNEXPECTED_PASS',
        message:
          `At GREEN's start no test for "${description}" fails any more (the branch changed since RED` +
          (targetTests.length ? `: ${targetTests.slice(0, 3).join(', ')} pass or are gone` : '') +
          `): write the failing test again`,
        details,
      },
    };
  }
  if (phase === 'REFACTOR' && !tests.passed) {
    return {
      back: 'GREEN',
      error: {
        type: 'REGRESSION',
        message:
          `At REFACTOR's start ${tests.failing.length || 'some'} test(s) fail that did not fail before this ` +
          `cycle (the branch changed since GREEN): make them pass again`,
        details,
      },
    };
  }
  return undefined;
}

export function decidePhase(o: PhaseObservation): PhaseDecision {
  const rules = phaseRules(o);
  switch (o.phase) {
    case 'RED':
      return decideRed(o, rules);
    case 'GREEN':
      return decideGreen(o, rules);
    case 'REFACTOR':
      return decideRefactor(o, rules);
  }
}

/** What every phase's decision is made with: the attempt, the commit's naming, and the retry-or-give-up rules. */
interface PhaseRules {
  attempts: number;
  subject: string;
  change: string;
  details: PhaseError['details'];
  retryOr: (error: PhaseError, exhausted: () => PhaseDecision) => PhaseDecision;
  abort: (type: TddErrorType, message: string) => PhaseDecision;
  compileError: (what: string) => PhaseDecision;
}

function phaseRules(o: PhaseObservation): PhaseRules {
  const attempts = o.retries + 1;
  const { subject, change } = o.naming ?? { subject: o.description, change: 'feat' };
  const details = o.tests.summary;
  const retryOr = (error: PhaseError, exhausted: () => PhaseDecision): PhaseDecision =>
    o.retries < TDD_MAX_RETRIES ? { kind: 'retry', error } : exhausted();
  const abort = (type: TddErrorType, message: string): PhaseDecision => ({
    kind: 'abort',
    error: { type, message, details },
  });
  const compileError = (what: string): PhaseDecision =>
    retryOr(
      {
        type: 'COMPILATION_ERROR',
        message: `${what} does not compile (attempt ${attempts} of ${TDD_MAX_RETRIES + 1})`,
        details,
      },
      () => abort('COMPILATION_ERROR', `${what} still does not compile after ${attempts} attempts`),
    );

  return { attempts, subject, change, details, retryOr, abort, compileError };
}

/** RED: a new failing test is committed; none, or one that passes already, skips the test; one that does not compile is retried. */
function decideRed(o: PhaseObservation, r: PhaseRules): PhaseDecision {
  const { subject, details, compileError } = r;
  if (o.reportedDuplicate || !o.changed) {
    return {
      kind: 'skip',
      mark: 'duplicate',
      error: {
        type: 'DUPLICATE_TEST',
        message: `No new test for "${o.description}": ${o.reportedDuplicate ? 'the test agent says it already exists' : 'the test agent changed nothing'}`,
        details,
      },
    };
  }
  if (o.tests.passed) {
    return {
      kind: 'skip',
      mark: 'problematic',
      error: {
        type: 'TEST_UNEXPECTED_PASS',
        message: `The new test for "${o.description}" passes before any implementation: it does not test new behaviour`,
        details,
      },
    };
  }
  if (o.tests.compileError) return compileError('The new test');
  return { kind: 'commit', message: `test: ${subject}`, next: 'GREEN', testResult: 'FAIL' };
}

/** GREEN: passing tests are committed; a compile error, broken tests or the test still failing are retried, then abort. */
function decideGreen(o: PhaseObservation, r: PhaseRules): PhaseDecision {
  const { attempts, subject, change, details, retryOr, abort, compileError } = r;
  if (o.tests.passed) return { kind: 'commit', message: `${change}: ${subject}`, next: 'REFACTOR', testResult: 'PASS' };
  if (o.tests.compileError) return compileError('The implementation');
  const broken = o.targetTests.length > 0 ? o.tests.failing.filter((name) => !o.targetTests.includes(name)) : [];
  if (broken.length > 0) {
    return retryOr(
      {
        type: 'REGRESSION',
        message: `The implementation breaks ${broken.length} test(s) that passed: ${broken.slice(0, 5).join(', ')}`,
        details,
      },
      () =>
        abort(
          'REGRESSION',
          `The implementation still breaks other tests after ${attempts} attempts: ${broken.slice(0, 5).join(', ')}`,
        ),
    );
  }
  return retryOr(
    {
      type: 'TEST_UNEXPECTED_FAIL',
      message: `The test for "${o.description}" still fails (attempt ${attempts} of ${TDD_MAX_RETRIES + 1})`,
      details,
    },
    () => abort('IMPLEMENTATION_FAILED', `Could not make test pass after ${attempts} attempts`),
  );
}

/** REFACTOR: passing tests are committed; a break is retried, then rolled back. */
function decideRefactor(o: PhaseObservation, r: PhaseRules): PhaseDecision {
  const { attempts, subject, details, retryOr } = r;
  if (o.tests.passed)
    return {
      kind: 'commit',
      message: o.changed ? `refactor: ${subject}` : 'refactor: no changes',
      next: 'next-test',
      testResult: 'PASS',
    };
  const error: PhaseError = o.tests.compileError
    ? {
        type: 'COMPILATION_ERROR',
        message: `The refactoring does not compile (attempt ${attempts} of ${TDD_MAX_RETRIES + 1})`,
        details,
      }
    : {
        type: 'REGRESSION',
        message: `The refactoring breaks ${o.tests.failing.length} test(s): ${o.tests.failing.slice(0, 5).join(', ')}`,
        details,
      };
  return retryOr(error, () => ({
    kind: 'rollback',
    message: ROLLBACK_MESSAGE,
    error: { ...error, message: `The refactoring still breaks tests after ${attempts} attempts; rolled back` },
  }));
}
