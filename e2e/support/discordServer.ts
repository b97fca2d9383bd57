/**
 * A stand-in for Discord's "Execute Webhook" endpoint on 127.0.0.1 (ephemeral port), as
 * documented in discord/discord-api-docs:
 *
 *   POST /api/webhooks/{id}/{token}      (also /api/v{N}/webhooks/{id}/{token})
 *
 * - docs/resources/webhook.mdx, Execute Webhook: at least one of `content`, `embeds` (…);
 *   `content` up to 2000 characters; up to 10 embeds; `wait` (boolean query string) makes the
 *   answer 200 with the created message, otherwise 204 No Content.
 * - docs/resources/message.mdx, Embed Limits: title 256, description 4096, up to 25 fields,
 *   field.name 256, field.value 1024, footer.text 2048, author.name 256; title + description +
 *   field names and values + footer text + author names of all embeds ≤ 6000; otherwise
 *   "Bad Request". Allowed Mentions Object: `parse` of "roles" | "users" | "everyone", mutually
 *   exclusive with the `roles` / `users` lists of the same type; webhooks parse users by default.
 * - docs/topics/opcodes-and-status-codes.md: 10015 Unknown webhook, 50006 Cannot send an empty
 *   message, 50035 Invalid form body, 50109 invalid JSON; `errors` nested by field path with
 *   `_errors: [{code, message}]` leaves (docs/reference "Error Messages").
 * - docs/topics/rate-limits.md: a 429 has a JSON body `{message, retry_after, global}` and the
 *   headers `Retry-After`, `X-RateLimit-Limit`, `X-RateLimit-Remaining`, `X-RateLimit-Reset`,
 *   `X-RateLimit-Reset-After`, `X-RateLimit-Bucket`, `X-RateLimit-Scope`.
 *
 * Lengths are measured like Discord (leading and trailing whitespace trimmed) in UTF-16 code
 * units, which is never fewer than the characters Discord counts: what passes here passes there.
 * Mentions: the answered message's `mention_everyone` / `mentions` / `mention_roles` are worked
 * out from the content *and* the embed texts (Discord itself does not notify for mentions in
 * embeds), gated by `allowed_mentions`; so a test that sees no mention has proven the
 * allowed_mentions, not relied on where the text was.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';

export const LIMITS = {
  content: 2000,
  embeds: 10,
  title: 256,
  description: 4096,
  fields: 25,
  fieldName: 256,
  fieldValue: 1024,
  footer: 2048,
  authorName: 256,
  total: 6000,
} as const;

export type FailureKind = '429' | '500' | '502';

export interface RecordedRequest {
  method: string;
  /** Path without the query string. */
  path: string;
  /** The query string without "?", e.g. "thread_id=1&wait=true". */
  query: string;
  contentType: string | undefined;
  status: number;
  /** The parsed JSON body, or the raw text when it was not JSON. */
  body: unknown;
}

export interface DiscordServer {
  /** http://127.0.0.1:PORT/api/webhooks/ID/TOKEN, with the server's webhook unless told otherwise. */
  url(id?: string, token?: string): string;
  /** The webhook this server knows. */
  readonly id: string;
  readonly token: string;
  /** Every accepted message body, in order. */
  readonly received: Record<string, unknown>[];
  /** The message object created for each accepted body (what `wait=true` answers). */
  readonly messages: Record<string, unknown>[];
  /** Every request, whatever the answer. */
  readonly requests: RecordedRequest[];
  /** The next `n` webhook requests get this answer (a 429 says retry after `retryAfterSeconds`, default 0.5). */
  failNext(n: number, kind: FailureKind, retryAfterSeconds?: number): void;
  close(): Promise<void>;
}

type FieldErrors = { _errors?: { code: string; message: string }[]; [key: string]: unknown };

/**
 * Discord's validation of an Execute Webhook JSON body: null when valid, else the 400 answer
 * (`{code: 50006, …}` for an empty message, `{code: 50035, message: "Invalid Form Body", errors}`).
 */
