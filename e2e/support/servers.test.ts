/**
 * Fast tests of the scripted API stand-ins themselves, with plain fetch (no real CLI here).
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as A from './anthropicServer.js';
import * as O from './openaiServer.js';

interface SseEvent {
  event: string | undefined;
  data: Record<string, unknown>;
}

function parseSse(text: string): SseEvent[] {
  return text
    .split('\n\n')
    .filter((chunk) => chunk.trim() !== '')
    .map((chunk) => {
      const lines = chunk.split('\n');
      const event = lines.find((l) => l.startsWith('event: '))?.slice('event: '.length);
      const data = lines
        .filter((l) => l.startsWith('data: '))
        .map((l) => l.slice('data: '.length))
        .join('\n');
      return { event, data: JSON.parse(data) as Record<string, unknown> };
    });
}

async function waitFor(cond: () => boolean, ms = 2000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
}

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (closers.length > 0) await closers.pop()?.();
});

async function anthropic(script: A.AnthropicScript): Promise<A.AnthropicServer> {
  const server = await A.startAnthropicServer(script);
  closers.push(() => server.close());
  return server;
}

async function openai(script: O.OpenAIScript): Promise<O.OpenAIServer> {
  const server = await O.startOpenAIServer(script);
  closers.push(() => server.close());
  return server;
}

/** A body shaped like Claude Code's main-loop requests (it offers the Bash tool). */
const mainLoopBody = (prompt: string, stream = true) => ({
  model: 'claude-test',
  stream,
  max_tokens: 1000,
  system: [{ type: 'text', text: 'You are Claude Code.' }],
  tools: [
    { name: 'Bash', input_schema: { type: 'object' } },
    { name: 'Write', input_schema: { type: 'object' } },
  ],
  messages: [{ role: 'user', content: [{ type: 'text', text: prompt }] }],
});

const postMessages = (url: string, body: unknown) =>
  fetch(`${url}/v1/messages?beta=true`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': 'sk-ant-test' },
    body: JSON.stringify(body),
  });

