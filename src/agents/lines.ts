const DEFAULT_MAX_LINE_BYTES = 16 * 1024;

export type PieceEmitter = (text: string, cutBefore: boolean, cutAfter: boolean) => void;

/** A line, or a piece of an overlong one: `cutBefore`/`cutAfter` mark edges that are cuts inside a line. */
export interface LinePiece {
  text: string;
  cutBefore: boolean;
  cutAfter: boolean;
}

/**
 * Splits a byte stream into lines incrementally. Works on bytes (a `\n` byte
 * never occurs inside a multibyte UTF-8 sequence) and decodes only whole lines,
 * or pieces cut on a character boundary, so characters split across chunks
 * decode correctly. A line longer than maxLineBytes comes out as successive
 * pieces of at most maxLineBytes, so at most ~maxLineBytes is ever held.
 */
export class LineSplitter {
  readonly maxLineBytes: number;
  private pending: Buffer = Buffer.alloc(0);
  /** The last piece emitted was cut: the next one continues the same line. */
  private midLine = false;

  constructor(maxLineBytes: number = DEFAULT_MAX_LINE_BYTES) {
    if (!Number.isFinite(maxLineBytes) || maxLineBytes < 4) {
      throw new RangeError(`LineSplitter: maxLineBytes must be >= 4, got ${maxLineBytes}`);
    }
    this.maxLineBytes = Math.floor(maxLineBytes);
  }

  /** Complete lines (without `\n` or a trailing `\r`), and pieces of overlong lines. */
  push(chunk: Buffer): string[] {
    const out: string[] = [];
    this.pushEach(chunk, (text) => out.push(text));
    return out;
  }

  /** Whatever is left after the last newline (empty when nothing is). */
  flush(): string[] {
    const out: string[] = [];
    this.flushEach((text) => out.push(text));
    return out;
  }

  /** As `push`, saying which edges of each piece are cuts inside one line. */
  pushPieces(chunk: Buffer): LinePiece[] {
    const out: LinePiece[] = [];
    this.pushEach(chunk, (text, cutBefore, cutAfter) => out.push({ text, cutBefore, cutAfter }));
    return out;
  }

  /** As `flush`, with the cut edges. */
  flushPieces(): LinePiece[] {
    const out: LinePiece[] = [];
    this.flushEach((text, cutBefore, cutAfter) => out.push({ text, cutBefore, cutAfter }));
    return out;
  }

  /** The streaming form: each piece goes to `emit` as it is found (no arrays, no objects per line). */
  pushEach(chunk: Buffer, emit: PieceEmitter): void {
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(0x0a, start);
      if (nl === -1) break;
      const part = chunk.subarray(start, nl);
      const line = this.pending.length > 0 ? Buffer.concat([this.pending, part]) : part;
      this.pending = Buffer.alloc(0);
      this.emitLine(line, emit);
      start = nl + 1;
    }
    const rest = chunk.subarray(start);
    if (rest.length > 0) {
      if (this.pending.length > 0 && this.pending.length + rest.length > this.maxLineBytes) {
        // The line is overlong anyway: what is held goes out as a piece of its own rather than
        // being copied together with the new chunk (only an incomplete character is kept back).
        const keep = incompleteUtf8Tail(this.pending);
        if (this.pending.length > keep)
          this.emit(emit, this.pending.subarray(0, this.pending.length - keep).toString('utf8'), true);
        this.pending = keep > 0 ? Buffer.concat([this.pending.subarray(this.pending.length - keep), rest]) : rest;
      } else {
        // A view, not a copy: at most one chunk (a pipe read, 64 KiB) stays referenced.
        this.pending = this.pending.length > 0 ? Buffer.concat([this.pending, rest]) : rest;
      }
      this.drainOverlong(emit);
    }
  }

  /** The streaming form of `flush`. */
  flushEach(emit: PieceEmitter): void {
    if (this.pending.length > 0) {
      const line = this.pending;
      this.pending = Buffer.alloc(0);
      this.emitLine(line, emit);
    }
  }

  private emit(out: PieceEmitter, text: string, cutAfter: boolean): void {
    const cutBefore = this.midLine;
    this.midLine = cutAfter;
    out(text, cutBefore, cutAfter);
  }

  private emitLine(line: Buffer, out: PieceEmitter): void {
    let bytes = line;
    // Overlong complete line: emit the leading pieces first.
    while (bytes.length > this.maxLineBytes) {
      const cut = this.cutPoint(bytes);
      this.emit(out, bytes.subarray(0, cut).toString('utf8'), true);
      bytes = bytes.subarray(cut);
    }
    let end = bytes.length;
    if (end > 0 && bytes[end - 1] === 0x0d) end--;
    this.emit(out, bytes.subarray(0, end).toString('utf8'), false);
  }

  private drainOverlong(out: PieceEmitter): void {
    if (this.pending.length <= this.maxLineBytes) return;
    let bytes = this.pending;
    while (bytes.length > this.maxLineBytes) {
      const cut = this.cutPoint(bytes);
      this.emit(out, bytes.subarray(0, cut).toString('utf8'), true);
      bytes = bytes.subarray(cut);
    }
    this.pending = bytes;
  }

  /** Where to cut `bytes` (longer than maxLineBytes) so no character is split. */
  private cutPoint(bytes: Buffer): number {
    let cut = this.maxLineBytes;
    // Back off while the byte at the cut is a continuation byte (10xxxxxx).
    let back = 0;
    while (back < 3 && cut > 1 && ((bytes[cut] ?? 0) & 0xc0) === 0x80) {
      cut--;
      back++;
    }
    // Not valid UTF-8 there anyway: cut at the limit.
    if (((bytes[cut] ?? 0) & 0xc0) === 0x80) cut = this.maxLineBytes;
    return cut;
  }
}

/** How many bytes at the end of `buf` start a UTF-8 character that is not complete yet (0-3). */
function incompleteUtf8Tail(buf: Buffer): number {
  for (let back = 1; back <= Math.min(3, buf.length); back++) {
    const byte = buf[buf.length - back] as number;
    if ((byte & 0xc0) === 0x80) continue; // a continuation byte: look further back
    const need = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return need > back ? back : 0;
  }
  return 0;
}
