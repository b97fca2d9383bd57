import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import YAML from 'yaml';
import { inputEnv, loadActionConfig } from '../src/action/inputs.js';
import { asInput, evaluate } from '../scripts/workflow-lint/expressions.mjs';
import {
  actionStepOf,
  callsReusable,
  readmeCallerWorkflow,
  readmeStepWorkflow,
  type ShownWorkflow,
} from '../e2e/support/readmeWorkflows.js';

type Node = Record<string, unknown>;
interface Step {
  id?: string;
  uses?: string;
  with?: Record<string, unknown>;
  env?: Record<string, unknown>;
}
interface Job extends Node {
  permissions?: unknown;
  concurrency?: Node;
  steps?: Step[];
  uses?: string;
  with?: Node;
  secrets?: Node;
}
interface Workflow {
  on: Node;
  permissions?: unknown;
  concurrency?: Node;
  jobs: Record<string, Job>;
}

const read = (path: string) => readFileSync(new URL(`../${path}`, import.meta.url), 'utf8');
const REUSABLE = '.github/workflows/agent-loop.yml';
const EXAMPLE = 'examples/workflows/agent-loop.yml';
const reusable = YAML.parse(read(REUSABLE)) as Workflow;
const example = YAML.parse(read(EXAMPLE)) as Workflow;
const action = YAML.parse(read('action.yml')) as { inputs: Record<string, unknown>; outputs: Record<string, unknown> };

const call = reusable.on.workflow_call as {
  inputs: Record<string, { type: string; default?: unknown }>;
  secrets: Record<string, { required?: boolean }>;
  outputs: Record<string, { value: string }>;
};
const [jobId, job] = Object.entries(reusable.jobs)[0]!;
const actionStep = job.steps!.find((s) => s.uses?.startsWith('agent-loop/agent-loop@'))!;

type Permissions = Record<string, 'read' | 'write'>;
type Role = 'slice' | 'plan' | 'work' | 'reduce';
/** The action's part in a job: its `fan-out` input (src/action/main.ts: fanOutRole); none is a whole slice. */
const roleOf = (j: Job): Role =>
  (j.steps?.find((s) => s.uses?.startsWith('agent-loop/agent-loop@'))?.with?.['fan-out'] as Role) ?? 'slice';
const SLICE: Permissions = {
  // git push of a cycle's branch (src/publish/pullRequest.ts, its 'push' steps), onto the base branch
  // itself with on-success: merge.
  contents: 'write',
  // An issue's labels, comments and closing (src/issues/github/issueSource.ts: markEscalated,
  // markNoChange, close, the progress comment), its claim (src/issues/github/claimComments.ts).
  issues: 'write',
  // POST /repos/{owner}/{repo}/pulls (src/issues/github/pullRequests.ts: openOrReusePullRequest).
  'pull-requests': 'write',
  // GET /repos/{owner}/{repo}/actions/artifacts and the download of one: the checkpoint's backup
  // (src/persist/actionsArtifacts.ts: list, download). The Actions cache and the upload use the
  // runner's own token (ACTIONS_RUNTIME_TOKEN), not these.
  actions: 'read',
};
/**
 * What each role does with the job's token, and the code that does it (issue 40: least privilege).
 * A job's `permissions:` equal its role's: a write permission it never uses fails the test.
 */
const ROLE_NEEDS: Record<Role, Permissions> = {
  slice: SLICE,
  // The plan (src/action/planJob.ts): claims the wave's issues (source.claim → claimComments.ts: a
  // claim comment and the in-progress label), and restores the checkpoint (src/action/main.ts →
  // persistence.ts restore: the artifacts). It pushes nothing and opens no pull request.
  plan: { issues: 'write', actions: 'read' },
  // A work job is a slice on one issue; the wave's landing job (matrix entry outbox) pushes and opens
  // pull requests for earlier waves' work.
  work: SLICE,
  // The reduce (src/action/reduceJob.ts): releases the claims of the wave's unfinished issues
  // (releaseClaim → claimComments.ts: its comment and the label), reads what a dead job's claim
  // comment said (claimProgress), restores the checkpoint and each work job's partial state
  // (fetchPartial → restore: the artifacts). It lands nothing.
  reduce: { issues: 'write', actions: 'read' },
};
/** What a caller grants the reusable workflow: what its jobs use, together (a called workflow cannot widen it). */
const ALL_ROLES: Permissions = Object.values(ROLE_NEEDS).reduce((all, needs) => {
  const out = { ...all };
  for (const [scope, level] of Object.entries(needs)) if (out[scope] !== 'write') out[scope] = level;
  return out;
}, {});
/** The write permissions of `given` that `role` never uses, each named with the job. */
const unusedWrites = (jobName: string, given: unknown, role: Role) =>
  Object.entries((given ?? {}) as Permissions)
    .filter(([scope, level]) => level === 'write' && ROLE_NEEDS[role][scope] !== 'write')
    .map(([scope]) => `${jobName} (${role}): ${scope}: write is never used`);

