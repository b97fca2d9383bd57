/**
 * The one redactor every output path uses: log lines (text and NDJSON), the final JSON result, the
 * start-up problems on stderr and the Discord halt messages.
 *
 * It masks
 * - every occurrence of each known secret value (collectSecrets in config/secrets.ts) of at least
 *   MIN_SECRET_LENGTH characters, also in the forms it takes once encoded: JSON-escaped up to
 *   four levels deep (the agent's JSON, a JSON string inside it, the logger's own
 *   JSON.stringify, one spare), with `/` escaped as `\/` (PHP), with non-ASCII or `<>&` as `\uXXXX` (Python,
 *   Go), URL-encoded (either case of hex digits, `+` for spaces) and XML-escaped (a JUnit report);
 * - token shapes, even when the value was never given: GitHub `ghp_ gho_ ghu_ ghs_ ghr_` (36+
 *   base62 characters after the prefix) and `github_pat_` (22+), Anthropic `sk-ant-` (20+),
 *   OpenAI `sk-proj- sk-svcacct- sk-admin- sk-None-` (20+) and legacy `sk-` (32+ base62), Slack
 *   `xoxa- xoxb- xoxp- xoxr- xoxs-` (10+, with a digit) and the token after `Bearer` (8+, with a
 *   digit). A shape keeps its prefix (`ghp_***`, `sk-ant-***`, `Bearer ***`) so a reader can tell
 *   what leaked; a known value becomes `***`.
 *
 * Every replacement is shorter than what it replaces, and the redactor repeats until nothing
 * matches, so its output never contains a secret (not even one formed around a mask) and
 * redacting twice changes nothing. In JSON text a replacement covers whole escape sequences, so
 * valid JSON stays valid (no `\***`, no `\u00***`, no `\` left to escape the closing quote).
 *
 * Cut output: the redactor sees one string at a time, so a secret cut across two strings is not
 * whole in either and is not masked by `redact` alone. Every complete line is covered. For the
 * pieces of a line that was cut (LineSplitter cuts lines over 16 KiB), `redact.piece(text, cut)`
 * also masks a fragment of a secret at a cut edge, so that the pieces put back together never
 * contain a known secret whole; see `piece`.
 */
export type Redactor = (text: string) => string;

/** Which edges of a piece are cuts inside one line (rather than line starts or ends). */
export interface Cut {
  /** The piece continues the previous piece of the same line. */
  before?: boolean;
  /** The next piece of the same line continues this one. */
  after?: boolean;
}

export interface SecretRedactor extends Redactor {
  /**
   * Redacts one piece of a line that was cut at arbitrary places, each cut at least as far from
   * the next as the longest secret is long (LineSplitter's 16 KiB pieces). Besides what `redact`
   * masks: at a cut edge, a fragment of a known secret (a prefix at a cut end, a suffix at a cut
   * start) of at least min(ceil(length / 2), 8) characters, so that of the two sides of a cut
   * secret at least one is masked; a token-shape prefix with the start of its token at a cut
   * end (`…ghp_abc` becomes `…ghp_***`); and a run of 20+ token characters at a cut start (the
   * unrecognisable rest of a cut token). On the unmasked side of a cut known secret fewer than
   * min(ceil(length / 2), 8) characters stay readable. Pieces shorter than that, or cuts closer
   * together than a secret is long, are not covered: nothing can tell a short fragment from text.
   */
  piece(text: string, cut: Cut): string;
  /**
   * Masks a fragment of a known secret at either end of a whole line (a prefix at its end, a
   * suffix at its start) of at least min(ceil(length / 2), 8) characters: the halves of a secret
   * printed on two lines (one stream or both, in whatever order and however far apart) are each
   * masked on their own. No shape heuristics: a line's ends are text, not cut tokens.
   */
  edges(text: string): string;
  /** Where secrets (known values in every form, token shapes) stand in `text`, as [start, end) pairs. */
  spans(text: string): Array<[number, number]>;
  /** Whether `text` (line breaks in or out) holds a shape's prefix or the ends of a known form's least fragment. */
  mayHold(text: string): boolean;
}

