import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { promises as fs, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ClaudeAgent } from '../../src/agents/claude.js';
import { StreamLog, pruneIterationLogs } from '../../src/agents/streamLog.js';
import { STDERR_EVENT, runStreamingCli } from '../../src/agents/streamingCli.js';
import { stateFiles } from '../../src/persist/stateFiles.js';
import { splitArgs } from '../../src/util/args.js';

let dir: string;
beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'claude-agent-'));
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

describe('claude adapter command line', () => {
  it('runs print mode with stream-json and passes every option', () => {
    const agent = new ClaudeAgent({
      model: 'opus',
      maxTurns: 5,
      permissionMode: 'acceptEdits',
      allowedTools: 'Bash Edit',
      extraArgs: ['--add-dir', '/x y'],
    });
    expect(agent.args('sess-1')).toEqual([
      '-p',
      '--output-format',
      'stream-json',
      '--verbose',
      '--model',
      'opus',
      '--max-turns',
      '5',
      '--permission-mode',
      'acceptEdits',
      '--allowedTools',
      'Bash Edit',
      '--resume',
      'sess-1',
      '--add-dir',
      '/x y',
    ]);
    expect(new ClaudeAgent({ permissionMode: 'plan' }).args()).toEqual([
      '-p',
      '--output-format',
      'stream-json',
      '--verbose',
      '--permission-mode',
      'plan',
    ]);
  });

  it('classifies a missing claude executable as permanent not_found', async () => {
    const agent = new ClaudeAgent({
      permissionMode: 'acceptEdits',
      command: path.join(dir, 'no-such-claude'),
      env: { PATH: '/usr/bin:/bin' },
    });
    const r = await agent.run({
      prompt: 'p',
      iteration: 1,
      issueIds: ['a'],
      cwd: dir,
      promptFile: '',
      timeoutMs: 10_000,
    });
    expect(r.ok).toBe(false);
    expect(r.failure?.class).toBe('permanent');
  });
});