/** What a caller passes from its workflow_dispatch inputs (a boolean on schedule too: `== true`). */
const CALLER_PASSES = {
  resume: '${{ inputs.resume == true }}',
  fresh: '${{ inputs.fresh == true }}',
  'checkpoint-id': '${{ inputs.checkpoint-id }}',
};
/** The repository settings a workflow names, with GitHub's UI path, in its comments (joined over lines). */
const SETTINGS = {
  pullRequests:
    'Settings → Actions → General → Workflow permissions → "Allow GitHub Actions to create and approve pull requests"',
  secrets: 'Settings → Secrets and variables → Actions',
};
const comments = (text: string) =>
  text
    .split('\n')
    .filter((l) => /^\s*#/.test(l))
    .map((l) => l.replace(/^\s*#\s?/, ''))
    .join(' ')
    .replace(/\s+/g, ' ');

describe('the reusable workflow', () => {
  it('with parallel 1, is one job running checkout (whole history, no credential left in .git/config), setup-node (no dependency cache) and the action, on node24 versions', () => {
    expect(Object.keys(reusable.jobs)).toEqual(['agent-loop', 'plan', 'work', 'reduce']);
    expect(job.if).toBe('inputs.parallel <= 1');
    expect(job.steps!.map((s) => s.uses)).toEqual([
      'actions/create-github-app-token@v3',
      'actions/checkout@v7',
      'actions/setup-node@v7',
      'agent-loop/agent-loop@v1',
    ]);
    expect(job.steps![1]!.with).toEqual({
      'fetch-depth': 0,
      'persist-credentials': false,
      token: '${{ steps.app-token.outputs.token || secrets.github-token || github.token }}',
    });
    expect(job.steps![2]!.with).toEqual({
      'node-version': '${{ inputs.node-version }}',
      'package-manager-cache': false,
    });
  });

  it("passes every workflow input that is not the job's own to the action under its name", () => {
    const own = ['node-version', 'runs-on', 'timeout-minutes', 'app-client-id', 'parallel'];
    for (const name of Object.keys(call.inputs).filter((n) => !own.includes(n))) {
      expect([name, String(actionStep.with![name])]).toEqual([
        name,
        expect.stringMatching(new RegExp(`^\\$\\{\\{ inputs\\.${name}( \\|\\| ''| \\|\\| vars\\.[A-Z_]+)? \\}\\}$`)),
      ]);
    }
  });

  it('with every input at its default, the action accepts what it receives', () => {
    // What the runner gives the action: each value evaluated by GitHub's evaluator with the inputs'
    // defaults, no secret, no repository variable, no App token, then passed as a string.
    const inputs = Object.fromEntries(
      Object.entries(call.inputs).map(([n, d]) => [n, d.default ?? { string: '', number: 0, boolean: false }[d.type]]),
    );
    const contexts = {
      inputs,
      secrets: {},
      vars: {},
      steps: { 'app-token': { outputs: {} } },
      github: { token: 'ghs_x' },
    };
    const value = (name: string) => asInput(evaluate(actionStep.with![name], contexts));
    const env = Object.fromEntries(Object.keys(actionStep.with!).map((name) => [inputEnv(name), value(name)]));
    const { options } = loadActionConfig(env, () => {
      throw Object.assign(new Error('missing'), { code: 'ENOENT' });
    });
    expect(options).toMatchObject({
      agent: 'claude',
      label: 'agent-loop',
      maxIterations: 100,
      maxRetriesPerStep: 3,
      maxIterationsPerIssue: 20,
      maxConsecutiveEscalations: 2,
      fresh: false,
      installAgent: true,
      draftPr: false,
    });
    expect(options).not.toHaveProperty('sliceMinutes', expect.anything());
    expect(options).not.toHaveProperty('maxCostUsd', expect.anything());
  });

  it('types its inputs, with the defaults asked for', () => {
    expect(call.inputs).toMatchObject({
      // Empty: claude, or command when agent-command is given (issue 15: agent-command alone means command).
      agent: { type: 'string', default: '' },
      label: { type: 'string', default: 'agent-loop' },
      'draft-pr': { type: 'boolean', default: false },
      fresh: { type: 'boolean', default: false },
      'install-agent': { type: 'boolean', default: true },
      'node-version': { type: 'string', default: '24' },
      'runs-on': { type: 'string', default: 'ubuntu-latest' },
      'timeout-minutes': { type: 'number', default: 60 },
      'max-iterations': { type: 'number' },
      'checkpoint-id': { type: 'string', default: '' },
    });
    expect(job['runs-on']).toBe('${{ inputs.runs-on }}');
    expect(job['timeout-minutes']).toBe('${{ inputs.timeout-minutes }}');
  });

  it('declares the five secrets, optional, and hands them to the action', () => {
    expect(Object.keys(call.secrets).sort()).toEqual([
      'anthropic-api-key',
      'app-private-key',
      'discord-webhook',
      'github-token',
      'openai-api-key',
    ]);
    for (const s of Object.values(call.secrets)) expect(s.required).toBe(false);
    expect(actionStep.env).toEqual({
      ANTHROPIC_API_KEY: '${{ secrets.anthropic-api-key }}',
      OPENAI_API_KEY: '${{ secrets.openai-api-key }}',
      CODEX_API_KEY: '${{ secrets.openai-api-key }}',
    });
    expect(actionStep.with!['discord-webhook']).toBe('${{ secrets.discord-webhook }}');
  });

  it("issue 15: a GitHub App's token (app-client-id, app-private-key), else the github-token secret, replaces the workflow token for the checkout and the action (its pushes start CI)", () => {
    // A secret named GITHUB_TOKEN or github_token is refused by GitHub (reserved prefix); github-token is not.
    expect(Object.keys(call.secrets).filter((n) => /^github_/i.test(n))).toEqual([]);
    const app = job.steps!.find((s) => s.id === 'app-token')!;
    expect(app).toMatchObject({
      if: "inputs.app-client-id != ''",
      uses: 'actions/create-github-app-token@v3',
      with: { 'client-id': '${{ inputs.app-client-id }}', 'private-key': '${{ secrets.app-private-key }}' },
    });
    expect(call.inputs['app-client-id']).toMatchObject({ type: 'string', default: '' });
    const token = '${{ steps.app-token.outputs.token || secrets.github-token || github.token }}';
    const checkout = job.steps!.find((s) => s.uses?.startsWith('actions/checkout@'))!;
    expect(job.steps!.indexOf(app)).toBeLessThan(job.steps!.indexOf(checkout));
    expect(actionStep.with!['github-token']).toBe(token);
    expect(checkout.with!.token).toBe(token);
  });

  it('issue 15: the pause switch reaches the action from the input paused or the repository variable AGENT_LOOP_PAUSED', () => {
    expect(call.inputs.paused).toMatchObject({ type: 'boolean', default: false });
    expect(actionStep.with!.paused).toBe('${{ inputs.paused || vars.AGENT_LOOP_PAUSED }}');
    expect(example.jobs[Object.keys(example.jobs)[0]!]!.with!.paused).toBe("${{ vars.AGENT_LOOP_PAUSED == 'true' }}");
  });

  it('runs one at a time per repository and label', () => {
    expect(job.concurrency ?? reusable.concurrency).toEqual({
      group: 'agent-loop-${{ github.repository }}-${{ inputs.label }}',
      'cancel-in-progress': false,
    });
  });

  it('maps every output of the action to a workflow output through the job', () => {
    expect(Object.keys(call.outputs).sort()).toEqual(Object.keys(action.outputs).sort());
    for (const name of Object.keys(action.outputs)) {
      expect(call.outputs[name]!.value).toBe(
        `\${{ jobs.${jobId}.outputs.${name} || jobs.reduce.outputs.${name} || jobs.plan.outputs.${name} }}`,
      );
      for (const fan of ['plan', 'reduce'])
        expect([fan, (reusable.jobs[fan]!.outputs as Node)[name]]).toEqual([
          fan,
          `\${{ steps.${fan}.outputs.${name} }}`,
        ]);
      expect((job.outputs as Node)[name]).toBe(`\${{ steps.${actionStep.id}.outputs.${name} }}`);
    }
  });
});

describe('the reusable workflow with parallel > 1 (issue 16): plan → work → reduce', () => {
  const { plan, work, reduce } = reusable.jobs as Record<string, Job>;
  const stepOf = (j: Job) => j.steps!.find((s) => s.uses?.startsWith('agent-loop/agent-loop@'))!;

  it('takes parallel, a number, default 1', () => {
    expect(call.inputs.parallel).toMatchObject({ type: 'number', default: 1 });
  });

  it('plans only with parallel > 1, claiming up to parallel issues, and outputs the matrix and the wave', () => {
    expect(plan!.if).toBe('inputs.parallel > 1');
    expect(stepOf(plan!).with).toMatchObject({ 'fan-out': 'plan', parallel: '${{ inputs.parallel }}' });
    // No checkout: the plan reads GitHub and the checkpoint only.
    expect(plan!.steps!.map((s) => s.uses)).toEqual(['actions/create-github-app-token@v3', 'agent-loop/agent-loop@v1']);
  });

  it('runs one work job per planned issue, at most parallel at once, none cancelling the others', () => {
    expect(work!.needs).toBe('plan');
    expect(work!.if).toBe("fromJSON(needs.plan.outputs.jobs || '0') > 0");
    expect(work!.strategy).toEqual({
      matrix: '${{ fromJSON(needs.plan.outputs.matrix) }}',
      'max-parallel': '${{ inputs.parallel }}',
      'fail-fast': false,
    });
    expect(stepOf(work!).with).toMatchObject({
      'fan-out': 'work',
      issue: '${{ matrix.issue }}',
      wave: '${{ needs.plan.outputs.wave }}',
    });
    expect(stepOf(work!).env).toEqual(actionStep.env);
    expect(work!.steps!.map((s) => s.uses)).toEqual(job.steps!.map((s) => s.uses));
  });

  it('reduces always once there was a wave (a failed or killed work job is counted lost), one reduce at a time', () => {
    expect(reduce!.needs).toEqual(['plan', 'work']);
    expect(reduce!.if).toBe("always() && needs.plan.result == 'success' && needs.plan.outputs.wave != ''");
    expect(reduce!.concurrency).toEqual({
      group: 'agent-loop-${{ github.repository }}-${{ inputs.label }}-reduce',
      'cancel-in-progress': false,
    });
    expect(stepOf(reduce!).with).toMatchObject({ 'fan-out': 'reduce', wave: '${{ needs.plan.outputs.wave }}' });
  });

  it("each fan-out job passes the action the same inputs as the single job, plus its role's", () => {
    const roleInputs: Record<string, string[]> = {
      plan: ['fan-out', 'parallel'],
      work: ['fan-out', 'issue', 'wave'],
      reduce: ['fan-out', 'wave'],
    };
    for (const [name, j] of Object.entries({ plan, work, reduce })) {
      const own = stepOf(j!).with!;
      expect([name, Object.keys(own).sort()]).toEqual([
        name,
        [...Object.keys(actionStep.with!), ...roleInputs[name]!].sort(),
      ]);
      for (const input of Object.keys(actionStep.with!))
        expect([name, input, own[input]]).toEqual([name, input, actionStep.with![input]]);
    }
  });
});

describe('least privilege (issue 40): each job holds exactly what its role of the action uses', () => {
  it('each job of the reusable workflow: slice, plan, work and reduce; no write permission it never uses', () => {
    expect(Object.fromEntries(Object.entries(reusable.jobs).map(([id, j]) => [id, roleOf(j)]))).toEqual({
      'agent-loop': 'slice',
      plan: 'plan',
      work: 'work',
      reduce: 'reduce',
    });
    for (const [id, j] of Object.entries(reusable.jobs)) {
      expect(unusedWrites(id, j.permissions, roleOf(j))).toEqual([]);
      expect([id, j.permissions]).toEqual([id, ROLE_NEEDS[roleOf(j)]]);
    }
    expect(reusable.permissions).toBeUndefined();
  });

  it('the check fails on a write permission a job holds and never uses (the plan and the reduce held contents and pull-requests: write)', () => {
    const before = { contents: 'write', issues: 'write', 'pull-requests': 'write', actions: 'read' };
    expect(unusedWrites('plan', before, 'plan')).toEqual([
      'plan (plan): contents: write is never used',
      'plan (plan): pull-requests: write is never used',
    ]);
    expect(unusedWrites('agent-loop', before, 'slice')).toEqual([]);
  });

  it("the callers grant what the called workflow's jobs use together; the README's step workflow what a slice uses", () => {
    expect(ALL_ROLES).toEqual(SLICE);
    const [exampleJob] = Object.values(example.jobs);
    expect(exampleJob!.permissions ?? example.permissions).toEqual(ALL_ROLES);
    const caller = readmeCallerWorkflow();
    expect(Object.values(caller.jobs).find(callsReusable)!.permissions ?? caller.permissions).toEqual(ALL_ROLES);
    const step = readmeStepWorkflow();
    const [stepJob] = Object.values(step.jobs);
    expect(stepJob!.permissions ?? step.permissions).toEqual(ROLE_NEEDS.slice);
  });
});

describe('the example caller', () => {
  const [callerJob] = Object.values(example.jobs);

  it('runs on a schedule and by hand, with checkpoint-id, resume and fresh', () => {
    expect((example.on.schedule as { cron: string }[])[0]!.cron).toMatch(/^\S+ \S+ \S+ \S+ \S+$/);
    expect((example.on.workflow_dispatch as { inputs: Node }).inputs).toMatchObject({
      'checkpoint-id': { type: 'string', required: false },
      resume: { type: 'boolean', default: false },
      fresh: { type: 'boolean', default: false },
    });
  });

  it('calls the reusable workflow with the dispatch inputs, the secrets and the permissions it needs', () => {
    expect(Object.keys(example.jobs)).toHaveLength(1);
    expect(callerJob!.uses).toBe(`agent-loop/agent-loop/${REUSABLE}@v1`);
    expect(callerJob!.with).toMatchObject(CALLER_PASSES);
    expect(Object.keys(callerJob!.secrets!).sort()).toEqual(Object.keys(call.secrets).sort());
    // A called workflow's jobs get no more than the caller grants: it grants what they use, together.
    expect(callerJob!.permissions ?? example.permissions).toEqual(ALL_ROLES);
  });
});

describe("the README's workflows (issue 40): both adoption paths resume and start over by hand, and name the settings they need", () => {
  const step = readmeStepWorkflow();
  const stepWith = actionStepOf(step).with!;
  const caller = readmeCallerWorkflow();
  /** The action's inputs the README's step gives it on `event`, as the runner passes them (strings). */
  const stepInputs = (event: string, inputs: Record<string, unknown>) =>
    Object.fromEntries(
      Object.entries(stepWith).map(([name, v]) => [
        name,
        asInput(evaluate(v, { inputs, vars: {}, github: { event_name: event } })),
      ]),
    );
  const dispatchInputs = (w: ShownWorkflow) => w.on.workflow_dispatch?.inputs ?? {};

  it('the step workflow takes resume, fresh and checkpoint-id by hand (workflow_dispatch) and passes them to the action; on schedule they are off', () => {
    expect(dispatchInputs(step)).toMatchObject({
      resume: { type: 'boolean', default: false },
      fresh: { type: 'boolean', default: false },
      'checkpoint-id': { type: 'string', default: '' },
    });
    expect(Object.keys(step.on).sort()).toEqual(['schedule', 'workflow_dispatch']);
    const id = '0b8f4c9e-3f1a-4d2b-9c7e-5a6b7c8d9e0f';
    const dispatched = stepInputs('workflow_dispatch', { resume: true, fresh: false, 'checkpoint-id': id });
    expect(dispatched).toMatchObject({ resume: 'true', fresh: 'false', 'checkpoint-id': id });
    // On schedule there are no inputs: resume and fresh are off (false, or empty: not given).
    const scheduled = stepInputs('schedule', {});
    expect(scheduled).toMatchObject({
      resume: expect.stringMatching(/^(false)?$/),
      fresh: expect.stringMatching(/^(false)?$/),
      'checkpoint-id': '',
    });
    // The action accepts what it receives on either event.
    const env = (inputs: Record<string, string>) =>
      Object.fromEntries(Object.entries(inputs).map(([n, v]) => [inputEnv(n), v]));
    const noFile = () => {
      throw Object.assign(new Error('missing'), { code: 'ENOENT' });
    };
    expect(loadActionConfig(env(dispatched), noFile).options).toMatchObject({ resumeHalted: true, resume: id });
    expect(loadActionConfig(env(scheduled), noFile).options).toMatchObject({ resumeHalted: false, fresh: false });
  });

  it('the caller of the reusable workflow takes them by hand and passes them as the example caller does', () => {
    expect(dispatchInputs(caller)).toMatchObject({
      resume: { type: 'boolean', default: false },
      fresh: { type: 'boolean', default: false },
      'checkpoint-id': { type: 'string' },
    });
    expect(Object.values(caller.jobs).find(callsReusable)!.with).toMatchObject(CALLER_PASSES);
  });

  it("each names the repository settings it needs with GitHub's UI path: the pull-request setting and the secrets", () => {
    for (const [where, text] of [
      [step.where, step.text],
      [caller.where, caller.text],
      [EXAMPLE, read(EXAMPLE)],
    ])
      for (const setting of Object.values(SETTINGS))
        expect([where, comments(text!)]).toEqual([where, expect.stringContaining(setting)]);
  });
});