export const MASK = '***';

/**
 * Shorter known values are not masked. Below 6 characters a value is no real credential (every
 * token this tool is given is 40+ characters; a Discord webhook token is 68) and it occurs in
 * ordinary output all the time: masking a 1-character value would turn every "a" of every line
 * into ***, ruining the logs and, by where the masks fall, revealing the value anyway. 6 also
 * keeps every replacement (`***`) shorter than what it replaces, which is what makes "repeat
 * until nothing matches" end.
 */
export const MIN_SECRET_LENGTH = 6;

// Token shapes. The lookbehinds after `sk-` / `xox?-` keep them off the end of words ("task-ant-…").
const SHAPES = [
  'gh[pousr]_[A-Za-z0-9]{36,}',
  'github_pat_[A-Za-z0-9_]{22,}',
  'sk-(?<![A-Za-z0-9]sk-)(?:ant-[A-Za-z0-9_-]{20,}|(?:proj|svcacct|admin|None)-[A-Za-z0-9_-]{20,}|[A-Za-z0-9]{32,})',
  'xox[abprs]-(?<![A-Za-z0-9]xox[abprs]-)(?=[A-Za-z-]*[0-9])[A-Za-z0-9-]{10,}',
  // RFC 6750 b64token; a digit is required so prose ("Bearer authentication") is left alone.
  // The space may be a tab, or `\t` in JSON.
  '(?:Bearer|bearer|BEARER)(?:[ \\t]|\\\\t)+(?=[A-Za-z._~+/-]*[0-9])[A-Za-z0-9._~+/-]{8,}=*',
];
/** The part of a masked shape that stays readable. */
const SHAPE_PREFIX =
  /^(?:gh[pousr]_|github_pat_|sk-(?:ant-|proj-|svcacct-|admin-|None-)?|xox[abprs]-|(?:Bearer|bearer|BEARER)(?:[ \t]|\\t)+)/;
/** At a cut end: a shape prefix and whatever of its token made it into this piece. */
const SHAPE_AT_CUT_END =
  // eslint-disable-next-line max-len -- one regular expression of token prefixes: cut, it would no longer read as one
  /(?:gh[pousr]_|github_pat_|(?<![A-Za-z0-9])sk-(?:ant-|proj-|svcacct-|admin-|None-)?|(?<![A-Za-z0-9])xox[abprs]-|(?:Bearer|bearer|BEARER)(?:[ \t]|\\t)+)[A-Za-z0-9_.~+/=-]*$/;
/**
 * At a cut start: the rest of a token whose prefix was in the previous piece: a run of token
 * characters that ends within a token's length. A longer run (a 16 KiB piece of base64 that
 * happens to be alphanumeric) is no token's rest and stays readable.
 */
const TOKEN_AT_CUT_START = /^[A-Za-z0-9_-]{20,255}(?![A-Za-z0-9_-])/;
const FRAGMENT_THRESHOLD_CAP = 8;
/** Where a token shape starts (`mayHold`): its prefix, whole in any of its parts once they are joined. */
const SHAPE_HINTS = /gh[pousr]_|github_pat_|(?<![A-Za-z0-9])sk-|(?<![A-Za-z0-9])xox[abprs]-|Bearer|bearer|BEARER/;
const LINE_BREAKS = /[\n\r]/g;
const BACKSLASH = 0x5c;

