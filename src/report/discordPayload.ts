/**
 * A halt diagnostic as a Discord message (pure; the webhook call is discordWebhook.ts).
 *
 * `buildDiscordPayload` turns a generic `HaltMessage` into the JSON body of Discord's
 * "Execute Webhook" call (POST /webhooks/{id}/{token}): one rich embed that always fits Discord's
 * documented limits, truncating visibly ("…") instead of failing, and `allowed_mentions` that
 * parses nothing, so issue text can never ping @everyone, @here, a role or a user.
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

  const summary = escapeBackticks(stripControl(message.summary ?? '').trim());
  const tail =
    message.outputTail === undefined ? '' : breakFences(stripControl(message.outputTail).replace(/^\n+|\s+$/g, ''));
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
      ? `${FOOTER_BASE} · ${dropped} more field${dropped === 1 ? '' : 's'} left out (Discord allows ${DISCORD_LIMITS.fields} ` +
        `fields and ${DISCORD_LIMITS.total} characters per message)`
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

/**
 * Runs of two or more backticks in plain text shown as themselves (Markdown's backslash escape), so
 * none opens a code block or swallows the text after it; a single pair still reads as inline code
 * (`resume: true` in the advice). What a reader sees and copies is the text, with nothing invisible added.
 */
function escapeBackticks(text: string): string {
  return text.replace(
    /\\?`{2,}/g,
    (run) => (run.startsWith('\\') ? '\\\\' : '') + run.replace(/^\\/, '').replace(/`/g, '\\`'),
  );
}

/**
 * Discord ends a code block at the first ``` whatever its opening fence (unlike CommonMark, where a
 * longer fence keeps shorter runs inside), and nothing is escaped inside one. So a run of three or
 * more backticks in the output gets a visible space after every second backtick (``` becomes `` `):
 * the block cannot be broken out of, and the change shows. halt.md and the job summary keep the
 * output as it is (src/report/markdown.ts).
 */
function breakFences(text: string): string {
  return text.replace(/`{3,}/g, (run) => run.replace(/``(?=`)/g, '`` '));
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
