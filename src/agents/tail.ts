/**
 * A bounded tail of a byte stream: keeps the last `maxBytes` bytes in a fixed
 * ring buffer, so memory stays at maxBytes whatever (and however much) is pushed.
 */
export class TailBuffer {
  readonly maxBytes: number;
  /** Every byte ever pushed, including those no longer held. */
  totalBytes = 0;
  private ring: Buffer | undefined;
  /** Next write position in the ring. */
  private pos = 0;

  constructor(maxBytes: number) {
    if (!Number.isFinite(maxBytes) || maxBytes < 0) throw new RangeError(`TailBuffer: bad maxBytes ${maxBytes}`);
    this.maxBytes = Math.floor(maxBytes);
  }

  push(chunk: Buffer | string): void {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    this.totalBytes += buf.length;
    const max = this.maxBytes;
    if (max === 0 || buf.length === 0) return;
    // Allocated on first use.
    if (!this.ring) this.ring = Buffer.alloc(max);
    const ring = this.ring;
    const src = buf.length > max ? buf.subarray(buf.length - max) : buf;
    const first = Math.min(src.length, max - this.pos);
    src.copy(ring, this.pos, 0, first);
    if (first < src.length) src.copy(ring, 0, first);
    this.pos = (this.pos + src.length) % max;
  }

  /** The bytes held, oldest first. */
  toBuffer(): Buffer {
    const ring = this.ring;
    if (!ring) return Buffer.alloc(0);
    if (this.totalBytes < this.maxBytes) return Buffer.from(ring.subarray(0, this.totalBytes));
    return Buffer.concat([ring.subarray(this.pos), ring.subarray(0, this.pos)]);
  }

  /** The tail as UTF-8; when the start was cut off, a partial leading character is dropped. */
  toString(): string {
    let buf = this.toBuffer();
    if (this.totalBytes > this.maxBytes) {
      let skip = 0;
      // Continuation bytes are 10xxxxxx; a character has at most 3 of them.
      while (skip < 3 && skip < buf.length && ((buf[skip] ?? 0) & 0xc0) === 0x80) skip++;
      buf = buf.subarray(skip);
    }
    return buf.toString('utf8');
  }
}
