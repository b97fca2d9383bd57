/**
 * The campaign's input fuzzing (issue 11): every flag of every command, from the schema registry
 * (src/config/options.ts OPTIONS, so a new flag is fuzzed the day it is added), given hostile values: empty,
 * negative, huge, not a number, a FIFO, /dev/zero, a directory, a missing file, a 64 KiB string,
 * a newline followed by a workflow command, another flag. Each (command, flag, value) runs the
 * built CLI in a fresh repository with an agent that leaves a mark when it runs. A case holds
 * when the CLI ends by itself within the bound (no hang), exits 0, 1 or 2 (no crash, no signal),
 * prints no stack trace, and when it refuses (exit 2) names the flag, ran no agent and left the
 * repository as it was; a secret flag's value is never printed back; and every path it was given
 * outside the repository (/dev/zero, the FIFO, /etc/shadow) is still what it was (a --junit-file of
 * /dev/zero once removed /dev/zero: the run deleted "the stale report" before the tests).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, lstatSync, promises as fs } from 'node:fs';
import path from 'node:path';
import { OPTIONS, type OptionInfo } from '../../src/config/options.js';
import { CLI, DONE_REPORT, type Sandbox, createSandbox, git, writeAgent } from '../helpers.js';
import { campaign } from './tally.js';

const tally = campaign('input-fuzz');
/** A case that has not ended by itself after this long is a hang (the CLI is killed). */
const BOUND_MS = 30_000;

/** Cases run side by side, each in a sandbox of its own (a repository, a FIFO, a marking agent). */
const LANES = 3;
interface Lane {
  sb: Sandbox;
  fifo: string;
  agent: string;
  head: string;
}
const lanes: Lane[] = [];
beforeAll(async () => {
  for (let i = 0; i < LANES; i++) {
    const sb = await createSandbox();
    const fifo = path.join(sb.root, 'a-fifo');
    execFileSync('mkfifo', [fifo]);
    const agent = await writeAgent(sb, 'marker', `touch "$NOTES/agent-ran"\necho good > value.txt\n${DONE_REPORT}`);
    lanes.push({ sb, fifo, agent, head: git(sb, 'rev-parse', 'HEAD') });
  }
});
afterAll(async () => {
  await Promise.all(lanes.map((l) => l.sb.cleanup()));
});

/** The hostile values, by what an option takes. */
function hostileValues(o: OptionInfo): string[] {
  const common = [
    '',
    '   ',
    '-1',
    '1e309',
    'NaN',
    '0x10',
    `x${'A'.repeat(64 * 1024)}`,
    'line one\n::error::forged annotation',
    '--max-iterations',
    'ünïcødé ☃',
  ];
  // @FIFO@ and @ROOT@ are the sandbox's, filled in when the case runs.
  const paths = ['@FIFO@', '/dev/zero', '/proc/self/mem', '@ROOT@', '@ROOT@/missing/file', '../../../../etc/shadow'];
  const isPath = /file|dir|prompts|config|plan$/.test(o.flag);
  if (!o.arg) return ['maybe', '2', ''];
  return isPath ? [...paths, ...common.slice(0, 3), common[6] as string, common[7] as string] : common;
}

interface Outcome {
  code: number | null;
  signal: NodeJS.Signals | null;
  out: string;
  timedOut: boolean;
}

function runCase({ sb }: Lane, args: string[]): Promise<Outcome> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: sb.repo,
      env: { ...sb.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const chunks: Buffer[] = [];
    let size = 0;
    const keep = (c: Buffer) => {
      if (size < 4 * 1024 * 1024) {
        chunks.push(c);
        size += c.length;
      }
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, BOUND_MS);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, out: Buffer.concat(chunks).toString('utf8'), timedOut });
    });
  });
}

/** Puts the sandbox back as it was between cases: no agent mark, no state, main at its first commit. */
async function reset({ sb, head }: Lane): Promise<void> {
  await fs.rm(path.join(sb.root, 'agent-ran'), { force: true });
  await fs.rm(path.join(sb.repo, '.git', 'agent-loop'), { recursive: true, force: true });
  git(sb, 'checkout', '-q', '-f', 'main');
  git(sb, 'reset', '-q', '--hard', head);
  git(sb, 'clean', '-q', '-fdx');
  for (const b of git(sb, 'for-each-ref', '--format=%(refname:short)', 'refs/heads/agent-loop/')
    .split('\n')
    .filter(Boolean))
    git(sb, 'branch', '-q', '-D', b);
}

