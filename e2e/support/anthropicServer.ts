/**
 * A scripted stand-in for the Anthropic Messages API on 127.0.0.1 (ephemeral port), for driving the
 * real Claude Code CLI (2.1.197) in end-to-end tests. Point the CLI at it with:
 *
 *   ANTHROPIC_BASE_URL=<server.url>            (no trailing /v1: the CLI appends /v1/messages)
 *   ANTHROPIC_API_KEY=sk-ant-test-...           (any value; the server does not check it)
 *   CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1  (no telemetry, update checks, etc.)
 *   CLAUDE_CODE_MAX_RETRIES=1                   (optional: the CLI retries 401/429/5xx/529 itself,
 *                                                10 times by default with minutes of backoff)
 *
 * (`claudeEnv(url)` returns these.) A test scripts a scenario with a function that picks the answer
 * for each request, usually built from the helpers at the bottom:
 *
 *   const server = await startAnthropicServer(sequence(
 *     toolTurn('Bash', { command: 'echo hi', description: 'say hi' }),
 *     textTurn('Done.\n\n```yaml\nwork_remaining: 0\n```'),
 *   ));
 *   ... run claude with claudeEnv(server.url) ...
 *   expect(server.requests.filter((r) => r.mainLoop)[0]?.body).toMatchObject(...);
 *   await server.close();
 *
 * Main-loop requests vs. side requests: Claude Code also sends side requests (titles, topic
 * detection, haiku-model helpers) that a test usually does not want to script. A request is
 * "main loop" when it is a `POST /v1/messages` whose body offers the `Bash` tool among `tools` (the
 * agent's own turns always carry the full tool list; the side requests carry no tools or only a
 * tool of their own). The sequencer counts and answers only main-loop requests; anything the
 * script leaves unanswered (returns undefined) gets a short plain text turn, streamed or not as
 * the request asked.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

// --- scripted answers ----------------------------------------------------------------------------

export type ScriptedBlock =
  { type: 'text'; text: string } | { type: 'tool_use'; name: string; input: unknown; id?: string };

export interface TurnAnswer {
  kind: 'turn';
  content: ScriptedBlock[];
  /** Defaults to "tool_use" when the content has a tool_use block, else "end_turn". */
  stopReason?: 'end_turn' | 'tool_use' | 'max_tokens' | 'stop_sequence' | 'refusal';
  usage?: { input_tokens: number; output_tokens: number };
  /** Defaults to the model the request asked for. */
  model?: string;
}

export interface ErrorAnswer {
  kind: 'error';
  status: number;
  /** Anthropic error type: overloaded_error, rate_limit_error, authentication_error, invalid_request_error, api_error… */
  errorType: string;
  message: string;
  /** Extra response headers, e.g. { 'retry-after': '1' }. */
  headers?: Record<string, string>;
}

export interface HangAnswer {
  kind: 'hang';
  /**
   * Where to stop: "before-headers" (default) accepts the request and never writes anything;
   * "mid-stream" sends the SSE headers and `message_start`, then goes silent.
   */
  at?: 'before-headers' | 'mid-stream';
}

export type AnthropicAnswer = TurnAnswer | ErrorAnswer | HangAnswer;

export interface RecordedRequest {
  /** Position among all requests, from 0. */
  index: number;
  method: string;
  /** Path with query string, e.g. "/v1/messages?beta=true". */
  path: string;
  headers: http.IncomingHttpHeaders;
  /** The parsed JSON body (undefined when there is none or it is not JSON). */
  body: unknown;
  /** True for the agent's own turns (see the module comment). */
  mainLoop: boolean;
  /** Position among main-loop requests, from 0 (undefined for other requests). */
  mainLoopIndex: number | undefined;
  /** What the server answered: "turn", "error <status>", "hang", "default", "404". */
  answered?: string;
}

/** Picks the answer to one request; undefined means "the default short text turn". */
export type AnthropicScript = (request: RecordedRequest) => AnthropicAnswer | undefined;

