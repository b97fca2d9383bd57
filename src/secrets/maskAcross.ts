/** A secret that crosses from the end of one text into the start of the next, masked on both sides. Pure. */
import type { SecretRedactor } from './redact.js';
import { MASK } from './redact.js';

/** How much of each side of a boundary is searched for a secret crossing it. */
const WINDOW = 512;

/**
 * Masks the parts of a secret that crosses from the end of `a` into the start of `b` (the two read
 * as one string, with no separator). Pure.
 */
export function maskAcross(redact: SecretRedactor, a: string, b: string): [string, string] {
  const left = a.slice(-WINDOW);
  const right = b.slice(0, WINDOW);
  const joined = left + right;
  // The spans of each side alone too: one scan of `joined` reports no match inside another (a
  // token shape running on into a known secret at the start of `b` hides that secret).
  const spans = [
    ...redact.spans(joined),
    ...redact.spans(left),
    ...redact.spans(right).map(([start, end]): [number, number] => [start + left.length, end + left.length]),
  ];
  // The masked stretch of `joined`: every span crossing the boundary, widened by every span it
  // overlaps, so no secret is left half masked.
  let lo = left.length;
  let hi = left.length;
  for (let grown = true; grown;) {
    grown = false;
    for (const [start, end] of spans) {
      const overlaps = lo < hi ? start < hi && end > lo : start < left.length && end > left.length;
      if (overlaps && (start < lo || end > hi)) {
        [lo, hi, grown] = [Math.min(lo, start), Math.max(hi, end), true];
      }
    }
  }
  if (lo === hi) return [a, b];
  return [a.slice(0, a.length - (left.length - lo)) + MASK, MASK + b.slice(hi - left.length)];
}
