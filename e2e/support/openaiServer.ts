/**
 * A scripted stand-in for the OpenAI Responses API on 127.0.0.1 (ephemeral port), for driving the
 * real Codex CLI (0.169.0) in end-to-end tests. Codex is pointed at it through a temporary
 * CODEX_HOME whose config.toml names a custom provider (`writeCodexHome(dir, server.url)`):
 *
 *   model = "gpt-fake"
 *   model_provider = "mock"
 *   [model_providers.mock]
 *   name = "mock"
 *   base_url = "http://127.0.0.1:PORT/v1"
 *   wire_api = "responses"
 *   env_key = "OPENAI_API_KEY"       # any value; the server does not check it
 *   request_max_retries = 0          # HTTP errors (429/5xx) are retried this many times
 *   stream_max_retries = 0           # broken/idle streams are retried this many times
 *   stream_idle_timeout_ms = 2000    # a silent stream (or a request never answered) fails after this
 *
 * and run as `CODEX_HOME=<dir> OPENAI_API_KEY=sk-test codex exec --json --skip-git-repo-check
 * -s workspace-write` with the prompt on stdin (`codexEnv(dir)` returns the environment).
 *
 * A test scripts a scenario with a function that picks the answer for each request, usually
 * built from the helpers at the bottom:
 *
 *   const server = await startOpenAIServer(sequence(
 *     shellCall('echo hi > hello.txt'),
 *     textTurn('Done.\n\n```yaml\nwork_remaining: 0\n```'),
 *   ));
 *
 * Main-loop requests: a `POST /v1/responses` whose body offers tools (the agent's own turns always
 * carry its tool list, shell included); anything else (e.g. a helper request with no tools) is a
 * side request and, unless the script answers it, gets a short plain text turn. The sequencer
 * counts and answers only main-loop requests.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { promises as fs } from 'node:fs';
import path from 'node:path';

// --- scripted answers ----------------------------------------------------------------------------

export type OutputItem =
  | { type: 'message'; text: string }
  /** A function call: `name` is one of the tools the request offered; `args` becomes its JSON `arguments`. */
  | { type: 'function_call'; name: string; args: unknown; callId?: string };

export interface TurnAnswer {
  kind: 'turn';
  output: OutputItem[];
  usage?: { input_tokens: number; output_tokens: number };
}

export interface ErrorAnswer {
  kind: 'error';
  status: number;
  /** OpenAI's error body: {"error":{"message","type","code"}}. */
  message: string;
  type: string;
  code: string | null;
  /** Extra response headers, e.g. { 'retry-after': '1' }. */
  headers?: Record<string, string>;
}

/** HTTP 200 and an SSE stream that ends with `response.failed` (an error reported in-stream). */
export interface FailedAnswer {
  kind: 'failed';
  code: string;
  message: string;
}

export interface HangAnswer {
  kind: 'hang';
  /** "before-headers" (default): accept and never answer; "mid-stream": send `response.created`, then nothing. */
  at?: 'before-headers' | 'mid-stream';
}

export type OpenAIAnswer = TurnAnswer | ErrorAnswer | FailedAnswer | HangAnswer;

export interface RecordedRequest {
  index: number;
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: unknown;
  mainLoop: boolean;
  mainLoopIndex: number | undefined;
  answered?: string;
}

export type OpenAIScript = (request: RecordedRequest) => OpenAIAnswer | undefined;

export interface OpenAIServer {
  /** http://127.0.0.1:PORT (no /v1); writeCodexHome adds /v1 for base_url. */
  url: string;
  requests: RecordedRequest[];
  mainLoopRequests(): RecordedRequest[];
  close(): Promise<void>;
}

/** Whether a Responses API request body is one of the agent's own turns (offers tools). */
export function isMainLoopBody(body: unknown): boolean {
  if (!body || typeof body !== 'object') return false;
  const tools = (body as { tools?: unknown }).tools;
  return Array.isArray(tools) && tools.length > 0;
}

export const DEFAULT_SIDE_TEXT = 'OK';

