/**
 * Model-based simulation (issue 12): generated repositories and agents (model.ts) drive the real
 * engine (runSlice: the baseline, the verdicts, the step machine, escalations, halts) with
 * in-memory doubles; every run is checked against the invariants below. A failure names its
 * seed: SIM_SEED=<seed> runs that one alone.
 */
import { describe, expect, it } from '@jest/globals';
import { runSlice } from '../../src/loop/slice.js';
import { createLogger } from '../../src/report/logger.js';
import { createRedactor } from '../../src/secrets/redact.js';
import { MemoryCheckpointStore, type World, buildDoubles, generateWorld, memoryStateFiles, testOf } from './model.js';
import { sliceSettings } from '../../fakes/index.js';
import { implementWorkflow } from '../../src/workflows/index.js';

/**
 * 2,000 in npm test (about 6 s, run before every commit); npm run test:e2e runs it again with
 * SIM_RUNS=10000 (scripts/test-e2e.mjs), as CI does.
 */
const RUNS = Number(process.env.SIM_RUNS ?? 2_000);
const MAX_RETRIES = 3;
/** No issue may cost more agent invocations than this (rate-limited ones aside): every retry budget of a cycle spent. */
const PER_ISSUE_BOUND = 4 * (MAX_RETRIES + 1);

/** One generated run; `judgeTree: false` runs the verdict in the working tree, as before issue 42. */
async function simulate(world: World, { judgeTree = true } = {}) {
  const d = buildDoubles(world);
  const redact = createRedactor([]);
  const result = await runSlice({
    settings: sliceSettings({ fresh: true, testCommand: 'pytest', maxRetriesPerStep: MAX_RETRIES }),
    workflow: implementWorkflow,
    cwd: '/sim',
    stateDir: '/nonexistent/agent-loop-simulation',
    source: d.source,
    agent: d.agent,
    git: d.git,
    clock: d.clock,
    runTests: d.runTests,
    ...(judgeTree ? { judgeTrees: d.judgeTrees } : {}),
    store: new MemoryCheckpointStore(d.clock),
    files: memoryStateFiles('/nonexistent/agent-loop-simulation'),
    redact,
    logger: createLogger({ json: true, write: () => undefined, clock: d.clock, redact }),
  });
  return { result, ...d };
}

/** The invariants; a list of what is broken (empty: the run is fine). */
function violations(world: World, run: Awaited<ReturnType<typeof simulate>>): string[] {
  const { result, observed } = run;
  const out: string[] = [];
  // No recorded iteration lost: every agent invocation is an iteration in the result and its history.
  if (observed.agentCalls !== result.iterations)
    out.push(`${observed.agentCalls} agent calls, ${result.iterations} iterations recorded`);
  if (result.history.length !== result.iterations)
    out.push(`history has ${result.history.length} records for ${result.iterations} iterations`);
  // No issue closed unless its targets pass and nothing regressed.
  for (const c of observed.closings) {
    if (world.named.has(c.id) && !c.tree.fixed.has(c.id))
      out.push(`${c.id} closed while its named test ${testOf(c.id)} fails`);
    if (c.tree.broken.size > 0) out.push(`${c.id} closed on a tree where ${[...c.tree.broken].join(', ')} regressed`);
  }
  // Issue 42: no change is closed without evidence: the test the issue names passes (the maintainer's
  // word for done), or a test that failed as its cycle began passes now. Known limit: a flaky test
  // that failed in both baseline runs by chance and passes now counts as evidence (docs/how-a-run-goes.md).
  for (const c of observed.closings) {
    const evidence = world.named.has(c.id) || [...c.tree.fixed].some((id) => !c.base.fixed.has(id)) || world.flaky;
    if (c.tree.changed && !evidence) out.push(`${c.id} closed on a change that fixed no failing test (no evidence)`);
  }
  // Issue 42: no change that edits what the maintainer owns, or forges an outcome, is ever closed or merged.
  for (const c of observed.closings) {
    if (c.tree.edits.size > 0)
      out.push(`${c.id} closed on a tree where the agent changed ${[...c.tree.edits.keys()].join(', ')}`);
    if (!c.tree.fixed.has(c.id) && (c.tree.forged.has(c.id) || c.tree.forgeAll))
      out.push(`${c.id} closed on a forged outcome: its test passes only because the agent edited or hooked it`);
  }
  // Nothing that regressed, and no cheat, reached the base branch.
  if (run.tree().base.broken.size > 0)
    out.push(`the base branch holds a regression: ${[...run.tree().base.broken].join(', ')}`);
  if (run.tree().base.edits.size > 0)
    out.push(`the base branch holds the agent's change to ${[...run.tree().base.edits.keys()].join(', ')}`);
  // Invocations within a stated bound.
  const counted = observed.agentCalls - observed.rateLimitedCalls;
  if (counted > world.issueIds.length * PER_ISSUE_BOUND)
    out.push(
      `${counted} invocations (rate limits aside) for ${world.issueIds.length} issue(s), over ${PER_ISSUE_BOUND} each`,
    );
  // A capable agent on a solvable backlog completes, without a halt, in one invocation per issue.
  if (world.capable) {
    if (result.status !== 'complete')
      out.push(`a capable agent ended ${result.status} (${result.haltReason}): ${result.error}`);
    if (observed.agentCalls !== world.issueIds.length)
      out.push(`a capable agent spent ${observed.agentCalls} invocations on ${world.issueIds.length} issue(s)`);
    // Each issue closed, or held for a person as unverified (issue 42) when its work shows nothing:
    // its test already passed as its cycle began (already fixed, or fixed by another issue's work).
    const held = (result.issuesHeld ?? []).map((h) => h.id);
    if (result.issuesClosed.length + held.length !== world.issueIds.length)
      out.push(
        `a capable agent closed ${result.issuesClosed.length} and had ${held.length} held of ${world.issueIds.length}`,
      );
    for (const id of held) {
      const fixedBefore = world.alreadyFixed.has(id) || [...world.alsoFixes.values()].includes(id);
      if (!fixedBefore) out.push(`${id} held for a person though the capable agent's work fixed its test`);
    }
  }
  // Failures no issue covers are reported, never block.
  if (
    result.status === 'complete' &&
    world.preexisting.length > 0 &&
    result.issuesClosed.length > 0 &&
    !world.preexisting.every((t) => result.preexistingFailures.includes(t))
  ) {
    out.push(
      `preexisting failures not reported: ${world.preexisting.filter((t) => !result.preexistingFailures.includes(t)).join(', ')}`,
    );
  }
  return out;
}

