/**
 * Issue 41: one masking boundary. The prompt, an escalation's reason and a halt's diagnostic are no
 * longer masked again on their way (src/workflows/implement/iteration.ts, src/workflows/tdd/
 * iteration.ts, src/loop/effects/work.ts, src/loop/effects/notices.ts): what they quote was masked
 * where it entered the engine. Here every sink writes what it is given as it is (a logger, a
 * checkpoint store and state files that mask nothing), and a secret planted in the issue's text,
 * the agent's output, the test command's output and its JUnit report reaches none of them in clear.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { maskOutput } from '../../src/agents/maskOutput.js';
import { FileCheckpointStore } from '../../src/checkpoint/fileStore.js';
import { guardIssues } from '../../src/issues/guard.js';
import { runSlice, type SliceDeps } from '../../src/loop/slice.js';
import { runTestCommand } from '../../src/loop/testGate.js';
import { stateFiles } from '../../src/persist/stateFiles.js';
import type { HaltDiagnostic } from '../../src/report/diagnostic.js';
import { createLogger } from '../../src/report/logger.js';
import { createRedactor } from '../../src/secrets/redact.js';
import { implementWorkflow, tddWorkflow } from '../../src/workflows/index.js';
import { ManualClock, MemorySource, ScriptedAgent, type Step, done, sliceSettings } from '../../fakes/index.js';

const SECRET = 'sekrit-token-entered-4f2a';
const redact = createRedactor([SECRET]);
const unmasked = (text: string) => text;

let dir: string;
beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'masked-at-entry-'));
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

/** A failing test command that prints the secret and writes it in its JUnit report. */
const LEAKING_TESTS = [
  `echo "FAIL: token ${SECRET} rejected"`,
  `printf '<testsuite name="s"><testcase classname="s" name="t1"><failure message="${SECRET} leaked">${SECRET}</failure></testcase></testsuite>' > junit.xml`,
  'exit 1',
].join('; ');

/** A passing test command: its report has the test that LEAKING_TESTS fails. */
const PASSING_TESTS = `printf '<testsuite name="s"><testcase classname="s" name="t1"/></testsuite>' > junit.xml; echo ok`;

/** A slice whose data enters through the boundary (as src/app/run.ts builds it) and whose sinks mask nothing. */
function harness(steps: Step[], tests: (agentRuns: number) => string) {
  const clock = new ManualClock();
  const source = MemorySource.of('10');
  source.issues[0]!.body = `Fix the login; the old key was ${SECRET}`;
  const agent = new ScriptedAgent(steps);
  const lines: string[] = [];
  const notified: HaltDiagnostic[] = [];
  const deps: SliceDeps = {
    settings: sliceSettings({ maxIterations: 10 }),
    workflow: implementWorkflow,
    cwd: dir,
    stateDir: dir,
    // The boundary: issue text, agent output, test output and report masked where they enter.
    source: guardIssues(source, redact),
    agent: maskOutput(agent, redact),
    runTests: async (_command, _signal, purpose) =>
      runTestCommand(purpose === 'baseline' ? PASSING_TESTS : tests(agent.requests.length), {
        cwd: dir,
        env: process.env,
        timeoutMs: 30_000,
        onLine: () => undefined,
        mask: redact,
        junitFile: path.join(dir, 'junit.xml'),
      }),
    // The sinks: none masks.
    clock,
    logger: createLogger({ json: true, write: (s) => lines.push(s), clock, redact: unmasked }),
    store: new FileCheckpointStore(dir, { clock }),
    files: stateFiles(dir),
    notify: async (d) => {
      notified.push(d);
    },
  };
  return { deps, agent, source, lines, notified };
}

/** Every file the run left in the state directory (checkpoints, halt.md, prompt.md, errors.jsonl). */
async function stateText(): Promise<string> {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true });
  const files = entries.filter((e) => e.isFile() && e.name !== 'junit.xml');
  const texts = await Promise.all(files.map((e) => fs.readFile(path.join(e.parentPath, e.name), 'utf8')));
  return texts.join('\n');
}

/** A test command that fails and writes `report` as its JUnit report, run with `mask` at the boundary. */
async function failingWithReport(report: string, mask: ReturnType<typeof createRedactor>) {
  await fs.writeFile(path.join(dir, 'report.xml.txt'), report);
  return runTestCommand('cp report.xml.txt junit.xml; exit 1', {
    cwd: dir,
    env: process.env,
    timeoutMs: 30_000,
    onLine: () => undefined,
    mask,
    junitFile: path.join(dir, 'junit.xml'),
  });
}