export interface AnthropicServer {
  /** http://127.0.0.1:PORT — the value for ANTHROPIC_BASE_URL. */
  url: string;
  /** Every request received so far, in order. */
  requests: RecordedRequest[];
  /** Only the main-loop requests. */
  mainLoopRequests(): RecordedRequest[];
  /** Stops listening and ends every open connection, hung ones included. */
  close(): Promise<void>;
}

/** Whether a Messages API request body is one of the agent's own turns (offers the Bash tool). */
export function isMainLoopBody(body: unknown): boolean {
  if (!body || typeof body !== 'object') return false;
  const tools = (body as { tools?: unknown }).tools;
  return (
    Array.isArray(tools) && tools.some((t) => !!t && typeof t === 'object' && (t as { name?: unknown }).name === 'Bash')
  );
}

export const DEFAULT_SIDE_TEXT = 'OK';

export async function startAnthropicServer(script: AnthropicScript): Promise<AnthropicServer> {
  const requests: RecordedRequest[] = [];
  let mainLoopCount = 0;
  let messageCount = 0;
  let toolCount = 0;

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: unknown;
      try {
        body = raw ? JSON.parse(raw) : undefined;
      } catch {
        body = undefined;
      }
      const pathname = (req.url ?? '/').split('?')[0] ?? '/';
      const isMessages = req.method === 'POST' && pathname === '/v1/messages';
      const mainLoop = isMessages && isMainLoopBody(body);
      const recorded: RecordedRequest = {
        index: requests.length,
        method: req.method ?? 'GET',
        path: req.url ?? '/',
        headers: req.headers,
        body,
        mainLoop,
        mainLoopIndex: mainLoop ? mainLoopCount++ : undefined,
      };
      requests.push(recorded);

      if (req.method === 'POST' && pathname === '/v1/messages/count_tokens') {
        recorded.answered = 'count_tokens';
        sendJson(res, 200, { input_tokens: Math.ceil(raw.length / 4) });
        return;
      }
      if ((req.method === 'HEAD' || req.method === 'GET') && pathname === '/') {
        // Claude Code sends `HEAD /` first (a reachability check of the base URL).
        recorded.answered = 'root';
        res.writeHead(200, { 'content-length': 0 });
        res.end();
        return;
      }
      if (!isMessages) {
        recorded.answered = '404';
        sendJson(res, 404, {
          type: 'error',
          error: { type: 'not_found_error', message: `no route ${req.method} ${pathname}` },
        });
        return;
      }

      let answer: AnthropicAnswer | undefined;
      try {
        answer = script(recorded);
      } catch (err) {
        recorded.answered = 'error 500 (script threw)';
        sendError(res, { kind: 'error', status: 500, errorType: 'api_error', message: `script threw: ${String(err)}` });
        return;
      }
      const b = (body ?? {}) as { stream?: unknown; model?: unknown };
      const stream = b.stream === true;
      const model = typeof b.model === 'string' ? b.model : 'claude-test';
      if (!answer) {
        recorded.answered = 'default';
        answer = textTurn(DEFAULT_SIDE_TEXT);
      } else {
        recorded.answered = answer.kind === 'error' ? `error ${answer.status}` : answer.kind;
      }
      const ids = { message: `msg_test_${++messageCount}`, tool: () => `toolu_test_${++toolCount}` };
      if (answer.kind === 'error') sendError(res, answer);
      else if (answer.kind === 'hang') hangOn(res, answer, ids.message, model, stream);
      else if (stream) streamTurn(res, answer, ids, model);
      else sendJson(res, 200, jsonTurn(answer, ids, model));
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    mainLoopRequests: () => requests.filter((r) => r.mainLoop),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Hung requests and open streams would keep close() waiting forever.
        server.closeAllConnections();
      }),
  };
}

// --- wire format ---------------------------------------------------------------------------------

type Ids = { message: string; tool: () => string };

