/**
 * `agent-loop plan` (seed 001) with the built CLI on real git repositories and a scripted command
 * agent that acts by the phase its prompt names (research, decomposition, planning, phase agent, or
 * the implementation loop's prompt) and writes its artifact where the prompt says.
 */
import { describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { existsSync, promises as fs, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import {
  type CliResult,
  type LogEvent,
  type Sandbox,
  createSandbox,
  events,
  expectExit,
  git,
  lastResult,
  ndjson,
  readIssues,
  runCli,
  writeAgent,
} from './helpers.js';

const GOAL = 'Make the value good, in two phases';

/** The agent: writes each planning artifact (or breaks the one named in `broken`), then implements. */
function agentScript(
  over: { research?: string; decomposition?: string; planning?: string; phases?: string; implement?: string } = {},
): string {
  return `P="$AGENT_LOOP_PROMPT_FILE"
A=$(grep -o '/[^ ]*/pipeline/[^ ]*' "$P" | head -1)
echo "$AGENT_LOOP_ITERATION $(head -c 60 "$P" | tr '\\n' ' ')" >> "$NOTES/calls"
if grep -q "You are the research agent" "$P"; then
${over.research ?? `  { echo '# Research'; for i in 1 2 3 4 5 6; do echo "value.txt holds the value; check.sh tests that it reads good. Finding $i."; done; } > "$A"`}
elif grep -q "You are the decomposition agent" "$P"; then
${over.decomposition ?? `  echo '{"goal": "make the value good", "components": [{"name": "prepare", "description": "write ok"}, {"name": "value", "description": "write good", "depends_on": ["prepare"]}]}' > "$A"`}
elif grep -q "You are the planning agent" "$P"; then
${over.planning ?? `  { echo '# Plan'; for i in 1 2 3 4 5 6; do echo "Step $i: prepare, then make value.txt read good, test with sh check.sh."; done; } > "$A"`}
elif grep -q "You are the phase agent" "$P"; then
${
  over.phases ??
  `  mkdir -p "$A"
  { echo '# Prepare the ground'; echo; echo 'Write ok to prepared.txt. Testable: prepared.txt exists and says ok. Success: the file is there.'; } > "$A/01-prepare.md"
  { echo '# Make the value good'; echo; echo 'Write good to value.txt. Testable: sh check.sh passes. Success: the check passes and nothing else changes.'; } > "$A/02-value.md"`
}
else
${over.implement ?? `  if grep -q "Prepare the ground" "$P"; then echo ok > prepared.txt; echo good > value.txt; else echo done > finished.txt; fi`}
  printf 'Done.\\n\\n\`\`\`yaml\\nwork_remaining: 0\\nrequires_continuation: false\\n\`\`\`\\n'
fi
`;
}

const plan = (sb: Sandbox, agent: string, ...extra: string[]) => planWith(sb, {}, agent, ...extra);

const planWith = (sb: Sandbox, env: NodeJS.ProcessEnv, agent: string, ...extra: string[]) =>
  runCli(
    sb,
    [
      'plan',
      '--json',
      '--agent',
      'command',
      '--agent-command',
      agent,
      '--iteration-delay',
      '0',
      '--test-command',
      'sh check.sh',
      '--issues-file',
      './.beads/issues.jsonl',
      // Phase 2's work (finished.txt) shows no fix the suite can see: this file tests the plan, not the
      // evidence (issue 42), so such work lands as before.
      '--accept-unverified',
      ...extra,
    ],
    { env },
  );

const checkpoints = (sb: Sandbox) =>
  readdirSync(path.join(sb.repo, '.git', 'agent-loop', 'checkpoints'))
    .filter((f) => f.endsWith('.json'))
    .map(
      (f) =>
        JSON.parse(readFileSync(path.join(sb.repo, '.git', 'agent-loop', 'checkpoints', f), 'utf8')) as {
          id: string;
          phase: string;
          state: Record<string, unknown>;
          errors?: string[];
        },
    );

describe('agent-loop plan', () => {
  it('runs every phase, leaves each artifact, creates one issue per phase (2 blocked by 1), then implements them', async () => {
    const sb = await createSandbox([]);
    try {
      const r = await plan(sb, await writeAgent(sb, 'planner', agentScript()), '--goal', GOAL);
      expectExit(r, 0);
      const dir = path.join(sb.repo, '.agent-loop', 'pipeline');
      expect(readdirSync(dir).sort()).toEqual(['decomposition.json', 'phases', 'plan.md', 'research.md']);
      expect(readdirSync(path.join(dir, 'phases'))).toEqual(['01-prepare.md', '02-value.md']);
      const [cp] = checkpoints(sb);
      expect(cp?.phase).toBe('implementation-complete');
      expect(cp?.state).toMatchObject({
        pipeline: { goal: GOAL },
        research_output: expect.stringContaining('# Research'),
        planning_output: expect.stringContaining('# Plan'),
        decomposition_result: { goal: 'make the value good', components: [{ name: 'prepare' }, { name: 'value' }] },
        phase_files: [
          { number: 1, name: 'prepare', file: 'phases/01-prepare.md', title: 'Prepare the ground' },
          { number: 2, name: 'value', title: 'Make the value good' },
        ],
        beads_data: {
          planned: [expect.stringMatching(/^plan-[0-9a-f]{8}-p01$/), expect.stringMatching(/-p02$/)],
          created: [expect.any(String), expect.any(String)],
          alreadyPresent: [],
        },
      });
      const ids = (cp?.state.beads_data as { planned: string[] }).planned;
      const issues = readIssues(sb);
      expect(issues.map((i) => [i?.id, i?.title, i?.status])).toEqual([
        [ids[0], 'Phase 1: Prepare the ground', 'closed'],
        [ids[1], 'Phase 2: Make the value good', 'closed'],
      ]);
      expect(issues[1]?.dependencies).toEqual([
        expect.objectContaining({ issue_id: ids[1], depends_on_id: ids[0], type: 'blocks' }),
      ]);
      // Phase 1 was implemented first (2 was blocked by it), each on its own branch, merged.
      const result = lastResult(r.stdout);
      expect(result).toMatchObject({ status: 'complete', issuesClosed: ids, checkpointId: cp?.id });
      expect(git(sb, 'show', 'main:prepared.txt')).toBe('ok');
      expect(git(sb, 'show', 'main:value.txt')).toBe('good');
      expect(git(sb, 'show', 'main:finished.txt')).toBe('done');
      // The issues were committed on main before the loop branched off it.
      expect(git(sb, 'log', '--format=%s', '--first-parent', 'main').split('\n').slice(-2)).toEqual([
        `agent-loop plan: 2 phase issue(s) ${ids.join(' ')}`,
        'initial: value is bad',
      ]);
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
      // Every agent run has its own AGENT_LOOP_ITERATION (issue 15): the four planning phases are
      // iterations 1-4, and the implementation loop counts on from there.
      const numbers = callLines(sb).map((l) => Number(l.split(' ')[0]));
      expect(numbers.slice(0, 4)).toEqual([1, 2, 3, 4]);
      expect(numbers).toEqual(numbers.map((_, i) => i + 1));
      expect(result).toMatchObject({ iterations: numbers.length, successfulIterations: numbers.length });
    } finally {
      await sb.cleanup();
    }
  });
});

/** All NDJSON lines of a run: a failed pipeline ends with its `pipeline.failed` event, not a run result. */
const allEvents = (r: CliResult) => ndjson(r.stdout) as LogEvent[];

/** The agent's calls so far, one line each (see agentScript), and how many were for each role. */
const callLines = (sb: Sandbox): string[] => {
  const file = path.join(sb.root, 'calls');
  return existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .filter((l) => l !== '')
    : [];
};
const callCount = (sb: Sandbox, role: 'research' | 'decomposition' | 'planning' | 'phase') =>
  callLines(sb).filter((l) => l.includes(`You are the ${role} agent`)).length;
const implementationCalls = (sb: Sandbox) => callLines(sb).filter((l) => !/You are the \w+ agent/.test(l)).length;

/** The prompt an agent saved with `keep <name>` at attempt `n`. */
const kept = (sb: Sandbox, name: string, n: number) => readFileSync(path.join(sb.root, `${name}-${n}.md`), 'utf8');
/** Shell: copies the prompt to $NOTES/<name>-<attempt>.md. */
const keep = (name: string) => `  cp "$P" "$NOTES/${name}-$AGENT_LOOP_ITERATION.md"\n`;

/**
 * Shell: SIGKILLs the agent-loop CLI this script runs under. The command agent runs detached
 * (its own process group) through /bin/sh -c, so its parent may be that sh or node itself: walk
 * up the PPid chain to the nearest process running dist/cli/index.js.
 */
const KILL_CLI = `  p=$$
  while [ "$p" -gt 1 ]; do
    if tr '\\0' ' ' < /proc/$p/cmdline | grep -q 'dist/cli/index.js'; then break; fi
    p=$(awk '/^PPid:/ { print $2 }' /proc/$p/status)
  done
  [ "$p" -gt 1 ] || { echo "no agent-loop CLI above $$" >&2; exit 3; }
  echo "$p" > "$NOTES/killed"
  kill -9 "$p"
  exit 0
`;

/** The research report of the default agent (over 200 bytes). */
const GOOD_RESEARCH = `  { echo '# Research'; for i in 1 2 3 4 5 6; do echo "value.txt holds the value; check.sh tests that it reads good. Finding $i."; done; } > "$A"`;
const GOOD_DECOMPOSITION = `  echo '{"goal": "make the value good", "components": [{"name": "prepare", "description": "write ok"}, {"name": "value", "description": "write good", "depends_on": ["prepare"]}]}' > "$A"`;

const RETRY_HEADER = 'The previous attempt of this phase did not leave a usable artifact. Fix exactly this:';
const pipelineDir = (sb: Sandbox) => path.join(sb.repo, '.agent-loop', 'pipeline');
const onlyCheckpoint = (sb: Sandbox) => {
  const all = checkpoints(sb);
  expect(all).toHaveLength(1);
  return all[0] as NonNullable<(typeof all)[number]>;
};
const beadsText = (sb: Sandbox) => readFileSync(path.join(sb.repo, '.beads', 'issues.jsonl'), 'utf8');

describe('agent-loop plan: git', () => {
  // The phase issues are committed on the base branch before the loop starts (src/app/plan.ts, the
  // implement callback, git add --all): the state directory must be in .git/info/exclude by then,
  // or the commit takes .agent-loop/ along (checkpoint, prompt.md, the pipeline's artifacts) and
  // every later cycle commit and merge carries the checkpoint. README: "never committed".
  it('commits only the beads file before the loop: the state directory is never committed', async () => {
    const sb = await createSandbox([]);
    try {
      const r = await plan(sb, await writeAgent(sb, 'planner', agentScript()), '--goal', GOAL);
      expectExit(r, 0);
      const subject = git(sb, 'log', '--format=%H %s', 'main')
        .split('\n')
        .find((l) => l.includes(' agent-loop plan: '));
      expect(subject).toBeDefined();
      expect(git(sb, 'show', '--format=', '--name-only', subject?.split(' ')[0] as string)).toBe('.beads/issues.jsonl');
      expect(
        git(sb, 'ls-tree', '-r', '--name-only', 'main')
          .split('\n')
          .filter((f) => f.startsWith('.agent-loop/')),
      ).toEqual([]);
    } finally {
      await sb.cleanup();
    }
  });
});

describe('agent-loop plan: the hard barrier and its retries', () => {
  it('research never writes its report: 4 attempts, each retry naming the missing file, then research-failed and exit 1, no issues', async () => {
    const sb = await createSandbox([]);
    try {
      const before = beadsText(sb);
      // Attempt 1 writes nothing; the others write next to the artifact, under the wrong name.
      const r = await plan(
        sb,
        await writeAgent(
          sb,
          'planner',
          agentScript({
            research: `${keep('research')}  if [ "$AGENT_LOOP_ITERATION" != 1 ]; then ${GOOD_RESEARCH.trim().replace('> "$A"', '> "$A.txt"')}; fi`,
          }),
        ),
        '--goal',
        GOAL,
      );
      expectExit(r, 1);
      const artifact = path.join(pipelineDir(sb), 'research.md');
      const missing = `research.md is missing: the research phase must write it at ${artifact}`;
      expect(callLines(sb)).toHaveLength(4);
      expect(callCount(sb, 'research')).toBe(4);
      expect(kept(sb, 'research', 1)).not.toContain(RETRY_HEADER);
      for (const n of [2, 3, 4]) expect(kept(sb, 'research', n)).toContain(`${RETRY_HEADER}\n- ${missing}\n`);
      const cp = onlyCheckpoint(sb);
      expect(cp.phase).toBe('research-failed');
      expect(cp.errors).toEqual([missing]);
      expect(cp.state).toEqual({ pipeline: { goal: GOAL, iterations: 4, failedIterations: 0 } });
      const all = allEvents(r);
      expect(all.filter((e) => e.event === 'pipeline.barrier').map((e) => e.attempt)).toEqual([1, 2, 3, 4]);
      const failed = all.filter((e) => e.event === 'pipeline.failed');
      expect(failed).toEqual([expect.objectContaining({ level: 'error', phase: 'research', problems: [missing] })]);
      expect(failed[0]?.message).toContain('failed after 4 attempts');
      expect(failed[0]?.message).toContain(missing);
      expect(all.some((e) => e.event === 'pipeline.implementation')).toBe(false);
      expect(beadsText(sb)).toBe(before);
      expect(git(sb, 'log', '--format=%s')).toBe('initial: value is bad');
    } finally {
      await sb.cleanup();
    }
  });

  it('research writes a stub first, a report second: the retry prompt names the size problem and the phase completes', async () => {
    const sb = await createSandbox([]);
    try {
      const r = await plan(
        sb,
        await writeAgent(
          sb,
          'planner',
          agentScript({
            research: `${keep('research')}  if [ "$AGENT_LOOP_ITERATION" = 1 ]; then echo 'TODO' > "$A"; else\n${GOOD_RESEARCH}\n  fi`,
          }),
        ),
        '--goal',
        GOAL,
      );
      expectExit(r, 0);
      const artifact = path.join(pipelineDir(sb), 'research.md');
      expect(callCount(sb, 'research')).toBe(2);
      expect(kept(sb, 'research', 2)).toContain(
        `${RETRY_HEADER}\n- research.md is too small: 5 bytes, the minimum is 200 bytes (${artifact})\n`,
      );
      const barrier = events(r.stdout).filter((e) => e.event === 'pipeline.barrier');
      expect(barrier).toEqual([
        expect.objectContaining({
          phase: 'research',
          attempt: 1,
          problems: [expect.stringContaining('research.md is too small: 5 bytes')],
        }),
      ]);
      const cp = onlyCheckpoint(sb);
      expect(cp.phase).toBe('implementation-complete');
      expect(cp.state.research_output).toBe(readFileSync(artifact, 'utf8'));
      expect(cp.state.research_output).toContain('Finding 6');
    } finally {
      await sb.cleanup();
    }
  });

  it('decomposition: invalid JSON, then a depends_on naming no component, then valid: complete at attempt 3, each retry naming the previous problem', async () => {
    const sb = await createSandbox([]);
    try {
      const r = await plan(
        sb,
        await writeAgent(
          sb,
          'planner',
          agentScript({
            decomposition: `${keep('decomposition')}  case "$AGENT_LOOP_ITERATION" in
  2) echo '{"goal": "make the value good", "components": [' > "$A" ;;
  3) echo '{"goal": "make the value good", "components": [{"name": "value", "description": "write good", "depends_on": ["ghost"]}]}' > "$A" ;;
  *)
${GOOD_DECOMPOSITION} ;;
  esac`,
          }),
        ),
        '--goal',
        GOAL,
      );
      expectExit(r, 0);
      const artifact = path.join(pipelineDir(sb), 'decomposition.json');
      expect(callCount(sb, 'decomposition')).toBe(3);
      // Research was iteration 1: decomposition's attempts are iterations 2, 3 and 4.
      expect(kept(sb, 'decomposition', 2)).not.toContain(RETRY_HEADER);
      const second = kept(sb, 'decomposition', 3);
      expect(second).toContain(RETRY_HEADER);
      expect(second).toMatch(/- decomposition\.json is not valid JSON \([^\n]+\) \(/);
      expect(second).toContain(`(${artifact})`);
      const third = kept(sb, 'decomposition', 4);
      expect(third).toContain(
        `${RETRY_HEADER}\n- decomposition.json: components[0].depends_on[0]: "ghost" is not the name of a component (the components are "value")\n`,
      );
      // Only the previous attempt's problem, not the one before.
      expect(third).not.toContain('not valid JSON');
      expect(
        events(r.stdout)
          .filter((e) => e.event === 'pipeline.barrier')
          .map((e) => [e.phase, e.attempt]),
      ).toEqual([
        ['decomposition', 1],
        ['decomposition', 2],
      ]);
      const cp = onlyCheckpoint(sb);
      expect(cp.state.decomposition_result).toEqual({
        goal: 'make the value good',
        components: [
          { name: 'prepare', description: 'write ok' },
          { name: 'value', description: 'write good', depends_on: ['prepare'] },
        ],
      });
      // The planning agent got the accepted decomposition.
      expect(callCount(sb, 'research')).toBe(1);
      expect(cp.phase).toBe('implementation-complete');
    } finally {
      await sb.cleanup();
    }
  });

  it('decomposition never valid: decomposition-failed with the schema problem; the next run resumes AT decomposition without calling research again', async () => {
    const sb = await createSandbox([]);
    try {
      const r1 = await plan(
        sb,
        await writeAgent(
          sb,
          'broken',
          agentScript({
            decomposition: `  echo '{"goal": "make the value good", "parts": ["prepare", "value"]}' > "$A"`,
          }),
        ),
        '--goal',
        GOAL,
        '--max-retries-per-step',
        '1',
      );
      expectExit(r1, 1);
      const problem = 'decomposition.json: components: is missing: expected a list of components';
      expect(callCount(sb, 'research')).toBe(1);
      expect(callCount(sb, 'decomposition')).toBe(2);
      const failedCp = onlyCheckpoint(sb);
      expect(failedCp.phase).toBe('decomposition-failed');
      expect(failedCp.errors).toEqual([problem]);
      expect(failedCp.state.research_output).toEqual(expect.stringContaining('# Research'));
      expect(failedCp.state).not.toHaveProperty('decomposition_result');
      expect(allEvents(r1).filter((e) => e.event === 'pipeline.failed')).toEqual([
        expect.objectContaining({ phase: 'decomposition', problems: [problem] }),
      ]);

      // A fixed agent, no flags: the pipeline resumes at decomposition, in the same checkpoint, and
      // its first attempt there is told what was wrong last time.
      const r2 = await plan(
        sb,
        await writeAgent(
          sb,
          'fixed',
          agentScript({
            decomposition: `  cp "$P" "$NOTES/decomposition-prompt"
  echo '{"goal": "make the value good", "components": [{"name": "prepare", "description": "write ok"}, {"name": "value", "description": "write good", "depends_on": ["prepare"]}]}' > "$A"`,
          }),
        ),
      );
      expectExit(r2, 0);
      expect(readFileSync(path.join(sb.root, 'decomposition-prompt'), 'utf8')).toContain(
        `The previous attempt of this phase did not leave a usable artifact. Fix exactly this:\n- ${problem}`,
      );
      expect(callCount(sb, 'research')).toBe(1);
      expect(callCount(sb, 'decomposition')).toBe(3);
      expect(callCount(sb, 'planning')).toBe(1);
      const log = events(r2.stdout);
      expect(log.find((e) => e.event === 'pipeline.start')).toMatchObject({
        checkpointId: failedCp.id,
        phase: 'decomposition',
        resumed: true,
      });
      expect(log.filter((e) => e.event === 'pipeline.previous_error').map((e) => e.message)).toEqual([
        `Last time: ${problem}`,
      ]);
      expect(log.filter((e) => e.event === 'pipeline.phase').map((e) => e.phase)).toEqual([
        'decomposition',
        'planning',
        'phase_decomposition',
        'beads_integration',
      ]);
      const cp = onlyCheckpoint(sb);
      expect(cp.id).toBe(failedCp.id);
      expect(cp.phase).toBe('implementation-complete');
      expect(cp.state.research_output).toBe(failedCp.state.research_output);
      expect(lastResult(r2.stdout)).toMatchObject({ status: 'complete', checkpointId: failedCp.id });
    } finally {
      await sb.cleanup();
    }
  });
});

describe('agent-loop plan: crashes and resumes', () => {
  it("SIGKILL of the CLI during planning: the next run resumes at planning with the first run's research and decomposition, and completes", async () => {
    const sb = await createSandbox([]);
    try {
      const agent = await writeAgent(
        sb,
        'planner',
        agentScript({
          planning: `  if [ ! -e "$NOTES/killed" ]; then\n${KILL_CLI}  fi\n  { echo '# Plan'; for i in 1 2 3 4 5 6; do echo "Step $i: prepare, then make value.txt read good, test with sh check.sh."; done; } > "$A"`,
        }),
      );
      const r1 = await plan(sb, agent, '--goal', GOAL);
      expect({ code: r1.code, signal: r1.signal }).toEqual({ code: null, signal: 'SIGKILL' });
      expect(callLines(sb)).toHaveLength(3);
      const crashed = onlyCheckpoint(sb);
      // The last phase boundary before the crash.
      expect(crashed.phase).toBe('decomposition-complete');
      expect(crashed.state).toEqual({
        pipeline: { goal: GOAL, iterations: 2, failedIterations: 0 },
        research_output: expect.stringContaining('# Research'),
        decomposition_result: expect.objectContaining({
          components: [expect.objectContaining({ name: 'prepare' }), expect.objectContaining({ name: 'value' })],
        }),
      });
      // status shows where the pipeline stands.
      const s = await runCli(sb, ['status', '--json']);
      expectExit(s, 0);
      expect((JSON.parse(s.stdout) as { checkpoints: { pipeline: unknown; resumeAt: string }[] }).checkpoints).toEqual([
        expect.objectContaining({
          resumeAt: 'planning',
          pipeline: expect.objectContaining({
            phases: [
              {
                phase: 'research',
                status: 'complete',
                detail: `research.md, ${String(crashed.state.research_output).length} characters`,
              },
              { phase: 'decomposition', status: 'complete', detail: '2 component(s)' },
              ...['planning', 'phase_decomposition', 'beads_integration', 'implementation'].map((phase) => ({
                phase,
                status: 'pending',
                detail: null,
              })),
            ],
          }),
        }),
      ]);

      const r2 = await plan(sb, agent);
      expectExit(r2, 0);
      expect([
        callCount(sb, 'research'),
        callCount(sb, 'decomposition'),
        callCount(sb, 'planning'),
        callCount(sb, 'phase'),
      ]).toEqual([1, 1, 2, 1]);
      expect(events(r2.stdout).find((e) => e.event === 'pipeline.start')).toMatchObject({
        checkpointId: crashed.id,
        phase: 'planning',
        resumed: true,
      });
      const cp = onlyCheckpoint(sb);
      expect(cp.id).toBe(crashed.id);
      expect(cp.phase).toBe('implementation-complete');
      expect(cp.state.research_output).toBe(crashed.state.research_output);
      expect(cp.state.decomposition_result).toEqual(crashed.state.decomposition_result);
      expect(cp.state.planning_output).toEqual(expect.stringContaining('# Plan'));
      const ids = (cp.state.beads_data as { planned: string[] }).planned;
      expect(readIssues(sb).map((i) => [i?.id, i?.status])).toEqual([
        [ids[0], 'closed'],
        [ids[1], 'closed'],
      ]);
    } finally {
      await sb.cleanup();
    }
  });

  it('SIGKILL during the implementation of phase 1: the re-run goes straight to the loop, each phase issue stays in the beads file once', async () => {
    const sb = await createSandbox([]);
    try {
      const agent = await writeAgent(
        sb,
        'planner',
        agentScript({
          implement: `  if grep -q "Prepare the ground" "$P" && [ ! -e "$NOTES/killed" ]; then\n${KILL_CLI}  fi
  if grep -q "Prepare the ground" "$P"; then echo ok > prepared.txt; echo good > value.txt; else echo done > finished.txt; fi`,
        }),
      );
      const r1 = await plan(sb, agent, '--goal', GOAL);
      expect(r1.signal).toBe('SIGKILL');
      const crashed = onlyCheckpoint(sb);
      const ids = (crashed.state.beads_data as { planned: string[] }).planned;
      expect(crashed.state.beads_data).toEqual({
        file: './.beads/issues.jsonl',
        planned: ids,
        created: ids,
        alreadyPresent: [],
      });
      expect(readIssues(sb).map((i) => i?.id)).toEqual(ids);
      const planningCalls = callLines(sb).length - implementationCalls(sb);

      const r2 = await plan(sb, agent);
      expectExit(r2, 0);
      // No planning phase ran again, beads_integration included.
      expect(callLines(sb).length - implementationCalls(sb)).toBe(planningCalls);
      const log = events(r2.stdout);
      expect(log.find((e) => e.event === 'pipeline.start')).toMatchObject({
        checkpointId: crashed.id,
        phase: 'implementation',
        resumed: true,
      });
      expect(log.filter((e) => e.event === 'pipeline.phase')).toEqual([]);
      const issues = readIssues(sb);
      expect(issues.map((i) => [i?.id, i?.status])).toEqual([
        [ids[0], 'closed'],
        [ids[1], 'closed'],
      ]);
      const committed = git(sb, 'show', 'main:.beads/issues.jsonl')
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => (JSON.parse(l) as { id: string }).id);
      expect(committed).toEqual(ids);
      expect(
        git(sb, 'log', '--format=%s', 'main')
          .split('\n')
          .filter((s) => s.startsWith('agent-loop plan:')),
      ).toHaveLength(1);
      expect(lastResult(r2.stdout)).toMatchObject({ status: 'complete', issuesClosed: ids, checkpointId: crashed.id });
      expect(onlyCheckpoint(sb).state.beads_data).toEqual(crashed.state.beads_data);
      expect(git(sb, 'show', 'main:finished.txt')).toBe('done');
    } finally {
      await sb.cleanup();
    }
  });

  it('a crash after the issues were written but before beads_integration-complete: the re-run finds them there (alreadyPresent) and writes none again', async () => {
    const sb = await createSandbox([]);
    try {
      // SIGKILL right after the CLI commits the new issues on main: a \`git\` first on PATH that runs
      // the real one and, after a commit, kills the CLI (agent-loop's own git runs no hook, so a
      // post-commit hook, as this test used before, no longer fires).
      const realGit = execFileSync('sh', ['-c', 'command -v git'], { env: sb.env }).toString().trim();
      const bin = path.join(sb.root, 'bin');
      await fs.mkdir(bin, { recursive: true });
      await fs.writeFile(
        path.join(bin, 'git'),
        `#!/bin/sh\nNOTES=${JSON.stringify(sb.root)}\n${JSON.stringify(realGit)} "$@" || exit $?\ncase " $* " in *" commit "*) ;; *) exit 0 ;; esac\nif [ ! -e "$NOTES/killed" ]; then\n${KILL_CLI}fi\n`,
        { mode: 0o755 },
      );
      const agent = await writeAgent(sb, 'planner', agentScript());
      const r1 = await planWith(sb, { PATH: `${bin}:${sb.env.PATH}` }, agent, '--goal', GOAL);
      expect(r1.signal).toBe('SIGKILL');
      expect(implementationCalls(sb)).toBe(0);
      const crashed = onlyCheckpoint(sb);
      expect(crashed.phase).toBe('beads_integration-complete');
      const ids = (crashed.state.beads_data as { planned: string[] }).planned;
      const written = beadsText(sb);
      expect(readIssues(sb).map((i) => i?.id)).toEqual(ids);
      // Back to the checkpoint beads_integration wrote before appending the issues (its onPlanned:
      // phase_decomposition-complete with beads_data.planned), as if the crash had come between
      // the append and the beads_integration-complete checkpoint.
      const file = path.join(sb.repo, '.git', 'agent-loop', 'checkpoints', `${crashed.id}.json`);
      const raw = JSON.parse(readFileSync(file, 'utf8')) as { phase: string; state: Record<string, unknown> };
      raw.phase = 'phase_decomposition-complete';
      raw.state.beads_data = { file: './.beads/issues.jsonl', planned: ids };
      await fs.writeFile(file, JSON.stringify(raw, null, 2));

      const r2 = await plan(sb, agent);
      expectExit(r2, 0);
      const log = events(r2.stdout);
      expect(log.find((e) => e.event === 'pipeline.start')).toMatchObject({
        checkpointId: crashed.id,
        phase: 'beads_integration',
        resumed: true,
      });
      const integrated = log.find((e) => e.event === 'pipeline.phase' && e.phase === 'beads_integration');
      expect(integrated).toMatchObject({ planned: ids, created: [], alreadyPresent: ids });
      expect(integrated?.message).toContain('2 were there already');
      const cp = onlyCheckpoint(sb);
      expect(cp.state.beads_data).toEqual({
        file: './.beads/issues.jsonl',
        planned: ids,
        created: [],
        alreadyPresent: ids,
      });
      expect(readIssues(sb).map((i) => [i?.id, i?.status])).toEqual([
        [ids[0], 'closed'],
        [ids[1], 'closed'],
      ]);
      expect(written.split('\n').filter((l) => l !== '')).toHaveLength(2);
      expect(lastResult(r2.stdout)).toMatchObject({ status: 'complete', issuesClosed: ids });
    } finally {
      await sb.cleanup();
    }
  });
});

describe('agent-loop plan: the goal', () => {
  /** A pipeline left at research-failed for GOAL (one quick attempt). */
  const failAtResearch = async (sb: Sandbox) => {
    const r = await plan(
      sb,
      await writeAgent(sb, 'lazy', agentScript({ research: '  :' })),
      '--goal',
      GOAL,
      '--max-retries-per-step',
      '0',
    );
    expectExit(r, 1);
    return onlyCheckpoint(sb);
  };

  it('without --goal and nothing to resume: exit 2 naming --goal, no agent call, no checkpoint', async () => {
    const sb = await createSandbox([]);
    try {
      const r = await plan(sb, await writeAgent(sb, 'planner', agentScript()));
      expectExit(r, 2);
      expect(r.stderr).toContain('agent-loop plan: cannot start');
      expect(r.stderr).toContain('--goal');
      expect(r.stderr).toContain('--goal-file');
      expect(callLines(sb)).toEqual([]);
      expect(existsSync(path.join(sb.repo, '.git', 'agent-loop', 'checkpoints')) ? checkpoints(sb) : []).toEqual([]);
    } finally {
      await sb.cleanup();
    }
  });

  it('another --goal while a pipeline is in progress: exit 2 telling to omit --goal or use --fresh; the same goal resumes; --fresh starts the new one', async () => {
    const sb = await createSandbox([]);
    try {
      const failed = await failAtResearch(sb);
      const agent = await writeAgent(sb, 'planner', agentScript());
      const other = await plan(sb, agent, '--goal', 'Something else entirely');
      expectExit(other, 2);
      expect(other.stderr).toContain(`pipeline ${failed.id} is in progress for another goal ("${GOAL}")`);
      expect(other.stderr).toContain('run without --goal to resume it, or with --fresh to start the new goal');
      expect(callLines(sb)).toHaveLength(1);
      expect(onlyCheckpoint(sb)).toMatchObject({ id: failed.id, phase: 'research-failed' });

      const fresh = await plan(sb, agent, '--goal', 'Something else entirely', '--fresh');
      expectExit(fresh, 0);
      const all = checkpoints(sb);
      expect(all).toHaveLength(2);
      const started = all.find((c) => c.id !== failed.id);
      expect(started).toMatchObject({
        phase: 'implementation-complete',
        state: { pipeline: { goal: 'Something else entirely' } },
      });
      expect(events(fresh.stdout).find((e) => e.event === 'pipeline.start')).toMatchObject({
        checkpointId: started?.id,
        phase: 'research',
        resumed: false,
      });
      // The old pipeline is left as it was.
      expect(all.find((c) => c.id === failed.id)).toMatchObject({ phase: 'research-failed', errors: failed.errors });
    } finally {
      await sb.cleanup();
    }
  });

  it('the same --goal resumes the failed pipeline at research', async () => {
    const sb = await createSandbox([]);
    try {
      const failed = await failAtResearch(sb);
      const r = await plan(sb, await writeAgent(sb, 'planner', agentScript()), '--goal', `  ${GOAL}\n`);
      expectExit(r, 0);
      expect(events(r.stdout).find((e) => e.event === 'pipeline.start')).toMatchObject({
        checkpointId: failed.id,
        phase: 'research',
        resumed: true,
      });
      expect(onlyCheckpoint(sb)).toMatchObject({ id: failed.id, phase: 'implementation-complete' });
    } finally {
      await sb.cleanup();
    }
  });

  it('--goal with --goal-file: exit 2; --goal-file alone: its text is the goal; a missing --goal-file: exit 2', async () => {
    const sb = await createSandbox([]);
    try {
      const agent = await writeAgent(sb, 'planner', agentScript({ research: `${keep('research')}${GOOD_RESEARCH}` }));
      const goalFile = path.join(sb.root, 'goal.md');
      await fs.writeFile(goalFile, '\nMake the value good, read from a file.\nSecond line of the goal.\n\n');
      const both = await plan(sb, agent, '--goal', GOAL, '--goal-file', goalFile);
      expectExit(both, 2);
      expect(both.stderr).toContain('--goal and --goal-file contradict each other');
      const absent = await plan(sb, agent, '--goal-file', path.join(sb.root, 'nope.md'));
      expectExit(absent, 2);
      expect(absent.stderr).toContain("--goal-file: cannot read '");
      expect(absent.stderr).toContain('ENOENT');
      expect(callLines(sb)).toEqual([]);

      const r = await plan(sb, agent, '--goal-file', goalFile);
      expectExit(r, 0);
      const goal = 'Make the value good, read from a file.\nSecond line of the goal.';
      expect(onlyCheckpoint(sb).state.pipeline).toEqual({ goal, iterations: 4, failedIterations: 0 });
      expect(kept(sb, 'research', 1)).toContain(`Goal:\n${goal}\n`);
    } finally {
      await sb.cleanup();
    }
  });
});

describe('agent-loop plan: --plan-prompts and status', () => {
  it('a research.md override is the research prompt, its placeholders filled; an unknown placeholder is warned about and left as written', async () => {
    const sb = await createSandbox([]);
    try {
      const prompts = path.join(sb.root, 'prompts');
      await fs.mkdir(prompts);
      await fs.writeFile(
        path.join(prompts, 'research.md'),
        'You are the research agent, custom edition.\nGOAL<{{goal}}>\nWRITE TO\n{{ artifact }}\nCOLOUR<{{colour}}>\n{{failure}}',
      );
      const r = await plan(
        sb,
        await writeAgent(
          sb,
          'planner',
          agentScript({
            research: `${keep('research')}${GOOD_RESEARCH}`,
            decomposition: `${keep('decomposition')}${GOOD_DECOMPOSITION}`,
          }),
        ),
        '--goal',
        GOAL,
        '--plan-prompts',
        prompts,
      );
      expectExit(r, 0);
      const artifact = path.join(pipelineDir(sb), 'research.md');
      expect(kept(sb, 'research', 1)).toBe(
        `You are the research agent, custom edition.\nGOAL<${GOAL}>\nWRITE TO\n${artifact}\nCOLOUR<{{colour}}>\n`,
      );
      // The other phases keep the built-in templates.
      expect(kept(sb, 'decomposition', 2)).toMatch(
        /^You are the decomposition agent of a planning pipeline in this repository\./,
      );
      const warnings = events(r.stdout).filter((e) => e.event === 'pipeline.template');
      expect(warnings).toEqual([
        expect.objectContaining({ level: 'warn', message: expect.stringContaining('research.md') }),
      ]);
      expect(warnings[0]?.message).toContain('{{colour}}');
    } finally {
      await sb.cleanup();
    }
  });

  it('a --plan-prompts directory that does not exist: exit 2', async () => {
    const sb = await createSandbox([]);
    try {
      const r = await plan(
        sb,
        await writeAgent(sb, 'planner', agentScript()),
        '--goal',
        GOAL,
        '--plan-prompts',
        path.join(sb.root, 'nowhere'),
      );
      expectExit(r, 2);
      expect(r.stderr).toContain('--plan-prompts:');
      expect(r.stderr).toContain('does not exist');
      expect(callLines(sb)).toEqual([]);
    } finally {
      await sb.cleanup();
    }
  });

  it('status --json after a failed research phase shows the research-failed checkpoint, its errors, and that it resumes at research', async () => {
    const sb = await createSandbox([]);
    try {
      const r = await plan(
        sb,
        await writeAgent(sb, 'lazy', agentScript({ research: '  :' })),
        '--goal',
        GOAL,
        '--max-retries-per-step',
        '0',
      );
      expectExit(r, 1);
      const cp = onlyCheckpoint(sb);
      const s = await runCli(sb, ['status', '--json']);
      expectExit(s, 0);
      const status = JSON.parse(s.stdout) as { resumable: string | null; checkpoints: Record<string, unknown>[] };
      expect(status.resumable).toBe(cp.id);
      expect(status.checkpoints).toEqual([
        expect.objectContaining({
          id: cp.id,
          phase: 'research-failed',
          resumable: true,
          wouldResume: true,
          resumeAt: 'research',
          errors: [
            `research.md is missing: the research phase must write it at ${path.join(pipelineDir(sb), 'research.md')}`,
          ],
          loop: null,
          pipeline: {
            goal: GOAL,
            phases: [
              { phase: 'research', status: 'failed', detail: null },
              ...['decomposition', 'planning', 'phase_decomposition', 'beads_integration', 'implementation'].map(
                (phase) => ({ phase, status: 'pending', detail: null }),
              ),
            ],
          },
        }),
      ]);
      // The human-readable form says the same.
      const text = await runCli(sb, ['status']);
      expectExit(text, 0);
      expect(text.stdout).toContain(`phase:      research-failed (resumes at research)`);
      expect(text.stdout).toContain(`pipeline:   ${GOAL}`);
      expect(text.stdout).toMatch(/✗ research +failed/);
      expect(text.stdout).toContain(`research.md is missing`);
    } finally {
      await sb.cleanup();
    }
  });
});
