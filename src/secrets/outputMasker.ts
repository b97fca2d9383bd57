/**
 * Where output enters the engine: every line an agent or a test command prints passes through
 * here, once, before any sink (the log, the per-iteration stream log, the tails kept in the
 * checkpoint, errors.jsonl, git notes) sees it. So no sink can forget to mask.
 *
 * Besides masking each line (`redact`, or `redact.piece` for the pieces of an overlong line), it
 * masks a secret split across two adjacent lines, or across stdout and stderr: each line is held
 * until the next one arrives (or the output goes quiet for `quietMs`, 1 s), and any secret span that
 * crosses the boundary between the two, read in either order, is masked on both sides. A secret
 * split across writes more than `quietMs` apart is beyond it.
 */
import type { SecretRedactor } from '../report/redact.js';
import { MASK } from '../report/redact.js';

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

export interface OutputMasker {
  push(line: string, stream: Stream, cut?: Cut): void;
  /** Emits what is held (the end of the output). */
  flush(): void;
}

export function createOutputMasker(redact: SecretRedactor, emit: LineSink, opts: { quietMs?: number } = {}): OutputMasker {
  let pending: Pending | undefined;
  let timer: NodeJS.Timeout | undefined;
  const quietMs = opts.quietMs ?? 1000;

  const release = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (!pending) return;
    const { text, stream, cut } = pending;
    pending = undefined;
    const masked = cut ? redact.piece(text, cut) : redact(text);
    emit(masked, stream, cut);
  };

  return {
    push(line, stream, cut) {
      let next: Pending = { text: line, stream, cut };
      if (pending) {
        // Both orders: lines of two streams (stdout, stderr) may arrive in either order.
        let [before, after] = maskAcross(redact, pending.text, next.text);
        [after, before] = maskAcross(redact, after, before);
        pending = { ...pending, text: before };
        next = { ...next, text: after };
        release();
      }
      pending = next;
      if (quietMs > 0) {
        timer = setTimeout(release, quietMs);
        timer.unref?.();
      }
    },
    flush: release,
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
  let cutA = a.length;
  let cutB = 0;
  for (const [start, end] of redact.spans(joined)) {
    if (start < left.length && end > left.length) {
      cutA = Math.min(cutA, a.length - (left.length - start));
      cutB = Math.max(cutB, end - left.length);
    }
  }
  if (cutA === a.length && cutB === 0) return [a, b];
  return [a.slice(0, cutA) + MASK, MASK + b.slice(cutB)];
}
