/** The first ring's size: what a short output (a report line) takes. */
const FIRST_RING_BYTES = 256;

/**
 * A bounded tail of a byte stream: keeps the last `maxBytes` bytes in a ring buffer, so memory
 * stays at maxBytes whatever (and however much) is pushed. The ring grows (doubling) with what it
 * holds up to maxBytes: an agent run that prints a line does not take 64 KiB per stream, which
 * piled up as external memory between collections and made every later spawn dearer (a fork copies
 * the page tables of every resident page: bench/overhead.mjs).
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
    const ring = this.room(buf.length);
    const src = buf.length > max ? buf.subarray(buf.length - max) : buf;
    const first = Math.min(src.length, max - this.pos);
    src.copy(ring, this.pos, 0, first);
    if (first < src.length) src.copy(ring, 0, first);
    this.pos = (this.pos + src.length) % max;
  }

  /** Bytes allocated for the ring: from 0 (nothing pushed) up to maxBytes. */
  get allocatedBytes(): number {
    return this.ring?.length ?? 0;
  }

  /**
   * The ring, grown to take `more` bytes. While it is smaller than maxBytes it has never wrapped:
   * it holds its bytes from 0 to pos, which are copied to the start of the larger one.
   */
  private room(more: number): Buffer {
    const ring = this.ring;
    const held = ring ? this.pos : 0;
    if (ring && (ring.length === this.maxBytes || held + more <= ring.length)) return ring;
    let size = Math.max(FIRST_RING_BYTES, ring?.length ?? 0);
    while (size < held + more && size < this.maxBytes) size *= 2;
    const grown = Buffer.alloc(Math.min(size, this.maxBytes));
    ring?.copy(grown, 0, 0, held);
    this.ring = grown;
    return grown;
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