const hex4 = (code: number, upper: boolean) => {
  const h = code.toString(16).padStart(4, '0');
  return upper ? h.toUpperCase() : h;
};
/** JSON.stringify of a string, without the quotes. */
const json = (s: string) => JSON.stringify(s).slice(1, -1);
const slashEscaped = (s: string) => s.replace(/\//g, '\\/');
/** Python's json.dumps (ensure_ascii) and PHP's json_encode: everything beyond ASCII as \uXXXX. */
const asciiOnly = (s: string, upper: boolean) =>
  s.replace(/[\u007f-\uffff]/g, (c) => `\\u${hex4(c.charCodeAt(0), upper)}`);
/** XML text and attributes (a JUnit report): &, < and > as entities, and the quotes too in an attribute. */
const xmlText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const xmlAttribute = (s: string) => xmlText(s).replace(/"/g, '&quot;').replace(/'/g, '&apos;');
/** Go's json.Marshal: <, > and & as \u003c, \u003e, \u0026. */
const htmlSafe = (s: string) => s.replace(/[<>&]/g, (c) => `\\u${hex4(c.charCodeAt(0), false)}`);

function urlForms(s: string): string[] {
  try {
    const component = encodeURIComponent(s);
    return [
      component,
      component.replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase()),
      component.replace(/%20/g, '+'),
      encodeURI(s),
    ];
  } catch {
    return []; // a lone surrogate has no URL encoding
  }
}

/**
 * The base64 of `bytes` wherever it starts in a longer encoded blob: for each of the three byte
 * alignments, the characters that depend on the secret's bytes alone; standard and URL-safe.
 */
function base64Forms(bytes: Buffer): string[] {
  const forms: string[] = [];
  for (let k = 0; k < 3; k++) {
    const encoded = Buffer.concat([Buffer.alloc(k), bytes]).toString('base64');
    const stable = encoded.slice(Math.ceil((8 * k) / 6), Math.floor((8 * (k + bytes.length)) / 6));
    if (stable.length >= 8) forms.push(stable, stable.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return forms;
}

/** The forms a secret value can take in output, the value itself first. */
export function secretForms(secret: string): string[] {
  const firstLevel = [
    secret,
    json(secret),
    slashEscaped(json(secret)),
    asciiOnly(json(secret), false),
    asciiOnly(json(secret), true),
    asciiOnly(slashEscaped(json(secret)), false),
    htmlSafe(json(secret)),
    // In XML (the test command's JUnit report, masked where it is read).
    xmlText(secret),
    xmlAttribute(secret),
    ...urlForms(secret),
    // Encoded: the value in base64 (an Authorization: Basic header, a .git/config extraheader as
    // actions/checkout writes it, `x-access-token:<token>`), anywhere in a longer blob.
    ...base64Forms(Buffer.from(secret, 'utf8')),
    ...base64Forms(Buffer.from(`x-access-token:${secret}`, 'utf8')),
  ];
  const forms = new Set<string>();
  for (const form of firstLevel) {
    // Nested: a JSON string inside the agent's JSON, then the logger's JSON.stringify.
    const once = json(form);
    const twice = json(once);
    forms.add(form).add(once).add(twice).add(json(twice));
  }
  return [...forms];
}

const escapeRegExp = (s: string) => s.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&');

/**
 * V8 stops optimising a regular expression whose source is over 20 KB (kRegExpTooLargeToOptimize):
 * with a hundred secrets, one alternation of all their forms was 20 times slower. The forms are
 * split into alternations below this size instead; a handful of secrets needs only one.
 */
const MAX_PATTERN_SOURCE = 16_000;

function alternations(sources: readonly string[]): RegExp[] {
  const groups: string[][] = [];
  let size = Infinity;
  for (const source of sources) {
    if (size + source.length + 1 > MAX_PATTERN_SOURCE) {
      groups.push([]);
      size = 0;
    }
    groups[groups.length - 1]?.push(source);
    size += source.length + 1;
  }
  return groups.map((group) => new RegExp(group.join('|'), 'g'));
}

function backslashesBefore(text: string, index: number): number {
  let n = 0;
  while (index - n - 1 >= 0 && text.charCodeAt(index - n - 1) === BACKSLASH) n++;
  return n;
}

/**
 * The escape sequence (`\n`, `\"`, `\\`, `\u00e9`, …) that `index` falls strictly inside, as
 * [start, end), if any. A replacement is widened to whole escapes so that, in JSON text, it never
 * leaves half an escape behind (`\***`, `\u00***`, or a `\` now escaping the quote after it).
 */
function escapeAround(text: string, index: number): [number, number] | undefined {
  for (let p = index - 1; p >= 0 && p >= index - 5; p--) {
    if (text.charCodeAt(p) !== BACKSLASH || backslashesBefore(text, p) % 2 === 1) continue;
    const length = text[p + 1] === 'u' && /^[0-9A-Fa-f]{4}$/.test(text.slice(p + 2, p + 6)) ? 6 : 2;
    if (p + length > index) return [p, p + length];
  }
  return undefined;
}

function fragmentThreshold(length: number): number {
  return Math.min(Math.ceil(length / 2), FRAGMENT_THRESHOLD_CAP);
}

/**
 * The whole-text masker over `patterns`: every match replaced, widened to whole escapes, until nothing
 * matches. It remembers the last text returned: a text masked already comes back unchanged (the
 * result is a fixed point of a pass), so masking it again (the checkpoint store masks its text, and
 * the one file writer masks whatever it writes) costs a comparison rather than a scan of every pattern.
 */
function createWholeMasker(forms: ReadonlySet<string>, patterns: readonly RegExp[]): (text: string) => string {
  /** One pass: every match replaced, widened to whole escapes. Returns `text` itself when nothing matched. */
  const passWith = (pattern: RegExp, text: string): string => {
    pattern.lastIndex = 0;
    let out = '';
    let last = 0;
    for (let m = pattern.exec(text); m; m = pattern.exec(text)) {
      const match = m[0];
      let start = m.index;
      let masked = forms.has(match) ? MASK : `${SHAPE_PREFIX.exec(match)?.[0] ?? ''}${MASK}`;
      const before = escapeAround(text, start);
      if (before) [start, masked] = [before[0], MASK];
      const end = escapeAround(text, m.index + match.length)?.[1] ?? m.index + match.length;
      out += text.slice(last, start) + masked;
      last = end;
      pattern.lastIndex = end;
    }
    return last === 0 ? text : out + text.slice(last);
  };
  const pass = (text: string): string => patterns.reduce((out, pattern) => passWith(pattern, out), text);

  let lastOut: string | undefined;
  return (text: string): string => {
    let out = String(text);
    if (out === lastOut) return out;
    // Every replacement is shorter than what it replaces, so this ends; usually after one pass with no match.
    for (;;) {
      const next = pass(out);
      if (next === out) return (lastOut = out);
      out = next;
    }
  };
}

/** A known form's shortest fragment that counts, its first and last characters: searched for natively. */
interface Fragment {
  form: string;
  least: number;
  head: string;
  tail: string;
}

function fragmentOf(form: string): Fragment {
  const least = fragmentThreshold(form.length);
  return { form, least, head: form.slice(0, least), tail: form.slice(-least) };
}

/** The length of a prefix of `form`, n ≥ least long, that ends `text`, when longer than `best`; else `best`. */
function prefixEnding(text: string, { form, head }: Fragment, best: number): number {
  const len = text.length;
  // It starts with `head`, within the last form.length - 1 characters.
  for (let p = text.indexOf(head, Math.max(0, len - form.length + 1)); p >= 0; p = text.indexOf(head, p + 1)) {
    const n = len - p;
    if (n > best && form.startsWith(text.slice(p)) && /[^*]/.test(text.slice(p))) return n;
  }
  return best;
}

/** The length of a suffix of `form`, n ≥ least long, that starts `text`, when longer than `best`; else `best`. */
function suffixStarting(text: string, { form, least, tail }: Fragment, best: number): number {
  // It ends with `tail`, at n - least, below form.length - least.
  for (
    let q = text.lastIndexOf(tail, form.length - 1 - least);
    q >= 0;
    q = q > 0 ? text.lastIndexOf(tail, q - 1) : -1
  ) {
    const n = q + least;
    if (n > best && form.endsWith(text.slice(0, n)) && /[^*]/.test(text.slice(0, n))) return n;
  }
  return best;
}

/** The longest fragment (at least its threshold) of a known form that `text` ends with (a prefix) or starts with (a suffix). */
function edgeFragment(fragments: readonly Fragment[], text: string, at: 'end' | 'start'): number {
  let best = 0;
  for (const fragment of fragments) {
    if (fragment.least > fragment.form.length - 1 || fragment.least > text.length) continue;
    best = at === 'end' ? prefixEnding(text, fragment, best) : suffixStarting(text, fragment, best);
  }
  return best;
}

/** Where each pattern matches `text`, as [start, end) spans. */
function matchSpans(patterns: readonly RegExp[], text: string): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (const pattern of patterns) {
    pattern.lastIndex = 0;
    for (let m = pattern.exec(text); m; m = pattern.exec(text)) {
      out.push([m.index, m.index + m[0].length]);
      if (m[0].length === 0) pattern.lastIndex++;
    }
  }
  return out;
}

export function createRedactor(secrets: readonly string[]): SecretRedactor {
  const values = [...new Set(secrets.filter((s) => typeof s === 'string' && s.length >= MIN_SECRET_LENGTH))];
  const forms = new Set(values.flatMap(secretForms));
  // Longest first: at one position the longest form wins.
  const formList = [...forms].sort((a, b) => b.length - a.length);
  // Known values before shapes, so a value that has a shape is masked whole.
  const patterns = alternations([...formList.map(escapeRegExp), ...SHAPES]);
  const redact = createWholeMasker(forms, patterns);
  const fragments = formList.map(fragmentOf);
  const hintSources = new Set(
    fragments.flatMap(({ head, tail }) => [head, tail].map((h) => h.replace(LINE_BREAKS, ''))).filter((h) => h !== ''),
  );
  const fragmentHints = alternations([...hintSources].map(escapeRegExp));

  /** A known secret's fragment ending `text` masked (widened to whole escapes); undefined when none. */
  const knownAtEnd = (text: string): string | undefined => {
    const n = edgeFragment(fragments, text, 'end');
    return n > 0 ? text.slice(0, escapeAround(text, text.length - n)?.[0] ?? text.length - n) + MASK : undefined;
  };
  /** A known secret's fragment starting `text` masked (widened to whole escapes); undefined when none. */
  const knownAtStart = (text: string): string | undefined => {
    const n = edgeFragment(fragments, text, 'start');
    return n > 0 ? MASK + text.slice(escapeAround(text, n)?.[1] ?? n) : undefined;
  };

  const maskCutEnd = (text: string): string => {
    const known = knownAtEnd(text);
    if (known !== undefined) return known;
    const shape = SHAPE_AT_CUT_END.exec(text);
    if (shape) return text.slice(0, shape.index) + (SHAPE_PREFIX.exec(shape[0])?.[0] ?? '') + MASK;
    return text;
  };

  const maskCutStart = (text: string): string => {
    const known = knownAtStart(text);
    if (known !== undefined) return known;
    const token = TOKEN_AT_CUT_START.exec(text);
    if (token) return MASK + text.slice(token[0].length);
    return text;
  };

  const piece = (text: string, cut: Cut): string => {
    let out = redact(text);
    // Masking an edge may expose another match (only with secrets containing `*`): a few rounds.
    for (let round = 0; round < 8; round++) {
      let next = out;
      if (cut.after) next = maskCutEnd(next);
      if (cut.before) next = maskCutStart(next);
      if (next === out) return out;
      out = redact(next);
    }
    return out;
  };

  const spans = (text: string): Array<[number, number]> => matchSpans(patterns, text);

  const edges = (text: string): string => {
    const end = knownAtEnd(text) ?? text;
    return knownAtStart(end) ?? end;
  };

  // False: no line of `text`, nor two adjacent ones joined, holds what a mask takes. The shapes apart (their
  // lookbehinds slow the fragments' search threefold), and in `text` too: `ta\nsk-…` is `task-…` once joined.
  const mayHold = (text: string): boolean => {
    const flat = text.replace(LINE_BREAKS, '');
    return (
      SHAPE_HINTS.test(text) || SHAPE_HINTS.test(flat) || fragmentHints.some((p) => ((p.lastIndex = 0), p.test(flat)))
    );
  };

  return Object.assign(redact, { piece, spans, edges, mayHold });
}
