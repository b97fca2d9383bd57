import { describe, it, expect, beforeAll, afterAll } from '@jest/globals';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CommandAgent, commandEnv } from '../../src/agents/command.js';
import type { Agent, AgentRunRequest } from '../../src/agents/types.js';
import { LOGS_KEPT, LOG_MAX_BYTES } from '../../src/agents/streamLog.js';
import { maskOutput } from '../../src/agents/maskOutput.js';
import { runTurn } from '../../src/loop/turn.js';
import { stateFiles } from '../../src/persist/stateFiles.js';
import { createLogger } from '../../src/report/logger.js';
import { ManualClock } from '../../fakes/index.js';
import { createRedactor } from '../../src/secrets/redact.js';

let dir: string;
let promptFile: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'agent-loop-command-'));
  promptFile = join(dir, 'prompt.md');
  writeFileSync(promptFile, 'PROMPT FROM FILE\n');
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

function request(over: Partial<AgentRunRequest> = {}): AgentRunRequest {
  return {
    prompt: 'PROMPT ON STDIN',
    iteration: 3,
    issueIds: ['12', '15'],
    cwd: dir,
    promptFile,
    timeoutMs: 30_000,
    ...over,
  };
}

describe('CommandAgent', () => {
  it('is called Command unless told otherwise', () => {
    expect(new CommandAgent({ command: 'true' }).displayName).toBe('Command');
    expect(new CommandAgent({ command: 'true', displayName: 'Aider' }).displayName).toBe('Aider');
  });

  it('gives the command the AGENT_LOOP_* env, the prompt file, the prompt on stdin and the cwd', async () => {
    const agent = new CommandAgent({
      command: [
        'echo "ids=$AGENT_LOOP_ISSUE_IDS"',
        'echo "iteration=$AGENT_LOOP_ITERATION"',
        'echo "base=$BASE_VAR"',
        'echo "file=$(cat "$AGENT_LOOP_PROMPT_FILE")"',
        'echo "stdin=$(cat)"',
        'echo "cwd=$(pwd -P)"',
      ].join('; '),
      env: { PATH: process.env['PATH'], BASE_VAR: 'from-base' },
    });
    const lines: string[] = [];
    const r = await agent.run(request({ onLine: (line) => lines.push(line) }));
    expect(r.ok).toBe(true);
    expect(r.exitCode).toBe(0);
    expect(r.failure).toBeUndefined();
    expect(lines).toEqual([
      'ids=12,15',
      'iteration=3',
      'base=from-base',
      'file=PROMPT FROM FILE',
      'stdin=PROMPT ON STDIN',
      expect.stringMatching(/^cwd=\/.*agent-loop-command-/),
    ]);
    expect(r.outputTail).toContain('ids=12,15');
  });

  it('commandEnv adds to the base env without changing it', () => {
    const base = { PATH: '/bin', AGENT_LOOP_ITERATION: 'old' };
    const env = commandEnv(base, request({ issueIds: [] }));
    expect(env).toMatchObject({
      PATH: '/bin',
      AGENT_LOOP_ISSUE_IDS: '',
      AGENT_LOOP_ITERATION: '3',
      AGENT_LOOP_PROMPT_FILE: promptFile,
    });
    expect(base.AGENT_LOOP_ITERATION).toBe('old');
  });

  it('commandEnv tells the TDD phase and test under --workflow tdd only (docs/agents.md), never a stale one from the base env', () => {
    const base = { PATH: '/bin', AGENT_LOOP_TDD_PHASE: 'GREEN', AGENT_LOOP_TDD_TEST: 'stale' };
    expect(commandEnv(base, request({ tdd: { phase: 'RED', test: 'add two numbers' } }))).toMatchObject({
      AGENT_LOOP_TDD_PHASE: 'RED',
      AGENT_LOOP_TDD_TEST: 'add two numbers',
    });
    const implement = commandEnv(base, request({}));
    expect(implement.AGENT_LOOP_TDD_PHASE).toBeUndefined();
    expect(implement.AGENT_LOOP_TDD_TEST).toBeUndefined();
  });

  it('parses the report block from the end of the output', async () => {
    const script = join(dir, 'report.sh');
    writeFileSync(
      script,
      [
        'echo "working..."',
        "echo '```yaml'",
        "echo 'work_remaining: Phase_2 Phase_3'",
        "echo 'requires_continuation: false'",
        "echo 'summary: did phase 1'",
        "echo '```'",
      ].join('\n'),
    );
    const r = await new CommandAgent({ command: `sh ${script}` }).run(request());
    expect(r.ok).toBe(true);
    expect(r.report).toMatchObject({
      workRemaining: 'Phase_2 Phase_3',
      workRemainingEmpty: false,
      requiresContinuation: false,
      summary: 'did phase 1',
    });
  });

  it('has no report when the output has none', async () => {
    const r = await new CommandAgent({ command: 'echo hi' }).run(request());
    expect(r.report).toBeUndefined();
  });

  it('issue 42: a background writer the agent left (nohup, SIGTERM ignored) is dead when its turn is over, before any judge tree is made', async () => {
    const target = join(dir, 'written-after-the-turn');
    const agent = new CommandAgent({
      command:
        `(trap '' TERM HUP; : > "${target}.ready"; while :; do echo forged >> "${target}"; sleep 0.05; done) ` +
        `</dev/null >/dev/null 2>&1 & while [ ! -e "${target}.ready" ]; do sleep 0.01; done; echo "writer=$!"; echo done`,
      killGraceMs: 200,
    });
    const r = await agent.run(request());
    expect(r.ok).toBe(true);
    const writer = Number(/writer=(\d+)/.exec(r.outputTail)?.[1]);
    const stat = (() => {
      try {
        return readFileSync(`/proc/${writer}/stat`, 'utf8');
      } catch {
        return undefined; // gone, reaped
      }
    })();
    // Gone, or a zombie waiting for PID 1: it can write nothing more.
    expect(stat === undefined || /\) [ZX] /.test(stat)).toBe(true);
  });

  it('issue 42: a writer the agent started in a session of its own (setsid) is ended too, found by the mark in its environment', async () => {
    const target = join(dir, 'written-by-the-escaped');
    const agent = new CommandAgent({
      command:
        `setsid sh -c 'trap "" TERM HUP; echo $$ > "$0.pid"; while :; do echo forged >> "$0"; sleep 0.05; done' "${target}" ` +
        `</dev/null >/dev/null 2>&1 & while [ ! -s "${target}.pid" ]; do sleep 0.01; done; echo done`,
      killGraceMs: 200,
    });
    const r = await agent.run(request());
    const writer = Number(readFileSync(`${target}.pid`, 'utf8').trim());
    const stat = (() => {
      try {
        return readFileSync(`/proc/${writer}/stat`, 'utf8');
      } catch {
        return undefined;
      }
    })();
    try {
      expect(r.ok).toBe(true);
      // It left the agent's process group: only the mark found it.
      if (stat !== undefined) expect(/\) [ZX] /.test(stat)).toBe(true);
    } finally {
      if (stat !== undefined && !/\) [ZX] /.test(stat)) process.kill(writer, 'SIGKILL');
    }
  });
});

