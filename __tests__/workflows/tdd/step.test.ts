/**
 * The red/green/refactor iteration, pure (src/workflows/tdd/step.ts), driven event by event: no
 * git, no agent, no test run, no clock. `drive` answers each request from a scripted world the way
 * iteration.ts answers it from the real one; each test checks what the iteration asks for and the
 * outcome it ends with. The last block checks the protocol over many worlds.
 */
import { describe, expect, it } from '@jest/globals';
import type { AgentResult } from '../../../src/agents/types.js';
import type { Halt, IterationOutcome } from '../../../src/core/events.js';
import {
  type CycleState,
  type IterationRecord,
  type LoopState,
  type TddCycle,
  initialLoopState,
} from '../../../src/core/state.js';
import type { TestOutcome } from '../../../src/loop/deps.js';
import type { SuiteRun } from '../../../src/verdict/results.js';
import { ROLLBACK_MESSAGE, type TestsSeen } from '../../../src/workflows/tdd/decide.js';
import type { TddNote } from '../../../src/workflows/tdd/notes.js';
import {
  type TddContext,
  type TddEffect,
  type TddEvent,
  type TddModel,
  type TddStep,
  initialTddModel,
  stepTdd,
} from '../../../src/workflows/tdd/step.js';
import { cycle, failed, ok, turnRecord } from '../../core/fixtures.js';

const T0 = Date.parse('2026-11-25T10:00:00Z');
const ADD = 'adds two numbers';
const SUB = 'subtracts two numbers';

const tddOf = (over: Partial<TddCycle> = {}): TddCycle => ({
  tests: [
    { description: ADD, status: 'pending' },
    { description: SUB, status: 'pending' },
  ],
  index: 0,
  phase: 'RED',
  round: 1,
  retries: 0,
  targetTests: [],
  testFile: '',
  ...over,
});

function before(tdd: TddCycle | null = tddOf(), over: Partial<LoopState> = {}, c: Partial<CycleState> = {}) {
  return {
    ...initialLoopState(10),
    baseBranch: 'main',
    currentCycle: cycle(['bd-1'], { ...(tdd ? { tdd } : {}), ...c }),
    ...over,
  } satisfies LoopState;
}

function ctx(over: Partial<TddContext> = {}, settings: Partial<TddContext['settings']> = {}): TddContext {
  return {
    settings: { maxIterations: 10, maxRetriesPerStep: 2, testCommand: 'npm test', onSuccess: 'merge', ...settings },
    agentName: 'Claude Code',
    before: before(),
    issue: { id: 'bd-1', title: 'Calculator', body: `- [ ] ${ADD}\n- [ ] ${SUB}`, labels: [] },
    git: true,
    ...over,
  };
}

const duplicateReport = ok({ report: { workRemainingEmpty: true, fields: { duplicate_test: true } } });

const passing: TestsSeen = { passed: true, failing: [], compileError: false, summary: 'all pass' };
const failing = (...names: string[]): TestsSeen => ({
  passed: false,
  failing: names,
  compileError: false,
  summary: `${names.length} failing`,
});
const notCompiling: TestsSeen = { passed: false, failing: [], compileError: true, summary: 'SyntaxError' };
/** A note as a phase commit carries it: RED of the first test done, GREEN next. */
const noteOf = (over: Partial<TddNote> = {}): TddNote => ({
  phase: 'RED',
  next_phase: 'GREEN',
  cycle: 1,
  current_test: { description: ADD, test_file: 't' },
  test_result: 'FAIL',
  ...over,
});
const outcome = (seen: TestsSeen, run?: SuiteRun): TestOutcome => ({
  passed: seen.passed,
  exitCode: seen.passed ? 0 : 1,
  durationMs: 2000.4,
  tail: seen.summary,
  ...(run ? { run } : {}),
});

/** What the scripted world answers: each list is used up in order, the last answer repeating. */
interface World {
  newest?: { commit: string; note: TddNote };
  invalid?: { commit: string; reason: string }[];
  heads?: string[];
  work?: boolean[];
  tests?: (TestsSeen | { seen: TestsSeen; run: SuiteRun })[];
  agent?: AgentResult;
  moved?: Halt;
  files?: string[];
  /** Answer this request with `interrupted` instead. */
  interruptAt?: TddEffect['kind'];
}

const ASKS = new Set<TddEffect['kind']>([
  'readNotes',
  'readHead',
  'readWork',
  'runTests',
  'runAgent',
  'readChangedFiles',
  'writeNote',
]);
const isAsk = (e: TddEffect) => ASKS.has(e.kind) || e.kind === 'finish';

/** The event answering `effect` in `world`, as iteration.ts would feed it. */
function answer(world: World, effect: TddEffect, count: Map<string, number>, now: number): TddEvent {
  const take = <T>(list: T[] | undefined, fallback: T): T => {
    const i = count.get(effect.kind) ?? 0;
    count.set(effect.kind, i + 1);
    return list?.[Math.min(i, list.length - 1)] ?? fallback;
  };
  if (world.interruptAt === effect.kind) return { type: 'interrupted' };
  switch (effect.kind) {
    case 'readNotes':
      return {
        type: 'notesRead',
        ...(world.newest ? { newest: world.newest } : {}),
        invalid: world.invalid ?? [],
      };
    case 'readHead':
      return { type: 'headRead', head: take(world.heads, `head${count.get('readHead') ?? 0}`) };
    case 'readWork':
      return { type: 'workRead', changed: take(world.work, true) };
    case 'runTests': {
      const t = take<World['tests'] extends (infer T)[] | undefined ? T : never>(world.tests, failing('calc › adds'));
      const { seen, run } = 'seen' in t ? t : { seen: t, run: undefined };
      return { type: 'testsRan', tests: outcome(seen, run), seen, now };
    }
    case 'runAgent': {
      const b = effect.state;
      const record = turnRecord(b, T0);
      const cyc = b.currentCycle as CycleState;
      return {
        type: 'agentRan',
        result: world.agent ?? ok(),
        state: { ...b, iteration: b.iteration + 1, currentCycle: { ...cyc, iterations: cyc.iterations + 1 } },
        record,
        ...(world.moved ? { moved: world.moved } : {}),
        startedAt: T0,
        now,
      };
    }
    case 'readChangedFiles':
      return { type: 'filesRead', files: world.files ?? ['tests/add.test.ts'] };
    case 'writeNote':
      return { type: 'noteWritten', now };
    default:
      throw new Error(`${effect.kind} is not a request`);
  }
}

interface Driven {
  steps: TddStep[];
  effects: TddEffect[];
  outcome: IterationOutcome;
  model: TddModel;
}

