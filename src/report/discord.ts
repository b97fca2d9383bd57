/**
 * Posting a halt diagnostic to a Discord webhook.
 *
 * `buildDiscordPayload` turns a generic `HaltMessage` into the JSON body of Discord's
 * "Execute Webhook" call (POST /webhooks/{id}/{token}): one rich embed that always fits Discord's
 * documented limits, truncating visibly ("…") instead of failing, and `allowed_mentions` that
 * parses nothing, so issue text can never ping @everyone, @here, a role or a user.
 *
 * `postToDiscord` sends it with `?wait=true`, retries 429 (after `retry_after`) and 5xx/network
 * errors (exponential backoff) within a 30 s budget of waiting, and reports every other outcome
 * as a warning: it never throws and never changes the run's outcome. The webhook URL is a secret
 * (its token lets anyone post): it never appears in a warning or in the returned error, even if
 * the redactor does not know it.
 *
 * Limits, from discord/discord-api-docs (docs/resources/message.mdx "Embed Limits",
 * docs/resources/webhook.mdx "Execute Webhook"): content 2000 characters; up to 10 embeds; embed
 * title 256, description 4096, up to 25 fields, field name 256, field value 1024, footer text 2048,
 * author name 256; and the sum of title, description, field names and values, footer text and
 * author names across all embeds of a message at most 6000. Discord trims leading and trailing
 * whitespace before measuring; this module measures untrimmed UTF-16 length (never less than
 * what Discord counts), so it stays within the limits either way.
 */

export interface HaltMessage {
  title: string;
  summary: string;
  fields: { name: string; value: string; inline?: boolean }[];
  /** The last part of the agent's output; shown in a code block at the end of the description. */
  outputTail?: string;
  /** Makes the title a link (http or https only; anything else is left out). */
  url?: string;
  /** The embed's colour, 0xRRGGBB. */
  color?: number;
}

export const DISCORD_LIMITS = {
  content: 2000,
  embeds: 10,
  title: 256,
  description: 4096,
  fields: 25,
  fieldName: 256,
  fieldValue: 1024,
  footer: 2048,
  authorName: 256,
  /** title + description + field names and values + footer text + author name, all embeds. */
  total: 6000,
} as const;

export interface DiscordEmbedField {
  name: string;
  value: string;
  inline?: boolean;
}

export interface DiscordEmbed {
  title?: string;
  description?: string;
  url?: string;
  color?: number;
  fields: DiscordEmbedField[];
  footer: { text: string };
}

export interface DiscordPayload {
  embeds: [DiscordEmbed];
  allowed_mentions: { parse: [] };
}

const ELLIPSIS = '…';
const FOOTER_BASE = 'agent-loop';
/** Room kept for the footer (which notes what was left out) when sharing out the 6000. */
const FOOTER_RESERVE = 200;
/** The description keeps at least this much (or all it needs, if less) before fields use the rest. */
const DESCRIPTION_RESERVE = 1500;
/** The output tail keeps at least this much of the description (or all it needs, if less). */
const TAIL_RESERVE = 400;
/** A field is cut short rather than left out only if at least this much of its value fits. */
const MIN_FIELD_VALUE = 40;
const OPEN_BLOCK = '```\n';
const CLOSE_BLOCK = '\n```';

