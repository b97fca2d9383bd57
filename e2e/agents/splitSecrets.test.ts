/**
 * Issue 43, "the masker sees content, not framing", end to end: agent-loop's built CLI driving the
 * real Claude Code CLI (and the real Codex CLI) against the scripted model servers, whose model
 * says the agent's own API key split across two lines of one message and across two messages.
 * Inside the CLIs' JSON events the halves are never at a line's end, so before issue 43 neither
 * was masked. Now neither half, nor the key they join into, is in the console output, halt.md, the
 * checkpoint, logs/iteration-1.ndjson or any other file of the state directory.
 */
import { afterAll, describe, expect, it } from '@jest/globals';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import * as anthropic from '../support/anthropicServer.js';
import * as openai from '../support/openaiServer.js';
import { type CliResult, type Sandbox, expectExit, lastResult } from '../helpers.js';
import { claudeArgs, codexArgs, removeCliSnapshot, report, runLoop, withAgentSandbox } from './support.js';

/** The agent's model key (a known secret: agent-loop masks it). The servers do not check it. */
const KEY = 'sk-ant-api03-Q7w8E9r0T1y2U3i4O5p6A7s8D9f0';
const HALF = 20;
const [HEAD, TAIL] = [KEY.slice(0, HALF), KEY.slice(HALF)];
/** What the model says: the key split across two lines of one message, then across two messages. */
const ONE_MESSAGE = `Split over two lines: ${HEAD}\n${TAIL} is what I was given.`;
const FIRST_MESSAGE = `And over two messages: ${HEAD}`;
const SECOND_MESSAGE = `${TAIL}\n\nThat is all for now.\n\n${report('1', true, 'more to do')}`;

/** Every file under `dir`, as text. */
function filesUnder(dir: string): Array<{ file: string; text: string }> {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    return statSync(p).isDirectory() ? filesUnder(p) : [{ file: p, text: readFileSync(p, 'latin1') }];
  });
}

/**
 * The places holding the key, either half, or the halves joined: each place read as printed and
 * with its line breaks (raw or JSON-escaped) taken out, so that the halves of a split meet again.
 */
function holdingTheKey(places: Array<{ file: string; text: string }>): string[] {
  return places.flatMap(({ file, text }) => {
    const joined = text.replace(/\\n|\r?\n/g, '');
    return [KEY, HEAD, TAIL]
      .filter((s) => text.includes(s) || joined.includes(s))
      .map((s) => `${file}: ${s.slice(0, 6)}…`);
  });
}

function places(sb: Sandbox, r: CliResult): Array<{ file: string; text: string }> {
  return [
    ...filesUnder(path.join(sb.repo, '.git', 'agent-loop')),
    { file: 'stdout', text: r.stdout },
    { file: 'stderr', text: r.stderr },
  ];
}

/**
 * The run halted after its one iteration (halt.md written), the key is nowhere, and what the agent
 * said is in the iteration's log, valid JSON, with *** where the halves were (masked, not lost).
 */
function expectMaskedEverywhere(sb: Sandbox, r: CliResult, eventType: string): void {
  expectExit(r, 1);
  expect(lastResult(r.stdout)).toMatchObject({ status: 'halted', haltReason: 'max_iterations', iterations: 1 });
  expect(existsSync(path.join(sb.repo, '.git', 'agent-loop', 'halt.md'))).toBe(true);
  expect(holdingTheKey(places(sb, r))).toEqual([]);
  const log = readFileSync(path.join(sb.repo, '.git', 'agent-loop', 'logs', 'iteration-1.ndjson'), 'utf8');
  const events = log
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  const said = JSON.stringify(events.filter((e) => e.type === eventType));
  expect(said).toContain('Split over two lines: ***\\n*** is what I was given.');
  expect(said).toContain('And over two messages: ***');
  expect(said).toContain('"text":"***\\n\\nThat is all for now.');
}

describe("issue 43: a key split inside the agent CLIs' JSON events is masked before any sink", () => {
  afterAll(removeCliSnapshot);

  it('Claude Code: split across two lines of one message and across two messages, in no output, halt.md, checkpoint, iteration log or state file', async () => {
    await withAgentSandbox(async (sb) => {
      const server = await anthropic.startAnthropicServer((q) =>
        q.mainLoop
          ? anthropic.turn(
              { type: 'text', text: ONE_MESSAGE },
              { type: 'text', text: FIRST_MESSAGE },
              { type: 'text', text: SECOND_MESSAGE },
            )
          : undefined,
      );
      try {
        const r = await runLoop(sb, claudeArgs('--max-iterations', '1'), {
          ...anthropic.claudeEnv(server.url, 1),
          ANTHROPIC_API_KEY: KEY,
        });
        expectMaskedEverywhere(sb, r, 'assistant');
      } finally {
        await server.close();
      }
    });
  });

  it('Codex: split across two lines of one message and across two messages, in no output, halt.md, checkpoint, iteration log or state file', async () => {
    await withAgentSandbox(async (sb) => {
      const server = await openai.startOpenAIServer((q) =>
        q.mainLoop
          ? openai.turn(
              { type: 'message', text: ONE_MESSAGE },
              { type: 'message', text: FIRST_MESSAGE },
              { type: 'message', text: SECOND_MESSAGE },
            )
          : undefined,
      );
      try {
        const home = await openai.writeCodexHome(path.join(sb.root, 'codex-home'), server.url);
        const r = await runLoop(sb, codexArgs('--max-iterations', '1'), {
          ...openai.codexEnv(home),
          OPENAI_API_KEY: KEY,
        });
        expectMaskedEverywhere(sb, r, 'item.completed');
      } finally {
        await server.close();
      }
    });
  });
});
