/**
 * A committed blob as the texts a secret could be read from, whatever git thinks of the file (issue 43):
 * `git diff` and `git log -p` say only "Binary files differ" for a file with NUL bytes or behind
 * `.gitattributes` `binary`/`-diff`, so the line scan never sees it. Here the bytes themselves are
 * read: as UTF-8 and Latin-1, as UTF-16 (LE/BE by its BOM, else by its NUL pattern), gunzipped (gzip
 * by its magic, bounded), a zip archive's stored and deflated entries (bounded: zipEntries.ts), and
 * each of those texts again with what the masker knows a secret's encodings to be undone (JSON
 * escapes, URL encoding, base64 runs, which hold an HTTP basic-auth header's value too). Pure.
 */
import { gunzipSync } from 'node:zlib';
import { isZip, zipEntries } from './zipEntries.js';

/** The bytes a gzip blob (or a zip archive's entries together) is expanded to at most: past it the blob is cut, never expanded whole. */
export const MAX_EXPANDED = 16 * 1024 * 1024;

/** What a blob reads as: the texts to scan, and whether a compressed blob (gzip, zip) ran over `MAX_EXPANDED` (then not all was read). */
export interface BlobViews {
  texts: string[];
  cut: boolean;
}

const isGzip = (b: Buffer) => b.length >= 3 && b[0] === 0x1f && b[1] === 0x8b && b[2] === 0x08;

/** Which byte of each pair is NUL in most pairs of the first 4 KiB: 'le' for odd bytes (ASCII in UTF-16LE), 'be' for even. */
function utf16ByNuls(b: Buffer): 'le' | 'be' | undefined {
  const n = Math.min(b.length, 4096) & ~1;
  if (n < 8) return undefined;
  let even = 0;
  let odd = 0;
  for (let i = 0; i < n; i += 2) {
    if (b[i] === 0 && b[i + 1] !== 0) even++;
    if (b[i + 1] === 0 && b[i] !== 0) odd++;
  }
  const pairs = n / 2;
  if (odd >= pairs / 2 && odd > even * 4) return 'le';
  if (even >= pairs / 2 && even > odd * 4) return 'be';
  return undefined;
}

function utf16Text(b: Buffer, order: 'le' | 'be'): string {
  const even = b.subarray(0, b.length & ~1);
  if (order === 'le') return even.toString('utf16le');
  const swapped = Buffer.from(even);
  swapped.swap16();
  return swapped.toString('utf16le');
}

/** The UTF-16 reading of `b`, when it has a UTF-16 BOM or the NUL pattern of UTF-16 text; at both byte offsets by NUL pattern. */
function utf16Texts(b: Buffer): string[] {
  if (b.length >= 2 && b[0] === 0xff && b[1] === 0xfe) return [utf16Text(b.subarray(2), 'le')];
  if (b.length >= 2 && b[0] === 0xfe && b[1] === 0xff) return [utf16Text(b.subarray(2), 'be')];
  const order = utf16ByNuls(b);
  return order ? [utf16Text(b, order), utf16Text(b.subarray(1), order)] : [];
}

/** A gzip blob's content up to `limit` bytes: `cut` when it would run over (a gzip bomb is stopped at the bound). */
export function gunzipBounded(b: Buffer, limit = MAX_EXPANDED): { bytes?: Buffer; cut: boolean } {
  try {
    return { bytes: gunzipSync(b, { maxOutputLength: limit }), cut: false };
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') return { cut: true };
    return { cut: false }; // Not gzip after all (a magic by chance, or truncated): read as bytes only.
  }
}

const JSON_ESCAPE = /\\(u[0-9A-Fa-f]{4}|["\\/bfnrt])/g;
const SIMPLE: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

/** `text` with JSON's escapes undone, as often as they nest (a JSON string inside JSON), a few levels at most. */
function jsonUnescaped(text: string): string {
  let out = text;
  for (let level = 0; level < 4 && out.includes('\\'); level++) {
    const next = out.replace(JSON_ESCAPE, (_, e: string) =>
      e.startsWith('u') ? String.fromCharCode(parseInt(e.slice(1), 16)) : (SIMPLE[e] ?? e),
    );
    if (next === out) break;
    out = next;
  }
  return out;
}

/** `text` with its %XX sequences decoded (a run of them as UTF-8 bytes) and `+` read as a space; the rest as it is. */
function urlDecoded(text: string): string {
  if (!/%[0-9A-Fa-f]{2}/.test(text)) return text;
  return text
    .replace(/\+/g, ' ')
    .replace(/(%[0-9A-Fa-f]{2})+/g, (run) => Buffer.from(run.replace(/%/g, ''), 'hex').toString('utf8'));
}

/** Runs that could be base64 (standard or URL-safe), long enough to hold a secret of six characters. */
const BASE64_RUN = /[A-Za-z0-9+/_-]{8,}={0,2}/g;

/** Each base64 run of `text` decoded, read as UTF-8 and joined by newlines (where a secret base64 carries is). */
function base64Decoded(text: string): string {
  const parts: string[] = [];
  for (const m of text.matchAll(BASE64_RUN)) {
    const run = m[0].replace(/-/g, '+').replace(/_/g, '/');
    parts.push(Buffer.from(run, 'base64').toString('latin1'), Buffer.from(run, 'base64').toString('utf8'));
  }
  return parts.join('\n');
}

/** `text` and what it reads as with each of a secret's encodings undone, once each. */
export function decodedForms(text: string): string[] {
  const forms = new Set([text, jsonUnescaped(text), urlDecoded(text)]);
  forms.add(urlDecoded(jsonUnescaped(text)));
  for (const form of [...forms]) {
    const decoded = base64Decoded(form);
    if (decoded !== '') forms.add(decoded);
  }
  return [...forms];
}

/**
 * The texts a blob's bytes read as (see the module's comment), each with its encodings undone. A gzip
 * blob or a zip archive is read both as its bytes and as its content; one whose content runs over `limit` is `cut`.
 */
export function blobViews(bytes: Buffer, limit = MAX_EXPANDED): BlobViews {
  const raw: Buffer[] = [bytes];
  let cut = false;
  if (isGzip(bytes)) {
    const expanded = gunzipBounded(bytes, limit);
    cut = expanded.cut;
    if (expanded.bytes) raw.push(expanded.bytes);
  }
  if (isZip(bytes)) {
    const unzipped = zipEntries(bytes, limit);
    cut ||= unzipped.cut;
    raw.push(...unzipped.entries);
  }
  const texts = new Set<string>();
  for (const b of raw) {
    texts.add(b.toString('utf8'));
    texts.add(b.toString('latin1'));
    for (const t of utf16Texts(b)) texts.add(t);
  }
  const views = new Set<string>();
  for (const t of texts) for (const v of decodedForms(t)) views.add(v);
  return { texts: [...views], cut };
}

/** The secrets `holdsSecret` finds in any view of a blob, once each. */
export function blobSecrets(views: readonly string[], holdsSecret: (text: string) => string[]): string[] {
  return [...new Set(views.flatMap((v) => holdsSecret(v)))];
}