export function validateExecuteBody(body: unknown): { code: number; message: string; errors?: FieldErrors } | null {
  if (!isObject(body))
    return invalid({ _errors: [err('DICT_TYPE_CONVERT', 'Only dictionaries may be used in a DictType')] });
  const errors: FieldErrors = {};
  const put = (path: (string | number)[], code: string, message: string) => {
    let node: FieldErrors = errors;
    for (const key of path) {
      const k = String(key);
      node[k] ??= {};
      node = node[k] as FieldErrors;
    }
    (node._errors ??= []).push(err(code, message));
  };
  const checkString = (path: (string | number)[], value: unknown, max: number, required: boolean): number => {
    if (value === undefined || value === null) {
      if (required) put(path, 'BASE_TYPE_REQUIRED', 'This field is required');
      return 0;
    }
    if (typeof value !== 'string') {
      put(path, 'STRING_TYPE_CONVERT', 'Could not interpret value as string.');
      return 0;
    }
    const length = value.trim().length;
    if (required && length === 0) put(path, 'BASE_TYPE_REQUIRED', 'This field is required');
    else if (length > max) put(path, 'BASE_TYPE_MAX_LENGTH', `Must be ${max} or fewer in length.`);
    return length;
  };

  checkString(['content'], body.content, LIMITS.content, false);
  for (const key of ['username', 'avatar_url'] as const) {
    if (body[key] !== undefined && typeof body[key] !== 'string')
      put([key], 'STRING_TYPE_CONVERT', 'Could not interpret value as string.');
  }

  const embeds = body.embeds;
  let total = 0;
  if (embeds !== undefined && embeds !== null) {
    if (!Array.isArray(embeds)) {
      put(['embeds'], 'LIST_TYPE_CONVERT', 'Must be an array.');
    } else {
      if (embeds.length > LIMITS.embeds)
        put(['embeds'], 'BASE_TYPE_MAX_LENGTH', `Must be ${LIMITS.embeds} or fewer in length.`);
      embeds.forEach((embed: unknown, i: number) => {
        if (!isObject(embed))
          return put(['embeds', i], 'DICT_TYPE_CONVERT', 'Only dictionaries may be used in a DictType');
        total += checkString(['embeds', i, 'title'], embed.title, LIMITS.title, false);
        total += checkString(['embeds', i, 'description'], embed.description, LIMITS.description, false);
        if (embed.url !== undefined && !isHttpUrl(embed.url))
          put(['embeds', i, 'url'], 'URL_TYPE_INVALID_URL', 'Not a well formed URL.');
        if (
          embed.color !== undefined &&
          embed.color !== null &&
          !(
            typeof embed.color === 'number' &&
            Number.isInteger(embed.color) &&
            embed.color >= 0 &&
            embed.color <= 0xffffff
          )
        ) {
          put(['embeds', i, 'color'], 'NUMBER_TYPE_MAX', 'int value should be less than or equal to 16777215.');
        }
        if (embed.footer !== undefined) {
          if (!isObject(embed.footer))
            put(['embeds', i, 'footer'], 'DICT_TYPE_CONVERT', 'Only dictionaries may be used in a DictType');
          else total += checkString(['embeds', i, 'footer', 'text'], embed.footer.text, LIMITS.footer, true);
        }
        if (embed.author !== undefined) {
          if (!isObject(embed.author))
            put(['embeds', i, 'author'], 'DICT_TYPE_CONVERT', 'Only dictionaries may be used in a DictType');
          else total += checkString(['embeds', i, 'author', 'name'], embed.author.name, LIMITS.authorName, true);
        }
        if (embed.fields !== undefined) {
          if (!Array.isArray(embed.fields))
            return put(['embeds', i, 'fields'], 'LIST_TYPE_CONVERT', 'Must be an array.');
          if (embed.fields.length > LIMITS.fields)
            put(['embeds', i, 'fields'], 'BASE_TYPE_MAX_LENGTH', `Must be ${LIMITS.fields} or fewer in length.`);
          embed.fields.forEach((field: unknown, j: number) => {
            if (!isObject(field))
              return put(
                ['embeds', i, 'fields', j],
                'DICT_TYPE_CONVERT',
                'Only dictionaries may be used in a DictType',
              );
            total += checkString(['embeds', i, 'fields', j, 'name'], field.name, LIMITS.fieldName, true);
            total += checkString(['embeds', i, 'fields', j, 'value'], field.value, LIMITS.fieldValue, true);
            if (field.inline !== undefined && typeof field.inline !== 'boolean') {
              put(['embeds', i, 'fields', j, 'inline'], 'BASE_TYPE_BAD_TYPE', 'Must be a boolean.');
            }
          });
        }
        return undefined;
      });
      if (total > LIMITS.total)
        put(['embeds'], 'MAX_EMBED_SIZE_EXCEEDED', `Embed size exceeds maximum size of ${LIMITS.total}`);
    }
  }

  const mentions = body.allowed_mentions;
  if (mentions !== undefined && mentions !== null) {
    if (!isObject(mentions)) {
      put(['allowed_mentions'], 'DICT_TYPE_CONVERT', 'Only dictionaries may be used in a DictType');
    } else {
      const parse = mentions.parse;
      if (
        parse !== undefined &&
        (!Array.isArray(parse) || parse.some((p) => p !== 'users' && p !== 'roles' && p !== 'everyone'))
      ) {
        put(['allowed_mentions', 'parse'], 'ENUM_TYPE_COERCE', 'Value must be one of {"users", "roles", "everyone"}.');
      }
      for (const kind of ['users', 'roles'] as const) {
        const list = mentions[kind];
        if (Array.isArray(parse) && parse.includes(kind) && Array.isArray(list) && list.length > 0) {
          put(
            ['allowed_mentions'],
            'ALLOWED_MENTIONS_PARSE_EXCLUSIVE',
            `parse:["${kind}"] and ${kind}: [ids...] are mutually exclusive.`,
          );
        }
        if (list !== undefined && list !== null && (!Array.isArray(list) || list.length > 100)) {
          put(['allowed_mentions', kind], 'BASE_TYPE_MAX_LENGTH', 'Must be 100 or fewer in length.');
        }
      }
    }
  }

  if (Object.keys(errors).length > 0) return invalid(errors);
  const hasContent = typeof body.content === 'string' && body.content.trim() !== '';
  const hasEmbeds = Array.isArray(embeds) && embeds.length > 0;
  if (!hasContent && !hasEmbeds) return { code: 50006, message: 'Cannot send an empty message' };
  return null;
}

