/**
 * The action's messages in its own terms (issue 14, issue 40): everything the bundled action prints
 * in several scenarios (its log and annotations, post's log, the job summary, the outputs, the
 * Discord post) names its inputs and outputs, never a flag of the CLI or `agent-loop status`; a halt
 * is one error annotation; a first run's missing state is a notice.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { WorkflowRun } from './actionRunner.js';
import { cliVocabulary } from './support/vocabulary.js';
import { startDiscordServer } from './support/discordServer.js';
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
  it('name its inputs, never CLI flags: a halt and the quiet run after it, a limit, an unknown checkpoint-id, a missing agent, a bad input, an idle run, an unusable state-dir, a config file, contradicting inputs', async () => {
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
    // Issue 40: no rewriting is left, so the words must be the action's where they are written.
    await fs.writeFile(path.join(sb.root, 'file-not-dir'), 'x');
    const stateDir = await run('unusable state-dir', 1408, { label: 'limited', 'state-dir': '../file-not-dir/state' });
    expect(stateDir.main.log).toContain('the input state-dir:');
    await fs.writeFile(path.join(sb.root, 'cli.yml'), 'max-iteration: 3\n');
    const config = await run(
      'a config file meant for the CLI',
      1409,
      { label: 'limited' },
      {
        AGENT_LOOP_CONFIG: path.join(sb.root, 'cli.yml'),
      },
    );
    expect(config.main.log).toContain("unknown option 'max-iteration': did you mean max-iterations?");
    const contradiction = await run('agent and agent-command', 1410, { label: 'limited', agent: 'claude' });
    expect(contradiction.main.log).toContain('contradict each other');

    expect(runs.map(([what, r]) => [what, cliVocabulary(shown(r))])).toEqual(runs.map(([what]) => [what, []]));
  });

  it("a halt is one error annotation with its reason, message and way to resume; its Discord post names the action's inputs; a first run's missing state is a notice (issue 40)", async () => {
    const { gh, sb } = rig;
    gh.addIssue({ title: 'Red suite', labels: ['words-red'] });
    gh.addIssue({ title: 'Never done', labels: ['words-limit'] });
    const idler = await writeAgent(sb, 'idler-words', 'echo "looking"');
    const discord = await startDiscordServer();
    try {
      const inputs = { 'discord-webhook': discord.url() };
      // Each label is a scope of its own: both runs are their loop's first.
      const red = await rig.scheduledRun(1411, idler, { ...inputs, label: 'words-red', 'test-command': 'false' });
      const limit = await rig.scheduledRun(1412, idler, { ...inputs, label: 'words-limit', 'max-iterations': '1' });
      expect(red.outputs).toMatchObject({ status: 'halted', 'halt-reason': 'baseline_unreadable' });
      expect(limit.outputs).toMatchObject({ status: 'halted', 'halt-reason': 'max_iterations' });

      const annotations = (r: WorkflowRun, kind: string) =>
        [r.main.log, r.post.log]
          .join('\n')
          .split('\n')
          .filter((l) => l.startsWith(`::${kind}::`));
      // One error annotation per halt (the step still fails), carrying the reason, the message and how to resume.
      expect(red.main.code).toBe(1);
      expect(annotations(red, 'error')).toEqual([
        expect.stringMatching(
          /^::error::agent-loop halted \(baseline_unreadable\): NO VERDICT POSSIBLE: .*Later runs stay halted until it is resumed: once the cause is fixed, run the workflow by hand \(workflow_dispatch\) with the input resume: true;/,
        ),
      ]);
      expect(limit.main.code).toBe(1);
      expect(annotations(limit, 'error')).toEqual([
        expect.stringMatching(
          /^::error::agent-loop halted \(max_iterations\): Max iterations \(1\) reached\. Later runs stay halted until it is resumed: raise the input max-iterations/,
        ),
      ]);

      // The first run of a loop has no saved state: a notice, no warning.
      for (const r of [red, limit]) {
        expect(annotations(r, 'notice')).toEqual([
          expect.stringMatching(
            /^::notice::No saved state to restore \(no cache entry .*; no artifact .*\); starting fresh\.$/,
          ),
        ]);
        expect(annotations(r, 'warning').filter((l) => l.includes('No saved state'))).toEqual([]);
      }

      // Discord: one post per halt, in the action's words.
      expect(discord.received).toHaveLength(2);
      const descriptions = (discord.received as Array<{ embeds: Array<{ description: string }> }>).map(
        (b) => b.embeds[0]?.description ?? '',
      );
      expect(descriptions[0]).toContain('name it with the input junit-file');
      expect(descriptions[0]).toContain('run the workflow by hand (workflow_dispatch) with the input resume: true');
      expect(descriptions[1]).toContain('raise the input max-iterations (the count is kept across runs)');
      expect(descriptions[1]).toContain('or start over with the input fresh: true');
      expect(cliVocabulary(JSON.stringify(discord.received))).toEqual([]);
      expect(JSON.stringify(discord.received)).not.toContain('the action:');
    } finally {
      await discord.close();
    }
  });
});
