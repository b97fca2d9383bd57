const DEFAULT_MAX_LINE_BYTES = 64 * 1024;

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

  constructor(maxLineBytes: number = DEFAULT_MAX_LINE_BYTES) {
    if (!Number.isFinite(maxLineBytes) || maxLineBytes < 4) {
      throw new RangeError(`LineSplitter: maxLineBytes must be >= 4, got ${maxLineBytes}`);
    }
    this.maxLineBytes = Math.floor(maxLineBytes);
  }

  /** Complete lines (without `\n` or a trailing `\r`), and pieces of overlong lines. */
  push(chunk: Buffer): string[] {
    const out: string[] = [];
    const data = chunk;
    let start = 0;
    for (;;) {
      const nl = data.indexOf(0x0a, start);
      if (nl === -1) break;
      const part = data.subarray(start, nl);
      const line = this.pending.length > 0 ? Buffer.concat([this.pending, part]) : part;
      this.pending = Buffer.alloc(0);
      this.emitLine(line, out);
      start = nl + 1;
    }
    const rest = data.subarray(start);
    if (rest.length > 0) {
      // Copy so we never retain a reference to the caller's (possibly huge) chunk.
      this.pending = this.pending.length > 0 ? Buffer.concat([this.pending, rest]) : Buffer.from(rest);
      this.drainOverlong(out);
    }
    return out;
  }

  /** Whatever is left after the last newline (empty when nothing is). */
  flush(): string[] {
    const out: string[] = [];
    if (this.pending.length > 0) {
      const line = this.pending;
      this.pending = Buffer.alloc(0);
      this.emitLine(line, out);
    }
    return out;
  }

  private emitLine(line: Buffer, out: string[]): void {
    let bytes = line;
    // Overlong complete line: emit the leading pieces first.
    while (bytes.length > this.maxLineBytes) {
      const cut = this.cutPoint(bytes);
      out.push(bytes.subarray(0, cut).toString('utf8'));
      bytes = bytes.subarray(cut);
    }
    let end = bytes.length;
    if (end > 0 && bytes[end - 1] === 0x0d) end--;
    out.push(bytes.subarray(0, end).toString('utf8'));
  }

  private drainOverlong(out: string[]): void {
    if (this.pending.length <= this.maxLineBytes) return;
    let bytes = this.pending;
    while (bytes.length > this.maxLineBytes) {
      const cut = this.cutPoint(bytes);
      out.push(bytes.subarray(0, cut).toString('utf8'));
      bytes = bytes.subarray(cut);
    }
    this.pending = Buffer.from(bytes);
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