/** The webhook JSON body for a halt message (pure; apply redaction before, as postToDiscord does). */
export function buildDiscordPayload(message: HaltMessage): DiscordPayload {
  const title = truncateEnd(singleLine(message.title ?? ''), DISCORD_LIMITS.title);
  // Everything but the footer shares what is left of the 6000 once the title is placed.
  let budget = DISCORD_LIMITS.total - title.length - FOOTER_RESERVE;

  const summary = neutraliseFences(stripControl(message.summary ?? '').trim());
  const tail =
    message.outputTail === undefined
      ? ''
      : neutraliseFences(stripControl(message.outputTail).replace(/^\n+|\s+$/g, ''));
  const descriptionWanted = Math.min(
    DISCORD_LIMITS.description,
    summary.length + (tail ? 2 + OPEN_BLOCK.length + tail.length + CLOSE_BLOCK.length : 0),
  );

  // Fields, in order, while they fit next to the description's reserve; the rest are left out
  // (and the footer says how many).
  let fieldBudget = budget - Math.min(descriptionWanted, DESCRIPTION_RESERVE);
  const inputFields = Array.isArray(message.fields) ? message.fields : [];
  const fields: DiscordEmbedField[] = [];
  for (const field of inputFields) {
    if (fields.length >= DISCORD_LIMITS.fields) break;
    const name = truncateEnd(nonBlank(singleLine(field.name ?? '')), DISCORD_LIMITS.fieldName);
    let value = truncateEnd(nonBlank(stripControl(field.value ?? '').trim()), DISCORD_LIMITS.fieldValue);
    if (name.length + value.length > fieldBudget) {
      const room = fieldBudget - name.length;
      if (room < Math.min(MIN_FIELD_VALUE, value.length)) break;
      value = truncateEnd(value, room);
    }
    fields.push(field.inline === undefined ? { name, value } : { name, value, inline: field.inline });
    fieldBudget -= name.length + value.length;
  }
  const usedByFields = fields.reduce((n, f) => n + f.name.length + f.value.length, 0);
  budget -= usedByFields;

  const description = composeDescription(summary, tail, Math.min(DISCORD_LIMITS.description, budget));

  const dropped = inputFields.length - fields.length;
  const footer =
    dropped > 0
      ? `${FOOTER_BASE} · ${dropped} more field${dropped === 1 ? '' : 's'} left out (Discord allows ${DISCORD_LIMITS.fields} fields and ${DISCORD_LIMITS.total} characters per message)`
      : FOOTER_BASE;

  const embed: DiscordEmbed = { fields, footer: { text: footer } };
  if (title) embed.title = title;
  if (description) embed.description = description;
  const url = message.url === undefined ? undefined : httpUrl(message.url);
  if (url) embed.url = url;
  if (
    typeof message.color === 'number' &&
    Number.isInteger(message.color) &&
    message.color >= 0 &&
    message.color <= 0xffffff
  ) {
    embed.color = message.color;
  }
  return { embeds: [embed], allowed_mentions: { parse: [] } };
}

/** The summary, then the output tail in a code block, in at most `budget` characters. */
function composeDescription(summary: string, tail: string, budget: number): string {
  if (budget <= 0) return '';
  if (!tail) return truncateEnd(summary, budget);
  const overhead = OPEN_BLOCK.length + CLOSE_BLOCK.length;
  const tailBlock = overhead + tail.length;
  const sep = summary ? '\n\n' : '';
  // The summary comes first, but leaves the tail its reserve.
  const summaryRoom = Math.max(0, budget - sep.length - Math.min(tailBlock, overhead + TAIL_RESERVE));
  const head = truncateEnd(summary, summaryRoom);
  const tailRoom = budget - head.length - (head ? sep.length : 0) - overhead;
  if (tailRoom < 40) {
    // No useful room for the output: say so rather than leave it out silently.
    const note = '(agent output left out: no room)';
    const room = budget - (note.length + 2);
    return room > 0 ? `${truncateEnd(summary, room)}\n\n${note}` : truncateEnd(summary, budget);
  }
  return `${head}${head ? sep : ''}${OPEN_BLOCK}${truncateStart(tail, tailRoom)}${CLOSE_BLOCK}`;
}

/** At most `max` characters: the beginning, then "…". */
export function truncateEnd(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max <= 0) return '';
  let cut = text.slice(0, max - ELLIPSIS.length);
  if (isHighSurrogate(cut.charCodeAt(cut.length - 1))) cut = cut.slice(0, -1);
  return cut + ELLIPSIS;
}

