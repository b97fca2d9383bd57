import YAML from 'yaml';
import type { ReportBlock } from './types.js';

/**
 * Parsing of the agent's report block (seed 004) from its final message.
 * Pure functions; nothing here throws, whatever the input.
 */

export const REPORT_KEYS = ['work_remaining', 'requires_continuation', 'stuck_detected', 'summary'] as const;
type ReportKey = (typeof REPORT_KEYS)[number];

const EMPTY_WORK_STRINGS = new Set(['', '0', '[]', 'null', '~', 'none', '""', "''"]);

/**
 * True when work_remaining says there is nothing left: absent, empty or
 * whitespace-only string, 0 / "0", "[]", YAML null (null, ~), "none", an empty
 * list (or a list of only empty items), an empty mapping, or false.
 */
export function isWorkRemainingEmpty(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value === 'string') {
    const s = value.trim().toLowerCase();
    return EMPTY_WORK_STRINGS.has(s) || /^\[\s*\]$/.test(s);
  }
  if (typeof value === 'number') return value === 0 || Number.isNaN(value);
  if (typeof value === 'bigint') return value === 0n;
  if (typeof value === 'boolean') return !value;
  if (Array.isArray(value)) return value.every((item) => isWorkRemainingEmpty(item));
  if (typeof value === 'object') return Object.keys(value).length === 0;
  return false;
}

/** work_remaining normalised to a string: lists joined with spaces, null → ''. */
export function normaliseWorkRemaining(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (Array.isArray(value)) {
    return value
      .map((item) => normaliseWorkRemaining(item))
      .filter((s) => s !== '')
      .join(' ');
  }
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return '';
  }
}