/** Runs the iteration from `started` to `finish`, answering each request from `world`; the clock ticks 1 s per answer. */
function drive(c: TddContext, world: World = {}): Driven {
  let model = initialTddModel(c);
  let event: TddEvent = { type: 'started' };
  const steps: TddStep[] = [];
  const count = new Map<string, number>();
  for (let tick = 1; tick < 100; tick++) {
    const step = stepTdd(c, model, event);
    steps.push(step);
    model = step.model;
    const last = step.effects.at(-1) as TddEffect;
    if (last.kind === 'finish')
      return { steps, effects: steps.flatMap((s) => s.effects), outcome: last.outcome, model };
    event = answer(world, last, count, T0 + tick * 1000);
  }
  throw new Error('the iteration never finished');
}

const kinds = (effects: TddEffect[]) => effects.map((e) => (e.kind === 'log' ? `log:${e.event}` : e.kind));
const logsOf = (effects: TddEffect[]) => effects.flatMap((e) => (e.kind === 'log' ? [e] : []));
const tddIn = (o: IterationOutcome) => (o.state.currentCycle as CycleState).tdd as TddCycle;
const lastRecord = (o: IterationOutcome) => o.state.history.at(-1) as IterationRecord;
function only<K extends TddEffect['kind']>(effects: TddEffect[], kind: K): Extract<TddEffect, { kind: K }> {
  const found = effects.filter((e) => e.kind === kind);
  expect(found).toHaveLength(1);
  return found[0] as Extract<TddEffect, { kind: K }>;
}
/** A TddCycle as the engine saves it (undefined keys are dropped by the checkpoint's JSON). */
const saved = (t: TddCycle) => JSON.parse(JSON.stringify(t)) as TddCycle;

describe('where the iteration starts', () => {
  it('without git: no note and no HEAD are read; the RED prompt goes to the test agent', () => {
    const c = ctx({ git: false });
    const s = stepTdd(c, initialTddModel(c), { type: 'started' });
    expect(kinds(s.effects)).toEqual(['log:iteration.start', 'runAgent']);
    const start = logsOf(s.effects)[0];
    expect(start?.message).toBe(`[iteration 1/10] RED 1 bd-1 "${ADD}" (test agent) …`);
    expect(start?.data).toEqual({ iteration: 1, issueIds: ['bd-1'], phase: 'RED', test: ADD });
    const run = only(s.effects, 'runAgent');
    expect(run.what).toBe('the RED work of iteration 1');
    expect(run.state).toBe(c.before);
    expect(run.prompt).toContain(ADD);
    expect(run.prompt).toContain('1 of 6');
    expect(run.prompt).toContain('npm test');
  });

  it("with git: the notes on the cycle's own commits are read first, then HEAD as the phase's base", () => {
    const c = ctx();
    const s = stepTdd(c, initialTddModel(c), { type: 'started' });
    expect(s.effects).toEqual([{ kind: 'readNotes', range: 'main..HEAD' }]);
    const t = stepTdd(c, s.model, { type: 'notesRead', invalid: [] });
    expect(t.effects).toEqual([{ kind: 'readHead' }]);
    const u = stepTdd(c, t.model, { type: 'headRead', head: 'base0' });
    expect(kinds(u.effects)).toEqual(['log:iteration.start', 'runAgent']);
    expect(u.model.tdd.phaseBase).toBe('base0');
  });

  it('with git but no base branch: no note is read', () => {
    const c = ctx({ before: before(tddOf(), { baseBranch: undefined }) });
    expect(stepTdd(c, initialTddModel(c), { type: 'started' }).effects).toEqual([{ kind: 'readHead' }]);
  });

  it('a new cycle takes its test list from the issue, or from --plan', () => {
    const c = ctx({ before: before(null) });
    expect(initialTddModel(c).tdd.tests.map((t) => t.description)).toEqual([ADD, SUB]);
    const p = ctx({ before: before(null) }, { plan: '- [x] one\n- [ ] two' });
    expect(initialTddModel(p).tdd).toMatchObject({
      tests: [
        { description: 'one', status: 'done' },
        { description: 'two', status: 'pending' },
      ],
      index: 1,
      phase: 'RED',
      round: 1,
    });
  });

  it("invalid notes are logged; a note on the checkpoint's last commit changes nothing", () => {
    const c = ctx({ before: before(tddOf({ lastCommit: 'c1' })) });
    const note = noteOf();
    const r = drive(c, {
      newest: { commit: 'c1', note },
      invalid: [
        { commit: 'aaaaaaaaaaaaaaaaaaaa', reason: 'not JSON' },
        { commit: 'bbbbbbbbbbbbbbbbbbbb', reason: 'no phase' },
      ],
    });
    expect(kinds(r.steps[1]?.effects ?? [])).toEqual(['log:tdd.note_invalid', 'log:tdd.note_invalid', 'readHead']);
    expect(logsOf(r.effects)[0]).toEqual({
      kind: 'log',
      level: 'warn',
      event: 'tdd.note_invalid',
      message: 'Ignored the git note on aaaaaaaaaaaa: not JSON',
    });
    expect(r.model.tdd.phase).toBe('RED');
    expect(kinds(r.effects)).not.toContain('log:tdd.resumed');
  });

  it('a newer note wins (a crash after its commit): GREEN of that test, its test file; then the precondition is checked', () => {
    const c = ctx({ before: before(tddOf({ lastCommit: 'c0', retries: 2 })) });
    const note = noteOf({ current_test: { description: ADD, test_file: 'tests/add.test.ts' } });
    let s = stepTdd(c, initialTddModel(c), { type: 'started' });
    s = stepTdd(c, s.model, { type: 'notesRead', newest: { commit: 'c1c1c1c1c1c1c1c1', note }, invalid: [] });
    expect(kinds(s.effects)).toEqual(['log:tdd.resumed', 'readHead']);
    expect(logsOf(s.effects)[0]?.message).toBe(
      `Resuming the red/green/refactor workflow from the git note on c1c1c1c1c1c1: RED done for "${ADD}", next GREEN.`,
    );
    expect(s.model.stage).toBe('checkHead');
    expect(s.model.tdd).toMatchObject({ phase: 'GREEN', index: 0, retries: 0, testFile: 'tests/add.test.ts' });
    expect(s.model.tdd.lastCommit).toBe('c1c1c1c1c1c1c1c1');
  });

  it('a REFACTOR → RED note marks its test done and starts the next round; a note about a test not on the list adds it', () => {
    const refactored = noteOf({ phase: 'REFACTOR', next_phase: 'RED', test_result: 'PASS' });
    const a = drive(ctx(), { newest: { commit: 'c3', note: refactored } });
    expect(a.model.tdd).toMatchObject({ index: 1, phase: 'RED', round: 2, lastCommit: 'c3' });
    expect(a.model.tdd.tests[0]?.status).toBe('done');
    expect(a.model.test).toBe(SUB);

    const other = noteOf({ current_test: { description: 'x', test_file: 'f' } });
    const b = stepTdd(ctx(), stepTdd(ctx(), initialTddModel(ctx()), { type: 'started' }).model, {
      type: 'notesRead',
      newest: { commit: 'c9', note: other },
      invalid: [],
    });
    expect(b.model.tdd.tests.map((t) => t.description)).toEqual([ADD, SUB, 'x']);
    expect(b.model.tdd).toMatchObject({ index: 2, phase: 'GREEN' });
  });

  it('after an abort a person stepped in: the phase gets its attempts afresh, the error is cleared (also in what an interrupted iteration gives back)', () => {
    const error = { type: 'REGRESSION' as const, message: 'm', details: 'd' };
    const c = ctx({
      git: false,
      before: before(tddOf({ phase: 'GREEN', retries: 5, lastError: error }), {
        tddError: { ...error, retry_count: 6, timestamp: '2026-11-25T09:00:00Z' },
      }),
    });
    const s = stepTdd(c, initialTddModel(c), { type: 'started' });
    expect(only(s.effects, 'runAgent').prompt).toContain('1 of 6');
    expect(s.model.tdd).toMatchObject({ retries: 0, lastError: undefined });
    const i = stepTdd(c, s.model, { type: 'interrupted' });
    expect(i.effects).toEqual([
      { kind: 'finish', outcome: { state: { ...c.before, tddError: undefined }, interrupted: true } },
    ]);
  });

  it('a retry carries the failure and the attempt number to the agent; a --tdd-prompts template replaces the phase prompt', () => {
    const error = { type: 'COMPILATION_ERROR' as const, message: 'does not compile', details: 'SyntaxError at 3' };
    const c = ctx({ git: false, before: before(tddOf({ retries: 2, lastError: error })) });
    const prompt = only(stepTdd(c, initialTddModel(c), { type: 'started' }).effects, 'runAgent').prompt;
    expect(prompt).toContain('3 of 6');
    expect(prompt).toContain('does not compile');
    expect(prompt).toContain('SyntaxError at 3');
    const t = ctx({ git: false, templates: { RED: 'write {{test}} for {{issue}}' } });
    expect(only(stepTdd(t, initialTddModel(t), { type: 'started' }).effects, 'runAgent').prompt).toBe(
      `write ${ADD} for bd-1: Calculator\n\n- [ ] ${ADD}\n- [ ] ${SUB}`,
    );
  });

  it('the current test no longer pending: the next pending one is worked on', () => {
    const c = ctx({
      git: false,
      before: before(
        tddOf({
          tests: [
            { description: ADD, status: 'done' },
            { description: SUB, status: 'pending' },
          ],
        }),
      ),
    });
    const s = stepTdd(c, initialTddModel(c), { type: 'started' });
    expect(s.model.tdd.index).toBe(1);
    expect(s.model.test).toBe(SUB);
  });

  it('every test worked through: the issue closes without an agent run or a history entry; with pull requests it stays open', () => {
    const tests: TddCycle['tests'] = [
      { description: ADD, status: 'done' },
      { description: SUB, status: 'duplicate' },
    ];
    const c = ctx({ before: before(tddOf({ tests }), { iteration: 4 }) });
    const r = drive(c);
    expect(kinds(r.effects)).toEqual(['readNotes', 'log:cycle.complete', 'finish']);
    expect(logsOf(r.effects)[0]?.message).toBe(
      `bd-1: the test list is worked through: 1 of 2 test(s) done (red, green, refactor); skipped: "${SUB}" (duplicate).`,
    );
    expect(r.outcome.cycleDone).toBe(true);
    expect(r.outcome.issueActions).toEqual([
      {
        kind: 'close',
        id: 'bd-1',
        note: `agent-loop: red/green/refactor finished at iteration 4: 1 of 2 test(s) done (red, green, refactor); skipped: "${SUB}" (duplicate)`,
      },
    ]);
    expect(r.outcome.state.history).toEqual([]);
    expect(r.outcome.state.issuesClosed).toEqual(['bd-1']);
    expect(r.outcome.state.completedIterations).toEqual([4]);
    expect(drive(ctx({ before: c.before }, { onSuccess: 'pull-request' })).outcome.issueActions).toEqual([]);
  });
});

