/** A committed blob read as bytes (issue 43): each form a secret can hide in, bytes in, hit out; the bounds kept. */
import { describe, expect, it } from '@jest/globals';
import { deflateRawSync, gzipSync } from 'node:zlib';
import { MAX_EXPANDED, blobSecrets, blobViews, gunzipBounded } from '../../src/git/blobViews.js';
import { blobsWithSecrets, parseBatch, rangeBlobs, stagedBlobs } from '../../src/git/blobScan.js';
import { secretDetector } from '../../src/safety/secretScan.js';
import { zipEntries } from '../../src/git/zipEntries.js';

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

  it('a zip archive (written by Python 3 zipfile): its deflated entry read, not only its stored one', () => {
    // stored.txt (stored: "nothing"), conf/deflated.env (deflated: KEY=<SECRET>, three lines).
    const zip = Buffer.from(
      'UEsDBBQAAAAAAAAAIQBqaEIqCAAAAAgAAAAKAAAAc3RvcmVkLnR4dG5vdGhpbmcKUEsDBBQAAAAIAAAAIQBGBL8tIgAAAFcAAAARAAAAY29uZi9kZWZsYXRlZC5lbnbzdo20Lc7WzcksS9U1MDQyNjE1M7ewTExKTklN4/ImWxIAUEsBAhQDFAAAAAAAAAAhAGpoQioIAAAACAAAAAoAAAAAAAAAAAAAAIABAAAAAHN0b3JlZC50eHRQSwECFAMUAAAACAAAACEARgS/LSIAAABXAAAAEQAAAAAAAAAAAAAAgAEwAAAAY29uZi9kZWZsYXRlZC5lbnZQSwUGAAAAAAIAAgB3AAAAgQAAAAAA',
      'base64',
    );
    expect(zip.includes(Buffer.from(SECRET))).toBe(false);
    expect(zipEntries(zip, 1024).entries.map((e) => e.toString())).toEqual(['nothing\n', `KEY=${SECRET}\n`.repeat(3)]);
    expect(found(zip)).toEqual([SECRET]);
    // Cut at the bound; a malformed archive gives what it read and never throws.
    expect(zipEntries(zip, 20)).toEqual({ entries: [Buffer.from('nothing\n')], cut: true });
    expect(zipEntries(zip.subarray(0, zip.length - 30), 1024)).toEqual({ entries: [], cut: false });
    expect(() =>
      blobViews(Buffer.concat([zip.subarray(0, 40), Buffer.alloc(20, 0xff), zip.subarray(60)])),
    ).not.toThrow();
  });

  it('a zip bomb is cut at the bound, not expanded whole', () => {
    // One deflated entry of 4 MiB of zeros, in a hand-made archive: local header, data, central header, end.
    const data = deflateRawSync(Buffer.alloc(4 * 1024 * 1024));
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(data.length, 18);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(data.length, 20);
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(1, 8);
    end.writeUInt16LE(1, 10);
    end.writeUInt32LE(46, 12);
    end.writeUInt32LE(30 + data.length, 16);
    const bomb = Buffer.concat([local, data, central, end]);
    expect(zipEntries(bomb, 1024 * 1024)).toEqual({ entries: [], cut: true });
    expect(blobViews(bomb, 1024 * 1024).cut).toBe(true);
    expect(zipEntries(bomb, 8 * 1024 * 1024).entries[0]?.length).toBe(4 * 1024 * 1024);
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
