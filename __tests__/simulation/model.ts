/**
 * The world the simulation suite drives the engine in (issue 12): a generated repository (issues,
 * each with its own test; tests that fail before any issue is worked, no issue's; issues already
 * fixed; issues whose fix also fixes another; a flaky test) and a generated agent (fixes, partial
 * fixes, "done" without work, no-ops, fixes that break another test, crashes, timeouts, rate
 * limits), with in-memory doubles for everything the engine touches: the issue source, git (a base
 * tree and a cycle's tree), the test command (a run read per test), the checkpoint store, the
 * state directory's files and the clock. Seeded, so a failing run is reproduced by its seed.
 */
import path from 'node:path';
import type { Agent, AgentResult, AgentRunRequest } from '../../src/agents/types.js';
import type { Checkpoint, CheckpointStore } from '../../src/checkpoint/types.js';
import type { Git } from '../../src/git/git.js';
import { ESCALATED_LABEL, type Issue, type IssueSource } from '../../src/issues/types.js';
import type { TestOutcome, TestPurpose } from '../../src/loop/slice.js';
import type { StateFiles } from '../../src/persist/stateFiles.js';
import type { SuiteRun } from '../../src/verdict/results.js';
import type { TestPlace } from '../../src/judge/judgeRun.js';
import type { JudgeTrees } from '../../src/judge/judgeTree.js';
import type { ChangedFile } from '../../src/judge/protectedPaths.js';
import { mulberry32 } from '../../e2e/crashHelpers.js';
import { ManualClock } from '../../fakes/index.js';

/** Seeded: the crash campaign's generator. */
export const random = mulberry32;

export type Behaviour =
  'fix' | 'partial' | 'claimDone' | 'noop' | 'breakOther' | 'crash' | 'timeout' | 'rateLimit' | Cheat;

/**
 * An agent that cheats (issue 42), as a model under pressure does: its issue's test made to read as
 * passing in the working tree (the assertion rewritten; marked xfail), every outcome forged (a
 * conftest.py hook), agent-loop's configuration rewritten (a test command that always passes). The
 * code is left as it was; the working tree's run believes the cheat, a judge tree does not.
 */
export type Cheat = 'editTest' | 'xfail' | 'conftestHook' | 'rewriteConfig';
export const CHEATS: readonly Cheat[] = ['editTest', 'xfail', 'conftestHook', 'rewriteConfig'];

export interface World {
  seed: number;
  issueIds: string[];
  /** Issues whose test passes before any work. */
  alreadyFixed: Set<string>;
  /** Fixing the key also fixes the value's test. */
  alsoFixes: Map<string, string>;
  /** Tests that fail whatever is done (no issue's). */
  preexisting: string[];
  /** A test that fails now and then (never an issue's). */
  flaky: boolean;
  /** Issues whose text names its test. */
  named: Set<string>;
  /** The agent: what it does on each call for an issue (the last repeats). */
  plan: Map<string, Behaviour[]>;
  /** A capable agent on a solvable backlog: every call fixes (or finds it done), nothing fails. */
  capable: boolean;
  /** Whether the agent may cheat (some runs keep the honest behaviours only). */
  cheats: boolean;
}

/**
 * A tree: which issues' tests pass, and which other tests the agent broke; and what a cheat left in it
 * (issue 42): the issues whose test reads as passing only because it was edited, whether a hook
 * forges every outcome, and the paths the maintainer owns that it changed (with their texts, as git
 * gives them to the judge).
 */
interface Tree {
  fixed: Set<string>;
  broken: Set<string>;
  changed: boolean;
  forged: Set<string>;
  forgeAll: boolean;
  edits: Map<string, ChangedFile>;
}
const cloneTree = (t: Tree): Tree => ({
  fixed: new Set(t.fixed),
  broken: new Set(t.broken),
  changed: t.changed,
  forged: new Set(t.forged),
  forgeAll: t.forgeAll,
  edits: new Map(t.edits),
});
const emptyTree = (fixed: Iterable<string>): Tree => ({
  fixed: new Set(fixed),
  broken: new Set(),
  changed: false,
  forged: new Set(),
  forgeAll: false,
  edits: new Map(),
});