export async function startDiscordServer(): Promise<DiscordServer> {
  const id = '1180000000000000001';
  const token = randomBytes(51).toString('base64url'); // 68 characters, like Discord's
  const received: Record<string, unknown>[] = [];
  const messages: Record<string, unknown>[] = [];
  const requests: RecordedRequest[] = [];
  const failures: { kind: FailureKind; retryAfter: number }[] = [];
  const bucket = randomBytes(16).toString('hex');
  let nextId = 1_200_000_000_000_000_000n;

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const [pathname = '', query = ''] = (req.url ?? '').split(/\?(.*)/s);
      const contentType = req.headers['content-type'];
      let parsed: unknown = raw;
      let isJson = false;
      try {
        parsed = raw ? JSON.parse(raw) : undefined;
        isJson = raw !== '';
      } catch {
        parsed = raw;
      }
      const answer = (status: number, body?: unknown, headers: Record<string, string> = {}) => {
        requests.push({ method: req.method ?? '', path: pathname, query, contentType, status, body: parsed });
        if (body === undefined) {
          res.writeHead(status, headers);
          res.end();
        } else if (typeof body === 'string') {
          res.writeHead(status, { 'Content-Type': 'text/html', ...headers });
          res.end(body);
        } else {
          res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
          res.end(JSON.stringify(body));
        }
      };

      const route = /^\/api(?:\/v\d+)?\/webhooks\/([^/]+)\/([^/]+)\/?$/.exec(pathname);
      if (!route) return answer(404, { message: '404: Not Found', code: 0 });
      if (req.method !== 'POST') return answer(405, { message: '405: Method Not Allowed', code: 0 });

      const failure = failures.shift();
      if (failure?.kind === '429') {
        const after = failure.retryAfter;
        return answer(
          429,
          { message: 'You are being rate limited.', retry_after: after, global: false },
          {
            'Retry-After': String(Math.ceil(after)),
            'X-RateLimit-Limit': '5',
            'X-RateLimit-Remaining': '0',
            'X-RateLimit-Reset': (Date.now() / 1000 + after).toFixed(3),
            'X-RateLimit-Reset-After': String(after),
            'X-RateLimit-Bucket': bucket,
            'X-RateLimit-Scope': 'user',
          },
        );
      }
      if (failure?.kind === '500') return answer(500, { message: '500: Internal Server Error', code: 0 });
      if (failure?.kind === '502') {
        return answer(
          502,
          '<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>cloudflare</center></body></html>',
        );
      }

      if (decodeURIComponent(route[1] ?? '') !== id || decodeURIComponent(route[2] ?? '') !== token) {
        return answer(404, { message: 'Unknown Webhook', code: 10015 });
      }
      if (!/^application\/json\b/i.test(String(contentType ?? ''))) {
        // Discord also takes multipart/form-data and form-urlencoded bodies; this stand-in does not.
        return answer(400, { message: 'Cannot send an empty message', code: 50006 });
      }
      if (!isJson) return answer(400, { message: 'The request body contains invalid JSON.', code: 50109 });

      const error = validateExecuteBody(parsed);
      if (error) return answer(400, error);

      const body = parsed as Record<string, unknown>;
      const message = createdMessage(body, String(nextId++), id);
      received.push(body);
      messages.push(message);
      const rateHeaders = {
        'X-RateLimit-Limit': '5',
        'X-RateLimit-Remaining': '4',
        'X-RateLimit-Reset-After': '2',
        'X-RateLimit-Bucket': bucket,
      };
      return wait(query) ? answer(200, message, rateHeaders) : answer(204, undefined, rateHeaders);
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  let closed: Promise<void> | undefined;

  return {
    id,
    token,
    url: (webhookId = id, webhookToken = token) => `http://127.0.0.1:${port}/api/webhooks/${webhookId}/${webhookToken}`,
    received,
    messages,
    requests,
    failNext(n, kind, retryAfterSeconds = 0.5) {
      for (let i = 0; i < n; i++) failures.push({ kind, retryAfter: retryAfterSeconds });
    },
    close: () =>
      (closed ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      })),
  };
}

