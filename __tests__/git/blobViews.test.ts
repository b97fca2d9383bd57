/** A committed blob read as bytes (issue 43): each form a secret can hide in, bytes in, hit out; the bounds kept. */
import { describe, expect, it } from '@jest/globals';
import { gzipSync } from 'node:zlib';
import { MAX_EXPANDED, blobSecrets, blobViews, gunzipBounded } from '../../src/git/blobViews.js';
import { blobsWithSecrets, parseBatch, rangeBlobs, stagedBlobs } from '../../src/git/blobScan.js';
import { secretDetector } from '../../src/safety/secretScan.js';

const SECRET = 'sk-live-0123456789abcdef';
const holds = secretDetector([SECRET]);
const found = (bytes: Buffer) => blobSecrets(blobViews(bytes).texts, holds);

describe('blobViews: a secret in every form git calls binary', () => {
  it('raw bytes between NULs', () => {
    expect(found(Buffer.concat([Buffer.from([0, 1, 2, 0]), Buffer.from(SECRET), Buffer.from([0, 0xff])]))).toEqual([
      SECRET,
    ]);
  });

  it('UTF-16 with a BOM, little- and big-endian', () => {
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(`key=${SECRET}\n`, 'utf16le')]);
    const be = Buffer.from(Buffer.from(`key=${SECRET}\n`, 'utf16le')).swap16();
    expect(found(le)).toEqual([SECRET]);
    expect(found(Buffer.concat([Buffer.from([0xfe, 0xff]), be]))).toEqual([SECRET]);
  });

  it('UTF-16 without a BOM, told by its NUL pattern, at an odd offset too', () => {
    expect(found(Buffer.from(`key=${SECRET}`, 'utf16le'))).toEqual([SECRET]);
    expect(found(Buffer.concat([Buffer.from([7]), Buffer.from(`key=${SECRET}`, 'utf16le')]))).toEqual([SECRET]);
    expect(found(Buffer.from(Buffer.from(`key=${SECRET}`, 'utf16le')).swap16())).toEqual([SECRET]);
  });

  it('gzipped, and gzipped UTF-16', () => {
    expect(found(gzipSync(Buffer.from(`export KEY=${SECRET}\n`)))).toEqual([SECRET]);
    expect(found(gzipSync(Buffer.from(`\ufeffkey=${SECRET}`, 'utf16le')))).toEqual([SECRET]);
  });

  it('each encoding the masker knows: JSON-escaped, base64 at any offset, URL-encoded, basic-auth', () => {
    const odd = 'sk-live-01234"56789\\abcdef/é';
    const holdsOdd = secretDetector([odd]);
    const hit = (text: string) => blobSecrets(blobViews(Buffer.from(text)).texts, holdsOdd);
    expect(hit(`{"k":${JSON.stringify(odd)}}`)).toEqual([odd]);
    expect(hit(JSON.stringify(JSON.stringify({ k: odd })))).toEqual([odd]);
    expect(hit(`"k": "${JSON.stringify(odd).slice(1, -1).replace(/é/, '\\u00e9')}"`)).toEqual([odd]);
    expect(hit(`q=${encodeURIComponent(odd)}&x=1`)).toEqual([odd]);
    for (const prefix of ['', 'a', 'ab'])
      expect(hit(`blob: ${Buffer.from(`${prefix}${odd}`).toString('base64')}\n`)).toEqual([odd]);
    expect(hit(`Authorization: Basic ${Buffer.from(`x-access-token:${odd}`).toString('base64')}`)).toEqual([odd]);
    expect(hit(Buffer.from(odd).toString('base64url'))).toEqual([odd]);
  });

  it('a blob without the secret in any form holds none', () => {
    expect(found(Buffer.from([0, 1, 2, 3, 0x1f, 0x8b, 0x08, 0, 0]))).toEqual([]);
    expect(found(gzipSync(Buffer.from('nothing here\n')))).toEqual([]);
    expect(found(Buffer.from('plain text, c2stbGl2ZS0w partly encoded\n'))).toEqual([]);
  });

  it('a gzip bomb is cut at the bound, not expanded whole', () => {
    const bomb = gzipSync(Buffer.alloc(4 * 1024 * 1024));
    expect(gunzipBounded(bomb, 1024 * 1024)).toEqual({ cut: true });
    expect(blobViews(bomb, 1024 * 1024).cut).toBe(true);
    expect(gunzipBounded(gzipSync(Buffer.from('ok'))).bytes?.toString()).toBe('ok');
    expect(MAX_EXPANDED).toBe(16 * 1024 * 1024);
  });
});

describe('blobScan: what git gives, read', () => {
  const A = 'a'.repeat(40);
  const B = 'b'.repeat(40);

  it('parses a cat-file --batch answer, a missing name included; a cut answer is no answer', () => {
    const out = Buffer.concat([
      Buffer.from(`${A} blob 3\n`),
      Buffer.from([0, 10, 0]),
      Buffer.from('\nrefs/heads/main:x missing\n'),
    ]);
    expect(parseBatch(out, 2)).toEqual([Buffer.from([0, 10, 0]), undefined]);
    expect(parseBatch(out.subarray(0, out.length - 5), 2)).toBeUndefined();
    expect(parseBatch(out, 1)).toBeUndefined();
  });

  it('reads the staged blobs added and modified, with the old version of a modified one', () => {
    const zero = '0'.repeat(40);
    const raw = `:000000 100644 ${zero} ${A} A\0new.bin\0:100644 100644 ${B} ${A} M\0old.bin\0:160000 160000 ${A} ${B} M\0sub\0`;
    expect(stagedBlobs(raw)).toEqual([
      { file: 'new.bin', id: A },
      { file: 'old.bin', id: A, before: B },
    ]);
  });

  it("reads the range's blobs with their path's version at the base", () => {
    expect(rangeBlobs(`${B}\n${A} dir/x y.bin\n`, 'main')).toEqual([
      { file: 'dir/x y.bin', id: A, before: 'refs/heads/main:dir/x y.bin' },
    ]);
  });

  it('a secret the version before held does not count; one it did not, does', () => {
    const bytes = new Map([
      ['new', Buffer.from(`\0${SECRET}`)],
      ['old-with', Buffer.from(`\0\0${SECRET}`)],
      ['old-without', Buffer.from('\0')],
    ]);
    const blobs = [
      { file: 'kept.bin', id: 'new', before: 'old-with' },
      { file: 'added.bin', id: 'new', before: 'old-without' },
      { file: 'fresh.bin', id: 'new' },
    ];
    const { hits, cut } = blobsWithSecrets(blobs, (n) => bytes.get(n), holds);
    expect(hits.map((h) => h.file)).toEqual(['added.bin', 'fresh.bin']);
    expect(cut).toEqual([]);
  });
});