describe('CommandAgent outcome classification', () => {
  it('exit 0 → ok', async () => {
    const r = await new CommandAgent({ command: 'exit 0' }).run(request());
    expect(r).toMatchObject({ ok: true, exitCode: 0, signal: null });
  });

  it('non-zero exit → transient exit_code with the last stderr line', async () => {
    const r = await new CommandAgent({ command: 'echo "first" >&2; echo "rate limited, try later" >&2; exit 2' }).run(
      request(),
    );
    expect(r.ok).toBe(false);
    expect(r.exitCode).toBe(2);
    expect(r.failure).toEqual({
      class: 'transient',
      reason: 'exit_code',
      message: 'exited with code 2: rate limited, try later',
    });
  });

  it('exit 127 → permanent not_found', async () => {
    const r = await new CommandAgent({ command: 'agent-loop-no-such-agent-4f1c --go' }).run(request());
    expect(r.exitCode).toBe(127);
    expect(r.failure).toMatchObject({ class: 'permanent', reason: 'not_found' });
    // What happened; what to fix is the environment advice's, in the words of the surface that ran.
    expect(r.failure?.message).toContain('command not found (the agent command, or a program it runs)');
  });

  it('exit 126 → permanent not_executable', async () => {
    const file = join(dir, 'not-executable.sh');
    writeFileSync(file, 'echo hi\n');
    chmodSync(file, 0o644);
    const r = await new CommandAgent({ command: file }).run(request());
    expect(r.exitCode).toBe(126);
    expect(r.failure).toMatchObject({ class: 'permanent', reason: 'not_executable' });
  });

  it('timeout → transient timeout in minutes', async () => {
    const r = await new CommandAgent({ command: 'sleep 1000', killGraceMs: 1000 }).run(request({ timeoutMs: 300 }));
    expect(r.ok).toBe(false);
    expect(r.failure).toEqual({ class: 'transient', reason: 'timeout', message: 'timed out after 0.01 min' });
  });

  it('abort → transient killed', async () => {
    const controller = new AbortController();
    const r = await new CommandAgent({ command: 'echo started; sleep 1000' }).run(
      request({
        signal: controller.signal,
        onLine: (line) => {
          if (line === 'started') controller.abort();
        },
      }),
    );
    expect(r.failure).toMatchObject({ class: 'transient', reason: 'killed' });
  });

  it('killed by a signal → transient killed naming the signal', async () => {
    const r = await new CommandAgent({ command: 'kill -KILL $$' }).run(request());
    expect(r.signal).toBe('SIGKILL');
    expect(r.failure).toEqual({ class: 'transient', reason: 'killed', message: 'killed by signal SIGKILL' });
  });

  it('spawn failure → permanent spawn_failed', async () => {
    const r = await new CommandAgent({ command: 'echo hi' }).run(request({ cwd: join(dir, 'missing') }));
    expect(r.ok).toBe(false);
    expect(r.failure).toMatchObject({ class: 'permanent', reason: 'spawn_failed' });
    expect(r.failure?.message).toContain('working directory does not exist');
  });
});

