/**
 * Posting a halt diagnostic to a Discord webhook (the message itself: discordPayload.ts).
 *
 * `postToDiscord` sends it with `?wait=true`, retries 429 (after `retry_after`) and 5xx/network
 * errors (exponential backoff) within a 30 s budget of waiting (the row
 * OUTSIDE_CALL_POLICIES.discord in failure/policy.ts, run by retryCall), and reports every other
 * outcome as a warning: it never throws and never changes the run's outcome. The webhook URL is a secret
 * (its token lets anyone post): it never appears in a warning or in the returned error, even if
 * the redactor does not know it.
 */
import { type Terms, surface } from '../config/surface.js';
import { OUTSIDE_CALL_POLICIES } from '../failure/policy.js';
import { type RetryStop, retryCall } from '../failure/retryCall.js';
import { type HaltMessage, buildDiscordPayload, truncateEnd } from './discordPayload.js';

export interface DiscordDeps {
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
  redact: (s: string) => string;
  warn: (message: string) => void;
  /** One request gives up after this long without an answer (default 10 s); counts as a network error. */
  requestTimeoutMs?: number;
  /** Whose words name the webhook's option in a refusal (default: the CLI's). */
  terms?: Terms;
}

export interface DiscordResult {
  ok: boolean;
  attempts: number;
  error?: string;
}

/** The webhook's retry row (attempts, backoff, wait budget): OUTSIDE_CALL_POLICIES.discord in failure/policy.ts. */
const POLICY = OUTSIDE_CALL_POLICIES.discord;
/** The most time a call spends waiting between attempts (and, with a real clock, in total). */
export const DISCORD_WAIT_BUDGET_MS = POLICY.waitBudgetMs;