/** What a path is (a character device, a FIFO, a file, a directory, missing), to tell that a case left it alone. */
function kindOf(p: string): string {
  try {
    const s = lstatSync(p);
    return s.isCharacterDevice()
      ? 'char device'
      : s.isFIFO()
        ? 'fifo'
        : s.isFile()
          ? 'file'
          : s.isDirectory()
            ? 'directory'
            : s.isSymbolicLink()
              ? 'link'
              : 'other';
  } catch {
    return 'missing';
  }
}

const STACK = /\n\s+at .+:\d+:\d+\)?\n|\b(TypeError|ReferenceError|RangeError|SyntaxError): |Unhandled|uncaught/i;

/** The other flags a case needs to run at all (a quick, bounded run), unless it is the flag under test. */
function baseArgs(command: string, flag: string, agent: string): string[] {
  // cleanup needs what to delete: all, as a dry run (--older-than under test contradicts --all: also a refusal naming it).
  if (command === 'cleanup')
    return ['all', 'dry-run'].filter((f) => f !== flag && flag !== 'older-than').map((f) => `--${f}`);
  if (command !== 'run' && command !== 'plan') return [];
  const base: Record<string, string> = {
    agent: 'command',
    'agent-command': agent,
    'test-command': 'sh check.sh',
    'issues-file': './.beads/issues.jsonl',
    'iteration-delay': '0',
    'max-iterations': '2',
    'agent-timeout-minutes': '1',
  };
  if (command === 'plan') base.goal = 'a goal';
  return Object.entries(base)
    .filter(([f]) => f !== flag)
    .flatMap(([f, v]) => [`--${f}`, v]);
}

const commands = ['run', 'plan', 'status', 'cleanup'] as const;
const cases = commands.flatMap((command) =>
  OPTIONS.filter((o) => (o.commands as readonly string[]).includes(command)).flatMap((o) =>
    hostileValues(o).map((value, i) => ({ command, o, value, i })),
  ),
);

describe('input fuzzing over every flag of every command', () => {
  it(
    `${cases.length} hostile (command, flag, value) cases: no hang, no crash, no echo; a refusal names the flag and touches nothing`,
    async () => {
      const failed: string[] = [];
      const queue = [...cases];
      const work = async (lane: Lane) => {
        for (let c = queue.shift(); c; c = queue.shift()) {
          const { command, o, value: template, i } = c;
          const { sb } = lane;
          await reset(lane);
          const value = template.replace('@FIFO@', lane.fifo).replace('@ROOT@', sb.root);
          const args = [command, `--${o.flag}`, value, ...baseArgs(command, o.flag, lane.agent)];
          const outside = ['/dev/zero', '/etc/shadow', lane.fifo];
          const kinds = outside.map(kindOf);
          const r = await runCase(lane, args);
          const problems: string[] = [];
          outside.forEach((p, k) => {
            if (kindOf(p) !== kinds[k]) problems.push(`${p} was a ${kinds[k]} and is now ${kindOf(p)}`);
          });
          if (r.timedOut) problems.push(`still running after ${BOUND_MS / 1000} s`);
          else if (r.signal || ![0, 1, 2].includes(r.code ?? -1))
            problems.push(`ended with ${r.signal ?? `exit ${r.code}`}`);
          if (STACK.test(r.out)) problems.push('printed a stack trace or an uncaught error');
          if (r.code === 2) {
            const named = r.out.includes(`--${o.flag}`) || r.out.includes(o.env);
            // A refusal for another reason (the repository, a missing agent) may name that instead;
            // the flag must be named when its value is what was refused, which is any exit 2 here but
            // those a valid value leads to (e.g. --source github outside the action).
            if (!named && !/GitHub Action|not a git work tree/.test(r.out))
              problems.push('refused without naming the flag');
            if (existsSync(path.join(sb.root, 'agent-ran'))) problems.push('refused after the agent ran');
            if (git(sb, 'rev-parse', 'HEAD') !== lane.head || git(sb, 'status', '--porcelain') !== '')
              problems.push('refused but changed the repository');
          }
          // A value that is another flag's name is read as that flag, not as the secret: naming it is no echo.
          if (o.secret && value.length >= 6 && !value.startsWith('--') && r.out.includes(value))
            problems.push('printed the secret value back');
          const ok = tally.record(`${command} --${o.flag} #${i}`, problems.length === 0);
          if (!ok)
            failed.push(
              `${command} --${o.flag} ${JSON.stringify(value.slice(0, 40))}: ${problems.join('; ')}\n${r.out.slice(-600)}`,
            );
        }
      };
      await Promise.all(lanes.map(work));
      expect(failed).toEqual([]);
    },
    20 * 60_000,
  );
});