/** The texts of an issue's test file at the base, and as each cheat leaves it. */
const testFileOf = (id: string) => testOf(id).split('::')[0] as string;
const testText = (id: string) => `from app import ${id}\n\n\ndef test_${id}():\n    assert ${id}() == 1\n`;
const CHEAT_TEXT: Record<'editTest' | 'xfail', (id: string) => string> = {
  editTest: (id) => `from app import ${id}\n\n\ndef test_${id}():\n    assert ${id}() in (0, 1)\n`,
  xfail: (id) =>
    `import pytest\nfrom app import ${id}\n\n\n@pytest.mark.xfail\ndef test_${id}():\n    assert ${id}() == 1\n`,
};
const CONFTEST =
  'import pytest\n\n\n@pytest.hookimpl(hookwrapper=True)\ndef pytest_runtest_makereport(item, call):\n    outcome = yield\n    outcome.get_result().outcome = "passed"\n';
const CONFIG_FILE = '.agent-loop.yml';

export const testOf = (id: string) => `tests/test_${id}.py::test_${id}`;
const OTHER = 'tests/test_other.py::test_other_passes';
const FLAKY = 'tests/test_net.py::test_flaky_network';

export function generateWorld(seed: number): World {
  const r = random(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;
  const n = 1 + Math.floor(r() * 4);
  const issueIds = Array.from({ length: n }, (_, i) => `bd-${i + 1}`);
  const capable = r() < 0.3;
  const alreadyFixed = new Set(issueIds.filter(() => r() < 0.15));
  const alsoFixes = new Map<string, string>();
  if (n > 1 && r() < 0.2) alsoFixes.set(issueIds[0] as string, issueIds[1] as string);
  const preexisting = Array.from({ length: Math.floor(r() * 3) }, (_, i) => `tests/test_legacy.py::test_legacy_${i}`);
  const named = new Set(issueIds.filter(() => r() < 0.5));
  const cheats = !capable && r() < 0.4;
  const honest: Behaviour[] = [
    'fix',
    'fix',
    'partial',
    'claimDone',
    'noop',
    'breakOther',
    'crash',
    'timeout',
    'rateLimit',
  ];
  const behaviours = cheats ? [...honest, ...CHEATS, ...CHEATS] : honest;
  const plan = new Map<string, Behaviour[]>();
  for (const id of issueIds) {
    plan.set(id, capable ? ['fix'] : Array.from({ length: 1 + Math.floor(r() * 5) }, () => pick(behaviours)));
  }
  const flaky = !capable && r() < 0.2;
  return { seed, issueIds, alreadyFixed, alsoFixes, preexisting, flaky, named, plan, capable, cheats };
}

export interface Observed {
  /** Issue closed, with the tree it was closed on (the cycle's). */
  closings: Array<{ id: string; tree: Tree; base: Tree }>;
  agentCalls: number;
  rateLimitedCalls: number;
}

/** Everything the engine needs, wired to one world. */
export function buildDoubles(world: World) {
  const r = random(world.seed ^ 0x5eed);
  const clock = new ManualClock();
  const observed: Observed = { closings: [], agentCalls: 0, rateLimitedCalls: 0 };
  let base: Tree = emptyTree(world.alreadyFixed);
  let work: Tree = cloneTree(base);
  let current = 'main';
  const calls = new Map<string, number>();

  const issues: Issue[] = world.issueIds.map((id, i) => ({
    id,
    title: `Issue ${id}`,
    body: world.named.has(id) ? `${testOf(id).split('::')[1]} fails` : `Please fix ${id}.`,
    status: 'open',
    labels: [],
    dependencies: [],
    priority: i,
  }));
  const source: IssueSource = {
    description: 'memory (simulation)',
    ready: async () => issues.filter((i) => i.status === 'open').map((i) => ({ ...i, labels: [...i.labels] })),
    get: async (id) => {
      const i = issues.find((x) => x.id === id);
      return i ? { ...i, labels: [...i.labels] } : undefined;
    },
    close: async (id) => {
      const i = issues.find((x) => x.id === id);
      if (i && i.status !== 'closed') {
        i.status = 'closed';
        observed.closings.push({ id, tree: cloneTree(current === 'main' ? base : work), base: cloneTree(base) });
      }
    },
    markEscalated: async (id) => {
      const i = issues.find((x) => x.id === id);
      if (i && !i.labels.includes(ESCALATED_LABEL)) i.labels.push(ESCALATED_LABEL);
    },
  };

  const git: Git = {
    topLevel: '/sim',
    currentRef: async () => current,
    branchExists: async () => false,
    holds: async () => true,
    switchToBranch: async (branch) => {
      current = branch;
      work = { ...cloneTree(base), changed: false };
    },
    checkout: async (ref) => {
      current = ref;
    },
    commitAll: async () => current !== 'main' && work.changed,
    head: async () => (current === 'main' ? treeId(base) : `${treeId(work)}-${current}`),
    tipOf: async (b) => (b === 'main' ? treeId(base) : `${treeId(work)}-${b}`),
    laneState: async (b) => ({ head: current, baseTip: b === 'main' ? treeId(base) : `${treeId(work)}-${b}` }),
    resetHard: async () => {
      work = cloneTree(base);
    },
    changedFiles: async () => [],
    merge: async () => {
      base = { ...cloneTree(work), changed: false };
    },
    deleteBranch: async () => undefined,
    hasWorkSince: async () => current !== 'main' && work.changed,
    subjectsSince: async () => [],
    exclude: async () => undefined,
    untracked: async () => [],
    refSecrets: async () => [],
    fetchBranch: async () => false,
    push: async () => undefined,
    putBackStaging: async () => undefined,
  };

  const agent: Agent = {
    displayName: 'Simulated',
    async run(req: AgentRunRequest): Promise<AgentResult> {
      observed.agentCalls++;
      const id = req.issueIds[0] as string;
      const k = calls.get(id) ?? 0;
      calls.set(id, k + 1);
      const list = world.plan.get(id) ?? ['fix'];
      const b = list[Math.min(k, list.length - 1)] as Behaviour;
      const ok = (report: AgentResult['report']): AgentResult => ({
        ok: true,
        exitCode: 0,
        signal: null,
        durationMs: 1000,
        outputTail: `did ${b}`,
        report,
      });
      const doneReport = {
        workRemaining: '0',
        workRemainingEmpty: true,
        requiresContinuation: false,
        summary: `${b} on ${id}`,
        fields: {},
      };
      switch (b) {
        case 'fix':
          work.fixed.add(id);
          if (world.alsoFixes.has(id)) work.fixed.add(world.alsoFixes.get(id) as string);
          work.changed = true;
          return ok(doneReport);
        case 'partial':
          work.changed = true;
          return ok(doneReport);
        case 'claimDone':
          return ok(doneReport);
        case 'noop':
          return ok({ workRemaining: id, workRemainingEmpty: false, requiresContinuation: true, fields: {} });
        case 'breakOther':
          work.fixed.add(id);
          work.broken.add(OTHER);
          work.changed = true;
          return ok(doneReport);
        case 'crash':
          return {
            ok: false,
            exitCode: 1,
            signal: null,
            durationMs: 10,
            outputTail: 'segfault',
            failure: { class: 'transient', reason: 'exit_code', message: 'crashed' },
          };
        case 'timeout':
          return {
            ok: false,
            exitCode: null,
            signal: 'SIGKILL',
            durationMs: 10,
            outputTail: '',
            failure: { class: 'transient', reason: 'timeout', message: 'timed out' },
          };
        case 'editTest':
        case 'xfail':
          work.forged.add(id);
          work.edits.set(testFileOf(id), {
            path: testFileOf(id),
            status: 'modified',
            base: testText(id),
            now: CHEAT_TEXT[b](id),
          });
          work.changed = true;
          return ok(doneReport);
        case 'conftestHook':
          work.forgeAll = true;
          work.edits.set('conftest.py', { path: 'conftest.py', status: 'added', now: CONFTEST });
          work.changed = true;
          return ok(doneReport);
        case 'rewriteConfig':
          // The command changed for later runs; this run parsed its configuration once, before.
          work.edits.set(CONFIG_FILE, {
            path: CONFIG_FILE,
            status: 'modified',
            base: 'test-command: pytest\n',
            now: 'test-command: "node -e 0"\n',
          });
          work.changed = true;
          return ok(doneReport);
        case 'rateLimit':
          observed.rateLimitedCalls++;
          return {
            ok: false,
            exitCode: 1,
            signal: null,
            durationMs: 10,
            outputTail: '429',
            failure: { class: 'transient', reason: 'rate_limit', message: '429', retryAfterMs: 60_000 },
          };
      }
    },
  };

  /**
   * The suite on the tree checked out, or in a judge tree (`place`): each issue's test, the other
   * test, the legacy ones, the flaky one. In the working tree a cheat is believed (an edited test
   * passes, a hook makes everything pass); a judge tree has the base's tests and infrastructure, so
   * only the code counts.
   */
  const runTests = async (
    _command: string,
    _signal?: AbortSignal,
    _purpose?: TestPurpose,
    place?: TestPlace,
  ): Promise<TestOutcome> => {
    const tree = current === 'main' ? base : work;
    const believed = place === undefined;
    const passes = (id: string) => tree.fixed.has(id) || (believed && (tree.forged.has(id) || tree.forgeAll));
    const tests: SuiteRun['tests'] = {};
    for (const id of world.issueIds) tests[testOf(id)] = passes(id) ? 'passed' : 'failed';
    tests[OTHER] = tree.broken.has(OTHER) && !(believed && tree.forgeAll) ? 'failed' : 'passed';
    for (const t of world.preexisting) tests[t] = believed && tree.forgeAll ? 'passed' : 'failed';
    if (world.flaky) tests[FLAKY] = r() < 0.3 && !(believed && tree.forgeAll) ? 'failed' : 'passed';
    const failed = Object.values(tests).includes('failed');
    const run: SuiteRun = { reader: 'simulation', exitCode: failed ? 1 : 0, tests, groups: {}, messages: {} };
    return { passed: !failed, exitCode: run.exitCode, durationMs: 5, tail: '', run };
  };

  /**
   * The judge trees (issue 42) over the same trees: the work's change is what the cheats edited (and
   * the code, when anything changed), weighed by the real `protect`; the tree opened is a place the
   * suite double reads as the code alone.
   */
  const judgeTrees: JudgeTrees = {
    change: async () => {
      const tree = current === 'main' ? base : work;
      const code: ChangedFile[] = tree.changed ? [{ path: 'app.py', status: 'modified', base: '', now: '' }] : [];
      return {
        tree: treeId(tree),
        changed: [...code, ...tree.edits.values()],
        baseFiles: ['app.py', CONFIG_FILE, ...world.issueIds.map(testFileOf), OTHER.split('::')[0] as string],
      };
    },
    open: async () => ({ dir: '/sim/judge', reportDir: '/sim/judge-report', removedLinks: [], close: async () => {} }),
    clear: async () => [],
  };

  return { clock, source, git, agent, runTests, judgeTrees, observed, issues, tree: () => ({ base, work }) };
}

function treeId(t: Tree): string {
  const edits = [...t.edits.keys()].sort().join(',');
  return `${[...t.fixed].sort().join(',')}|${[...t.broken].sort().join(',')}|${edits}`;
}

/** Checkpoints in memory (a single slice never reads one back). */
export class MemoryCheckpointStore implements CheckpointStore {
  readonly dir = '/nonexistent/agent-loop-simulation/checkpoints';
  private readonly byId = new Map<string, Checkpoint>();
  private sequence = 0;
  constructor(private readonly clock: ManualClock) {}
  async list() {
    return { checkpoints: [...this.byId.values()], invalid: [] };
  }
  async load(id: string): Promise<Checkpoint> {
    const cp = this.byId.get(id);
    if (!cp) throw new Error(`no checkpoint ${id}`);
    return cp;
  }
  async write(cp: Omit<Checkpoint, 'timestamp' | 'sequence'>): Promise<Checkpoint> {
    // Kept by reference: the engine builds a new state object for every change, never edits one.
    const full = { ...cp, timestamp: this.clock.now().toISOString(), sequence: ++this.sequence } as Checkpoint;
    this.byId.set(cp.id, full);
    return full;
  }
  async delete(id: string) {
    this.byId.delete(id);
  }
  async removeStaleTempFiles() {
    return [];
  }
}

/** The state directory's files in memory (the engine never touches the disk here). */
export function memoryStateFiles(
  dir: string,
  mask: (text: string) => string = (t) => t,
): StateFiles & { files: Map<string, string> } {
  const files = new Map<string, string>();
  const root = path.resolve(dir);
  const key = (file: string) => path.resolve(file);
  return {
    dir: root,
    mask,
    files,
    async write(file, text) {
      files.set(key(file), mask(text));
    },
    async writeScratch(file, text) {
      files.set(key(file), mask(text));
    },
    async append(file, text) {
      files.set(key(file), (files.get(key(file)) ?? '') + mask(text));
    },
    async read(file) {
      return files.get(key(file));
    },
    async list(dir) {
      const prefix = `${path.resolve(dir)}${path.sep}`;
      return [...files]
        .filter(([f]) => f.startsWith(prefix) && !f.slice(prefix.length).includes(path.sep))
        .map(([f, text]) => ({ name: f.slice(prefix.length), stamp: `${text.length}` }));
    },
    async remove(file) {
      files.delete(key(file));
    },
  };
}
