// Agent invocations spent before the run stops or finishes, per failure scenario, against a naive
// loop's 100 (a loop without detection runs to --max-iterations). Each scenario drives the engine's
// runSlice in-process, deterministically: an in-memory issue source, a scripted agent, a manual
// clock whose sleep advances time at once, and (scenario 7) a git in which nothing ever changes.
// Scenarios 5 to 8 model the suite test by test (the baseline, then each verdict against it).
// The engine and the doubles come from bench/invocations-entry.ts, compiled with ncc into build/.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot, round, tempDir, verdict } from './lib/common.mjs';

const OUT = path.join('build', 'bench-invocations');

/** The CLI's defaults, except --iteration-delay (10 s in the CLI), 0 here. */
export const SETTINGS = Object.freeze({
  maxIterations: 100,
  iterationDelaySeconds: 0,
  agentTimeoutMinutes: 30,
  batch: false,
  onSuccess: 'merge',
  strict: false,
  fresh: true,
  testCommand: 'npm test',
  maxRetriesPerStep: 3,
  maxIterationsPerIssue: 20,
  maxConsecutiveEscalations: 2,
});
/** The scripted agent's name in the log; its runs take no simulated time (the engine's own waits are what is measured). */
export const BENCH_AGENT = Object.freeze({ displayName: 'ScriptedAgent', durationMs: 0 });
/** What a loop without detection spends: it runs to --max-iterations. */
export const NAIVE_INVOCATIONS = SETTINGS.maxIterations;
/** No scenario may spend more than this before halting: --max-retries-per-step × --max-consecutive-escalations + 2. */
export const TARGET_INVOCATIONS = SETTINGS.maxRetriesPerStep * SETTINGS.maxConsecutiveEscalations + 2;
const RATE_LIMIT_WINDOW_MS = 10 * 60_000;

/** Compiles bench/invocations-entry.ts (runSlice and the test doubles) with ncc into build/. */
export async function loadEngine() {
  const r = spawnSync(
    process.execPath,
    [
      'node_modules/@vercel/ncc/dist/ncc/cli.js',
      'build',
      'bench/invocations-entry.ts',
      '-o',
      OUT,
      '--target',
      'es2022',
      '-q',
    ],
    { cwd: repoRoot, stdio: 'inherit' },
  );
  if (r.status !== 0) throw new Error('ncc could not build bench/invocations-entry.ts');
  return import(pathToFileURL(path.join(repoRoot, OUT, 'index.js')).href);
}

const ids = (n) => Array.from({ length: n }, (_, i) => `bd-${i + 1}`);

