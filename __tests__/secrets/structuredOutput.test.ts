/**
 * Issue 43, "the masker sees content, not framing": an agent speaking JSON events (Claude Code's
 * stream-json, Codex's `exec --json`) carries its text inside string values, so a secret it splits
 * across two lines of one message, two content blocks or two messages is never at a line's end.
 * The output masker reads such a line as the strings it carries. The events are the CLIs' recorded
 * ones (__tests__/fixtures/), with their text replaced.
 */
import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { type Stream, createOutputMasker } from '../../src/secrets/outputMasker.js';
import { createRedactor } from '../../src/secrets/redact.js';

const SECRET = 'Zq81-mySecretValue-Kx7Lp0Wn';
const H = 10;
const [HEAD, TAIL] = [SECRET.slice(0, H), SECRET.slice(H)];

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- recorded events, edited by path
const recorded = (file: string): Json[] =>
  readFileSync(new URL(`../fixtures/${file}`, import.meta.url), 'utf8')
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Json);
const claude = recorded('claude-code-2.1.197/success-with-tools.ndjson');
const codex = recorded('codex/success-shell.jsonl');
const copy = (e: Json | undefined): Json => JSON.parse(JSON.stringify(e)) as Json;

/** Claude Code's assistant event with these text blocks. */
function assistant(...texts: string[]): string {
  const e = copy(claude.find((x) => x.type === 'assistant' && x.message.content[0].type === 'text'));
  e.message.content = texts.map((text) => ({ type: 'text', text }));
  return JSON.stringify(e);
}
/** Claude Code's user event with a Bash tool's result (as content and as tool_use_result.stdout). */
function toolResult(stdout: string): string {
  const e = copy(claude.find((x) => x.type === 'user' && x.tool_use_result?.stdout !== undefined));
  e.message.content[0].content = stdout;
  e.tool_use_result.stdout = stdout;
  return JSON.stringify(e);
}
/** Claude Code's assistant event calling Bash with `command`. */
function toolUse(command: string): string {
  const e = copy(claude.find((x) => x.type === 'assistant' && x.message.content[0].name === 'Bash'));
  e.message.content[0].input = { command, description: 'run it' };
  return JSON.stringify(e);
}
/** Codex's item.completed of `type` with the field `field` set to `text`. */
function codexItem(type: 'agent_message' | 'command_execution', field: string, text: string): string {
  const e = copy(codex.find((x) => x.type === 'item.completed' && x.item.type === type));
  e.item[field] = text;
  return JSON.stringify(e);
}

function through(lines: string[], secrets = [SECRET], stream: Stream = 'stdout'): string[] {
  const out: string[] = [];
  const masker = createOutputMasker(createRedactor(secrets), (line) => out.push(line), { quietMs: 0 });
  for (const line of lines) masker.push(line, stream);
  masker.flush();
  return out;
}
/** Everything a JSON reader of the lines would see: every line must still parse. */
const decoded = (lines: string[]): string => lines.map((l) => JSON.stringify(JSON.parse(l))).join('\n');
/** What a reader sees of the secret: the secret itself, either half, or the halves joined by what a decoder removes. */
function leaks(lines: string[], secret = SECRET, h = H): string[] {
  const text = `${lines.join('\n')}\n${decoded(lines)}\n${lines.map((l) => JSON.stringify(JSON.parse(l), null, 0)).join('')}`;
  return [secret, secret.slice(0, h), secret.slice(h)].filter((s) => text.includes(s));
}