/** At most `max` characters: a note of how much was left out, then the end (from a line start if one is near). */
function truncateStart(text: string, max: number): string {
  if (text.length <= max) return text;
  const markerFor = (omitted: number) => `${ELLIPSIS} (${omitted} earlier characters left out)\n`;
  const keep = max - markerFor(text.length).length; // the longest the marker can be
  if (keep <= 0) return truncateEnd(markerFor(text.length).trimEnd(), max);
  let kept = text.slice(text.length - keep);
  const newline = kept.indexOf('\n');
  if (newline >= 0 && newline < 200 && newline < kept.length - 1) kept = kept.slice(newline + 1);
  if (isLowSurrogate(kept.charCodeAt(0))) kept = kept.slice(1);
  return markerFor(text.length - kept.length) + kept;
}

/** No run of two backticks survives, so no text can open or close a code block (``` or ``). */
function neutraliseFences(text: string): string {
  return text.replace(/`(?=`)/g, '`\u200b');
}

/** ANSI escape sequences and control characters other than newline and tab go. */
function stripControl(text: string): string {
  return (
    String(text)
      .replace(/\r\n?/g, '\n')
      // eslint-disable-next-line no-control-regex
      .replace(/\u001b\[[0-?]*[ -/]*[@-~]|\u001b[@-_]/g, '')
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '')
  );
}

function singleLine(text: string): string {
  return stripControl(text).replace(/\s+/g, ' ').trim();
}

/** Discord requires field names and values; blank ones (trimmed away) would be rejected. */
function nonBlank(text: string): string {
  return text.trim() ? text : '(empty)';
}