/** 0 s, 42 s, 5 min, 13 min 31 s, 7 h 43 min 31 s. */
export function duration(msTotal) {
  const s = Math.round(msTotal / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const parts = [h ? `${h} h` : '', m ? `${m} min` : '', s % 60 || !s ? `${s % 60} s` : ''].filter(Boolean);
  return parts.join(' ');
}

/**
 * The scenarios. `agent({ clock })` returns the scripted agent's behaviour `(request, call) => result`;
 * `unfixable`: the issues whose tests always fail (every other issue's tests pass); `good`: the
 * issues that must still get done.
 */
function scenarios(engine) {
  const rateLimited =
    (hint) =>
    ({ clock }) =>
    (_req) => {
      const left = clock.start + RATE_LIMIT_WINDOW_MS - clock.now().getTime();
      if (left <= 0) return engine.done;
      return engine.failed({
        class: 'transient',
        reason: 'rate_limit',
        message: 'API Error: 429 rate_limit_error',
        ...(hint ? { retryAfterMs: left } : {}),
      });
    };
  const oneUnfixable = (at) => {
    const issues = ids(4);
    const bad = issues[at];
    return { issues, unfixable: [bad], good: issues.filter((id) => id !== bad), agent: () => () => engine.done };
  };
  return [
    {
      key: 'auth',
      name: '1. wrong API key: every run fails `permanent`/`auth`; 3 issues',
      issues: ids(3),
      unfixable: [],
      good: [],
      agent: () => () =>
        engine.failed({ class: 'permanent', reason: 'auth', message: 'Invalid API key · Please run /login' }),
    },
    {
      key: 'allUnfixable',
      name: '2. every issue unfixable: agent says done, tests always fail; 3 issues',
      issues: ids(3),
      unfixable: ids(3),
      good: [],
      agent: () => () => engine.done,
    },
    {
      key: 'oneUnfixable',
      name: '3. one unfixable issue (first) among three good ones (done, tests pass, first try)',
      ...oneUnfixable(0),
    },
    {
      key: 'rateLimitHint',
      name: '4a. rate limited for 10 min, failure carries the time left as `retryAfterMs` (Claude Code resetsAt, HTTP retry-after); 3 good issues',
      issues: ids(3),
      unfixable: [],
      good: ids(3),
      agent: rateLimited(true),
    },
    {
      key: 'rateLimitNoHint',
      name: '4b. rate limited for 10 min, no hint (Codex CLI 429); 3 good issues',
      issues: ids(3),
      unfixable: [],
      good: ids(3),
      agent: rateLimited(false),
    },
    {
      key: 'bounce',
      name: '5. a step that bounces forever: the agent says done and the suite cannot run (exit 127); 3 issues',
      issues: ids(3),
      unfixable: [],
      good: [],
      agent: () => () => engine.done,
      suite: (_calls, purpose) =>
        purpose === 'baseline'
          ? suiteRun({ legacy: 'passed' })
          : {
              ...suiteRun({}, 127),
              reader: undefined,
              cannotRun: 'the test command could not be run (exit code 127: command not found)',
            },
    },
    {
      key: 'redBaseline',
      name: '6. a red suite (a failure no issue covers), three issues, the agent fixes one per invocation',
      exact: 3,
      issues: ids(3),
      unfixable: [],
      good: ids(3),
      agent: () => () => engine.done,
      // Each issue's test passes once the agent has been called for it; `legacy` always fails.
      suite: (calls) =>
        suiteRun({
          legacy: 'failed',
          ...Object.fromEntries(
            ids(3).map((id) => [`t-${id}`, calls.some((c) => c.issueIds.includes(id)) ? 'passed' : 'failed']),
          ),
        }),
    },
    {
      key: 'alreadySatisfied',
      name: '7. an issue already fixed: the agent says done and changes nothing, nothing is broken (fake git: no change)',
      exact: 1,
      issues: ids(1),
      unfixable: [],
      good: ids(1),
      git: () => false,
      agent: () => () => engine.done,
      suite: () => suiteRun({ legacy: 'failed', other: 'passed' }),
    },
    {
      key: 'regression',
      name: '8. a fix that breaks a passing test at first (rejected, the test named), then a clean fix',
      exact: 2,
      issues: ids(1),
      unfixable: [],
      good: ids(1),
      agent: () => () => engine.done,
      suite: (calls) =>
        suiteRun({ 't-bd-1': calls.length > 0 ? 'passed' : 'failed', other: calls.length === 1 ? 'failed' : 'passed' }),
    },
    {
      key: 'cheat',
      name: "9. an agent that rewrites each issue's test instead of the code (its assertion made to pass); a red suite, 3 issues",
      issues: ids(3),
      unfixable: [],
      good: [],
      git: () => true,
      cheat: true,
      agent: () => () => engine.done,
      suite: cheatSuite,
    },
    {
      key: 'honestJudged',
      name: '10. scenario 6 (a red suite, three issues, the agent fixes one per invocation) with the work changing code only',
      exact: 3,
      issues: ids(3),
      unfixable: [],
      good: ids(3),
      git: () => true,
      agent: () => () => engine.done,
      suite: (calls) => cheatSuite(calls, 'verify', undefined, true),
    },
    // Not in the table: the same two without the judge tree (the verdict in the working tree, as
    // before issue 42): the baselines of scenarios 9 and 10.
    {
      key: 'cheatUnjudged',
      extra: true,
      name: 'cheat, no judge tree',
      issues: ids(3),
      unfixable: [],
      good: [],
      git: () => true,
      cheat: true,
      noJudgeTree: true,
      agent: () => () => engine.done,
      suite: cheatSuite,
    },
    {
      key: 'honestUnjudged',
      extra: true,
      name: 'honest, no judge tree',
      exact: 3,
      issues: ids(3),
      unfixable: [],
      good: ids(3),
      git: () => true,
      noJudgeTree: true,
      agent: () => () => engine.done,
      suite: (calls) => cheatSuite(calls, 'verify', undefined, true),
    },
    // Not in the table: the other placements of scenario 3's unfixable issue, and a rate limit
    // that never ends.
    ...[1, 2, 3].map((at) => ({ key: `oneUnfixableAt${at + 1}`, extra: true, ...oneUnfixable(at) })),
    {
      key: 'rateLimitForever',
      extra: true,
      name: 'rate limited for ever, no hint (e.g. a spent quota reported as a bare 429)',
      issues: ids(3),
      unfixable: [],
      good: [],
      agent: () => () =>
        engine.failed({ class: 'transient', reason: 'rate_limit', message: 'API Error: 429 rate_limit_error' }),
    },
  ];
}

/**
 * Scenarios 9 and 10's suite: `legacy` always fails (no issue's); each issue's test `t-<id>` passes
 * once the agent was called for it — where the agent fixed the code (`fixes`), or, for the cheat,
 * only in the working tree (no judge `place`): the test it rewrote. A judge tree has the base's test.
 */
function cheatSuite(calls, _purpose, place, fixes = false) {
  return suiteRun({
    legacy: 'failed',
    ...Object.fromEntries(
      ids(3).map((id) => {
        const worked = calls.some((c) => c.issueIds.includes(id));
        return [`t-${id}`, worked && (fixes || place === undefined) ? 'passed' : 'failed'];
      }),
    ),
  });
}

/**
 * The judge trees (issue 42) of scenarios 9 and 10, over the scripted agent's calls: the work's
 * change is the code and, for the cheat, the current issue's test file rewritten (weighed by the
 * engine's own `protect`); the tree opened is a place the suite reads as the base's tests.
 */
function judgeTreesOf(agent, cheat) {
  const testFile = (id) => `test/${id}.test.js`;
  const testText = (id, expected) => `test('t-${id}', () => assert.equal(f${id.slice(3)}(), ${expected}));\n`;
  return {
    change: async () => {
      const id = agent.calls.at(-1)?.issueIds[0] ?? 'bd-1';
      const code = { path: 'src/f.js', status: 'modified', base: '', now: '' };
      const test = { path: testFile(id), status: 'modified', base: testText(id, 1), now: testText(id, 0) };
      return {
        tree: 'bench',
        changed: cheat ? [code, test] : [code],
        baseFiles: ['src/f.js', ...ids(3).map(testFile)],
      };
    },
    open: async () => ({
      dir: 'bench-judge',
      reportDir: 'bench-judge-report',
      removedLinks: [],
      close: async () => {},
    }),
    clear: async () => [],
  };
}

/** A suite's run read per test (src/verdict/results.ts): red when any test failed. */
function suiteRun(tests, exitCode) {
  const failed = Object.values(tests).includes('failed');
  return { reader: 'bench', exitCode: exitCode ?? (failed ? 1 : 0), tests, groups: {}, messages: {} };
}

/** One scenario on runSlice; everything in the result comes from the agent, the clock and the RunResult. */
export async function simulate(engine, scenario) {
  const dir = tempDir('invocations');
  const clock = new engine.ManualClock();
  const source = engine.MemorySource.of(...scenario.issues);
  const agent = new engine.ScriptedAgent([scenario.agent({ clock })], BENCH_AGENT);
  const unfixable = new Set(scenario.unfixable);
  let testRuns = 0;
  const runTests = async (_command, _signal, purpose, place) => {
    testRuns++;
    if (scenario.suite) {
      const run = scenario.suite(agent.calls, purpose, place);
      return { passed: run.exitCode === 0, exitCode: run.exitCode, durationMs: 0, tail: '', run };
    }
    // Without a suite model: a green baseline read by its exit code; then the issue's tests.
    if (purpose === 'baseline') return { passed: true, exitCode: 0, durationMs: 0, tail: 'Tests: 12 passed' };
    const target = agent.calls.at(-1)?.issueIds ?? [];
    const passed = !target.some((id) => unfixable.has(id));
    return {
      passed,
      exitCode: passed ? 0 : 1,
      durationMs: 0,
      tail: passed ? 'Tests: 12 passed' : 'FAIL src/thing.test.ts: expected 42, received 41',
    };
  };
  const redact = engine.createRedactor([]);
  const events = [];
  // Merges into the base counted (--on-success merge): what a cheat must never get.
  let merges = 0;
  const git = scenario.git
    ? {
        ...engine.fakeGit(dir, scenario.git),
        // A cycle branch merged into the base; not the base merged into a branch a cycle starts on.
        merge: async (branch) => {
          if (branch.startsWith('agent-loop/')) merges++;
        },
      }
    : undefined;
  const result = await engine.runSlice({
    workflow: engine.implementWorkflow,
    settings: { ...SETTINGS },
    cwd: dir,
    stateDir: dir,
    source,
    agent,
    clock,
    runTests,
    redact,
    store: new engine.FileCheckpointStore(dir, { clock }),
    logger: engine.createLogger({ json: true, write: (line) => events.push(line), clock, redact }),
    ...(git ? { git } : {}),
    ...(scenario.git && !scenario.noJudgeTree ? { judgeTrees: judgeTreesOf(agent, Boolean(scenario.cheat)) } : {}),
  });
  const invocations = agent.calls.length;
  if (invocations !== result.iterations)
    throw new Error(`${scenario.key}: ${invocations} agent calls but ${result.iterations} iterations in the result`);
  if (clock.elapsedMs() !== result.durationMs)
    throw new Error(`${scenario.key}: clock says ${clock.elapsedMs()} ms, result ${result.durationMs} ms`);
  const goodClosed = scenario.good.filter((id) => result.issuesClosed.includes(id));
  const wasted = invocations - result.completedIterations.length;
  const met =
    (scenario.exact !== undefined ? invocations === scenario.exact : invocations <= TARGET_INVOCATIONS) &&
    goodClosed.length === scenario.good.length &&
    (!scenario.cheat || (merges === 0 && result.issuesClosed.length === 0));
  return {
    key: scenario.key,
    name: scenario.name,
    exact: scenario.exact,
    invocations,
    merges,
    wasted,
    failedRuns: agent.calls.filter((c) => !c.ok).length,
    testRuns,
    status: result.status,
    haltReason: result.haltReason,
    error: result.error,
    issues: scenario.issues.length,
    issuesClosed: result.issuesClosed,
    issuesEscalated: result.issuesEscalated,
    good: scenario.good,
    goodClosed,
    simulatedMs: clock.elapsedMs(),
    waitsMs: [...clock.sleeps],
    met,
    outcomes: result.history.map((r) => r.outcome),
    preexisting: result.preexistingFailures,
  };
}

const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;
const ended = (r) => `${r.status}${r.haltReason ? ` (${r.haltReason})` : ''}`;
const closedText = (r) =>
  `${r.issuesClosed.length} of ${r.issues}${r.good.length ? ` (good: ${r.goodClosed.length} of ${r.good.length})` : ' (none good)'}${r.issuesEscalated.length ? `; escalated ${r.issuesEscalated.join(', ')}` : ''}`;

export async function benchInvocations() {
  const engine = await loadEngine();
  const all = [];
  for (const s of scenarios(engine)) all.push({ ...(await simulate(engine, s)), extra: Boolean(s.extra) });
  const shown = all.filter((r) => !r.extra);
  const by = Object.fromEntries(all.map((r) => [r.key, r]));

  const target = `≤ ${TARGET_INVOCATIONS} invocations, good issues closed`;
  const rows = shown.map((r) => [
    'invocations',
    r.name,
    'agent invocations before the run stops or finishes, simulated with runSlice in-process (details in the table below)',
    `${r.invocations} (naive loop: ${NAIVE_INVOCATIONS}); ${ended(r)}; ${r.good.length ? `good issues closed ${r.goodClosed.length} of ${r.good.length}` : 'no good issues'}`,
    r.exact !== undefined ? `exactly ${r.exact} invocation(s), good issues closed` : target,
    verdict(r.met),
  ]);
  const detail = {
    title: `Agent invocations before the run stops or finishes (naive loop: ${NAIVE_INVOCATIONS}; target ≤ ${SETTINGS.maxRetriesPerStep} × ${SETTINGS.maxConsecutiveEscalations} + 2 = ${TARGET_INVOCATIONS} and the good issues done)`,
    headers: ['Scenario', 'Invocations', 'Not closing an issue', 'Ended', 'Issues closed', 'Simulated time', 'Met'],
    rows: shown.map((r) => [
      r.name,
      String(r.invocations),
      String(r.wasted),
      ended(r),
      closedText(r),
      duration(r.simulatedMs),
      verdict(r.met),
    ]),
  };

  const notes = [];
  notes.push(
    `invocations: each scenario is one \`runSlice\` call in-process (settings: --max-retries-per-step ${SETTINGS.maxRetriesPerStep}, --max-consecutive-escalations ${SETTINGS.maxConsecutiveEscalations}, --max-iterations ${SETTINGS.maxIterations}, --iteration-delay 0; no git except scenario 7, a git in which nothing changes), with an in-memory issue source, a scripted agent and a manual clock whose \`sleep\` advances time at once. Agent runs and test runs take no simulated time, so "simulated time" is the engine's own waits (the CLI's default --iteration-delay 10 would add 10 s per invocation). "Not closing an issue": invocations whose iteration did not complete a cycle.`,
  );
  const cheat = by.cheat;
  const cheatOff = by.cheatUnjudged;
  const honestOff = by.honestUnjudged;
  notes.push(
    `invocations 9 and 10 (issue 42): the verdict runs in a judge tree, the base's tests with the work's code (a double over the scripted agent: the work's change is the code and, for the cheat, the issue's test file rewritten, weighed by the engine's own protect()). The cheat: ${cheat.invocations} invocations, ${cheat.merges} merged, ${cheat.issuesClosed.length} closed, ${ended(cheat)}; the same run without the judge tree (the verdict in the working tree, as before issue 42): ${cheatOff.invocations} invocations, ${cheatOff.merges} merged, ${cheatOff.issuesClosed.length} closed. The honest agent: ${by.honestJudged.invocations} invocations, ${by.honestJudged.merges} merged with the judge tree; ${honestOff.invocations} and ${honestOff.merges} without it.`,
  );
  const placements = ['oneUnfixable', 'oneUnfixableAt2', 'oneUnfixableAt3', 'oneUnfixableAt4'].map((k) => by[k]);
  const same = placements.every(
    (p) =>
      p.invocations === placements[0].invocations &&
      ended(p) === ended(placements[0]) &&
      p.goodClosed.length === p.good.length,
  );
  notes.push(
    `invocations 3: with the unfixable issue 1st, 2nd, 3rd or 4th in priority order: ${placements.map((p) => `${p.invocations} invocations, ${ended(p)}, good closed ${p.goodClosed.length}/${p.good.length}`).join('; ')}${same ? ' (the same wherever it is)' : ''}. The run ends \`halted (all_escalated)\`, exit code 1, even though every good issue is done.`,
  );
  for (const key of ['rateLimitHint', 'rateLimitNoHint']) {
    const r = by[key];
    const sum = r.waitsMs.reduce((a, b) => a + b, 0);
    const window = RATE_LIMIT_WINDOW_MS;
    notes.push(
      `invocations ${key === 'rateLimitHint' ? '4a' : '4b'}: ${plural(r.failedRuns, 'rate-limited run')}, waits ${r.waitsMs.map((w) => `${round(w / 1000, 1)}`).join(', ')} s (${plural(r.waitsMs.length, 'wait')}, ${duration(sum)} in all, ${duration(Math.max(0, sum - window))} past the end of the 10 min window)` +
        (key === 'rateLimitNoHint'
          ? `; without a hint the 1, 2, 4, … s backoff (capped at ${duration(engine.POLICIES.rate_limit.maximumIntervalMs)}) needs ${r.waitsMs.length} waits to cover 10 minutes, and every wait is preceded by an agent run that fails: ${r.invocations} invocations for ${r.issues} issues, over the ${TARGET_INVOCATIONS} target. Rate-limit failures do not count toward --max-retries-per-step and never escalate, so no detector stops them; the good work is still all done.`
          : `; the wait honours the hint, so one failed run covers the whole window.`),
    );
  }
  const forever = by.rateLimitForever;
  notes.push(
    `invocations (not in the table): a rate limit that never ends and gives no hint spends ${forever.invocations} invocations, ends ${ended(forever)} after ${duration(forever.simulatedMs)} of waits (${forever.waitsMs.filter((w) => w === engine.POLICIES.rate_limit.maximumIntervalMs).length} of them the ${duration(engine.POLICIES.rate_limit.maximumIntervalMs)} cap): only --max-iterations bounds it (--slice-minutes ends a slice \`continuing\`; the iteration count carries over to the next).`,
  );
  const bounce = by.bounce;
  notes.push(
    `invocations 5: iteration outcomes ${bounce.outcomes.join(', ')}; halt message: ${bounce.error}. A "done" that changed nothing is no longer a bounce (scenario 7): only a suite that cannot run is.`,
  );
  for (const [key, n] of [
    ['redBaseline', '6'],
    ['alreadySatisfied', '7'],
    ['regression', '8'],
  ]) {
    const r = by[key];
    notes.push(
      `invocations ${n}: outcomes ${r.outcomes.join(', ')}; ${r.testRuns} test runs (baselines and verdicts${key === 'regression' ? ', and the second run that confirms a regression' : ''}); closed ${r.issuesClosed.join(', ') || 'none'}${r.preexisting.length ? `; preexisting failures reported: ${r.preexisting.join(', ')}` : ''}.`,
    );
  }

  const data = Object.fromEntries(all.map(({ key, ...r }) => [key, r]));
  return {
    rows,
    notes,
    tables: [detail],
    data: {
      settings: SETTINGS,
      naiveInvocations: NAIVE_INVOCATIONS,
      targetInvocations: TARGET_INVOCATIONS,
      scenarios: data,
    },
  };
}