describe('masked once where data enters the engine (issue 41)', () => {
  it('the prompt quotes the issue, the failed tests and their report masked, with no mask of its own', async () => {
    const h = harness([{ ...done, outputTail: `working with ${SECRET}` }], (n) =>
      n === 1 ? LEAKING_TESTS : PASSING_TESTS,
    );
    await runSlice(h.deps);
    expect(h.agent.requests).toHaveLength(2);
    const second = h.agent.requests[1]!.prompt;
    // What the prompt quotes, masked: the issue's text, the test's output and its report's failure.
    expect(second).toContain('the old key was ***');
    expect(second).toMatch(/t1[^\n]*\*\*\* leaked/);
    for (const prompt of h.agent.requests.map((r) => r.prompt)) expect(prompt).not.toContain(SECRET);
    expect(h.lines.join('\n')).not.toContain(SECRET);
    expect(await stateText()).not.toContain(SECRET);
  });

  it("--workflow tdd: GREEN's second attempt quotes the failing test and its report masked, with no mask of its own", async () => {
    const h = harness([done], (runs) => (runs <= 2 ? LEAKING_TESTS : PASSING_TESTS));
    h.deps.settings = { ...h.deps.settings, plan: '- [ ] one test', sliceIterations: 4 };
    await runSlice({ ...h.deps, workflow: tddWorkflow() });
    const prompts = h.agent.requests.map((r) => r.prompt);
    const retry = prompts.find((p) => p.includes('The previous attempt of this phase failed'));
    expect(retry).toMatch(/s::t1: \*\*\* leaked/);
    expect(retry).toContain('FAIL: token *** rejected');
    for (const prompt of prompts) expect(prompt).not.toContain(SECRET);
    expect(h.lines.join('\n')).not.toContain(SECRET);
    expect(await stateText()).not.toContain(SECRET);
  });

  it("an escalation's reason and the halt's diagnostic quote the agent's failure masked, with no mask of their own", async () => {
    const leaking: Step = {
      ok: false,
      exitCode: 1,
      failure: { class: 'transient', reason: 'timeout', message: `gave up: ${SECRET} refused` },
      outputTail: `last words ${SECRET}`,
    };
    const h = harness([leaking], () => LEAKING_TESTS);
    const r = await runSlice(h.deps);
    expect(r).toMatchObject({ status: 'halted' });
    expect(h.source.escalatedWith['10']).toMatch(/gave up: \*\*\* refused/);
    expect(r.diagnostic).toContain('last words ***');
    expect(r.diagnostic).not.toContain(SECRET);
    expect(JSON.stringify(h.notified)).not.toContain(SECRET);
    expect(JSON.stringify(h.source.escalatedWith)).not.toContain(SECRET);
    expect(h.lines.join('\n')).not.toContain(SECRET);
    expect(await stateText()).not.toContain(SECRET);
  });

  it('a JUnit report is masked where it is read, a secret written XML-escaped too', async () => {
    const password = `p&ss<w"rd>'42`;
    const escaped = `p&amp;ss&lt;w&quot;rd&gt;&apos;42`;
    const report = `<testsuite name="s"><testcase classname="s" name="t1"><failure message="${escaped}">${escaped.replace(/&quot;/g, '"').replace(/&apos;/g, "'")}</failure></testcase></testsuite>`;
    const run = await failingWithReport(report, createRedactor([password]));
    expect(run.run?.tests['s::t1']).toBe('failed');
    const read = JSON.stringify(run.run);
    expect(read).toContain('***');
    expect(read).not.toContain(password);
    expect(read).not.toContain('p&ss');
  });

  it("a failing test's own failure text is masked where it is read, a secret the report wrote as character references too (issue 42)", async () => {
    const encoded = [...SECRET].map((c) => `&#${c.charCodeAt(0)};`).join('');
    const report = `<testsuite name="s"><testcase classname="s" name="t1"><failure message="rejected">token ${encoded} in the body</failure></testcase></testsuite>`;
    const run = await failingWithReport(report, redact);
    expect(run.run?.failureText?.['s::t1']).toBe('rejected\n\ntoken *** in the body');
  });
});