describe('anthropicServer', () => {
  it('streams a scripted tool turn in Messages API event order, then plays the sequence (repeating the last)', async () => {
    const server = await anthropic(
      A.sequence(
        A.toolTurn('Bash', { command: 'echo hi', description: 'say hi' }, 'Running.'),
        A.textTurn('All done.'),
      ),
    );

    const res = await postMessages(server.url, mainLoopBody('fix the bug'));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const events = parseSse(await res.text());
    expect(events.map((e) => e.event)).toEqual([
      'message_start',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    // Every data payload carries the same type as its event line.
    for (const e of events) expect(e.data.type).toBe(e.event);
    const toolStart = events[5]?.data.content_block as { type: string; name: string; id: string };
    expect(toolStart).toMatchObject({ type: 'tool_use', name: 'Bash' });
    expect(toolStart.id).toMatch(/^toolu_/);
    const json = events
      .filter((e) => (e.data.delta as { type?: string } | undefined)?.type === 'input_json_delta')
      .map((e) => (e.data.delta as { partial_json: string }).partial_json)
      .join('');
    expect(JSON.parse(json)).toEqual({ command: 'echo hi', description: 'say hi' });
    const text = events
      .filter((e) => (e.data.delta as { type?: string } | undefined)?.type === 'text_delta')
      .map((e) => (e.data.delta as { text: string }).text)
      .join('');
    expect(text).toBe('Running.');
    expect(events[9]?.data).toMatchObject({
      delta: { stop_reason: 'tool_use' },
      usage: { output_tokens: expect.any(Number) },
    });

    for (let i = 0; i < 2; i++) {
      const again = parseSse(await (await postMessages(server.url, mainLoopBody('next'))).text());
      expect(again.find((e) => e.event === 'message_delta')?.data).toMatchObject({
        delta: { stop_reason: 'end_turn' },
      });
    }

    expect(server.requests).toHaveLength(3);
    expect(server.requests[0]).toMatchObject({
      method: 'POST',
      path: '/v1/messages?beta=true',
      mainLoop: true,
      mainLoopIndex: 0,
      answered: 'turn',
    });
    expect(server.requests[0]?.headers['x-api-key']).toBe('sk-ant-test');
    expect(A.userText(server.requests[0] as A.RecordedRequest)).toContain('fix the bug');
    expect(server.mainLoopRequests().map((r) => r.mainLoopIndex)).toEqual([0, 1, 2]);
  });

  it('answers unscripted side requests (no Bash tool) with a short text turn, streaming or not', async () => {
    const server = await anthropic(A.sequence(A.errorResponse(500, 'api_error', 'only the main loop fails')));

    const res = await postMessages(server.url, {
      model: 'claude-haiku',
      max_tokens: 50,
      messages: [{ role: 'user', content: 'title?' }],
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      type: 'message',
      role: 'assistant',
      model: 'claude-haiku',
      content: [{ type: 'text', text: A.DEFAULT_SIDE_TEXT }],
      stop_reason: 'end_turn',
    });

    const streamed = parseSse(
      await (await postMessages(server.url, { model: 'claude-haiku', stream: true, messages: [] })).text(),
    );
    expect(streamed[0]?.event).toBe('message_start');
    expect(streamed.at(-1)?.event).toBe('message_stop');

    expect((await postMessages(server.url, mainLoopBody('x'))).status).toBe(500);
    expect(server.requests.map((r) => [r.mainLoop, r.answered])).toEqual([
      [false, 'default'],
      [false, 'default'],
      [true, 'error 500'],
    ]);
  });

  it('sends scripted HTTP errors with their status, headers and Anthropic error body', async () => {
    const server = await anthropic(A.always(A.rateLimited(7), { sideRequests: true }));
    const res = await postMessages(server.url, { model: 'm', messages: [] });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('7');
    expect(await res.json()).toEqual({
      type: 'error',
      error: { type: 'rate_limit_error', message: expect.stringContaining('rate limit') },
    });

    const custom = await anthropic(
      A.always(A.errorResponse(529, 'overloaded_error', 'Overloaded', { 'x-should-retry': 'false' })),
    );
    const r2 = await postMessages(custom.url, mainLoopBody('x'));
    expect(r2.status).toBe(529);
    expect(r2.headers.get('x-should-retry')).toBe('false');
    expect(await r2.json()).toEqual({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } });
  });

  it('answers HEAD / (the CLI reachability check) and 404s unknown routes', async () => {
    const server = await anthropic(A.always(A.textTurn('x')));
    expect((await fetch(`${server.url}/`, { method: 'HEAD' })).status).toBe(200);
    const res = await fetch(`${server.url}/v1/nope`);
    expect(res.status).toBe(404);
    expect(server.requests.map((r) => r.answered)).toEqual(['root', '404']);
  });

  it('hangs without answering, and close() still ends the hung connections', async () => {
    const server = await A.startAnthropicServer(A.always(A.hang()));
    const pending = postMessages(server.url, mainLoopBody('x'));
    const settled = pending.then(
      () => 'answered',
      () => 'failed',
    );
    await waitFor(() => server.requests.length === 1);
    const raced = await Promise.race([settled, new Promise((r) => setTimeout(() => r('still waiting'), 200))]);
    expect(raced).toBe('still waiting');
    const t0 = Date.now();
    await server.close();
    expect(Date.now() - t0).toBeLessThan(1000);
    expect(await settled).toBe('failed');
    expect(server.requests[0]?.answered).toBe('hang');
  });

  it('can hang mid-stream: headers and message_start, then silence until close()', async () => {
    const server = await A.startAnthropicServer(A.always(A.hang('mid-stream')));
    const res = await postMessages(server.url, mainLoopBody('x'));
    expect(res.status).toBe(200);
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toContain('event: message_start');
    const rest = reader.read().then(
      () => 'ended',
      () => 'failed',
    );
    await server.close();
    expect(['ended', 'failed']).toContain(await rest);
  });

  it('claudeEnv points the CLI at the server', () => {
    expect(A.claudeEnv('http://127.0.0.1:1234', 1)).toEqual({
      ANTHROPIC_BASE_URL: 'http://127.0.0.1:1234',
      ANTHROPIC_API_KEY: expect.stringMatching(/^sk-ant-test/),
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      CLAUDE_CODE_MAX_RETRIES: '1',
    });
  });
});

/** A body shaped like codex's main-loop requests (it offers tools, exec_command among them). */
const responsesBody = (prompt: string) => ({
  model: 'gpt-fake',
  stream: true,
  tools: [{ type: 'function', name: 'exec_command', parameters: { type: 'object' } }],
  input: [
    { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'You are a coding agent.' }] },
    { type: 'message', role: 'user', content: [{ type: 'input_text', text: prompt }] },
  ],
});

