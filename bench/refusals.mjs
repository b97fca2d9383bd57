// Agent invocations spent per refusal scenario until the refusal is lifted and the work lands
// (issue 14; target 1 each: a refused or failed landing never runs the agent again). Each scenario
// runs the engine's runSlice in-process, run after run, as scheduled runs of the action would, on
// one checkpoint: a scripted agent that finishes its issue at once, a manual clock, a git that runs
// nothing, and the real pull-request publisher (src/publish/pullRequest.ts) whose push and GitHub
// calls answer as GitHub does (git's stderr, the REST error through explainHttpError), so the real
// classifier (src/publish/landingFailures.ts) decides. A refusal halts publish_refused; the fix is
// made and the next run resumes it (`resume: true`); a transient failure ends a run continuing and a
// run an hour later tries the landing again.
import { tempDir, verdict } from './lib/common.mjs';
import { BENCH_AGENT, SETTINGS, loadEngine } from './invocations.mjs';

const HOUR = 60 * 60_000;
const MAX_RUNS = 8;
const ISSUE = '7';

/** The scenarios: `refuse(step, run)` returns what GitHub answers at that step in that run (nothing: it goes through). */
function scenarios(engine) {
  const pushRefused = (stderr) => new engine.GitError(['push', 'origin', `agent-loop/issue-${ISSUE}`], 1, stderr);
  const rest = (status, message, what) => engine.explainHttpError({ status, message }, what, 'octo/widgets');
  /** GitHub answers `answer()` at `step` in the first `runs` runs. */
  const until = (runs, step, answer) => (at, run) => (at === step && run <= runs ? answer() : undefined);
  return [
    {
      key: 'prRefused',
      name: 'pull request refused: "GitHub Actions is not permitted to create or approve pull requests." (lifted after 2 runs)',
      refuse: until(2, 'pull_request', () =>
        rest(403, 'GitHub Actions is not permitted to create or approve pull requests.', 'opening a pull request'),
      ),
    },
    {
      key: 'workflowFile',
      name: 'push refused for a workflow file without the workflows permission (lifted after 2 runs)',
      refuse: until(2, 'push', () =>
        pushRefused(
          "To https://github.com/octo/widgets\n ! [remote rejected] agent-loop/issue-7 -> agent-loop/issue-7 (refusing to allow a GitHub App to create or update workflow `.github/workflows/ci.yml` without `workflows` permission)\nerror: failed to push some refs to 'https://github.com/octo/widgets'\n",
        ),
      ),
    },
    {
      key: 'protectionRule',
      name: 'push refused by a branch protection rule (lifted after 2 runs)',
      refuse: until(2, 'push', () =>
        pushRefused(
          "remote: error: GH006: Protected branch update failed for refs/heads/agent-loop/issue-7.\nremote: error: Changes must be made through a pull request.\nTo https://github.com/octo/widgets\n ! [remote rejected] agent-loop/issue-7 -> agent-loop/issue-7 (protected branch hook declined)\nerror: failed to push some refs to 'https://github.com/octo/widgets'\n",
        ),
      ),
    },
    {
      key: 'serverErrors',
      name: 'GitHub answers 502 for 3 runs (opening the pull request)',
      refuse: until(3, 'pull_request', () => rest(502, 'Bad Gateway', 'opening a pull request')),
    },
    {
      key: 'issueDeleted',
      name: 'the issue deleted after its pull request opened (its label answers 410 Gone)',
      refuse: until(MAX_RUNS, 'label', () =>
        rest(410, 'This issue was deleted', `labelling issue #${ISSUE} agent-loop:pr-open`),
      ),
    },
  ];
}

async function simulate(engine, scenario) {
  const dir = tempDir('refusals');
  const clock = new engine.ManualClock();
  const source = engine.MemorySource.of(ISSUE);
  const agent = new engine.ScriptedAgent([engine.done], BENCH_AGENT);
  const redact = engine.createRedactor([]);
  const store = new engine.FileCheckpointStore(dir, { clock });
  const opened = [];
  const warnings = [];
  const runs = [];
  let run = 0;
  for (run = 1; run <= MAX_RUNS; run++) {
    const at = (step) => {
      const answer = scenario.refuse(step, run);
      if (answer) throw answer;
    };
    const git = { ...engine.fakeGit(dir, (branch) => branch !== 'main') };
    git.push = async () => at('push');
    const publisher = engine.createPullRequestPublisher({
      git,
      github: {
        openPullRequest: async (pr) => {
          at('pull_request');
          const reused = opened.find((o) => o.head === pr.head);
          if (!reused) opened.push({ head: pr.head, number: 100 + opened.length });
          const number = (reused ?? opened.at(-1)).number;
          return { number, url: `https://github.com/octo/widgets/pull/${number}`, reused: Boolean(reused) };
        },
        addLabel: async () => at('label'),
      },
      repository: 'octo/widgets',
      draft: false,
      testCommand: SETTINGS.testCommand,
      redact,
      warn: (m) => warnings.push(m),
    });
    const events = [];
    const result = await engine.runSlice({
      workflow: engine.implementWorkflow,
      settings: { ...SETTINGS, onSuccess: 'pull-request', fresh: run === 1 },
      cwd: dir,
      stateDir: dir,
      source,
      agent,
      clock,
      redact,
      store,
      git,
      publisher,
      runTests: async () => ({ passed: true, exitCode: 0, durationMs: 0, tail: 'Tests: 12 passed' }),
      logger: engine.createLogger({ json: true, write: (line) => events.push(line), clock, redact }),
    });
    runs.push(`${result.status}${result.haltReason ? ` (${result.haltReason})` : ''}`);
    if (result.status === 'complete' && opened.length > 0) break;
    // The next scheduled run, an hour later (a transient failure's backoff has passed by then).
    await clock.sleep(HOUR);
  }
  const invocations = agent.calls.length;
  const landed = opened.length === 1 && runs.at(-1) === 'complete';
  return {
    key: scenario.key,
    name: scenario.name,
    invocations,
    runs,
    pullRequests: opened.length,
    landed,
    warnings: warnings.filter((w) => !/bundle/.test(w)),
    met: invocations === 1 && landed,
  };
}

export async function benchRefusals() {
  const engine = await loadEngine();
  const all = [];
  for (const s of scenarios(engine)) all.push(await simulate(engine, s));
  const rows = all.map((r) => [
    'refusals',
    r.name,
    'agent invocations until the work lands, runs of runSlice on one checkpoint (a refusal: fixed, then resumed; a failure: the next hourly run)',
    `${r.invocations}; ${r.runs.length} run(s): ${r.runs.join(', ')}; pull requests ${r.pullRequests}`,
    'exactly 1 invocation, one pull request',
    verdict(r.met),
  ]);
  const notes = all
    .filter((r) => r.warnings.length)
    .map((r) => `refusals, ${r.key}: warned "${r.warnings.join('"; "')}"`);
  return {
    rows,
    notes,
    tables: [
      {
        title: 'Agent invocations per refusal scenario until the work lands (issue 14; target 1 each)',
        headers: ['Scenario', 'Invocations', 'Runs', 'Pull requests', 'Met'],
        rows: all.map((r) => [
          r.name,
          String(r.invocations),
          r.runs.join(', '),
          String(r.pullRequests),
          verdict(r.met),
        ]),
      },
    ],
    data: { maxRuns: MAX_RUNS, hourMs: HOUR, scenarios: Object.fromEntries(all.map(({ key, ...r }) => [key, r])) },
  };
}