export async function startOpenAIServer(script: OpenAIScript): Promise<OpenAIServer> {
  const requests: RecordedRequest[] = [];
  let mainLoopCount = 0;
  let responseCount = 0;
  let itemCount = 0;

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
      const isResponses = req.method === 'POST' && pathname === '/v1/responses';
      const mainLoop = isResponses && isMainLoopBody(body);
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

      if (req.method === 'GET' && pathname === '/v1/models') {
        recorded.answered = 'models';
        sendJson(res, 200, { object: 'list', data: [], models: [] });
        return;
      }
      if (!isResponses) {
        recorded.answered = '404';
        sendJson(res, 404, {
          error: { message: `no route ${req.method} ${pathname}`, type: 'invalid_request_error', code: 'not_found' },
        });
        return;
      }

      let answer: OpenAIAnswer | undefined;
      try {
        answer = script(recorded);
      } catch (err) {
        recorded.answered = 'error 500 (script threw)';
        sendError(res, errorResponse(500, `script threw: ${String(err)}`, 'server_error', null));
        return;
      }
      if (!answer) {
        recorded.answered = 'default';
        answer = textTurn(DEFAULT_SIDE_TEXT);
      } else {
        recorded.answered = answer.kind === 'error' ? `error ${answer.status}` : answer.kind;
      }
      const model =
        typeof (body as { model?: unknown } | undefined)?.model === 'string'
          ? (body as { model: string }).model
          : 'gpt-fake';
      const ids: Ids = { response: `resp_test_${++responseCount}`, item: (prefix) => `${prefix}_test_${++itemCount}` };
      if (answer.kind === 'error') sendError(res, answer);
      else if (answer.kind === 'hang') hangOn(res, answer, ids, model);
      else if (answer.kind === 'failed') streamFailed(res, answer, ids, model);
      else streamTurn(res, answer, ids, model);
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
        server.closeAllConnections();
      }),
  };
}

// --- wire format ---------------------------------------------------------------------------------

type Ids = { response: string; item: (prefix: string) => string };

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
    { error: { message: a.message, type: a.type, param: null, code: a.code } },
    {
      'x-request-id': `req_test_${Date.now()}`,
      ...(a.headers ?? {}),
    },
  );
}

function sse(res: http.ServerResponse, data: { type: string } & Record<string, unknown>): void {
  res.write(`event: ${data.type}\ndata: ${JSON.stringify(data)}\n\n`);
}

function startStream(res: http.ServerResponse): void {
  res.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    'x-request-id': `req_test_${Date.now()}`,
  });
}

function responseObject(
  ids: Ids,
  model: string,
  status: string,
  output: unknown[],
  usage?: TurnAnswer['usage'],
): Record<string, unknown> {
  return {
    id: ids.response,
    object: 'response',
    created_at: Math.floor(Date.now() / 1000),
    status,
    model,
    output,
    ...(usage
      ? {
          usage: {
            input_tokens: usage.input_tokens,
            input_tokens_details: { cached_tokens: 0 },
            output_tokens: usage.output_tokens,
            output_tokens_details: { reasoning_tokens: 0 },
            total_tokens: usage.input_tokens + usage.output_tokens,
          },
        }
      : {}),
  };
}

function streamTurn(res: http.ServerResponse, a: TurnAnswer, ids: Ids, model: string): void {
  const usage = a.usage ?? { input_tokens: 10, output_tokens: 5 };
  startStream(res);
  let seq = 0;
  const send = (data: { type: string } & Record<string, unknown>) => sse(res, { ...data, sequence_number: seq++ });
  send({ type: 'response.created', response: responseObject(ids, model, 'in_progress', []) });
  const done: unknown[] = [];
  a.output.forEach((o, output_index) => {
    if (o.type === 'message') {
      const id = ids.item('msg');
      send({
        type: 'response.output_item.added',
        output_index,
        item: { type: 'message', id, status: 'in_progress', role: 'assistant', content: [] },
      });
      send({
        type: 'response.content_part.added',
        item_id: id,
        output_index,
        content_index: 0,
        part: { type: 'output_text', text: '', annotations: [] },
      });
      const cut = Math.floor(o.text.length / 2);
      for (const delta of cut > 0 ? [o.text.slice(0, cut), o.text.slice(cut)] : [o.text]) {
        send({ type: 'response.output_text.delta', item_id: id, output_index, content_index: 0, delta });
      }
      send({ type: 'response.output_text.done', item_id: id, output_index, content_index: 0, text: o.text });
      const part = { type: 'output_text', text: o.text, annotations: [] };
      send({ type: 'response.content_part.done', item_id: id, output_index, content_index: 0, part });
      const item = { type: 'message', id, status: 'completed', role: 'assistant', content: [part] };
      send({ type: 'response.output_item.done', output_index, item });
      done.push(item);
    } else {
      const id = ids.item('fc');
      const callId = o.callId ?? ids.item('call');
      const args = typeof o.args === 'string' ? o.args : JSON.stringify(o.args);
      send({
        type: 'response.output_item.added',
        output_index,
        item: { type: 'function_call', id, call_id: callId, name: o.name, arguments: '', status: 'in_progress' },
      });
      send({ type: 'response.function_call_arguments.delta', item_id: id, output_index, delta: args });
      send({ type: 'response.function_call_arguments.done', item_id: id, output_index, arguments: args });
      const item = { type: 'function_call', id, call_id: callId, name: o.name, arguments: args, status: 'completed' };
      send({ type: 'response.output_item.done', output_index, item });
      done.push(item);
    }
  });
  send({ type: 'response.completed', response: responseObject(ids, model, 'completed', done, usage) });
  res.end();
}