const postResponses = (url: string, body: unknown) =>
  fetch(`${url}/v1/responses`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer sk-test' },
    body: JSON.stringify(body),
  });

describe('openaiServer', () => {
  it('streams a text turn as Responses API events ending in response.completed with usage', async () => {
    const server = await openai(O.sequence(O.textTurn('Hello there.')));
    const res = await postResponses(server.url, responsesBody('say hello'));
    expect(res.status).toBe(200);
    const events = parseSse(await res.text());
    const types = events.map((e) => e.event);
    expect(types[0]).toBe('response.created');
    expect(types.at(-1)).toBe('response.completed');
    const order = [
      'response.created',
      'response.output_item.added',
      'response.output_text.delta',
      'response.output_item.done',
      'response.completed',
    ];
    expect(order.map((t) => types.indexOf(t))).toEqual([...order.map((t) => types.indexOf(t))].sort((a, b) => a - b));
    for (const t of order) expect(types).toContain(t);
    for (const e of events) expect(e.data.type).toBe(e.event);
    const text = events
      .filter((e) => e.event === 'response.output_text.delta')
      .map((e) => e.data.delta)
      .join('');
    expect(text).toBe('Hello there.');
    expect(events.find((e) => e.event === 'response.output_item.done')?.data.item).toMatchObject({
      type: 'message',
      role: 'assistant',
      content: [{ type: 'output_text', text: 'Hello there.' }],
    });
    expect(events.at(-1)?.data.response).toMatchObject({
      status: 'completed',
      usage: { input_tokens: 10, output_tokens: 5, total_tokens: 15 },
    });
    expect(server.requests[0]).toMatchObject({
      method: 'POST',
      path: '/v1/responses',
      mainLoop: true,
      mainLoopIndex: 0,
      answered: 'turn',
    });
    expect(server.requests[0]?.headers.authorization).toBe('Bearer sk-test');
    expect(O.userText(server.requests[0] as O.RecordedRequest)).toBe('say hello');
  });

  it("streams a call of codex's shell tool as a function_call item", async () => {
    const server = await openai(O.sequence(O.shellCall('echo hi > hello.txt', { workdir: '/w' }), O.textTurn('done')));
    const events = parseSse(await (await postResponses(server.url, responsesBody('x'))).text());
    const done = events.find((e) => e.event === 'response.output_item.done')?.data.item as Record<string, unknown>;
    expect(done).toMatchObject({ type: 'function_call', name: 'exec_command', call_id: expect.any(String) });
    expect(JSON.parse(done.arguments as string)).toEqual({ cmd: 'echo hi > hello.txt', workdir: '/w' });
    expect(events.find((e) => e.event === 'response.output_item.added')?.data.item).toMatchObject({
      type: 'function_call',
      name: 'exec_command',
    });
    expect((events.at(-1)?.data.response as { output: unknown[] }).output).toEqual([done]);

    const second = parseSse(await (await postResponses(server.url, responsesBody('y'))).text());
    expect(
      second
        .filter((e) => e.event === 'response.output_text.delta')
        .map((e) => e.data.delta)
        .join(''),
    ).toBe('done');
  });

  it("sends errors in OpenAI's format with status and headers; side requests get the default text", async () => {
    const server = await openai(O.always(O.rateLimited(3)));
    const res = await postResponses(server.url, responsesBody('x'));
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('3');
    expect(await res.json()).toEqual({
      error: { message: expect.any(String), type: 'requests', param: null, code: 'rate_limit_exceeded' },
    });

    const side = parseSse(
      await (await postResponses(server.url, { model: 'gpt-fake', stream: true, input: [] })).text(),
    );
    expect(
      side
        .filter((e) => e.event === 'response.output_text.delta')
        .map((e) => e.data.delta)
        .join(''),
    ).toBe(O.DEFAULT_SIDE_TEXT);
    expect(server.requests.map((r) => [r.mainLoop, r.answered])).toEqual([
      [true, 'error 429'],
      [false, 'default'],
    ]);

    const auth = await openai(O.always(O.authFailed()));
    const r401 = await postResponses(auth.url, responsesBody('x'));
    expect(r401.status).toBe(401);
    expect(await r401.json()).toMatchObject({ error: { type: 'invalid_request_error', code: 'invalid_api_key' } });
  });

  it('can end a stream with response.failed', async () => {
    const server = await openai(O.always(O.failed('server_error', 'boom')));
    const events = parseSse(await (await postResponses(server.url, responsesBody('x'))).text());
    expect(events.map((e) => e.event)).toEqual(['response.created', 'response.failed']);
    expect(events[1]?.data.response).toMatchObject({
      status: 'failed',
      error: { code: 'server_error', message: 'boom' },
    });
  });

  it('hangs, and close() still ends the hung connections', async () => {
    const server = await O.startOpenAIServer(O.always(O.hang()));
    const settled = postResponses(server.url, responsesBody('x')).then(
      () => 'answered',
      () => 'failed',
    );
    await waitFor(() => server.requests.length === 1);
    const t0 = Date.now();
    await server.close();
    expect(Date.now() - t0).toBeLessThan(1000);
    expect(await settled).toBe('failed');
  });

  it('writeCodexHome writes a config.toml naming the mock provider and its retry limits', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'codex-home-test-'));
    try {
      const home = await O.writeCodexHome(path.join(dir, 'codex'), 'http://127.0.0.1:4321/');
      const toml = await fs.readFile(path.join(home, 'config.toml'), 'utf8');
      expect(toml).toContain('model = "gpt-fake"');
      expect(toml).toContain('model_provider = "mock"');
      expect(toml).toContain('[model_providers.mock]');
      expect(toml).toContain('base_url = "http://127.0.0.1:4321/v1"');
      expect(toml).toContain('wire_api = "responses"');
      expect(toml).toContain('env_key = "OPENAI_API_KEY"');
      expect(toml).toContain('request_max_retries = 0');
      expect(toml).toContain('stream_max_retries = 0');
      expect(toml).toContain('stream_idle_timeout_ms = 5000');
      expect(O.codexEnv(home)).toEqual({ CODEX_HOME: home, OPENAI_API_KEY: expect.any(String) });

      await O.writeCodexHome(home, 'http://127.0.0.1:4321', {
        requestMaxRetries: null,
        streamMaxRetries: 2,
        streamIdleTimeoutMs: null,
        model: 'gpt-x',
      });
      const again = await fs.readFile(path.join(home, 'config.toml'), 'utf8');
      expect(again).not.toContain('request_max_retries');
      expect(again).not.toContain('stream_idle_timeout_ms');
      expect(again).toContain('stream_max_retries = 2');
      expect(again).toContain('model = "gpt-x"');
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});
