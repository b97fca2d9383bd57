/**
 * Issue 43: `status` and `run` share one notion of "resumable". A checkpoint `run` skips (a loop state
 * it cannot read, a timestamp in the future) is shown by status as skipped, with run's reason, never
 * as one a run goes on from; one status says would be resumed (seed 001's empty state) is the one
 * run resumes.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import {
  type Sandbox,
  DONE_REPORT,
  createSandbox,
  events,
  expectExit,
  lastResult,
  runArgs,
  runCli,
  writeAgent,
} from './helpers.js';

const sandboxes: Sandbox[] = [];
afterEach(async () => {
  await Promise.all(sandboxes.splice(0).map((s) => s.cleanup()));
});

const FORGED = 'a1b2c3d4-0000-4000-8000-000000000001';
const EMPTY = 'a1b2c3d4-0000-4000-8000-000000000002';

async function writeCheckpoint(sb: Sandbox, id: string, state: Record<string, unknown>, timestamp: string) {
  const dir = path.join(sb.repo, '.git', 'agent-loop', 'checkpoints');
  await fs.mkdir(dir, { recursive: true });
  await fs.writeFile(
    path.join(dir, `${id}.json`),
    JSON.stringify({ id, phase: 'beads_integration-complete', timestamp, state }),
  );
}

describe('status and run share one notion of resumable (issue 43)', () => {
  it('a checkpoint run skips as invalid is shown skipped, with the reason run gives', async () => {
    const sb = await createSandbox();
    sandboxes.push(sb);
    await writeCheckpoint(sb, FORGED, { loop: { iteration: 'three' } }, '2026-11-01T10:00:00Z');
    const status = await runCli(sb, ['status']);
    expectExit(status, 0);
    const block = status.stdout.slice(status.stdout.indexOf(FORGED));
    expect(block).toContain('run:        skips it, so no run goes on from here: state.loop is not a valid loop state');
    expect(status.stdout).not.toContain('← would be resumed');
    expect(status.stdout).not.toContain(`would resume from ${FORGED}`);

    const agent = await writeAgent(sb, 'agent', `echo good > value.txt\n${DONE_REPORT}`);
    const run = await runCli(sb, runArgs(agent));
    expectExit(run, 0);
    const skipped = events(run.stdout).filter((e) => e.event === 'checkpoint.invalid');
    expect(skipped.map((e) => e.message).join('\n')).toContain(`${FORGED}.json: state.loop is not a valid loop state`);
    expect(lastResult(run.stdout).checkpointId).not.toBe(FORGED);
  });

  it('the checkpoint status says would be resumed (an empty state, as seed 001 writes it) is the one run resumes', async () => {
    const sb = await createSandbox();
    sandboxes.push(sb);
    await writeCheckpoint(sb, EMPTY, {}, '2026-11-01T10:00:00Z');
    const status = await runCli(sb, ['status', '--json']);
    expectExit(status, 0);
    expect((JSON.parse(status.stdout) as { resumable: string | null }).resumable).toBe(EMPTY);

    const agent = await writeAgent(sb, 'agent', `echo good > value.txt\n${DONE_REPORT}`);
    const run = await runCli(sb, runArgs(agent));
    expectExit(run, 0);
    expect(events(run.stdout).filter((e) => e.event === 'checkpoint.invalid')).toEqual([]);
    expect(lastResult(run.stdout)).toMatchObject({ status: 'complete', checkpointId: EMPTY, issuesClosed: ['bd-1'] });
  });
});
