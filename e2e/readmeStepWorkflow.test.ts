/**
 * Issue 40: the README's step workflow, as written, resumes a halted loop by hand. The agent-loop
 * step's `with:` and `env:` are taken from the README's own block (found by what it holds, not by
 * heading or line), evaluated by GitHub's expression evaluator (@actions/expressions) for a
 * scheduled run and for a manual one (workflow_dispatch with resume: true), and given, as the runner
 * gives them (strings), to the bundled action in the GitHub rig (e2e/githubRig.ts: the REST stand-in,
 * real git over HTTP, the cache and artifacts emulator). Only the agent (a command agent) and the
 * test command come from the rig.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { asInput, evaluate } from '../scripts/workflow-lint/expressions.mjs';
import { DONE_REPORT, writeAgent } from './helpers.js';
import { type GitHubRig, LABEL, startGitHubRig } from './githubRig.js';
import { actionStepOf, readmeStepWorkflow } from './support/readmeWorkflows.js';

let rig: GitHubRig;
beforeEach(async () => {
  rig = await startGitHubRig();
});
afterEach(async () => {
  await rig.close();
});

const workflow = readmeStepWorkflow();
const step = actionStepOf(workflow);

/**
 * What the README's step gives the action on `event`: its `with:` (the action's inputs) and its
 * `env:`, evaluated as GitHub does. A manual run's `inputs` hold every declared input, at its default
 * unless given; a scheduled run's hold none. No repository variable is set.
 */
function stepRun(event: 'schedule' | 'workflow_dispatch', given: Record<string, unknown> = {}) {
  const declared = workflow.on.workflow_dispatch?.inputs ?? {};
  const inputs =
    event === 'workflow_dispatch'
      ? { ...Object.fromEntries(Object.entries(declared).map(([n, d]) => [n, d.default ?? null])), ...given }
      : {};
  const contexts = {
    inputs,
    vars: {},
    secrets: { ANTHROPIC_API_KEY: 'sk-ant-api03-readme-e2e-unused' },
    github: { event_name: event },
  };
  const strings = (values: Record<string, unknown> | undefined) =>
    Object.fromEntries(Object.entries(values ?? {}).map(([k, v]) => [k, asInput(evaluate(v, contexts))]));
  return { inputs: strings(step.with), env: strings(step.env) };
}

describe("the README's step workflow (issue 40)", () => {
  it('a loop halted by a refused pull request stays halted on schedule, and a run by hand with resume: true lands the kept work', async () => {
    const scheduled = stepRun('schedule');
    const resumed = stepRun('workflow_dispatch', { resume: true });
    expect([workflow.where, resumed.inputs.resume]).toEqual([workflow.where, 'true']);

    rig.gh.addIssue({ title: 'Make the value good', labels: [LABEL] });
    const agent = await writeAgent(
      rig.sb,
      'fixer',
      `echo run >> "$NOTES/worked"\necho good > value.txt\n${DONE_REPORT}`,
    );
    const lift = rig.gh.refuse({
      method: 'POST',
      path: '/repos/:owner/:repo/pulls',
      status: 403,
      message: 'GitHub Actions is not permitted to create or approve pull requests.',
      docs: 'https://docs.github.com/rest/pulls/pulls#create-a-pull-request',
    });

    const refused = await rig.scheduledRun(951, agent, scheduled.inputs, scheduled.env);
    expect(refused.main.code).toBe(1);
    expect(refused.outputs).toMatchObject({ status: 'halted', 'halt-reason': 'publish_refused' });
    expect(rig.gh.pulls()).toEqual([]);

    // The next scheduled run: the halt stands (green, nothing run, nothing opened).
    const quiet = await rig.scheduledRun(952, agent, scheduled.inputs, scheduled.env);
    expect(quiet.main.code).toBe(0);
    expect(quiet.outputs).toMatchObject({ status: 'halted', 'halt-reason': 'publish_refused' });
    expect(rig.gh.pulls()).toEqual([]);

    // The setting is allowed; a person runs the workflow by hand with resume ticked.
    lift();
    const landed = await rig.scheduledRun(953, agent, resumed.inputs, resumed.env);
    expect(landed.main.log).toContain('Resuming the halted run: asked to resume it.');
    expect(landed.main.code).toBe(0);
    expect(landed.outputs).toMatchObject({ status: 'complete', 'halt-reason': '' });
    const prs = rig.gh.pulls();
    expect(prs).toHaveLength(1);
    expect(prs[0]).toMatchObject({ pull: { head: 'agent-loop/issue-1', base: 'main' } });
    // One agent run in all: the kept work is landed, not redone.
    expect(await fs.readFile(path.join(rig.sb.root, 'worked'), 'utf8')).toBe('run\n');
  });
});