/** Discord's boolean query strings: True/true/1 and False/false/0. */
function wait(query: string): boolean {
  const value = new URLSearchParams(query).get('wait');
  return value !== null && /^(true|1)$/i.test(value);
}

/** The message object Discord answers with (a subset of its fields), mentions included. */
function createdMessage(body: Record<string, unknown>, messageId: string, webhookId: string): Record<string, unknown> {
  const content = typeof body.content === 'string' ? body.content : '';
  const embeds = (Array.isArray(body.embeds) ? body.embeds : []).map((e) => ({ type: 'rich', ...(e as object) }));
  const texts = [content, ...embeds.flatMap((e) => embedTexts(e as Record<string, unknown>))].join('\n');
  const allowed = isObject(body.allowed_mentions) ? body.allowed_mentions : { parse: ['users'] }; // the webhook default
  const parse = Array.isArray(allowed.parse) ? (allowed.parse as unknown[]) : [];
  const listed = (kind: 'users' | 'roles') =>
    Array.isArray(allowed[kind]) ? (allowed[kind] as unknown[]).map(String) : [];
  const userIds = [...texts.matchAll(/<@!?(\d+)>/g)].map((m) => m[1]!);
  const roleIds = [...texts.matchAll(/<@&(\d+)>/g)].map((m) => m[1]!);
  return {
    id: messageId,
    type: 0,
    content,
    channel_id: '1180000000000000002',
    author: {
      id: webhookId,
      username: typeof body.username === 'string' ? body.username : 'Captain Hook',
      avatar: null,
      discriminator: '0000',
      bot: true,
    },
    attachments: [],
    embeds,
    mentions: [...new Set(userIds.filter((u) => parse.includes('users') || listed('users').includes(u)))].map((u) => ({
      id: u,
    })),
    mention_roles: [...new Set(roleIds.filter((r) => parse.includes('roles') || listed('roles').includes(r)))],
    mention_everyone: parse.includes('everyone') && /@(everyone|here)\b/.test(texts),
    pinned: false,
    tts: body.tts === true,
    timestamp: new Date().toISOString(),
    edited_timestamp: null,
    flags: 0,
    components: [],
    webhook_id: webhookId,
  };
}

function embedTexts(embed: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const key of ['title', 'description'] as const) if (typeof embed[key] === 'string') out.push(embed[key]);
  if (isObject(embed.footer) && typeof embed.footer.text === 'string') out.push(embed.footer.text);
  if (isObject(embed.author) && typeof embed.author.name === 'string') out.push(embed.author.name);
  if (Array.isArray(embed.fields)) {
    for (const f of embed.fields) if (isObject(f)) out.push(String(f.name ?? ''), String(f.value ?? ''));
  }
  return out;
}

function invalid(errors: FieldErrors): { code: number; message: string; errors: FieldErrors } {
  return { code: 50035, message: 'Invalid Form Body', errors };
}

function err(code: string, message: string): { code: string; message: string } {
  return { code, message };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isHttpUrl(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
