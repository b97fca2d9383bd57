/**
 * `agent-loop plan` driven by the real Claude Code CLI (2.1.197) against the scripted Anthropic
 * server: one full pipeline (research → decomposition → planning → phase_decomposition →
 * beads_integration → implementation), ending with the phase issues created and the first one
 * implemented (issue 7). The model's turns are scripted by the role the prompt names: one Bash
 * call that writes the phase's artifact where the prompt says (or, for the implementation loop's
 * prompt, makes the sandbox's test pass), then a final message. Claude Code really runs the tools.
 */
import { afterAll, describe, expect, it } from '@jest/globals';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { events, expectExit, git, lastResult, readIssues } from '../helpers.js';
import {
  type AnthropicAnswer,
  type RecordedRequest,
  claudeEnv,
  startAnthropicServer,
  textTurn,
  toolTurn,
  userText,
} from '../support/anthropicServer.js';
import { removeCliSnapshot, report, runLoop, withAgentSandbox } from './support.js';

afterAll(removeCliSnapshot);

const GOAL = 'Make the value good, in two phases';

const bash = (command: string) => toolTurn('Bash', { command, description: command.slice(0, 60) });

/** printf of lines into a file, each line single-quoted (none of them holds a single quote). */
const writeLines = (file: string, lines: string[]) =>
  `printf '%s\\n' ${lines.map((l) => `'${l}'`).join(' ')} > '${file}'`;