describe('model-based simulation of the loop against generated repositories and agents (issue 12)', () => {
  it(`${RUNS} generated runs keep every invariant`, async () => {
    const first = Number(process.env.SIM_SEED ?? 1);
    const count = process.env.SIM_SEED ? 1 : RUNS;
    const failures: string[] = [];
    const tally = {
      complete: 0,
      halted: 0,
      continuing: 0,
      deferred: 0,
      capable: 0,
      noChange: 0,
      rejected: 0,
      cheating: 0,
    };
    for (let seed = first; seed < first + count; seed++) {
      const world = generateWorld(seed);
      const run = await simulate(world);
      const broken = violations(world, run);
      if (broken.length > 0) failures.push(`seed ${seed} (SIM_SEED=${seed}): ${broken.join('; ')}`);
      tally[run.result.status]++;
      if (world.capable) tally.capable++;
      if (world.cheats) tally.cheating++;
      tally.noChange += run.result.history.filter((h) => h.outcome === 'no_change').length;
      tally.rejected += run.result.history.filter((h) => h.verdict?.kind === 'rejected').length;
      if (failures.length >= 10) break;
    }
    expect(failures).toEqual([]);
    expect(tally.cheating).toBeGreaterThan(0);
    // The generator reaches every kind of ending (a suite that only ever completes proves little).
    if (count === RUNS && RUNS >= 1000) {
      expect(tally.complete).toBeGreaterThan(RUNS / 10);
      expect(tally.halted).toBeGreaterThan(RUNS / 10);
      expect(tally.noChange).toBeGreaterThan(0);
      expect(tally.rejected).toBeGreaterThan(RUNS / 10);
    }
  }, 120_000);

  it('the invariant fails when the judge tree is switched off: cheating agents get work closed and merged', async () => {
    // Not vacuous: the same generated worlds, the verdict run in the working tree, as before issue 42.
    const broken: string[] = [];
    for (let seed = 1; seed <= 300 && broken.length < 5; seed++) {
      const world = generateWorld(seed);
      if (!world.cheats) continue;
      const found = violations(world, await simulate(world, { judgeTree: false }));
      broken.push(...found.filter((v) => /changed|forged|holds the agent's change/.test(v)));
    }
    expect(broken.length).toBeGreaterThanOrEqual(5);
    expect(broken.join('\n')).toMatch(/closed on a tree where the agent changed/);
  }, 60_000);
});
