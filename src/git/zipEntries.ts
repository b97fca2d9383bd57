/**
 * The entries of a zip archive, for the blob scan (blobViews.ts): a small bounded reader of the
 * central directory, stored (method 0) and deflated (method 8) entries only; zip64, encrypted and
 * other methods are left out (their bytes are still scanned as they are). Pure.
 */
import { inflateRawSync } from 'node:zlib';

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
/** Entries read at most: an archive listing more is cut. */
export const MAX_ENTRIES = 10_000;

/** Whether `b` starts as a zip archive does (a local file header, or an empty archive's end record). */
export const isZip = (b: Buffer) => b.length >= 22 && (b.readUInt32LE(0) === LOCAL || b.readUInt32LE(0) === EOCD);

/** Where the end-of-central-directory record starts: searched back over the comment's 64 KiB at most. */
function endRecord(b: Buffer): number | undefined {
  for (let p = b.length - 22; p >= 0 && p >= b.length - 22 - 0xffff; p--) if (b.readUInt32LE(p) === EOCD) return p;
  return undefined;
}

/**
 * The contents of the archive's stored and deflated entries, `limit` bytes together at most: `cut`
 * when they would run over it (or list more than MAX_ENTRIES), never expanded whole. A malformed
 * archive gives what was read before the fault.
 */
export function zipEntries(b: Buffer, limit: number): { entries: Buffer[]; cut: boolean } {
  const entries: Buffer[] = [];
  const end = endRecord(b);
  if (end === undefined) return { entries, cut: false };
  const count = b.readUInt16LE(end + 10);
  let at = b.readUInt32LE(end + 16);
  let left = limit;
  for (let i = 0; i < count; i++) {
    if (i >= MAX_ENTRIES) return { entries, cut: true };
    if (at + 46 > b.length || b.readUInt32LE(at) !== CENTRAL) break;
    const method = b.readUInt16LE(at + 10);
    const flags = b.readUInt16LE(at + 8);
    const size = b.readUInt32LE(at + 20);
    const local = b.readUInt32LE(at + 42);
    at += 46 + b.readUInt16LE(at + 28) + b.readUInt16LE(at + 30) + b.readUInt16LE(at + 32);
    if ((flags & 1) !== 0 || local + 30 > b.length || b.readUInt32LE(local) !== LOCAL) continue;
    const start = local + 30 + b.readUInt16LE(local + 26) + b.readUInt16LE(local + 28);
    const data = b.subarray(start, Math.min(b.length, start + size));
    if (method === 0) {
      if (data.length > left) return { entries, cut: true };
      entries.push(data);
      left -= data.length;
    } else if (method === 8) {
      try {
        const out = inflateRawSync(data, { maxOutputLength: Math.max(1, left) });
        if (out.length > left) return { entries, cut: true };
        entries.push(out);
        left -= out.length;
      } catch (error) {
        if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') return { entries, cut: true };
      }
    }
  }
  return { entries, cut: false };
}