const SECRET = 'sk-live-0123456789abcdefSECRET';

describe("CommandAgent keeps its output in the iteration's log (issue 15)", () => {
  it('writes stdout and stderr as printed to logs/iteration-N.log, masked', async () => {
    const agent = new CommandAgent({
      command: 'echo "token=$AGENT_SECRET"; echo "on stderr: $AGENT_SECRET" >&2; echo done',
      env: { PATH: process.env['PATH'], AGENT_SECRET: SECRET },
    });
    const base = join(dir, 'logs', 'iteration-6');
    await agent.run(request({ logBase: base, mask: createRedactor([SECRET]) }));
    const log = readFileSync(`${base}.log`, 'utf8');
    expect(log).not.toContain(SECRET);
    // The two streams interleave as they arrive; each line is there once, masked.
    expect(log.split('\n').sort()).toEqual(['', 'done', 'on stderr: ***', 'token=***']);
  });

  it('stops the log at the cap, saying so, when the agent prints more', async () => {
    const cap = 4096;
    const agent = new CommandAgent({
      command: [
        'echo "token=$AGENT_SECRET"',
        'i=0; while [ $i -lt 400 ]; do echo "line $i of plenty"; i=$((i+1)); done',
        'echo "the end $AGENT_SECRET"',
      ].join('; '),
      env: { PATH: process.env['PATH'], AGENT_SECRET: SECRET },
      logMaxBytes: cap,
    });
    const base = join(dir, 'logs', 'iteration-7');
    const r = await agent.run(request({ logBase: base, mask: createRedactor([SECRET]) }));
    expect(r.ok).toBe(true);
    const log = readFileSync(`${base}.log`, 'utf8');
    expect(log).not.toContain(SECRET);
    expect(log.startsWith('token=***\n')).toBe(true);
    expect(log).toContain('line 0 of plenty\nline 1 of plenty\n');
    // More than the cap was printed: the log stops below it, with a line saying so, and never reaches the end.
    expect(log).not.toContain('the end');
    const [kept, note] = [log.slice(0, log.lastIndexOf('[agent-loop')), log.slice(log.lastIndexOf('[agent-loop'))];
    expect(Buffer.byteLength(kept)).toBeLessThanOrEqual(cap);
    expect(note).toBe(
      `[agent-loop: the rest of this output is left out, the log stops at ${Buffer.byteLength(kept)} bytes]\n`,
    );
  });

  it('keeps a line longer than a piece whole in the log, a secret across a cut masked', async () => {
    // 40 KiB of x, the secret, 40 KiB of y on one line: runProcess hands it over in 16 KiB pieces.
    const agent = new CommandAgent({
      command: `printf '%s' "$(head -c 20000 /dev/zero | tr '\\0' x)"; printf '%s' "$AGENT_SECRET"; head -c 20000 /dev/zero | tr '\\0' y; echo`,
      env: { PATH: process.env['PATH'], AGENT_SECRET: SECRET },
    });
    const base = join(dir, 'logs', 'iteration-8');
    await agent.run(request({ logBase: base, mask: createRedactor([SECRET]) }));
    const lines = readFileSync(`${base}.log`, 'utf8').split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).not.toContain(SECRET);
    expect(lines[0]).toMatch(/^x{1000}[\s\S]*\*\*\*[\s\S]*y{1000}$/);
  });

  it('makes the log at the first line the agent prints: an agent that prints nothing leaves none', async () => {
    const base = join(dir, 'logs', 'iteration-9');
    const quiet = await new CommandAgent({ command: 'true' }).run(request({ logBase: base }));
    expect(quiet.ok).toBe(true);
    expect(existsSync(`${base}.log`)).toBe(false);
    await new CommandAgent({ command: 'sleep 0.2; echo late' }).run(request({ logBase: base }));
    expect(readFileSync(`${base}.log`, 'utf8')).toBe('late\n');
  });

  it('uses the same cap as the claude and codex logs, and writes no log when none is asked for', async () => {
    expect(LOG_MAX_BYTES).toBe(32 * 1024 * 1024);
    const r = await new CommandAgent({ command: 'echo hi' }).run(request());
    expect(r.ok).toBe(true);
    expect(existsSync(join(dir, 'logs', 'iteration-3.log'))).toBe(false);
  });
});