describe("the phase's precondition, when the branch may have changed between runs (issue 12)", () => {
  const green = (over: Partial<TddCycle> = {}) =>
    ctx({ before: before(tddOf({ phase: 'GREEN', lastCommit: 'c1', targetTests: ['calc › adds'], ...over })) });

  it('HEAD where the engine left it and nothing changed: no test run; the phase starts from HEAD', () => {
    const r = drive(green(), { heads: ['c1', 'c1'], work: [false] });
    expect(kinds(r.effects).slice(0, 6)).toEqual([
      'readNotes',
      'readHead',
      'readWork',
      'readHead',
      'log:iteration.start',
      'runAgent',
    ]);
    expect(only(r.steps[2]?.effects ?? [], 'readWork').since).toBe('c1');
    expect(r.model.tdd.phaseBase).toBe('c1');
  });

  it("HEAD moved and RED's test passes now: back to RED with the bounce counted, before any agent runs, no history", () => {
    const c = green();
    const r = drive(c, { heads: ['d2d2d2d2d2d2d2d2'], tests: [passing] });
    expect(kinds(r.effects)).toEqual([
      'readNotes',
      'readHead',
      'log:tdd.precondition',
      'runTests',
      'log:step.bounce',
      'finish',
    ]);
    const [pre, bounce] = logsOf(r.effects);
    expect(pre?.message).toBe(
      '[iteration 1/10] GREEN 1 the branch changed since the engine last tested it (c1 → d2d2d2d2d2d2): running the tests before GREEN starts.',
    );
    expect(bounce?.data).toEqual({ iteration: 1, from: 'GREEN', to: 'RED', bounces: 1 });
    expect(r.outcome.escalate).toBeUndefined();
    expect(r.outcome.state.history).toEqual([]);
    expect(r.outcome.state.iteration).toBe(c.before.iteration);
    expect(tddIn(r.outcome)).toMatchObject({ phase: 'RED', retries: 0, bounces: 1 });
    expect(tddIn(r.outcome).lastError?.type).toBe('TEST_UNEXPECTED_PASS');
  });

  it('the same HEAD with work on it: the tests run too; the target still fails, so GREEN starts', () => {
    const r = drive(green(), { heads: ['c1', 'c1'], work: [true], tests: [failing('calc › adds')] });
    expect(kinds(r.steps.slice(0, 6).flatMap((s) => s.effects))).toEqual([
      'readNotes',
      'readHead',
      'readWork',
      'log:tdd.precondition',
      'runTests',
      'readHead',
      'log:iteration.start',
      'runAgent',
    ]);
  });

  it('REFACTOR on a broken tree: back to GREEN with the failures; too many step-backs escalate as a bounce loop', () => {
    const c = ctx({ before: before(tddOf({ phase: 'REFACTOR', lastCommit: 'c1', bounces: 2 })) });
    const r = drive(c, { heads: ['other'], tests: [failing('calc › adds')] });
    expect(tddIn(r.outcome)).toMatchObject({ phase: 'GREEN', bounces: 3 });
    expect(tddIn(r.outcome).lastError?.type).toBe('REGRESSION');
    expect(r.outcome.escalate).toEqual({
      reason: expect.stringMatching(/^3 step-back transitions \(REFACTOR → GREEN\): At REFACTOR's start 1 test/),
      bounceLoop: true,
    });
    const within = ctx({ before: before(tddOf({ phase: 'REFACTOR', lastCommit: 'c1', bounces: 1 })) });
    const w = drive(within, { heads: ['other'], tests: [failing('calc › adds')] });
    expect(tddIn(w.outcome).bounces).toBe(2);
    expect(w.outcome.escalate).toBeUndefined();
  });

  it('a failure that was there at the baseline does not make REFACTOR step back', () => {
    const run = (failed: string[], exitCode: number): SuiteRun => ({
      reader: 'jest',
      exitCode,
      tests: Object.fromEntries([...failed.map((id) => [id, 'failed']), ['calc › adds', 'passed']]),
      groups: {},
      messages: {},
    });
    const c = ctx({
      before: before(tddOf({ phase: 'REFACTOR', lastCommit: 'c1' })),
      baseline: run(['old › broken'], 1),
    });
    const r = drive(c, {
      heads: ['other', 'base'],
      tests: [{ seen: failing('old › broken'), run: run(['old › broken'], 1) }],
    });
    expect(kinds(r.effects)).toContain('runAgent');
    expect(kinds(r.effects)).not.toContain('log:step.bounce');
  });

  it('not checked for RED, for a retry, for a phase that has its base, or without git', () => {
    const first = (c: TddContext) => kinds(drive(c, { interruptAt: 'runAgent' }).effects);
    const plain = ['readNotes', 'readHead', 'log:iteration.start', 'runAgent', 'finish'];
    expect(first(ctx())).toEqual(plain);
    expect(first(ctx({ before: before(tddOf({ phase: 'GREEN', retries: 1 })) }))).toEqual(plain);
    expect(first(ctx({ before: before(tddOf({ phase: 'GREEN', phaseBase: 'p' })) }))).toEqual([
      'readNotes',
      'log:iteration.start',
      'runAgent',
      'finish',
    ]);
    expect(first(ctx({ git: false, before: before(tddOf({ phase: 'REFACTOR' })) }))).toEqual([
      'log:iteration.start',
      'runAgent',
      'finish',
    ]);
  });
});

describe('after the agent ran', () => {
  it('interrupted during the turn or the tests: the state from before, nothing recorded', () => {
    for (const at of ['runAgent', 'runTests'] as const) {
      const c = ctx();
      const r = drive(c, { interruptAt: at });
      expect(r.outcome).toEqual({ state: c.before, interrupted: true });
    }
  });

  it('the agent moved the repository: the phase is neither judged nor committed; the run halts', () => {
    const moved: Halt = { reason: 'repository_moved', message: 'REPOSITORY MOVED: main moved' };
    const r = drive(ctx(), { moved });
    expect(kinds(r.effects).slice(-2)).toEqual(['runAgent', 'finish']);
    expect(r.outcome.halt).toEqual(moved);
    expect(lastRecord(r.outcome)).toMatchObject({
      outcome: 'repository_moved',
      tdd: { phase: 'RED', test: ADD, decision: 'halt' },
    });
  });

  it('a rate limit backs off without limit (API_RATE_LIMIT), the attempt not counted against the phase', () => {
    const r = drive(ctx(), {
      agent: failed({ class: 'transient', reason: 'rate_limit', message: '429', retryAfterMs: 60_000 }),
    });
    expect(kinds(r.effects).slice(-3)).toEqual(['log:iteration.failed', 'log:tdd.rate_limited', 'finish']);
    const [failure, limited] = logsOf(r.effects).slice(-2);
    expect(failure).toMatchObject({
      level: 'warn',
      message: 'Claude Code iteration 1 failed: 429 (transient rate_limit)',
      data: { iteration: 1, class: 'transient', reason: 'rate_limit', policy: 'rate_limit' },
    });
    expect(limited?.message).toBe('[iteration 1/10] RED 1 API_RATE_LIMIT: retry 1 after the backoff.');
    expect(r.outcome.waitMs).toBe(60_000);
    expect(lastRecord(r.outcome)).toMatchObject({
      outcome: 'agent_failed',
      durationMs: 3000,
      tdd: { decision: 'backoff', error: 'API_RATE_LIMIT' },
    });
    expect(tddIn(r.outcome).retries).toBe(0);
  });

  it('a network timeout is retried with the same timeout; the 4th in a row aborts with NETWORK_TIMEOUT, its wip: commit noted', () => {
    const timeout = failed({ class: 'transient', reason: 'timeout', message: 'timed out' });
    const once = drive(ctx(), { agent: timeout });
    expect(lastRecord(once.outcome).tdd).toMatchObject({ decision: 'retry', error: 'NETWORK_TIMEOUT' });
    expect(once.outcome.halt).toBeUndefined();

    const c = ctx({ before: before(tddOf(), {}, { timeoutRetries: 3 }) });
    const r = drive(c, { agent: timeout, heads: ['base0', 'wip1'] });
    expect(kinds(r.effects).slice(-6)).toEqual([
      'log:iteration.failed',
      'commit',
      'readHead',
      'writeNote',
      'log:tdd.aborted',
      'finish',
    ]);
    expect(only(r.effects, 'commit').message).toBe(`wip: RED aborted (NETWORK_TIMEOUT): ${ADD}`);
    const note = only(r.effects, 'writeNote');
    expect(note.commit).toBe('wip1');
    expect(note.note).toMatchObject({
      phase: 'RED',
      next_phase: 'RED',
      test_result: 'FAIL',
      error: { type: 'NETWORK_TIMEOUT', retry_count: 4, timestamp: '2026-11-25T10:00:03Z' },
    });
    expect(r.outcome.halt).toEqual({
      reason: 'workflow_aborted',
      message: `TDD WORKFLOW ABORTED (NETWORK_TIMEOUT) at RED for "${ADD}": timed out (4 attempts with the same timeout)`,
    });
    expect(r.outcome.state.tddError).toMatchObject({ type: 'NETWORK_TIMEOUT', retry_count: 4 });
    expect(tddIn(r.outcome).lastCommit).toBe('wip1');
    expect(lastRecord(r.outcome)).toMatchObject({ outcome: 'stuck', durationMs: 5000, tdd: { decision: 'abort' } });
  });

  it('an environment failure is retried once without blame, then halts the run as agent unavailable', () => {
    const auth = failed({ class: 'permanent', reason: 'auth', message: 'bad key' });
    const first = drive(ctx(), { agent: auth });
    expect(logsOf(first.effects).at(-1)?.level).toBe('error');
    expect(lastRecord(first.outcome).tdd).toEqual({ phase: 'RED', test: ADD, decision: 'retry' });
    expect(first.outcome.halt).toBeUndefined();
    const second = drive(ctx({ before: before(tddOf(), { environmentFailures: 1 }) }), { agent: auth });
    expect(second.outcome.halt?.reason).toBe('agent_unavailable');
    expect(lastRecord(second.outcome).tdd?.decision).toBe('halt');
  });

  it('any other agent failure is a failed attempt of the phase (WORKFLOW_ABORTED as context); after 6 the workflow aborts', () => {
    const crash = failed({ class: 'permanent', reason: 'max_turns', message: 'out of turns' });
    const r = drive(ctx(), { agent: crash });
    expect(tddIn(r.outcome)).toMatchObject({ retries: 1, phaseBase: 'head0' });
    expect(tddIn(r.outcome).lastError).toEqual({
      type: 'WORKFLOW_ABORTED',
      message: 'the RED agent failed: out of turns',
      details: 'boom',
    });
    const last = drive(ctx({ git: false, before: before(tddOf({ retries: 5 })) }), { agent: crash });
    expect(kinds(last.effects)).toEqual([
      'log:iteration.start',
      'runAgent',
      'log:iteration.failed',
      'log:tdd.aborted',
      'finish',
    ]);
    expect(last.outcome.halt?.message).toMatch(/^TDD WORKFLOW ABORTED \(WORKFLOW_ABORTED\) at RED/);
    expect(last.outcome.state.tddError?.retry_count).toBe(6);
  });

  it('a successful turn resets the failure counters and runs the tests', () => {
    const c = ctx({ before: before(tddOf(), { environmentFailures: 1 }, { timeoutRetries: 2, rateLimitAttempts: 3 }) });
    const r = drive(c, { interruptAt: 'readWork' });
    const agentStep = r.steps.find((s) => s.effects.some((e) => e.kind === 'runTests')) as TddStep;
    expect(kinds(agentStep.effects)).toEqual(['log:tests.start', 'runTests']);
    expect(logsOf(agentStep.effects)[0]?.message).toBe('[iteration 1/10] RED 1 running the tests: npm test');
    const state = agentStep.model.state as LoopState;
    expect(state).toMatchObject({ successfulIterations: 1, environmentFailures: 0 });
    expect(state.currentCycle).toMatchObject({ timeoutRetries: 0, rateLimitAttempts: 0 });
  });
});

describe("seed 003's decision on the phase, carried out", () => {
  it('RED: a new failing test is committed with its note (the test file among the changed files); GREEN is next', () => {
    const r = drive(ctx(), {
      heads: ['base0', 'c1c1c1c1c1c1c1c1'],
      tests: [failing('calc › adds')],
      files: ['src/calc.ts', 'tests/add.test.ts'],
    });
    expect(kinds(r.effects)).toEqual([
      'readNotes',
      'readHead',
      'log:iteration.start',
      'runAgent',
      'log:tests.start',
      'runTests',
      'readWork',
      'readChangedFiles',
      'commit',
      'readHead',
      'writeNote',
      'log:tdd.committed',
      'finish',
    ]);
    expect(only(r.effects, 'readWork').since).toBe('base0');
    expect(only(r.effects, 'readChangedFiles').since).toBe('base0');
    expect(only(r.effects, 'commit').message).toBe(`test: ${ADD}`);
    expect(only(r.effects, 'writeNote')).toEqual({
      kind: 'writeNote',
      commit: 'c1c1c1c1c1c1c1c1',
      note: {
        phase: 'RED',
        next_phase: 'GREEN',
        cycle: 1,
        current_test: { description: ADD, test_file: 'tests/add.test.ts' },
        test_result: 'FAIL',
      },
    });
    expect(logsOf(r.effects).at(-1)).toMatchObject({
      message: `[iteration 1/10] RED 1 test: ${ADD} (c1c1c1c1c1c1); next: GREEN.`,
      data: { iteration: 1, phase: 'RED', commit: 'c1c1c1c1c1c1c1c1' },
    });
    expect(saved(tddIn(r.outcome))).toEqual(
      saved(
        tddOf({
          phase: 'GREEN',
          targetTests: ['calc › adds'],
          testFile: 'tests/add.test.ts',
          lastCommit: 'c1c1c1c1c1c1c1c1',
        }),
      ),
    );
    // The failing run is RED's aim: not counted as a test failure (it was, and a clean TDD run read "N test failures").
    expect(r.outcome.state).toMatchObject({ testsPassed: false, testFailures: 0, iteration: 1 });
    expect(lastRecord(r.outcome)).toEqual({
      n: 1,
      issueIds: ['bd-1'],
      startedAt: new Date(T0).toISOString(),
      outcome: 'continuing',
      durationMs: 8000,
      agent: { ok: true, exitCode: 0, signal: null, durationMs: 1000 },
      tests: { passed: false, exitCode: 1, durationMs: 2000 },
      tdd: { phase: 'RED', test: ADD, decision: 'commit' },
    });
  });

  it('the test file: a path that looks like a test, else the first changed file, else none', () => {
    const fileOf = (files: string[]) =>
      (only(drive(ctx(), { files }).effects, 'writeNote').note.current_test as { test_file: string }).test_file;
    expect(fileOf(['src/a.ts', 'src/a.spec.ts'])).toBe('src/a.spec.ts');
    expect(fileOf(['pkg/calc_test.go'])).toBe('pkg/calc_test.go');
    expect(fileOf(['src/a.ts', 'b.ts'])).toBe('src/a.ts');
    expect(fileOf([])).toBe('');
  });

  it('RED without git: nothing is committed, noted or read; no test file', () => {
    const r = drive(ctx({ git: false }));
    expect(kinds(r.effects)).toEqual([
      'log:iteration.start',
      'runAgent',
      'log:tests.start',
      'runTests',
      'log:tdd.committed',
      'finish',
    ]);
    expect(logsOf(r.effects).at(-1)?.message).toBe(`[iteration 1/10] RED 1 test: ${ADD}; next: GREEN.`);
    expect(tddIn(r.outcome)).toMatchObject({ phase: 'GREEN', testFile: '', targetTests: ['calc › adds'] });
    expect(tddIn(r.outcome).lastCommit).toBeUndefined();
  });

  it('GREEN passing: "feat:" committed with a PASS note, REFACTOR next; the test file and targets stay', () => {
    const c = ctx({
      before: before(tddOf({ phase: 'GREEN', retries: 1, phaseBase: 'p0', testFile: 't.test.ts', targetTests: ['a'] })),
    });
    const r = drive(c, { tests: [passing], heads: ['g1'] });
    expect(kinds(r.effects)).not.toContain('readChangedFiles');
    expect(only(r.effects, 'commit').message).toBe(`feat: ${ADD}`);
    expect(only(r.effects, 'writeNote').note).toMatchObject({
      phase: 'GREEN',
      next_phase: 'REFACTOR',
      test_result: 'PASS',
    });
    expect(tddIn(r.outcome)).toMatchObject({
      phase: 'REFACTOR',
      retries: 0,
      testFile: 't.test.ts',
      targetTests: ['a'],
      lastCommit: 'g1',
    });
    expect(tddIn(r.outcome).phaseBase).toBeUndefined();
    expect(r.outcome.state).toMatchObject({ testsPassed: true, testFailures: 0 });
  });

  it("issue 40: a bug's GREEN commits a fix; a test that is the issue's title is quoted as the issue's, in every phase", () => {
    const bug = { id: 'bd-7', title: "pluralize('box') returns 'boxs'", body: 'It should be boxes.', labels: ['bug'] };
    const green = ctx({
      issue: bug,
      before: before(
        tddOf({
          tests: [{ description: bug.title, status: 'pending' }],
          phase: 'GREEN',
          phaseBase: 'p0',
          targetTests: ['a'],
        }),
        {},
        { issueIds: ['bd-7'] },
      ),
    });
    expect(only(drive(green, { tests: [passing], heads: ['g1'] }).effects, 'commit').message).toBe(
      `fix: bd-7 "pluralize('box') returns 'boxs'"`,
    );
    const red = ctx({
      issue: bug,
      before: before(tddOf({ tests: [{ description: bug.title, status: 'pending' }] }), {}, { issueIds: ['bd-7'] }),
    });
    expect(only(drive(red).effects, 'commit').message).toBe(`test: bd-7 "pluralize('box') returns 'boxs'"`);
    // A checklist item is the test's own words: named as it is, a fix for a bug.
    const item = ctx({
      issue: { ...bug, type: 'bug', labels: [] },
      before: before(tddOf({ phase: 'GREEN', phaseBase: 'p0', targetTests: ['a'] })),
    });
    expect(only(drive(item, { tests: [passing], heads: ['g1'] }).effects, 'commit').message).toBe(`fix: ${ADD}`);
  });

  it('REFACTOR passing with more tests to go: committed, then RED of the next test in the next round', () => {
    const c = ctx({ before: before(tddOf({ phase: 'REFACTOR', phaseBase: 'p0', testFile: 't', targetTests: ['a'] })) });
    const r = drive(c, { tests: [passing], work: [false], heads: ['r1'] });
    expect(only(r.effects, 'commit').message).toBe('refactor: no changes');
    expect(only(r.effects, 'writeNote').note).toMatchObject({ phase: 'REFACTOR', next_phase: 'RED' });
    expect(logsOf(r.effects).at(-1)?.message).toBe(
      '[iteration 1/10] REFACTOR 1 refactor: no changes (r1); next: the next test.',
    );
    expect(saved(tddIn(r.outcome))).toEqual(
      saved(
        tddOf({
          tests: [
            { description: ADD, status: 'done' },
            { description: SUB, status: 'pending' },
          ],
          index: 1,
          round: 2,
          lastCommit: 'r1',
        }),
      ),
    );
    expect(r.outcome.cycleDone).toBeUndefined();
    expect(lastRecord(r.outcome)).toMatchObject({
      outcome: 'continuing',
      tdd: { phase: 'REFACTOR', decision: 'commit' },
    });
    // The test is done: its box in the issue's checklist is to be ticked now (issue 15).
    expect(r.outcome.issueActions).toEqual([{ kind: 'tick', id: 'bd-1', item: ADD }]);
  });

  it('ticks nothing for a test that was skipped, nor where the test list is --plan, not the issue (issue 15)', () => {
    const refactor = tddOf({ phase: 'REFACTOR', phaseBase: 'p0', testFile: 't', targetTests: ['a'] });
    const fromPlan = drive(ctx({ before: before(refactor) }, { plan: `- [ ] ${ADD}\n- [ ] ${SUB}` }), {
      tests: [passing],
      work: [false],
      heads: ['r1'],
    });
    expect(fromPlan.outcome.issueActions).toBeUndefined();
    const red = ctx({ before: before(tddOf({ phase: 'RED', phaseBase: 'p0' })) });
    const duplicate = drive(red, { agent: duplicateReport, tests: [passing], work: [false] });
    expect(duplicate.outcome.issueActions ?? []).toEqual([]);
  });

  it('REFACTOR of the last test: the cycle is complete and the issue closes', () => {
    const tests: TddCycle['tests'] = [
      { description: ADD, status: 'done' },
      { description: SUB, status: 'pending' },
    ];
    const c = ctx({ before: before(tddOf({ tests, index: 1, phase: 'REFACTOR', phaseBase: 'p0' }), { iteration: 6 }) });
    const r = drive(c, { tests: [passing], heads: ['r2'] });
    expect(kinds(r.effects).slice(-3)).toEqual(['log:tdd.committed', 'log:cycle.complete', 'finish']);
    expect(r.outcome).toMatchObject({
      cycleDone: true,
      // The last test's box is ticked with the work, before the issue closes (issue 15).
      issueActions: [
        { kind: 'tick', id: 'bd-1', item: SUB },
        { kind: 'close', id: 'bd-1', note: expect.stringContaining('finished at iteration 7: 2 of 2') },
      ],
    });
    expect(r.outcome.state).toMatchObject({
      issuesClosed: ['bd-1'],
      completedIterations: [7],
      consecutiveEscalations: 0,
    });
    expect(lastRecord(r.outcome)).toMatchObject({
      outcome: 'complete',
      tdd: { phase: 'REFACTOR', test: SUB, decision: 'commit' },
    });
    expect(tddIn(r.outcome)).toMatchObject({ index: 1, phase: 'RED', round: 2, lastCommit: 'r2' });
  });

  it('a retry: the failures go back to the agent, the attempt is counted, nothing is committed or reset', () => {
    const c = ctx({
      before: before(tddOf({ phase: 'GREEN', retries: 1, phaseBase: 'p0', targetTests: ['calc › adds'] })),
    });
    const r = drive(c, { tests: [failing('calc › adds')] });
    expect(kinds(r.effects).slice(-3)).toEqual(['readWork', 'log:tdd.retry', 'finish']);
    expect(logsOf(r.effects).at(-1)).toMatchObject({
      level: 'warn',
      data: { iteration: 1, type: 'TEST_UNEXPECTED_FAIL' },
    });
    expect(tddIn(r.outcome)).toMatchObject({
      retries: 2,
      phaseBase: 'p0',
      lastError: { type: 'TEST_UNEXPECTED_FAIL' },
    });
    expect(lastRecord(r.outcome)).toMatchObject({
      outcome: 'tests_failed',
      tdd: { decision: 'retry', error: 'TEST_UNEXPECTED_FAIL' },
    });
    // GREEN's run should pass: its failure is a test failure.
    expect(r.outcome.state).toMatchObject({ testsPassed: false, testFailures: 1 });
  });

  it("GREEN's 6th failed attempt aborts with IMPLEMENTATION_FAILED: the attempt kept as a noted wip: commit", () => {
    const c = ctx({ before: before(tddOf({ phase: 'GREEN', retries: 5, phaseBase: 'p0', round: 3 })) });
    const r = drive(c, { tests: [failing('calc › adds')], heads: ['w1'] });
    expect(kinds(r.effects).slice(-6)).toEqual([
      'readWork',
      'commit',
      'readHead',
      'writeNote',
      'log:tdd.aborted',
      'finish',
    ]);
    expect(only(r.effects, 'commit').message).toBe(`wip: GREEN aborted (IMPLEMENTATION_FAILED): ${ADD}`);
    expect(only(r.effects, 'writeNote').note).toMatchObject({
      phase: 'GREEN',
      next_phase: 'GREEN',
      cycle: 3,
      error: { type: 'IMPLEMENTATION_FAILED', retry_count: 6, timestamp: '2026-11-25T10:00:03Z' },
    });
    expect(r.outcome.halt?.reason).toBe('workflow_aborted');
    expect(tddIn(r.outcome).lastCommit).toBe('w1');
  });

  it('RED whose test passes at once: reset to the phase base, the test marked problematic, the next test next', () => {
    const r = drive(ctx(), { tests: [passing], heads: ['base0'] });
    expect(kinds(r.effects).slice(-5)).toEqual(['runTests', 'readWork', 'reset', 'log:tdd.skipped', 'finish']);
    expect(only(r.effects, 'reset').to).toBe('base0');
    expect(logsOf(r.effects).at(-1)?.message).toBe(
      `[iteration 1/10] RED 1 TEST_UNEXPECTED_PASS: The new test for "${ADD}" passes before any implementation: it does not test new behaviour; "${ADD}" is marked problematic and skipped.`,
    );
    expect(tddIn(r.outcome)).toMatchObject({ index: 1, phase: 'RED', round: 2 });
    expect(tddIn(r.outcome).tests[0]?.status).toBe('problematic');
    expect(lastRecord(r.outcome).tdd).toEqual({
      phase: 'RED',
      test: ADD,
      decision: 'skip',
      error: 'TEST_UNEXPECTED_PASS',
    });
  });

  it('RED that changed nothing, or whose agent reports a duplicate: the test is marked duplicate; without git nothing is reset', () => {
    const unchanged = drive(ctx(), { work: [false] });
    expect(tddIn(unchanged.outcome).tests[0]?.status).toBe('duplicate');
    const reported = drive(ctx({ git: false }), { agent: duplicateReport });
    expect(kinds(reported.effects)).not.toContain('reset');
    expect(tddIn(reported.outcome).tests[0]?.status).toBe('duplicate');
  });

  it("REFACTOR's 6th breaking attempt: reset to the phase base, the rollback committed and noted, the test done", () => {
    const c = ctx({ before: before(tddOf({ phase: 'REFACTOR', retries: 5, phaseBase: 'feat0feat0feat0' })) });
    const r = drive(c, { tests: [failing('calc › adds')], heads: ['rb1'] });
    expect(kinds(r.effects).slice(-7)).toEqual([
      'readWork',
      'reset',
      'commit',
      'readHead',
      'writeNote',
      'log:tdd.rolled_back',
      'finish',
    ]);
    expect(only(r.effects, 'reset').to).toBe('feat0feat0feat0');
    expect(only(r.effects, 'commit').message).toBe(ROLLBACK_MESSAGE);
    expect(only(r.effects, 'writeNote')).toMatchObject({
      commit: 'rb1',
      note: {
        phase: 'REFACTOR',
        next_phase: 'RED',
        test_result: 'PASS',
        error: { type: 'REGRESSION', retry_count: 6 },
      },
    });
    expect(logsOf(r.effects).at(-1)?.message).toBe(
      `[iteration 1/10] REFACTOR 1 The refactoring still breaks tests after 6 attempts; rolled back: the refactoring is rolled back to feat0feat0fe; committed "${ROLLBACK_MESSAGE}".`,
    );
    expect(tddIn(r.outcome)).toMatchObject({ index: 1, phase: 'RED', round: 2, lastCommit: 'rb1' });
    expect(tddIn(r.outcome).tests[0]?.status).toBe('done');
    expect(lastRecord(r.outcome).tdd).toMatchObject({ decision: 'rollback', error: 'REGRESSION' });
  });

  /** A jest run read per test: `failed` fail, calc › adds passes. */
  const jestRun = (failed: string[]): SuiteRun => ({
    reader: 'jest',
    exitCode: 1,
    tests: Object.fromEntries([...failed.map((id) => [id, 'failed']), ['calc › adds', 'passed']]),
    groups: {},
    messages: {},
  });

  it('GREEN judged against the baseline: a test that already failed before the cycle does not block the commit', () => {
    const run = jestRun;
    const c = ctx({ before: before(tddOf({ phase: 'GREEN', phaseBase: 'p0' })), baseline: run(['old › broken']) });
    const r = drive(c, { tests: [{ seen: failing('old › broken'), run: run(['old › broken']) }] });
    expect(only(r.effects, 'commit').message).toBe(`feat: ${ADD}`);
    const plain = drive(ctx({ before: c.before }), { tests: [failing('old › broken')] });
    expect(kinds(plain.effects)).not.toContain('commit');
  });

  it('issue 40: a test that failed before the cycle is no test failure of GREEN or REFACTOR, and leaves the tests passed (reported beside)', () => {
    const run = jestRun;
    const baseline = run(['old › broken']);
    const green = drive(ctx({ before: before(tddOf({ phase: 'GREEN', phaseBase: 'p0' })), baseline }), {
      tests: [{ seen: failing('old › broken'), run: run(['old › broken']) }],
    });
    // The test command exited 1 (old › broken): the phase's own tests pass, and that is what is counted.
    expect(green.outcome.state).toMatchObject({
      testsPassed: true,
      testFailures: 0,
      preexistingFailures: ['old › broken'],
    });
    const refactor = drive(
      ctx({ before: before(tddOf({ phase: 'REFACTOR', phaseBase: 'p0', targetTests: ['calc › adds'] })), baseline }),
      { tests: [{ seen: failing('old › broken'), run: run(['old › broken']) }], heads: ['r1'] },
    );
    expect(only(refactor.effects, 'commit').message).toBe(`refactor: ${ADD}`);
    expect(refactor.outcome.state).toMatchObject({ testsPassed: true, testFailures: 0 });
    // A new failure still counts, the old one beside it does not make it two.
    const broke = drive(ctx({ before: before(tddOf({ phase: 'GREEN', phaseBase: 'p0' })), baseline }), {
      tests: [{ seen: failing('old › broken', 'calc › other'), run: run(['old › broken', 'calc › other']) }],
    });
    expect(broke.outcome.state).toMatchObject({ testsPassed: false, testFailures: 1 });
  });
});

describe('the protocol', () => {
  const agents: (AgentResult | undefined)[] = [
    undefined,
    duplicateReport,
    failed({ class: 'transient', reason: 'rate_limit', message: 'm', retryAfterMs: 1000 }),
    failed({ class: 'transient', reason: 'timeout', message: 'm' }),
    failed({ class: 'permanent', reason: 'auth', message: 'm' }),
    failed({ class: 'permanent', reason: 'max_turns', message: 'm' }),
  ];
  const results: TestsSeen[] = [passing, failing('calc › adds'), failing('other'), notCompiling];
  const cycles: TddCycle[] = [
    tddOf(),
    tddOf({ phase: 'GREEN', lastCommit: 'head0', targetTests: ['calc › adds'] }),
    tddOf({ phase: 'GREEN', retries: 5, phaseBase: 'p', targetTests: ['calc › adds'] }),
    tddOf({ phase: 'REFACTOR', lastCommit: 'x', bounces: 2 }),
    tddOf({ phase: 'REFACTOR', retries: 5, phaseBase: 'p', index: 1 }),
    tddOf({ tests: [{ description: ADD, status: 'done' }] }),
  ];
  const contexts: TddContext[] = cycles.flatMap((t) => [
    ctx({ before: before(t) }),
    ctx({ git: false, before: before(t) }),
    ctx({ before: before(t, { environmentFailures: 1 }, { timeoutRetries: 3 }) }, { onSuccess: 'pull-request' }),
  ]);
  const worlds: World[] = [];
  for (const agent of agents)
    for (const tests of results)
      for (const work of [true, false])
        worlds.push({ ...(agent ? { agent } : {}), tests: [tests], work: [work], heads: ['head0', 'head1', 'head2'] });
  worlds.push(
    { interruptAt: 'runTests' },
    { interruptAt: 'runAgent' },
    { moved: { reason: 'repository_moved', message: 'm' } },
  );

  it('every step ends in exactly one request or one finish, last; git is asked only with git; a finished iteration records at most one history entry', () => {
    let finished = 0;
    for (const c of contexts)
      for (const world of worlds) {
        const r = drive(c, world);
        for (const step of r.steps) {
          const asks = step.effects.filter(isAsk);
          expect(asks).toHaveLength(1);
          expect(step.effects.at(-1)).toBe(asks[0]);
          // A commit is followed by reading HEAD in the same step: the note goes on that commit.
          const commit = step.effects.findIndex((e) => e.kind === 'commit');
          if (commit !== -1) expect(step.effects[commit + 1]?.kind).toBe('readHead');
        }
        const git = r.effects.filter((e) => !['log', 'runTests', 'runAgent', 'finish'].includes(e.kind));
        if (!c.git) expect(git).toEqual([]);
        // Each note is written on the HEAD just read after a commit.
        const notes = r.effects.filter((e) => e.kind === 'writeNote');
        expect(notes.length).toBe(r.effects.filter((e) => e.kind === 'commit').length);
        const o = r.outcome;
        const ran = r.effects.some((e) => e.kind === 'runAgent') && !o.interrupted;
        expect(o.state.history).toHaveLength(ran ? c.before.history.length + 1 : 0);
        expect(o.state.iteration).toBe(c.before.iteration + (ran ? 1 : 0));
        expect(o.halt === undefined || o.escalate === undefined).toBe(true);
        expect(o.cycleDone === undefined || (o.halt === undefined && o.escalate === undefined)).toBe(true);
        if (o.interrupted) expect(o.state).toEqual(r.model.before);
        if (o.halt?.reason === 'workflow_aborted') expect(o.state.tddError).toBeDefined();
        // Nothing more is taken once finished.
        expect(() => stepTdd(c, r.model, { type: 'interrupted' })).toThrow(/at 'done'/);
        finished += 1;
      }
    expect(finished).toBe(contexts.length * worlds.length);
  });

  it('an event the iteration does not wait for is refused', () => {
    const c = ctx();
    const s = stepTdd(c, initialTddModel(c), { type: 'started' });
    expect(() => stepTdd(c, s.model, { type: 'headRead', head: 'h' })).toThrow(
      "a tdd iteration waiting at 'notes' cannot take 'headRead'",
    );
    expect(() => stepTdd(c, s.model, { type: 'started' })).toThrow(/cannot take 'started'/);
  });
});