/** The artifact's absolute path: the line after "to this file (…):" or "into this directory (…):". */
const ARTIFACT =
  /(?:to this file|into this directory) \(create it; it is agent-loop's state, never committed\):\n(\/\S*\/\.agent-loop\/pipeline\/\S*)/;

const ROLE =
  /You are the (research|decomposition|planning|phase) agent|You are an autonomous coding agent working in this repository/;

function artifactIn(text: string): string {
  const found = ARTIFACT.exec(text)?.[1];
  if (!found) throw new Error(`no artifact path under /.agent-loop/pipeline/ in the prompt:\n${text.slice(0, 2000)}`);
  return found;
}

/** The model, by the role the prompt names: one Bash call writing the artifact (or doing the work), then a final message. */
function byRole(r: RecordedRequest): AnthropicAnswer | undefined {
  if (!r.mainLoop) return undefined;
  const text = userText(r);
  const role = ROLE.exec(text);
  if (JSON.stringify(r.body).includes('tool_result')) {
    return role && !role[1]
      ? textTurn(`Done: value.txt reads good.\n\n${report('0', false, 'phase 1 done')}`)
      : textTurn('Written.');
  }
  switch (role?.[1]) {
    case 'research':
      return bash(
        writeLines(artifactIn(text), [
          '# Research',
          '',
          ...[1, 2, 3, 4, 5, 6].map(
            (i) => `value.txt holds the value; check.sh tests that it reads good. Finding ${i}.`,
          ),
        ]),
      );
    case 'decomposition':
      return bash(
        writeLines(artifactIn(text), [
          '{"goal": "make the value good", "components": [{"name": "prepare", "description": "write ok"}, {"name": "value", "description": "write good", "depends_on": ["prepare"]}]}',
        ]),
      );
    case 'planning':
      return bash(
        writeLines(artifactIn(text), [
          '# Plan',
          '',
          ...[1, 2, 3, 4, 5, 6].map((i) => `Step ${i}: prepare, then make value.txt read good, test with sh check.sh.`),
        ]),
      );
    case 'phase': {
      const dir = artifactIn(text).replace(/\/+$/, '');
      return bash(
        [
          `mkdir -p '${dir}'`,
          writeLines(`${dir}/01-value.md`, [
            '# Make the value good',
            '',
            'Write good to value.txt. Testable: sh check.sh passes. Success: the check passes and nothing else changes.',
          ]),
          writeLines(`${dir}/02-polish.md`, [
            '# Polish the value',
            '',
            'Write done to finished.txt. Testable: finished.txt says done. Success: sh check.sh still passes afterwards.',
          ]),
        ].join(' && '),
      );
    }
    default:
      // The implementation loop's prompt (role[1] undefined), or anything unexpected: make the test pass.
      return role ? bash(`printf 'good\\n' > value.txt && sh check.sh`) : undefined;
  }
}

const ARGS = [
  'plan',
  '--json',
  '--goal',
  GOAL,
  '--agent',
  'claude',
  '--agent-permission-mode',
  'acceptEdits',
  '--agent-allowed-tools',
  'Bash Write Edit Read',
  '--iteration-delay',
  '0',
  '--test-command',
  'sh check.sh',
  '--issues-file',
  './.beads/issues.jsonl',
  // Phase 2 (finished.txt) shows no fix the suite can see: the plan is tested here, not the evidence.
  '--accept-unverified',
  '--slice-iterations',
  '1',
];

interface CheckpointFile {
  id: string;
  phase: string;
  state: Record<string, unknown>;
}

describe('agent-loop plan with Claude Code', () => {
  it('research → decomposition → planning → phases → two issues (2 blocked by 1), then the first one implemented in a one-iteration slice', async () => {
    await withAgentSandbox(async (sb) => {
      const server = await startAnthropicServer(byRole);
      try {
        const r = await runLoop(sb, ARGS, claudeEnv(server.url, 1));
        expectExit(r, 0);

        // The four artifacts, where the prompts said.
        const dir = path.join(sb.repo, '.agent-loop', 'pipeline');
        expect(readdirSync(dir).sort()).toEqual(['decomposition.json', 'phases', 'plan.md', 'research.md']);
        expect(readdirSync(path.join(dir, 'phases')).sort()).toEqual(['01-value.md', '02-polish.md']);

        // One checkpoint: the pipeline's state keys, and the loop's slice ended continuing.
        const cpDir = path.join(sb.repo, '.git', 'agent-loop', 'checkpoints');
        const files = readdirSync(cpDir).filter((f) => f.endsWith('.json'));
        expect(files).toHaveLength(1);
        const cp = JSON.parse(readFileSync(path.join(cpDir, files[0] as string), 'utf8')) as CheckpointFile;
        expect(cp.phase).toBe('beads_integration-complete');
        expect(cp.state).toMatchObject({
          pipeline: { goal: GOAL },
          research_output: expect.stringContaining('# Research'),
          decomposition_result: {
            goal: 'make the value good',
            components: [{ name: 'prepare' }, { name: 'value', depends_on: ['prepare'] }],
          },
          planning_output: expect.stringContaining('# Plan'),
          phase_files: [
            { number: 1, name: 'value', file: 'phases/01-value.md', title: 'Make the value good' },
            { number: 2, name: 'polish', file: 'phases/02-polish.md', title: 'Polish the value' },
          ],
          beads_data: {
            planned: [expect.stringMatching(/^plan-[0-9a-f]{8}-p01$/), expect.stringMatching(/^plan-[0-9a-f]{8}-p02$/)],
            created: [expect.any(String), expect.any(String)],
            alreadyPresent: [],
          },
          // The four planning runs were iterations 1-4 (issue 15: each has its own number, counted toward
          // --max-iterations); the implementation loop's one iteration is the fifth.
          loop: { iteration: 5 },
        });
        expect(cp.state.phase_files).toHaveLength(2);
        const ids = (cp.state.beads_data as { planned: string[]; created: string[] }).planned;
        expect((cp.state.beads_data as { created: string[] }).created).toEqual(ids);

        // The run result: a continuing slice that closed the first issue in its one loop iteration
        // (5 iterations in all: the four planning runs count too).
        expect(lastResult(r.stdout)).toMatchObject({
          status: 'continuing',
          iterations: 5,
          issuesClosed: [ids[0]],
          checkpointId: cp.id,
        });

        // The beads file (empty before): the two phase issues, 2 blocked by 1; 1 closed, 2 still open.
        const issues = readIssues(sb);
        expect(issues.map((i) => [i?.id, i?.title, i?.status])).toEqual([
          [ids[0], 'Phase 1: Make the value good', 'closed'],
          [ids[1], 'Phase 2: Polish the value', 'open'],
        ]);
        expect(issues[1]?.dependencies).toEqual([
          expect.objectContaining({ issue_id: ids[1], depends_on_id: ids[0], type: 'blocks' }),
        ]);

        // Phase 1's work, merged into main; phase 2 is left for a later run.
        expect(git(sb, 'rev-parse', '--abbrev-ref', 'HEAD')).toBe('main');
        expect(git(sb, 'show', 'main:value.txt')).toBe('good');
        // The state directory (checkpoint, prompt, pipeline artifacts) never reaches a commit.
        expect(
          git(sb, 'ls-tree', '-r', '--name-only', 'main')
            .split('\n')
            .filter((f) => f.startsWith('.agent-loop/')),
        ).toEqual([]);
        expect(existsSync(path.join(sb.repo, 'finished.txt'))).toBe(false);
        expect(
          events(r.stdout)
            .filter((e) => e.event === 'pipeline.phase')
            .map((e) => e.message?.split(':')[0]),
        ).toEqual([
          'Phase research complete',
          'Phase decomposition complete',
          'Phase planning complete',
          'Phase phase_decomposition complete',
          'Phase beads_integration complete',
        ]);

        // The server saw the four planning roles in order, then the loop's prompt naming the first issue.
        const firsts = server
          .mainLoopRequests()
          .filter((q) => !JSON.stringify(q.body).includes('tool_result'))
          .map(userText);
        expect(firsts.map((t) => ROLE.exec(t)?.[1] ?? (ROLE.test(t) ? 'implementation' : 'other'))).toEqual([
          'research',
          'decomposition',
          'planning',
          'phase',
          'implementation',
        ]);
        expect(firsts[4]).toContain(`## ${ids[0]}: Phase 1: Make the value good`);
        expect(firsts[4]).not.toContain(`## ${ids[1]}:`);
      } finally {
        await server.close();
      }
    }, []);
  });
});