describe('--agent-args splitting', () => {
  it('splits like a shell: quotes, escapes, no expansion', () => {
    expect(splitArgs(`--a 'x y' "z \\"q\\"" plain\\ space $HOME`)).toEqual([
      '--a',
      'x y',
      'z "q"',
      'plain space',
      '$HOME',
    ]);
    expect(splitArgs('   ')).toEqual([]);
    expect(() => splitArgs(`--a 'open`)).toThrow(/unterminated ' quote/);
  });
});

describe('iteration stream logs', () => {
  it('keep a stdout line longer than the line cap as one line (it reaches the parser in pieces)', async () => {
    const logBase = path.join(dir, 'logs', 'iteration-1');
    const script = `process.stdout.write(JSON.stringify({ type: 'assistant', text: 'x'.repeat(9 * 1024 * 1024) }) + '\\n' + JSON.stringify({ type: 'result' }) + '\\n')`;
    const pieces: string[] = [];
    await runStreamingCli({
      command: process.execPath,
      args: ['-e', script],
      request: { prompt: 'p', iteration: 1, issueIds: ['a'], cwd: dir, promptFile: '', timeoutMs: 30_000, logBase },
      parser: { push: (line) => (pieces.push(line), []) },
    });
    expect(pieces.length).toBeGreaterThan(2);
    const lines = readFileSync(`${logBase}.ndjson`, 'utf8').trimEnd().split('\n');
    expect(lines.map((l) => (JSON.parse(l) as { type: string }).type)).toEqual(['assistant', 'result']);
  });

  it('keep a stderr line printed in the middle of an overlong stdout line out of that line', async () => {
    const logBase = path.join(dir, 'logs', 'iteration-1');
    // The agent prints most of a 9 MiB line (the engine cuts its first piece off), then a stderr line,
    // and ends the stdout line only once the engine has had the stderr line (it signals the agent).
    const script = `const fs = require('node:fs'); const put = (fd, s) => { const b = Buffer.from(s); for (let o = 0; o < b.length; ) o += fs.writeSync(fd, b, o); }; const hold = setInterval(() => {}, 1000); process.on('SIGUSR1', () => { put(1, '"}\\n' + JSON.stringify({ type: 'result' }) + '\\n'); clearInterval(hold); }); put(1, JSON.stringify({ type: 'assistant', text: 'x'.repeat(9 * 1024 * 1024) }).slice(0, -2)); put(2, 'warning: slow\\n');`;
    let pid = 0;
    await runStreamingCli({
      command: process.execPath,
      args: ['-e', script],
      request: {
        prompt: 'p',
        iteration: 1,
        issueIds: ['a'],
        cwd: dir,
        promptFile: '',
        timeoutMs: 30_000,
        logBase,
        onSpawn: (p) => (pid = p),
        onLine: (_line, stream) => void (stream === 'stderr' && process.kill(pid, 'SIGUSR1')),
      },
      parser: { push: () => [] },
    });
    const events = readFileSync(`${logBase}.ndjson`, 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string });
    expect(events.map((e) => e.type)).toEqual(['assistant', STDERR_EVENT, 'result']);
  });

  it('keep the final result event when stderr floods: stderr takes at most its share of the cap', async () => {
    const logBase = path.join(dir, 'logs', 'iteration-1');
    const script = `for (let i = 0; i < 200; i++) process.stderr.write('noise '.repeat(20) + i + '\\n'); process.stdout.write('{"type":"result","total_cost_usd":1.5}\\n')`;
    await runStreamingCli({
      command: process.execPath,
      args: ['-e', script],
      request: { prompt: 'p', iteration: 1, issueIds: ['a'], cwd: dir, promptFile: '', timeoutMs: 30_000, logBase },
      parser: { push: () => [] },
      logLimits: { maxBytes: 8_000, stderrMaxBytes: 2_000 },
    });
    const events = readFileSync(`${logBase}.ndjson`, 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string });
    expect(events.at(-1)).toEqual({ type: 'result', total_cost_usd: 1.5 });
    expect(events.filter((e) => e.type === STDERR_EVENT).length).toBeGreaterThan(5);
    expect(events.filter((e) => e.type === 'agent_loop_stderr_truncated')).toHaveLength(1);
    expect(events.some((e) => e.type === 'agent_loop_log_truncated')).toBe(false);
  });

  it('put the truncation marker on a line of its own when the cap falls inside a line', () => {
    const file = path.join(dir, 'logs', 'iteration-2.ndjson');
    const log = new StreamLog(file, 40);
    log.write('{"type":"assistant","text":"', false);
    log.write('x'.repeat(100), false);
    log.close();
    expect(readFileSync(file, 'utf8').split('\n').at(-2)).toBe('{"type":"agent_loop_log_truncated","after_bytes":28}');
  });

  it("keep the agent's stderr among its JSON events, as events of their own", async () => {
    const logBase = path.join(dir, 'logs', 'iteration-1');
    await runStreamingCli({
      command: '/bin/sh',
      args: ['-c', `echo '{"type":"system"}'; echo 'Error: Invalid API key' >&2; echo '{"type":"result"}'`],
      request: { prompt: 'p', iteration: 1, issueIds: ['a'], cwd: dir, promptFile: '', timeoutMs: 10_000, logBase },
      parser: { push: () => [] },
    });
    const events = readFileSync(`${logBase}.ndjson`, 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string });
    expect(events).toContainEqual({ type: STDERR_EVENT, line: 'Error: Invalid API key' });
    expect(events.filter((e) => e.type !== STDERR_EVENT)).toEqual([{ type: 'system' }, { type: 'result' }]);
  });

  it('are capped in size with a visible truncation marker', () => {
    const file = path.join(dir, 'logs', 'iteration-1.ndjson');
    const log = new StreamLog(file, 100);
    for (let i = 0; i < 50; i++) log.write(`{"n":${i}}`);
    log.close();
    const text = readFileSync(file, 'utf8');
    expect(text.length).toBeLessThan(200);
    expect(text.trimEnd().split('\n').pop()).toMatch(/agent_loop_log_truncated/);
  });

  it('keep only the newest N iterations', async () => {
    for (const n of [1, 2, 3, 10, 11]) await fs.writeFile(path.join(dir, `iteration-${n}.ndjson`), '');
    await fs.writeFile(path.join(dir, 'other.txt'), '');
    await pruneIterationLogs(stateFiles(dir), dir, 2);
    expect((await fs.readdir(dir)).sort()).toEqual(['iteration-10.ndjson', 'iteration-11.ndjson', 'other.txt']);
  });
});