describe('issue 43: structured agent output is masked on the text it carries', () => {
  it('masks a secret split across two lines of one message (an escaped \\n inside the text), both halves', () => {
    const out = through([assistant(`The key is ${HEAD}\n${TAIL} and that is all.`)]);
    expect(leaks(out)).toEqual([]);
    expect(JSON.parse(out[0] as string).message.content[0].text).toBe('The key is ***\n*** and that is all.');
  });

  it('masks it across \\r\\n too', () => {
    const out = through([assistant(`key ${HEAD}\r\n${TAIL}`)]);
    expect(JSON.parse(out[0] as string).message.content[0].text).toBe('key ***\r\n***');
  });

  it('masks a secret split across two messages (the end of one event text, the start of the next)', () => {
    const out = through([assistant(`Here it comes: ${HEAD}`), assistant(`${TAIL} was the key.`)]);
    expect(leaks(out)).toEqual([]);
    expect(out.map((l) => JSON.parse(l).message.content[0].text)).toEqual(['Here it comes: ***', '*** was the key.']);
  });

  it('joins two messages across events that carry no text (Codex turn events between two items)', () => {
    const out = through([
      codexItem('agent_message', 'text', `first ${HEAD.slice(0, 4)}`),
      '{"type":"turn.started"}',
      codexItem('agent_message', 'text', `${HEAD.slice(4)}${TAIL} second`),
    ]);
    expect(leaks(out, SECRET, 4)).toEqual([]);
    expect(JSON.parse(out[2] as string).item.text).toBe('*** second');
  });

  it('masks a secret split across two content blocks of one event (across the framing strings between them)', () => {
    const out = through([assistant(`a ${HEAD}`, `${TAIL} b`)]);
    expect(leaks(out)).toEqual([]);
    expect(JSON.parse(out[0] as string).message.content).toEqual([
      { type: 'text', text: 'a ***' },
      { type: 'text', text: '*** b' },
    ]);
  });

  it('masks a short half that no edge rule can tell from text (3 characters) when joined with its other half', () => {
    const cut = SECRET.length - 3;
    const out = through([assistant(`x ${SECRET.slice(0, cut)}\n${SECRET.slice(cut)} y`)]);
    expect(JSON.parse(out[0] as string).message.content[0].text).toBe('x ***\n*** y');
  });

  it('masks a secret split across lines of a tool_result and of a tool call input', () => {
    const out = through([toolUse(`cat <<EOF\nkey ${HEAD}\n${TAIL}\nEOF`), toolResult(`out ${HEAD}\n${TAIL}\ndone`)]);
    expect(leaks(out)).toEqual([]);
    expect(JSON.parse(out[0] as string).message.content[0].input.command).toBe('cat <<EOF\nkey ***\n***\nEOF');
    const result = JSON.parse(out[1] as string);
    expect(result.message.content[0].content).toBe('out ***\n***\ndone');
    expect(result.tool_use_result.stdout).toBe('out ***\n***\ndone');
  });

  it('masks the JSON-escaped form of a secret split inside a message (a JSON snippet the agent prints)', () => {
    const secret = 'Zq81"my/Secret\\Value-Kx7Lp0Wn';
    const escaped = JSON.stringify(secret).slice(1, -1);
    const out = through([assistant(`{"key":"${escaped.slice(0, 12)}\n${escaped.slice(12)}"}`)], [secret]);
    const text = JSON.parse(out[0] as string).message.content[0].text as string;
    expect(text).toBe('{"key":"***\n***"}');
  });

  it('masks the base64 form of a secret split across lines of one message (a wrapped Authorization header)', () => {
    const b64 = Buffer.from(`x-access-token:${SECRET}`).toString('base64');
    const out = through([assistant(`Authorization: Basic ${b64.slice(0, 20)}\n${b64.slice(20)}`)]);
    const text = JSON.parse(out[0] as string).message.content[0].text as string;
    expect(text).not.toContain(b64.slice(0, 20));
    expect(text).not.toContain(b64.slice(20, -2));
  });

  it('masks a token shape nobody gave (ghp_…) split across two messages', () => {
    const token = `ghp_${'A1b2C3d4E5'.repeat(4)}`;
    const out = through([assistant(`token ${token.slice(0, 20)}`), assistant(`${token.slice(20)} ok`)]);
    expect(out.join('\n')).not.toContain(token.slice(4, 20));
    expect(out.join('\n')).not.toContain(token.slice(20));
  });

  it('masks a token shape that starts a line, or a content block, after a word (joined, it would read task-…)', () => {
    const token = `sk-ant-api03-${'Q7w8E9r0T1'.repeat(3)}`;
    const out = through([assistant(`a task\n${token} ok`), assistant('ta', `${token} ok`)]);
    expect(out.join('\n')).not.toContain(token.slice(7));
    expect(JSON.parse(out[0] as string).message.content[0].text).toBe('a task\nsk-ant-*** ok');
  });

  it("masks Codex's events: an agent_message's text, a command's aggregated_output, and across two items", () => {
    const out = through([
      codexItem('agent_message', 'text', `key ${HEAD}\n${TAIL}`),
      codexItem('command_execution', 'aggregated_output', `printed ${HEAD}\n${TAIL}\n`),
      codexItem('agent_message', 'text', `again ${HEAD}`),
      codexItem('agent_message', 'text', `${TAIL} end`),
    ]);
    expect(leaks(out)).toEqual([]);
    expect(JSON.parse(out[0] as string).item.text).toBe('key ***\n***');
    expect(JSON.parse(out[1] as string).item.aggregated_output).toBe('printed ***\n***\n');
  });

  it('masks a secret split between a JSON event on stdout and a raw line on stderr', () => {
    const out: string[] = [];
    const masker = createOutputMasker(createRedactor([SECRET]), (line) => out.push(line), { quietMs: 0 });
    masker.push(assistant(`x ${HEAD.slice(0, 5)}`), 'stdout');
    masker.push(`${HEAD.slice(5)}${TAIL} on stderr`, 'stderr');
    masker.flush();
    expect(JSON.parse(out[0] as string).message.content[0].text).toBe('x ***');
    expect(out[1]).toBe('*** on stderr');
  });

  it('leaves every line it has nothing to mask byte for byte as printed, and keeps the rest of a masked one', () => {
    const lines = readFileSync(
      new URL('../fixtures/claude-code-2.1.197/success-with-tools.ndjson', import.meta.url),
      'utf8',
    )
      .split('\n')
      .filter((l) => l !== '');
    expect(through(lines)).toEqual(lines);
    // Numbers JSON.parse would round, and \u escapes of unmasked strings, stay as printed.
    const line = `{"type":"x","big":12345678901234567890,"note":"caf\\u00e9","text":"a ${HEAD}\\n${TAIL}"}`;
    expect(through([line])).toEqual([
      `{"type":"x","big":12345678901234567890,"note":"caf\\u00e9","text":"a ***\\n***"}`,
    ]);
  });

  it('keeps the framing strings (type, ids) out of the joins: a secret half is not joined to an event type', () => {
    // "type":"text" between the blocks is framing: "…Zq81-mySec" + "text" is no secret, but
    // "…Zq81-mySec" + "retValue…" of the next block is.
    const out = through([assistant(`${SECRET.slice(0, 9)}`, 'plain words')]);
    expect(JSON.parse(out[0] as string).message.content).toEqual([
      { type: 'text', text: '***' },
      { type: 'text', text: 'plain words' },
    ]);
  });

  it('keeps a line that only looks like JSON on the raw path', () => {
    expect(through([`{not json ${HEAD}`, `${TAIL}}`])).toEqual(['{not json ***', '***}']);
  });
});