/** One request's answer: accepted, refused for good, or worth another try (after `retryAfterMs` when Discord says). */
type Answer =
  | { kind: 'accepted' }
  | { kind: 'refused'; problem: string }
  | { kind: 'transient'; problem: string; retryAfterMs?: number };

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
  const fail = failure(mask, deps);
  try {
    const target = webhookTarget(webhookUrl);
    if (!target) return fail(0, `${WEBHOOK} URL is not a valid http(s) URL`);
    let body: string;
    try {
      body = redactedBody(message, (s) => mask(deps.redact(mask(s))));
    } catch {
      // Without redaction nothing is sent: better no message than a leaked secret.
      return fail(0, 'the message could not be redacted or built, so it was not sent');
    }
    const request: Post = {
      fetch: deps.fetch ?? globalThis.fetch,
      href: target.href,
      body,
      timeoutMs: deps.requestTimeoutMs ?? 10_000,
      terms: deps.terms,
    };
    const end = await retryCall(() => postOnce(request), {
      policy: POLICY,
      classify: (attempt) =>
        attempt.ok && attempt.value.kind === 'transient'
          ? { retry: true, retryAfterMs: attempt.value.retryAfterMs }
          : { retry: false },
      sleep: deps.sleep ?? defaultSleep,
      now: deps.now ?? Date.now,
    });
    if (!end.last.ok) throw end.last.error;
    const answer = end.last.value;
    if (answer.kind === 'accepted') return { ok: true, attempts: end.attempts };
    return fail(end.attempts, gaveUp(end, answer.problem));
  } catch (error) {
    return fail(0, `unexpected error: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** A failed post's result: its reason cleaned (the redactor, the webhook masked) and passed to `warn`. Never throws. */
function failure(
  mask: (text: string) => string,
  deps: DiscordDeps,
): (attempts: number, reason: string) => DiscordResult {
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
  return (attempts, reason) => {
    const error = clean(reason);
    warn(`Could not post the halt diagnostic to ${WEBHOOK}: ${error}`);
    return { ok: false, attempts, error };
  };
}

/** Where to POST: the webhook URL with `?wait=true` (Discord then answers with the message), or undefined when it is not http(s). */
function webhookTarget(webhookUrl: string): URL | undefined {
  let target: URL;
  try {
    target = new URL(String(webhookUrl).trim());
  } catch {
    return undefined;
  }
  if (target.protocol !== 'https:' && target.protocol !== 'http:') return undefined;
  target.searchParams.set('wait', 'true');
  return target;
}

/** The payload's JSON, every text of the message passed through `text` first; throws when a text cannot be redacted. */
function redactedBody(message: HaltMessage, text: (s: string) => string): string {
  const safe: HaltMessage = {
    title: text(message.title ?? ''),
    summary: text(message.summary ?? ''),
    fields: (message.fields ?? []).map((f) => ({ ...f, name: text(f.name ?? ''), value: text(f.value ?? '') })),
  };
  if (message.outputTail !== undefined) safe.outputTail = text(message.outputTail);
  if (message.url !== undefined) safe.url = text(message.url);
  if (message.color !== undefined) safe.color = message.color;
  return JSON.stringify(buildDiscordPayload(safe));
}

/** One request to the webhook. */
interface Post {
  fetch: typeof fetch;
  href: string;
  body: string;
  timeoutMs: number;
  terms?: Terms;
}

/** One POST: Discord's answer, or a network error or no answer in time (worth another try). */
async function postOnce(request: Post): Promise<Answer> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), request.timeoutMs);
  let response: Response;
  try {
    response = await request.fetch(request.href, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: request.body,
      signal: controller.signal,
    });
  } catch (error) {
    const problem = controller.signal.aborted
      ? `no answer within ${seconds(request.timeoutMs)}`
      : describeNetworkError(error);
    return { kind: 'transient', problem };
  } finally {
    clearTimeout(timer);
  }
  const status = response.status;
  const text = await readBody(response);
  return answerOf(status, text, response.headers, request.terms);
}

/** What Discord's answer means: accepted (2xx), worth another try (429, 5xx), or refused for good (any other 4xx). */
function answerOf(status: number, text: string, headers: Headers, terms: Terms | undefined): Answer {
  if (status >= 200 && status < 300) return { kind: 'accepted' };
  const detail = describeDiscordError(text);
  if (status === 429) {
    const problem = `rate limited (HTTP 429${detail ? `: ${detail}` : ''})`;
    return { kind: 'transient', problem, retryAfterMs: retryAfter(text, headers) };
  }
  if (status >= 500) return { kind: 'transient', problem: `HTTP ${status}${detail ? `: ${detail}` : ''}` };
  // 4xx other than 429: retrying the same request cannot help.
  return { kind: 'refused', problem: `HTTP ${status}${detail ? `: ${detail}` : ''}${refusalHint(status, terms)}` };
}

/** What to check after a refusal: the webhook's option for 404, 401 and 403, the body for 400. */
function refusalHint(status: number, terms: Terms | undefined): string {
  if (status === 404) return ` (${WEBHOOK} does not exist: check ${surface(terms).option('discordWebhook')})`;
  if (status === 401 || status === 403)
    return ` (${WEBHOOK} token is not accepted: check ${surface(terms).option('discordWebhook')})`;
  if (status === 400) return ' (Discord rejected the message body)';
  return '';
}

/** Why the call gave up on its last answer: the problem, and, when retries ran out, how many attempts or what wait was over budget. */
function gaveUp(end: RetryStop & { attempts: number }, problem: string): string {
  const { attempts } = end;
  if (end.end === 'exhausted') return `${problem}; gave up after ${attempts} attempts`;
  if (end.end === 'over_budget')
    return (
      `${problem}; retrying would mean waiting ${seconds(end.waitMs)}, more than the ${seconds(Math.max(0, end.leftMs))} ` +
      `left of the ${seconds(DISCORD_WAIT_BUDGET_MS)} budget, so gave up after ${attempts} attempt${attempts === 1 ? '' : 's'}`
    );
  return problem;
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
