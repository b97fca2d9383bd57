/**
 * Issue 43: a value the user supplied (a path, an issue id, a title) is printed through
 * src/util/printable.ts on every surface: a newline in it never starts a line of its own (in the
 * action's log, `::error::…` at a line's start is a workflow command), and 50 MB of title is not
 * 50 MB of log.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cannotStartMessage } from '../../src/action/runReport.js';
import { FileCheckpointStore } from '../../src/checkpoint/fileStore.js';
import { main } from '../../src/cli/main.js';
import { describeTargets } from '../../src/core/describe.js';
import { initialLoopState } from '../../src/core/state.js';
import { isWorkflowCommand } from '../../src/report/workflowCommands.js';
import { ManualClock } from '../../fakes/index.js';
import { cycle } from '../core/fixtures.js';

const HOSTILE = '\n::error::pwned';
let dir: string;
beforeEach(async () => {
  dir = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'printed-safely-')));
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

async function cli(args: string[]): Promise<{ code: number; text: string }> {
  const out: string[] = [];
  const write = (t: string) => void out.push(t);
  const code = await main(args, { cwd: dir, env: {}, stdout: write, stderr: write });
  return { code, text: out.join('') };
}

/** No line of `text` is a workflow command, and none holds a raw control character but the line ends. */
function expectSafeLines(text: string): void {
  for (const line of text.split('\n')) {
    expect(isWorkflowCommand(line)).toBe(false);
    // eslint-disable-next-line no-control-regex -- what must not be there
    expect(line).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
  }
}

describe('user-supplied values printed safely (issue 43)', () => {
  it('an option problem naming a path with a newline: one line, the newline shown as \\n', async () => {
    const config = path.join(dir, `conf${HOSTILE}`);
    await fs.mkdir(config);
    const r = await cli(['run', '--config', config]);
    expect(r.code).toBe(2);
    expect(r.text).toContain(`--config: '${dir}/conf\\n::error::pwned' is a directory`);
    expectSafeLines(r.text);
  });

  it('a run that cannot start, its issues file a path with a newline: each problem one line', async () => {
    const issues = path.join(dir, `issues${HOSTILE}`);
    await fs.mkdir(issues);
    const r = await cli([
      'run',
      '--agent',
      'command',
      '--agent-command',
      'true',
      '--test-command',
      'true',
      '--issues-file',
      issues,
    ]);
    expect(r.code).toBe(2);
    expect(r.text).toContain('issues\\n::error::pwned');
    expectSafeLines(r.text);
  });

  it('a very long path is bounded, its head and its file name kept', async () => {
    const deep = path.join(dir, ...Array.from({ length: 30 }, () => 'a-rather-long-directory-name'));
    await fs.mkdir(path.join(deep, 'conf.yml'), { recursive: true });
    const r = await cli(['run', '--config', path.join(deep, 'conf.yml')]);
    expect(r.code).toBe(2);
    const line = r.text.split('\n').find((l) => l.includes('--config:'))!;
    expect(line).toMatch(/characters cut\]…[^']*\/conf\.yml' is a directory/);
    expect(line.length).toBeLessThan(400);
  });

  it('status with an issue id holding a newline, and a 100,000-character id: each line one line, bounded', async () => {
    await new FileCheckpointStore(dir, { clock: new ManualClock() }).write({
      id: '3b241101-e2bb-4255-8caf-4136c566a962',
      phase: 'beads_integration-complete',
      state: {
        loop: {
          ...initialLoopState(10),
          issuesClosed: [`bd-1${HOSTILE}`, 'x'.repeat(100_000)],
          currentCycle: cycle([`bd-2${HOSTILE}`]),
        },
      },
    });
    const r = await cli(['status', '--state-dir', dir]);
    expect(r.code).toBe(0);
    expect(r.text).toContain('bd-1\\n::error::pwned');
    expect(r.text).toContain('bd-2\\n::error::pwned');
    expectSafeLines(r.text);
    expect(Math.max(...r.text.split('\n').map((l) => l.length))).toBeLessThan(1000);
  });

  it('a 50 MB title in the cycle.start progress line: bounded, one line', () => {
    const title = `Fix it${HOSTILE}${'T'.repeat(50 * 1024 * 1024)}`;
    const said = describeTargets(cycle(['bd-1'], { titles: [title] }));
    expect(said.length).toBeLessThan(400);
    expect(said).toMatch(/^bd-1 "Fix it\\n::error::pwnedT+…\[52,428,\d{3} characters cut\]…T+"$/);
    expectSafeLines(said);
  });

  it("the action's cannot-start message: a problem with a newline stays on its line", () => {
    const message = cannotStartMessage(
      [{ code: 'invalid_input', message: `the input issues-file: 'x${HOSTILE}' is a directory` }],
      false,
    );
    expect(message.split('\n')).toHaveLength(2);
    expectSafeLines(message);
  });
});

describe('arguments echoed in usage errors (issue 43)', () => {
  it('an unexpected argument with a newline and 100,000 characters: one line, bounded', async () => {
    const r = await cli(['run', `stray${HOSTILE}${'y'.repeat(100_000)}`]);
    expect(r.code).toBe(2);
    expect(r.text).toContain("Unexpected argument 'stray\\n::error::pwned");
    expectSafeLines(r.text);
    expect(r.text.length).toBeLessThan(2000);
  });
});