/** true/false/yes/no in any case (and YAML booleans); anything else is undefined. */
export function parseBoolean(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (typeof value !== 'string') return undefined;
  const s = value.trim().toLowerCase();
  if (s === 'true' || s === 'yes') return true;
  if (s === 'false' || s === 'no') return false;
  return undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value of a report key, written in lower or upper case. */
function lookup(fields: Record<string, unknown>, key: ReportKey): { found: boolean; value: unknown } {
  for (const k of [key, key.toUpperCase()]) {
    if (Object.prototype.hasOwnProperty.call(fields, k)) return { found: true, value: fields[k] };
  }
  return { found: false, value: undefined };
}

function hasReportKey(fields: Record<string, unknown>): boolean {
  return REPORT_KEYS.some((k) => lookup(fields, k).found);
}

function toReportBlock(fields: Record<string, unknown>): ReportBlock {
  const work = lookup(fields, 'work_remaining');
  const block: ReportBlock = {
    workRemainingEmpty: !work.found || isWorkRemainingEmpty(work.value),
    fields,
  };
  if (work.found) block.workRemaining = normaliseWorkRemaining(work.value);
  const cont = parseBoolean(lookup(fields, 'requires_continuation').value);
  if (cont !== undefined) block.requiresContinuation = cont;
  const stuck = parseBoolean(lookup(fields, 'stuck_detected').value);
  if (stuck !== undefined) block.stuckDetected = stuck;
  const summary = lookup(fields, 'summary').value;
  if (typeof summary === 'string') block.summary = summary.trim();
  else if (typeof summary === 'number' || typeof summary === 'boolean') block.summary = String(summary);
  else if (Array.isArray(summary)) block.summary = summary.map((s) => normaliseWorkRemaining(s)).join('\n');
  return block;
}

/** Parse YAML strictly: undefined on any error (a broken block falls back to line parsing). */
function parseYaml(text: string): unknown {
  try {
    const doc = YAML.parseDocument(text, { uniqueKeys: false, prettyErrors: false });
    if (doc.errors.length > 0) return undefined;
    return doc.toJS({ maxAliasCount: 50 }) as unknown;
  } catch {
    return undefined;
  }
}

/** The mapping holding the report keys: the top level, or one nested under a top-level key. */
function findReportMapping(parsed: unknown): Record<string, unknown> | undefined {
  if (!isRecord(parsed)) return undefined;
  if (hasReportKey(parsed)) return parsed;
  for (const value of Object.values(parsed)) {
    if (isRecord(value) && hasReportKey(value)) return value;
  }
  return undefined;
}

interface FencedBlock {
  lang: string;
  content: string;
}

// No overlapping quantifiers that can fail late: these run on untrusted, possibly huge lines.
const FENCE_OPEN = /^[ \t]*(`{3,}|~{3,})[ \t]*([A-Za-z0-9_.+-]*)(.*)$/;
const FENCE_CLOSE = /^[ \t]*(`{3,}|~{3,})[ \t]*$/;

function dedent(lines: string[]): string {
  let min = Infinity;
  for (const line of lines) {
    if (line.trim() === '') continue;
    const indent = /^[ \t]*/.exec(line)?.[0].length ?? 0;
    min = Math.min(min, indent);
  }
  if (!Number.isFinite(min) || min === 0) return lines.join('\n');
  return lines.map((line) => line.slice(Math.min(min, line.length - line.trimStart().length))).join('\n');
}

/** Fenced code blocks in order; an unclosed last fence is ignored. */
export function fencedBlocks(text: string): FencedBlock[] {
  const blocks: FencedBlock[] = [];
  const lines = text.split(/\r?\n/);
  let open: { fence: string; lang: string; body: string[] } | undefined;
  for (const line of lines) {
    if (!open) {
      const m = FENCE_OPEN.exec(line);
      const fence = m?.[1];
      // A backtick fence's info string cannot contain a backtick (that is inline code).
      if (m && fence !== undefined && !(fence[0] === '`' && (m[3] ?? '').includes('`'))) {
        open = { fence, lang: (m[2] ?? '').toLowerCase(), body: [] };
      }
      continue;
    }
    const c = FENCE_CLOSE.exec(line);
    const fence = c?.[1];
    if (fence !== undefined && fence[0] === open.fence[0] && fence.length >= open.fence.length) {
      blocks.push({ lang: open.lang, content: dedent(open.body) });
      open = undefined;
    } else {
      open.body.push(line);
    }
  }
  return blocks;
}

const KEY_ALTERNATIVES = REPORT_KEYS.flatMap((k) => [k, k.toUpperCase()]).join('|');
/** `key: value`, allowing indentation, a list bullet, and markdown emphasis around the key. */
const KEY_LINE = new RegExp(`^([ \\t]*)(?:[-*+][ \\t]+)?[\`*_]*(${KEY_ALTERNATIVES})[\`*_]*[ \\t]*:(?:[ \\t]+(.*))?$`);

function indentOf(line: string): number {
  return /^[ \t]*/.exec(line)?.[0].length ?? 0;
}

/**
 * A value that YAML's core schema reads as the same plain string, known without the parser: a
 * letter, then letters, digits, spaces and `_ . / -` only (no `:`, `#`, quote, bracket or other
 * indicator), and none of the words the schema reads as null or a boolean. The usual progress line
 * (`work_remaining: step 3`) is one; parsing it took the YAML parser about 0.5 ms per agent run.
 */
const PLAIN_STRING = /^[A-Za-z][A-Za-z0-9 _./-]*$/;
const CORE_SCHEMA_WORD = /^(?:null|Null|NULL|true|True|TRUE|false|False|FALSE)$/;

/** A scalar written after `key:` on one line, read as YAML when it is valid YAML. */
function lineValue(raw: string): unknown {
  if (PLAIN_STRING.test(raw) && !CORE_SCHEMA_WORD.test(raw)) return raw;
  const parsed = parseYaml(`v: ${raw}`);
  if (isRecord(parsed) && 'v' in parsed) return parsed['v'];
  // Not valid YAML (e.g. "a: b" inside the value): the raw text minus a trailing comment.
  const comment = raw.search(/[ \t]#/);
  return (comment >= 0 ? raw.slice(0, comment) : raw).trim();
}

/** Bare `key: value` lines for the report keys anywhere in the text; the last occurrence wins. */
export function parseReportLines(text: string): Record<string, unknown> | undefined {
  const fields: Record<string, unknown> = {};
  let found = false;
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const m = KEY_LINE.exec(line);
    if (!m) continue;
    const key = (m[2] ?? '').toLowerCase();
    const raw = (m[3] ?? '').trim();
    let value: unknown;
    if (raw !== '' && !raw.startsWith('#')) {
      value = lineValue(raw);
    } else {
      // `key:` alone: an indented block (e.g. a YAML list) may follow.
      const keyIndent = indentOf(line);
      const body: string[] = [];
      let j = i + 1;
      for (; j < lines.length; j++) {
        const next = lines[j] ?? '';
        if (next.trim() === '') break;
        const ind = indentOf(next);
        if (ind > keyIndent || (ind === keyIndent && /^[ \t]*-[ \t]/.test(next))) body.push(next);
        else break;
      }
      if (body.length > 0) {
        const parsed = parseYaml(
          `v:\n${dedent(body)
            .split('\n')
            .map((l) => `  ${l}`)
            .join('\n')}`,
        );
        value = isRecord(parsed) ? parsed['v'] : body.map((l) => l.trim()).join(' ');
        i = j - 1;
      } else {
        value = null;
      }
    }
    fields[key] = value;
    found = true;
  }
  return found ? fields : undefined;
}

const YAML_LANGS = new Set(['', 'yaml', 'yml']);

/**
 * The report block in an agent's final message: the last fenced YAML block
 * (```yaml or bare ```) holding one of the report keys, at top level or nested
 * under a top-level key such as IMPLEMENTATION_COMPLETE; otherwise bare
 * `key: value` lines anywhere in the text. Undefined when there is none.
 */
export function parseReportBlock(text: string, mask?: (text: string) => string): ReportBlock | undefined {
  const block = readReportBlock(text);
  // The block's values are decoded here (YAML's escapes: "\\x73k-ant-…" is a key the output's mask
  // never saw as such): they enter the engine masked.
  return block && mask ? (maskStrings(block, mask, 0) as ReportBlock) : block;
}

/** Every string in `value` masked; nesting past 32 levels (or an alias's cycle) is dropped. */
function maskStrings(value: unknown, mask: (text: string) => string, depth: number): unknown {
  if (typeof value === 'string') return mask(value);
  if (depth > 32) return undefined;
  if (Array.isArray(value)) return value.map((v) => maskStrings(v, mask, depth + 1));
  if (isRecord(value))
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [mask(k), maskStrings(v, mask, depth + 1)]));
  return value;
}

function readReportBlock(text: string): ReportBlock | undefined {
  try {
    if (typeof text !== 'string' || text === '') return undefined;
    const blocks = fencedBlocks(text).filter((b) => YAML_LANGS.has(b.lang));
    for (let i = blocks.length - 1; i >= 0; i--) {
      const content = blocks[i]?.content ?? '';
      const mapping = findReportMapping(parseYaml(content));
      if (mapping) return toReportBlock(mapping);
      const fromLines = parseReportLines(content);
      if (fromLines) return toReportBlock(fromLines);
    }
    const fromText = parseReportLines(text);
    return fromText ? toReportBlock(fromText) : undefined;
  } catch {
    return undefined;
  }
}