/** One agent turn of `agent` as iteration `iteration`, with `stateDir` as the state directory, its log kept. */
async function turnIn(stateDir: string, agent: Agent, iteration: number): Promise<void> {
  const clock = new ManualClock();
  await runTurn(
    {
      agent,
      clock,
      logger: createLogger({ json: true, write: () => undefined, clock, redact: (t) => t }),
      cwd: stateDir,
      stateDir,
      files: stateFiles(stateDir),
    },
    { prompt: 'p', iteration, issueIds: ['bd-1'], timeoutMs: 30_000, keepLog: true },
  );
}

/** Runs `test` with a fresh state directory, removed afterwards. */
async function inStateDir(test: (stateDir: string) => Promise<void>): Promise<void> {
  const stateDir = mkdtempSync(join(tmpdir(), 'agent-loop-turn-'));
  try {
    await test(stateDir);
  } finally {
    rmSync(stateDir, { recursive: true, force: true });
  }
}

describe('the one agent turn keeps a command agent log like the others (issue 15)', () => {
  it("removes an earlier run's log of the same number, also when this run's agent prints nothing", () =>
    inStateDir(async (stateDir) => {
      const logs = join(stateDir, 'logs');
      mkdirSync(logs);
      writeFileSync(join(logs, 'iteration-2.log'), 'an earlier run\n');
      writeFileSync(join(logs, 'iteration-2.ndjson'), '{}\n');
      writeFileSync(join(logs, 'iteration-3.log'), 'an earlier run, kept\n');
      await turnIn(stateDir, new CommandAgent({ command: 'true' }), 2);
      expect(readdirSync(logs)).toEqual(['iteration-3.log']);
    }));

  it('a logs path that cannot hold logs (a file, a directory at the log name) never stops the turn, as a log it cannot write never did', () =>
    inStateDir(async (stateDir) => {
      // An agent (or a person) left logs/ a file: the removal of an earlier same-number log must not throw ENOTDIR.
      writeFileSync(join(stateDir, 'logs'), 'not a directory\n');
      await expect(turnIn(stateDir, new CommandAgent({ command: 'echo hi' }), 2)).resolves.toBeUndefined();
      rmSync(join(stateDir, 'logs'));
      // A directory where the log goes: the removal must not throw EISDIR (the log is not written, as before).
      mkdirSync(join(stateDir, 'logs', 'iteration-3.log'), { recursive: true });
      await expect(turnIn(stateDir, new CommandAgent({ command: 'echo hi' }), 3)).resolves.toBeUndefined();
    }));

  it("a run whose numbering restarts (--fresh) keeps its own logs, pruning an earlier run's first", () =>
    inStateDir(async (stateDir) => {
      const logs = join(stateDir, 'logs');
      mkdirSync(logs);
      // An earlier run's 50 logs, 11 to 60.
      for (let n = 11; n <= 60; n++) writeFileSync(join(logs, `iteration-${n}.log`), 'an earlier run\n');
      for (let n = 1; n <= 3; n++) await turnIn(stateDir, new CommandAgent({ command: `echo run ${n}` }), n);
      const left = readdirSync(logs);
      expect(left).toHaveLength(LOGS_KEPT);
      for (let n = 1; n <= 3; n++) expect(readFileSync(join(logs, `iteration-${n}.log`), 'utf8')).toBe(`run ${n}\n`);
      // The earlier run's oldest went first.
      expect(left).not.toContain('iteration-11.log');
      expect(left).toContain('iteration-60.log');
    }));

  it('writes logs/iteration-N.log and prunes the oldest logs of every kind, keeping the newest 50', () =>
    inStateDir(async (stateDir) => {
      const logs = join(stateDir, 'logs');
      mkdirSync(logs);
      for (let n = 1; n <= 30; n++) writeFileSync(join(logs, `iteration-${n}.ndjson`), '{}\n');
      for (let n = 31; n <= 60; n++) writeFileSync(join(logs, `iteration-${n}.log`), 'x\n');
      const agent = maskOutput(
        new CommandAgent({
          command: 'echo "key $AGENT_SECRET"',
          env: { PATH: process.env['PATH'], AGENT_SECRET: SECRET },
        }),
        createRedactor([SECRET]),
      );
      await turnIn(stateDir, agent, 61);
      expect(readFileSync(join(logs, 'iteration-61.log'), 'utf8')).toBe('key ***\n');
      const left = readdirSync(logs);
      expect(left).toHaveLength(LOGS_KEPT);
      expect(left).not.toContain('iteration-11.ndjson');
      expect(left).toContain('iteration-12.ndjson');
      expect(left).toContain('iteration-60.log');
    }));
});
