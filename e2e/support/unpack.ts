/**
 * The files inside what the action uploads, to search them as bytes: a cache archive (a tar,
 * zstd-compressed, as @actions/cache writes it on Linux) and an artifact (a zip, as
 * @actions/artifact writes it). Readers for exactly these formats, no more.
 */
import { execFileSync } from 'node:child_process';
import { inflateRawSync } from 'node:zlib';

export interface Entry {
  name: string;
  data: Buffer;
}

/** The members of a tar (ustar, pax and GNU headers included as entries of their own: they can hold text too). */
export function untar(tar: Buffer): Entry[] {
  const out: Entry[] = [];
  let at = 0;
  while (at + 512 <= tar.length) {
    const header = tar.subarray(at, at + 512);
    if (header.every((b) => b === 0)) break;
    const field = (from: number, to: number) => header.subarray(from, to).toString('latin1').replace(/\0.*$/s, '');
    const size = parseInt(field(124, 136).trim() || '0', 8);
    const prefix = field(345, 500);
    const name = prefix ? `${prefix}/${field(0, 100)}` : field(0, 100);
    out.push({
      name: `${name}${field(156, 157) === 'x' || field(156, 157) === 'L' ? ' (header)' : ''}`,
      data: tar.subarray(at + 512, at + 512 + size),
    });
    at += 512 + Math.ceil(size / 512) * 512;
  }
  return out;
}

/** The files of a cache archive: zstd -d, then the tar. */
export function cacheArchiveFiles(archive: Buffer): Entry[] {
  const tar = execFileSync('zstd', ['-d', '-q', '-c'], { input: archive, maxBuffer: 512 * 1024 * 1024 });
  return untar(tar);
}

/** The files of a zip, from its central directory (stored or deflated). */
export function unzip(zip: Buffer): Entry[] {
  let end = zip.length - 22;
  while (end >= 0 && zip.readUInt32LE(end) !== 0x06054b50) end -= 1;
  if (end < 0) throw new Error('not a zip: no end of central directory');
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const out: Entry[] = [];
  for (let i = 0; i < count; i += 1) {
    if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error('bad central directory entry');
    const method = zip.readUInt16LE(at + 10);
    const compressed = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    const dataAt = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const raw = zip.subarray(dataAt, dataAt + compressed);
    out.push({ name, data: method === 8 ? inflateRawSync(raw) : Buffer.from(raw) });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return out;
}