function sendJson(
  res: http.ServerResponse,
  status: number,
  value: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(value);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

function sendError(res: http.ServerResponse, a: ErrorAnswer): void {
  sendJson(
    res,
    a.status,
    { type: 'error', error: { type: a.errorType, message: a.message } },
    {
      'request-id': `req_test_${Date.now()}`,
      ...(a.headers ?? {}),
    },
  );
}

function stopReasonOf(a: TurnAnswer): string {
  return a.stopReason ?? (a.content.some((c) => c.type === 'tool_use') ? 'tool_use' : 'end_turn');
}

function usageOf(a: TurnAnswer): { input_tokens: number; output_tokens: number } {
  return a.usage ?? { input_tokens: 12, output_tokens: 20 };
}

function wireBlocks(a: TurnAnswer, ids: Ids): Array<Record<string, unknown>> {
  return a.content.map((c) =>
    c.type === 'text'
      ? { type: 'text', text: c.text }
      : { type: 'tool_use', id: c.id ?? ids.tool(), name: c.name, input: c.input ?? {} },
  );
}

function jsonTurn(a: TurnAnswer, ids: Ids, model: string): Record<string, unknown> {
  return {
    id: ids.message,
    type: 'message',
    role: 'assistant',
    model: a.model ?? model,
    content: wireBlocks(a, ids),
    stop_reason: stopReasonOf(a),
    stop_sequence: null,
    usage: { ...usageOf(a), cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
  };
}

function sse(res: http.ServerResponse, event: string, data: unknown): void {
  res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
}

function startStream(res: http.ServerResponse): void {
  res.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    'request-id': `req_test_${Date.now()}`,
  });
}

function messageStart(id: string, model: string, inputTokens: number): Record<string, unknown> {
  return {
    type: 'message_start',
    message: {
      id,
      type: 'message',
      role: 'assistant',
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: {
        input_tokens: inputTokens,
        output_tokens: 1,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 0,
      },
    },
  };
}

function streamTurn(res: http.ServerResponse, a: TurnAnswer, ids: Ids, model: string): void {
  const usage = usageOf(a);
  startStream(res);
  sse(res, 'message_start', messageStart(ids.message, a.model ?? model, usage.input_tokens));
  wireBlocks(a, ids).forEach((block, index) => {
    if (block.type === 'text') {
      sse(res, 'content_block_start', {
        type: 'content_block_start',
        index,
        content_block: { type: 'text', text: '' },
      });
      const text = String(block.text);
      // Two deltas when there is enough text, to exercise the client's accumulation.
      const cut = Math.floor(text.length / 2);
      for (const part of cut > 0 ? [text.slice(0, cut), text.slice(cut)] : [text]) {
        sse(res, 'content_block_delta', {
          type: 'content_block_delta',
          index,
          delta: { type: 'text_delta', text: part },
        });
      }
    } else {
      sse(res, 'content_block_start', {
        type: 'content_block_start',
        index,
        content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} },
      });
      const json = JSON.stringify(block.input);
      const cut = Math.floor(json.length / 2);
      for (const part of [json.slice(0, cut), json.slice(cut)]) {
        sse(res, 'content_block_delta', {
          type: 'content_block_delta',
          index,
          delta: { type: 'input_json_delta', partial_json: part },
        });
      }
    }
    sse(res, 'content_block_stop', { type: 'content_block_stop', index });
  });
  sse(res, 'message_delta', {
    type: 'message_delta',
    delta: { stop_reason: stopReasonOf(a), stop_sequence: null },
    usage: { output_tokens: usage.output_tokens },
  });
  sse(res, 'message_stop', { type: 'message_stop' });
  res.end();
}

function hangOn(res: http.ServerResponse, a: HangAnswer, id: string, model: string, stream: boolean): void {
  if (a.at === 'mid-stream' && stream) {
    startStream(res);
    sse(res, 'message_start', messageStart(id, model, 12));
  }
  // Otherwise: nothing at all. close() ends the connection.
}

// --- helpers for scripts -------------------------------------------------------------------------

export const textTurn = (text: string): TurnAnswer => ({ kind: 'turn', content: [{ type: 'text', text }] });

