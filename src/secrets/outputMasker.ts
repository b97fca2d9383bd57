/**
 * Where output enters the engine: every line an agent or a test command prints passes through
 * here, once, before any sink (the log, the per-iteration stream log, the tails kept in the
 * checkpoint, errors.jsonl, git notes) sees it. So no sink can forget to mask.
 *
 * Besides masking each line (`redact`, or `redact.piece` for the pieces of an overlong line), it
 * masks a secret split across two adjacent lines of one stream, or across stdout and stderr: the
 * last HOLD lines are held (until more arrive, or the output goes quiet for `quietMs`, 1 s), each
 * new line is read after the previous line of its stream, and before and after every held line of
 * the other stream (two pipes interleave in no fixed order), and any secret span that crosses
 * the boundary is masked on both sides. A secret split across writes more than HOLD lines or
 * `quietMs` apart is beyond it.
 */
import type { SecretRedactor } from './redact.js';
import { MASK } from './redact.js';

export type Stream = 'stdout' | 'stderr';
export interface Cut {
  before: boolean;
  after: boolean;
}
export type LineSink = (line: string, stream: Stream, cut?: Cut) => void;

interface Pending {
  text: string;
  stream: Stream;
  cut: Cut | undefined;
}

/** How much of each side of a boundary is searched for a secret crossing it. */
const WINDOW = 512;
/** Lines held back before they are emitted: how far apart the two streams' halves may arrive. */
const HOLD = 8;

export interface OutputMasker {
  push(line: string, stream: Stream, cut?: Cut): void;
  /** Emits what is held (the end of the output). */
  flush(): void;
}

export function createOutputMasker(
  redact: SecretRedactor,
  emit: LineSink,
  opts: { quietMs?: number } = {},
): OutputMasker {
  const held: Pending[] = [];
  let timer: NodeJS.Timeout | undefined;
  const quietMs = opts.quietMs ?? 1000;

  const releaseOne = () => {
    const first = held.shift();
    if (!first) return;
    const { text, stream, cut } = first;
    // A line's own ends too: a secret's half whose other half came too late to be held with it
    // (more than HOLD lines or quietMs apart, a loaded machine) is masked on its own.
    emit(redact.edges(cut ? redact.piece(text, cut) : redact(text)), stream, cut);
  };
  const releaseAll = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    while (held.length > 0) releaseOne();
  };

  return {
    push(line, stream, cut) {
      const next: Pending = { text: line, stream, cut };
      let previous: Pending | undefined;
      for (const p of held) if (p.stream === stream) previous = p;
      if (previous) [previous.text, next.text] = maskAcross(redact, previous.text, next.text);
      for (const p of held) {
        if (p.stream === stream) continue;
        [p.text, next.text] = maskAcross(redact, p.text, next.text);
        [next.text, p.text] = maskAcross(redact, next.text, p.text);
      }
      held.push(next);
      while (held.length > HOLD) releaseOne();
      if (timer) clearTimeout(timer);
      timer = undefined;
      if (quietMs > 0) {
        timer = setTimeout(releaseAll, quietMs);
        timer.unref?.();
      }
    },
    flush: releaseAll,
  };
}

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
