/**
 * The action's messages in its own terms (issue 14): everything the bundled action prints in
 * several scenarios (its log and annotations, post's log, the job summary, the outputs) names its
 * inputs and outputs, never a flag of the CLI or `agent-loop status`.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import type { WorkflowRun } from './actionRunner.js';
import { cliVocabulary } from '../src/action/terms.js';
import { writeAgent } from './helpers.js';
import { type GitHubRig, LABEL, startGitHubRig } from './githubRig.js';

let rig: GitHubRig;
beforeAll(async () => {
  rig = await startGitHubRig();
});
afterAll(async () => {
  await rig.close();
});

/** What a person reads of a run: the toolkit's own debug and command lines left out. */
const shown = (r: WorkflowRun) =>
  [r.main.log, r.post.log, r.summary, JSON.stringify(r.outputs)]
    .join('\n')
    .split('\n')
    .filter((l) => !l.startsWith('::debug::') && !l.startsWith('[command]') && !l.startsWith('::add-mask::'))
    .join('\n');

describe("the action's messages (issue 14)", () => {
  it('name its inputs, never CLI flags: a halt and the quiet run after it, a limit, an unknown checkpoint-id, a missing agent, a bad input, an idle run', async () => {
    const { gh, sb } = rig;
    gh.addIssue({ title: 'Make the value good', labels: [LABEL] });
    gh.addIssue({ title: 'Another', labels: ['limited'] });
    const idler = await writeAgent(sb, 'idler', 'echo "looking"');
    const runs: Array<[string, WorkflowRun]> = [];
    const run = async (what: string, runId: number, inputs: Record<string, string>, env: NodeJS.ProcessEnv = {}) => {
      const r = await rig.scheduledRun(runId, idler, inputs, env);
      runs.push([what, r]);
      return r;
    };
    // A suite that cannot be read per test: halted baseline_unreadable, the advice naming the test command.
    const halted = await run('halt', 1401, { 'test-command': 'false' });
    expect(halted.outputs).toMatchObject({ status: 'halted', 'halt-reason': 'baseline_unreadable' });
    const quiet = await run('standing halt', 1402, { 'test-command': 'false' });
    expect(quiet.main.log).toContain('agent-loop is still halted');
    const limit = await run('max iterations', 1403, { label: 'limited', 'max-iterations': '1' });
    expect(limit.outputs).toMatchObject({ status: 'halted', 'halt-reason': 'max_iterations' });
    const unknown = await run('unknown checkpoint-id', 1404, { label: 'limited', 'checkpoint-id': randomUUID() });
    expect(unknown.main.code).toBe(1);
    const missing = await run(
      'missing agent',
      1405,
      { label: 'limited', agent: 'claude', 'agent-command': '', fresh: 'true' },
      { PATH: '/usr/bin:/bin' },
    );
    expect(missing.main.log).toContain('is not on PATH');
    const bad = await run('bad input', 1406, { 'max-iterations': 'lots' });
    expect(bad.main.code).toBe(1);
    const idle = await run('idle', 1407, { label: 'nothing-here' });
    expect(idle.outputs.status).toBe('complete');

    expect(runs.map(([what, r]) => [what, cliVocabulary(shown(r))])).toEqual(runs.map(([what]) => [what, []]));
  });
});