function httpUrl(text: string): string | undefined {
  try {
    const url = new URL(text.trim());
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

// --- posting -------------------------------------------------------------------------------------

export interface DiscordDeps {
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
  redact: (s: string) => string;
  warn: (message: string) => void;
  /** One request gives up after this long without an answer (default 10 s); counts as a network error. */
  requestTimeoutMs?: number;
}

export interface DiscordResult {
  ok: boolean;
  attempts: number;
  error?: string;
}

/** The most time a call spends waiting between attempts (and, with a real clock, in total). */
export const DISCORD_WAIT_BUDGET_MS = 30_000;
/** Waits before the 2nd, 3rd, … attempt after a 5xx or network error. */
export const DISCORD_BACKOFF_MS: readonly number[] = [1000, 2000, 4000, 8000];
/** At most this many requests per call, whatever the answers. */
export const DISCORD_MAX_ATTEMPTS = 6;

const WEBHOOK = 'the Discord webhook';

/**
 * POSTs the message to the webhook. Resolves, never rejects: `ok` says whether Discord accepted
 * it; every failure is also passed to `warn` (redacted, without the webhook URL).
 */
export async function postToDiscord(
  webhookUrl: string,
  message: HaltMessage,
  deps: DiscordDeps,
): Promise<DiscordResult> {
  const mask = webhookMasker(String(webhookUrl));
  const clean = (text: string): string => {
    try {
      return mask(deps.redact(mask(text)));
    } catch {
      return '(a message that could not be redacted)';
    }
  };
  const warn = (text: string) => {
    try {
      deps.warn(clean(text));
    } catch {
      // A broken warn must not turn a failed notification into a failed run.
    }
  };
  const fail = (attempts: number, reason: string): DiscordResult => {
    const error = clean(reason);
    warn(`Could not post the halt diagnostic to ${WEBHOOK}: ${error}`);
    return { ok: false, attempts, error };
  };

  try {
    let target: URL;
    try {
      target = new URL(String(webhookUrl).trim());
      if (target.protocol !== 'https:' && target.protocol !== 'http:') throw new Error('not http(s)');
    } catch {
      return fail(0, `${WEBHOOK} URL is not a valid http(s) URL`);
    }
    target.searchParams.set('wait', 'true');

    let body: string;
    try {
      const text = (s: string) => mask(deps.redact(mask(s)));
      const safe: HaltMessage = {
        title: text(message.title ?? ''),
        summary: text(message.summary ?? ''),
        fields: (message.fields ?? []).map((f) => ({ ...f, name: text(f.name ?? ''), value: text(f.value ?? '') })),
      };
      if (message.outputTail !== undefined) safe.outputTail = text(message.outputTail);
      if (message.url !== undefined) safe.url = text(message.url);
      if (message.color !== undefined) safe.color = message.color;
      body = JSON.stringify(buildDiscordPayload(safe));
    } catch {
      // Without redaction nothing is sent: better no message than a leaked secret.
      return fail(0, 'the message could not be redacted or built, so it was not sent');
    }

    const doFetch = deps.fetch ?? globalThis.fetch;
    const sleep = deps.sleep ?? defaultSleep;
    const now = deps.now ?? Date.now;
    const timeoutMs = deps.requestTimeoutMs ?? 10_000;
    const started = now();
    let waited = 0;
    const spent = () => Math.max(waited, now() - started);
    let backoff = 0;
    let attempts = 0;
    let lastProblem = '';

    for (;;) {
      attempts += 1;
      let retryAfterMs: number | undefined;
      let problem = 'no answer';
      let response: Response | undefined;
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(), timeoutMs);
      try {
        response = await doFetch(target.href, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body,
          signal: controller.signal,
        });
      } catch (error) {
        problem = controller.signal.aborted ? `no answer within ${seconds(timeoutMs)}` : describeNetworkError(error);
      } finally {
        clearTimeout(timer);
      }

      if (response) {
        const status = response.status;
        const text = await readBody(response);
        if (status >= 200 && status < 300) return { ok: true, attempts };
        const detail = describeDiscordError(text);
        if (status === 429) {
          retryAfterMs = retryAfter(text, response.headers);
          problem = `rate limited (HTTP 429${detail ? `: ${detail}` : ''})`;
        } else if (status >= 500) {
          problem = `HTTP ${status}${detail ? `: ${detail}` : ''}`;
        } else {
          // 4xx other than 429: retrying the same request cannot help.
          const hint =
            status === 404
              ? ` (${WEBHOOK} does not exist: check --discord-webhook)`
              : status === 401 || status === 403
                ? ` (${WEBHOOK} token is not accepted: check --discord-webhook)`
                : status === 400
                  ? ' (Discord rejected the message body)'
                  : '';
          return fail(attempts, `HTTP ${status}${detail ? `: ${detail}` : ''}${hint}`);
        }
      }

      lastProblem = problem;
      if (attempts >= DISCORD_MAX_ATTEMPTS) {
        return fail(attempts, `${lastProblem}; gave up after ${attempts} attempts`);
      }
      const wait = retryAfterMs ?? DISCORD_BACKOFF_MS[Math.min(backoff++, DISCORD_BACKOFF_MS.length - 1)]!;
      const left = DISCORD_WAIT_BUDGET_MS - spent();
      if (wait > left) {
        return fail(
          attempts,
          `${lastProblem}; retrying would mean waiting ${seconds(wait)}, more than the ${seconds(Math.max(0, left))} left of the ${seconds(DISCORD_WAIT_BUDGET_MS)} budget, so gave up after ${attempts} attempt${attempts === 1 ? '' : 's'}`,
        );
      }
      waited += wait;
      await sleep(wait);
    }
  } catch (error) {
    return fail(0, `unexpected error: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function defaultSleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
}

async function readBody(response: Response): Promise<string> {
  try {
    return await response.text();
  } catch {
    return '';
  }
}

/**
 * How long a 429 asks to wait, in ms: the body's `retry_after` (seconds, fractional), else
 * `X-RateLimit-Reset-After`, else `Retry-After` (seconds or an HTTP date); 1 s if none says.
 */
function retryAfter(body: string, headers: Headers): number {
  const fromBody = (() => {
    try {
      const parsed: unknown = JSON.parse(body);
      const value = parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>).retry_after : undefined;
      return typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : NaN;
    } catch {
      return NaN;
    }
  })();
  const candidates = [
    fromBody,
    Number(headers.get('x-ratelimit-reset-after') ?? NaN),
    retryAfterHeader(headers.get('retry-after')),
  ];
  const seconds = candidates.find((s) => Number.isFinite(s) && s >= 0);
  return seconds === undefined ? 1000 : Math.ceil(seconds * 1000);
}

function retryAfterHeader(value: string | null): number {
  if (value === null || value.trim() === '') return NaN;
  const asNumber = Number(value);
  if (Number.isFinite(asNumber)) return asNumber;
  const date = Date.parse(value);
  return Number.isFinite(date) ? Math.max(0, (date - Date.now()) / 1000) : NaN;
}

/** Discord's JSON error `{code, message, errors}` in one line; other bodies, shortened. */
function describeDiscordError(body: string): string {
  const text = body.trim();
  if (!text) return '';
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object') {
      const { code, message, errors } = parsed as Record<string, unknown>;
      const parts: string[] = [];
      if (typeof message === 'string') parts.push(message);
      if (typeof code === 'number' && code !== 0) parts.push(`code ${code}`);
      const where = errors && typeof errors === 'object' ? flattenErrors(errors as Record<string, unknown>) : [];
      if (where.length > 0)
        parts.push(where.slice(0, 3).join('; ') + (where.length > 3 ? `; and ${where.length - 3} more` : ''));
      if (parts.length > 0) return truncateEnd(parts.join(', '), 500);
    }
  } catch {
    // not JSON (e.g. a proxy's HTML error page)
  }
  return truncateEnd(
    text
      .replace(/<[^>]*>/g, ' ')
      .replace(/\s+/g, ' ')
      .trim(),
    200,
  );
}

/** Discord's nested `errors` object as "embeds.0.title: Must be 256 or fewer in length." lines. */
function flattenErrors(errors: Record<string, unknown>, path = ''): string[] {
  const out: string[] = [];
  for (const [key, value] of Object.entries(errors)) {
    if (key === '_errors' && Array.isArray(value)) {
      for (const e of value) {
        const msg = e && typeof e === 'object' ? (e as Record<string, unknown>).message : undefined;
        out.push(`${path || 'body'}: ${typeof msg === 'string' ? msg : 'invalid'}`);
      }
    } else if (value && typeof value === 'object') {
      out.push(...flattenErrors(value as Record<string, unknown>, path ? `${path}.${key}` : key));
    }
  }
  return out;
}

function describeNetworkError(error: unknown): string {
  if (!(error instanceof Error)) return `network error: ${String(error)}`;
  const cause = (error as { cause?: unknown }).cause;
  const causeText =
    cause instanceof Error
      ? (cause as { code?: unknown }).code !== undefined
        ? String((cause as { code?: unknown }).code)
        : cause.message
      : '';
  return `network error: ${error.message}${causeText && !error.message.includes(causeText) ? ` (${causeText})` : ''}`;
}

function seconds(ms: number): string {
  const s = ms / 1000;
  return `${Number.isInteger(s) ? s : s.toFixed(1)} s`;
}

/**
 * Replaces the webhook URL (as given, as parsed, with or without its query) and its token with
 * "the Discord webhook"; and, in case of another spelling, any http(s) URL with /webhooks/ in it.
 */
function webhookMasker(webhookUrl: string): (text: string) => string {
  const literals = new Set<string>([webhookUrl, webhookUrl.trim()]);
  try {
    const url = new URL(webhookUrl.trim());
    literals.add(url.href);
    literals.add(url.origin + url.pathname);
    const withWait = new URL(url.href);
    withWait.searchParams.set('wait', 'true');
    literals.add(withWait.href);
    const segments = url.pathname.split('/').filter(Boolean);
    const at = segments.indexOf('webhooks');
    const token = at >= 0 ? segments[at + 2] : undefined;
    if (token) {
      literals.add(token);
      try {
        literals.add(decodeURIComponent(token));
      } catch {
        // not percent-decodable: the raw token is masked already
      }
    }
  } catch {
    // not a URL: the literal text is masked
  }
  const list = [...literals].filter((s) => s.length >= 6).sort((a, b) => b.length - a.length);
  return (text) => {
    let out = String(text);
    for (const literal of list) {
      if (out.includes(literal)) out = out.split(literal).join(WEBHOOK);
    }
    return out.replace(/https?:\/\/[^\s"'<>]*\/webhooks\/[^\s"'<>]*/gi, WEBHOOK);
  };
}