function streamFailed(res: http.ServerResponse, a: FailedAnswer, ids: Ids, model: string): void {
  startStream(res);
  sse(res, { type: 'response.created', response: responseObject(ids, model, 'in_progress', []) });
  sse(res, {
    type: 'response.failed',
    response: { ...responseObject(ids, model, 'failed', []), error: { code: a.code, message: a.message } },
  });
  res.end();
}

function hangOn(res: http.ServerResponse, a: HangAnswer, ids: Ids, model: string): void {
  if (a.at === 'mid-stream') {
    startStream(res);
    sse(res, { type: 'response.created', response: responseObject(ids, model, 'in_progress', []) });
  }
}

// --- helpers for scripts -------------------------------------------------------------------------

export const textTurn = (text: string): TurnAnswer => ({ kind: 'turn', output: [{ type: 'message', text }] });

/** A turn of any output items. */
export const turn = (...output: OutputItem[]): TurnAnswer => ({ kind: 'turn', output });

/** A call of any function tool the request offered. */
export const functionCall = (name: string, args: unknown, callId?: string): TurnAnswer => ({
  kind: 'turn',
  output: [{ type: 'function_call', name, args, ...(callId ? { callId } : {}) }],
});

/**
 * A call of codex's shell tool running one command line. Codex 0.169.0 offers "unified exec":
 * `exec_command` with `{ cmd, workdir?, yield_time_ms?, login?, tty?, ... }` (`cmd` is one string
 * run by the user's shell), and `write_stdin` for commands still running after yield_time_ms.
 */
export const shellCall = (command: string, options: { workdir?: string; yieldTimeMs?: number } = {}): TurnAnswer =>
  functionCall(SHELL_TOOL, shellArgs(command, options));

/** The name of codex 0.169.0's shell tool (as offered in every main-loop request's `tools`). */
export const SHELL_TOOL = 'exec_command';

export function shellArgs(
  command: string,
  options: { workdir?: string; yieldTimeMs?: number } = {},
): Record<string, unknown> {
  return {
    cmd: command,
    ...(options.workdir ? { workdir: options.workdir } : {}),
    ...(options.yieldTimeMs ? { yield_time_ms: options.yieldTimeMs } : {}),
  };
}

export const errorResponse = (
  status: number,
  message: string,
  type: string,
  code: string | null,
  headers?: Record<string, string>,
): ErrorAnswer => ({
  kind: 'error',
  status,
  message,
  type,
  code,
  ...(headers ? { headers } : {}),
});

export const rateLimited = (retryAfterSeconds = 1): ErrorAnswer =>
  errorResponse(
    429,
    'Rate limit reached for gpt-fake: Limit 10000, Used 10000, Requested 1. Please try again in 1s.',
    'requests',
    'rate_limit_exceeded',
    { 'retry-after': String(retryAfterSeconds) },
  );
export const authFailed = (): ErrorAnswer =>
  errorResponse(
    401,
    'Incorrect API key provided: sk-test. You can find your API key at https://platform.openai.com/account/api-keys.',
    'invalid_request_error',
    'invalid_api_key',
  );
export const serverError = (status = 500): ErrorAnswer =>
  errorResponse(
    status,
    status === 503
      ? 'The server is overloaded or not ready yet.'
      : 'The server had an error while processing your request.',
    'server_error',
    null,
  );
export const invalidRequest = (message = "Invalid value for 'input': the request is malformed."): ErrorAnswer =>
  errorResponse(400, message, 'invalid_request_error', 'invalid_value');
export const contextTooLong = (): ErrorAnswer =>
  errorResponse(
    400,
    'Your input exceeds the context window of this model. Please adjust your input and try again.',
    'invalid_request_error',
    'context_length_exceeded',
  );