/** One tool call, optionally preceded by a text block. */
export const toolTurn = (name: string, input: unknown, text?: string): TurnAnswer => ({
  kind: 'turn',
  content: [
    ...(text === undefined ? [] : [{ type: 'text' as const, text }]),
    { type: 'tool_use' as const, name, input },
  ],
});

/** A turn of any blocks: turn({ type: 'text', text: 'a' }, { type: 'tool_use', name: 'Bash', input }). */
export const turn = (...content: ScriptedBlock[]): TurnAnswer => ({ kind: 'turn', content });

export const errorResponse = (
  status: number,
  errorType: string,
  message: string,
  headers?: Record<string, string>,
): ErrorAnswer => ({
  kind: 'error',
  status,
  errorType,
  message,
  ...(headers ? { headers } : {}),
});

/** Common errors as the real API sends them. */
export const overloaded = (): ErrorAnswer => errorResponse(529, 'overloaded_error', 'Overloaded');
export const rateLimited = (retryAfterSeconds = 1): ErrorAnswer =>
  errorResponse(429, 'rate_limit_error', 'Number of request tokens has exceeded your per-minute rate limit', {
    'retry-after': String(retryAfterSeconds),
  });
export const authFailed = (): ErrorAnswer => errorResponse(401, 'authentication_error', 'invalid x-api-key');
export const promptTooLong = (): ErrorAnswer =>
  errorResponse(400, 'invalid_request_error', 'prompt is too long: 250000 tokens > 200000 maximum');

export const hang = (at: HangAnswer['at'] = 'before-headers'): HangAnswer => ({ kind: 'hang', at });

/** An answer, or a function of the request that gives one (to put the test's paths into tool input). */
export type AnswerSource = AnthropicAnswer | ((request: RecordedRequest) => AnthropicAnswer);

const resolve = (a: AnswerSource, r: RecordedRequest): AnthropicAnswer => (typeof a === 'function' ? a(r) : a);

/**
 * Plays the answers for the main-loop requests in order, repeating the last; side requests get
 * the default text turn.
 */
export function sequence(...answers: AnswerSource[]): AnthropicScript {
  if (answers.length === 0) throw new Error('sequence() needs at least one answer');
  return (r) => {
    if (!r.mainLoop || r.mainLoopIndex === undefined) return undefined;
    return resolve(answers[Math.min(r.mainLoopIndex, answers.length - 1)] as AnswerSource, r);
  };
}

/**
 * The same answer to every main-loop request; with { sideRequests: true } to every Messages
 * request (e.g. a 401 that a real server would give to all of them).
 */
export function always(answer: AnswerSource, options: { sideRequests?: boolean } = {}): AnthropicScript {
  return (r) => (r.mainLoop || options.sideRequests ? resolve(answer, r) : undefined);
}

/**
 * All text the user role sent in a Messages request (prompt, tool results, system reminders),
 * joined by newlines: for asserting that the prompt reached the model.
 */
export function userText(request: RecordedRequest): string {
  const messages = (request.body as { messages?: unknown } | undefined)?.messages;
  if (!Array.isArray(messages)) return '';
  const out: string[] = [];
  const collect = (content: unknown): void => {
    if (typeof content === 'string') out.push(content);
    else if (Array.isArray(content)) {
      for (const block of content) {
        if (!block || typeof block !== 'object') continue;
        const b = block as { type?: unknown; text?: unknown; content?: unknown };
        if (b.type === 'text' && typeof b.text === 'string') out.push(b.text);
        else if (b.type === 'tool_result') collect(b.content);
      }
    }
  };
  for (const m of messages) {
    if (m && typeof m === 'object' && (m as { role?: unknown }).role === 'user')
      collect((m as { content?: unknown }).content);
  }
  return out.join('\n');
}

/** The environment that points Claude Code at the server (merge over a clean process env). */
export function claudeEnv(url: string, maxRetries?: number): Record<string, string> {
  return {
    ANTHROPIC_BASE_URL: url,
    ANTHROPIC_API_KEY: 'sk-ant-test-0000000000000000',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    ...(maxRetries === undefined ? {} : { CLAUDE_CODE_MAX_RETRIES: String(maxRetries) }),
  };
}
