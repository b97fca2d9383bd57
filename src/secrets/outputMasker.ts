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
 *
 * A line that is a JSON event (Claude Code's stream-json, Codex's `--json`; see eventText.ts) is
 * masked on the text it carries rather than on its framing: its string values, decoded, each line of
 * them as a raw line (a secret split across `\n` inside one message), across adjacent strings of
 * the event (two content blocks) and across the last string of one event and the first of the next
 * (two messages), as held lines are; the changed strings are re-encoded in place, so the line stays
 * valid JSON for the stream readers. Any other line (and a piece of a cut line) is masked as text.
 */
import type { SecretRedactor } from './redact.js';
import {
  type EventLine,
  firstCarried,
  lastCarried,
  maskEventStrings,
  maskWithinEvent,
  readEventLine,
} from './eventText.js';
import { maskAcross } from './maskAcross.js';

export { maskAcross } from './maskAcross.js';

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
  /** The line read as a JSON event: masked on its strings, `text` is then only what was printed. */
  event: EventLine | undefined;
}

/** Where a held line meets the line before it (`startOf`) and after it (`endOf`): its text, or for an event the strings it carries. */
const startOf = (p: Pending): { text: string } | undefined => (p.event ? firstCarried(p.event) : p);
const endOf = (p: Pending): { text: string } | undefined => (p.event ? lastCarried(p.event) : p);
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
    const { text, stream, cut, event } = first;
    // An event: its strings (keys too), each line of them at its ends as well. The strings, decoded,
    // are all a JSON line holds that can be a secret, in whatever escapes it was printed.
    if (event) return emit(maskEventStrings(redact, event), stream);
    // A line's own ends too: a secret's half whose other half came too late to be held with it
    // (more than HOLD lines or quietMs apart, a loaded machine) is masked on its own.
    emit(redact.edges(cut ? redact.piece(text, cut) : redact(text)), stream, cut);
  };
  /** Masks a secret crossing from the end of `a` into the start of `b`. */
  const join = (a: Pending, b: Pending): void => {
    const [end, start] = [endOf(a), startOf(b)];
    if (end && start) [end.text, start.text] = maskAcross(redact, end.text, start.text);
  };
  const releaseAll = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    while (held.length > 0) releaseOne();
  };

  return {
    push(line, stream, cut) {
      const event = cut ? undefined : readEventLine(line);
      if (event) maskWithinEvent(redact, event);
      const next: Pending = { text: line, stream, cut, event };
      // The line before it in its stream: the last one held that carries text (an event may carry none).
      let previous: Pending | undefined;
      for (const p of held) if (p.stream === stream && endOf(p)) previous = p;
      if (previous) join(previous, next);
      for (const p of held) {
        if (p.stream === stream) continue;
        join(p, next);
        join(next, p);
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