export const failed = (code: string, message: string): FailedAnswer => ({ kind: 'failed', code, message });

export const hang = (at: HangAnswer['at'] = 'before-headers'): HangAnswer => ({ kind: 'hang', at });

export type AnswerSource = OpenAIAnswer | ((request: RecordedRequest) => OpenAIAnswer);

const resolve = (a: AnswerSource, r: RecordedRequest): OpenAIAnswer => (typeof a === 'function' ? a(r) : a);

/** Plays the answers for the main-loop requests in order, repeating the last. */
export function sequence(...answers: AnswerSource[]): OpenAIScript {
  if (answers.length === 0) throw new Error('sequence() needs at least one answer');
  return (r) => {
    if (!r.mainLoop || r.mainLoopIndex === undefined) return undefined;
    return resolve(answers[Math.min(r.mainLoopIndex, answers.length - 1)] as AnswerSource, r);
  };
}

/** The same answer to every main-loop request; with { sideRequests: true } to every Responses request. */
export function always(answer: AnswerSource, options: { sideRequests?: boolean } = {}): OpenAIScript {
  return (r) => (r.mainLoop || options.sideRequests ? resolve(answer, r) : undefined);
}

/**
 * All text the user role sent in a Responses request (prompt, environment context) plus every
 * function_call_output, joined by newlines: for asserting that the prompt reached the model.
 */
export function userText(request: RecordedRequest): string {
  const input = (request.body as { input?: unknown } | undefined)?.input;
  if (!Array.isArray(input)) return '';
  const out: string[] = [];
  for (const item of input) {
    if (!item || typeof item !== 'object') continue;
    const i = item as { type?: unknown; role?: unknown; content?: unknown; output?: unknown };
    if (i.type === 'function_call_output' && typeof i.output === 'string') out.push(i.output);
    if (i.type !== 'message' || i.role !== 'user') continue;
    if (typeof i.content === 'string') out.push(i.content);
    else if (Array.isArray(i.content)) {
      for (const c of i.content) {
        const t = (c as { text?: unknown } | null)?.text;
        if (typeof t === 'string') out.push(t);
      }
    }
  }
  return out.join('\n');
}

// --- pointing codex at the server ----------------------------------------------------------------

export interface CodexHomeOptions {
  model?: string;
  /** Retries of a failed HTTP request (429, 5xx…). Default 0; null leaves codex's own default. */
  requestMaxRetries?: number | null;
  /** Retries of a dropped or idle stream. Default 0; null leaves codex's own default. */
  streamMaxRetries?: number | null;
  /** How long a stream (or an unanswered request) may stay silent. Default 5000 ms; null leaves codex's own default. */
  streamIdleTimeoutMs?: number | null;
  /** Extra top-level config.toml lines. */
  extra?: string;
}

/** Writes `<dir>/config.toml` pointing codex at the server; returns the directory (use as CODEX_HOME). */
export async function writeCodexHome(dir: string, url: string, options: CodexHomeOptions = {}): Promise<string> {
  await fs.mkdir(dir, { recursive: true });
  const toml = [
    `model = ${JSON.stringify(options.model ?? 'gpt-fake')}`,
    'model_provider = "mock"',
    'approval_policy = "never"',
    // No traffic beyond the stand-in: no update check, no analytics.
    'check_for_update_on_startup = false',
    ...(options.extra ? [options.extra] : []),
    '',
    '[analytics]',
    'enabled = false',
    '',
    '[model_providers.mock]',
    'name = "mock"',
    `base_url = ${JSON.stringify(`${url.replace(/\/$/, '')}/v1`)}`,
    'wire_api = "responses"',
    'env_key = "OPENAI_API_KEY"',
    ...setting('request_max_retries', options.requestMaxRetries, 0),
    ...setting('stream_max_retries', options.streamMaxRetries, 0),
    ...setting('stream_idle_timeout_ms', options.streamIdleTimeoutMs, 5000),
    '',
  ].join('\n');
  await fs.writeFile(path.join(dir, 'config.toml'), toml);
  return dir;
}

function setting(key: string, value: number | null | undefined, fallback: number): string[] {
  return value === null ? [] : [`${key} = ${value ?? fallback}`];
}

/** The environment for codex (merge over a clean process env). */
export function codexEnv(codexHome: string): Record<string, string> {
  return { CODEX_HOME: codexHome, OPENAI_API_KEY: 'sk-test-0000000000000000' };
}
