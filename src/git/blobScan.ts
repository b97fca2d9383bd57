/**
 * The secret scan of every blob a change brings in, read as bytes (issue 43): what `git diff` and
 * `git log -p` show as "Binary files differ" (NUL bytes, `.gitattributes` `binary` or `-diff`,
 * UTF-16, gzip) is read from the object store with one `git cat-file --batch` and searched in every
 * form it decodes to (blobViews.ts). A secret the file held before (at the base, or in the index's
 * old version) does not count, as on the line scan. The parsing here is pure; the shell is
 * blobsAdding, over the one git runner.
 */
import { blobSecrets, blobViews } from './blobViews.js';
import type { GitContext } from './context.js';
import { GitError } from './errors.js';
import { execGitBytes } from './exec.js';
import { blobsTooLarge } from './messages.js';

/** A blob a change brings in: its file, its object, and the object name of the file's version before, if any. */
export interface NewBlob {
  file: string;
  id: string;
  before?: string;
}

/** The bytes `git cat-file --batch` gave for each name asked, in order; undefined for a missing one. Undefined when the output is not of that shape. */
export function parseBatch(out: Buffer, count: number): Array<Buffer | undefined> | undefined {
  const objects: Array<Buffer | undefined> = [];
  let at = 0;
  for (let i = 0; i < count; i++) {
    const eol = out.indexOf(0x0a, at);
    if (eol < 0) return undefined;
    const header = out.subarray(at, eol).toString('utf8');
    if (header.endsWith(' missing') || header.endsWith(' ambiguous')) {
      objects.push(undefined);
      at = eol + 1;
      continue;
    }
    const m = /^[0-9a-f]{40,64} (\S+) (\d+)$/.exec(header);
    if (!m) return undefined;
    const size = Number(m[2]);
    if (eol + 1 + size >= out.length + 1 || out[eol + 1 + size] !== 0x0a) return undefined;
    objects.push(m[1] === 'blob' ? out.subarray(eol + 1, eol + 1 + size) : undefined);
    at = eol + 1 + size + 1;
  }
  return at === out.length ? objects : undefined;
}

/** `git diff --cached --raw -z --no-abbrev --no-renames`'s added and modified blobs (submodules and symlinks' targets included as blobs are). */
export function stagedBlobs(raw: string): NewBlob[] {
  const fields = raw.split('\0');
  const blobs: NewBlob[] = [];
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const m = /^:(\d{6}) (\d{6}) ([0-9a-f]{40,64}) ([0-9a-f]{40,64}) ([A-Z])\d*$/.exec(fields[i] ?? '');
    const file = fields[i + 1] ?? '';
    if (!m || m[2] === '160000' || m[5] === 'D') continue;
    const [oldId, newId] = [m[3] as string, m[4] as string];
    blobs.push({ file, id: newId, ...(/^0+$/.test(oldId) ? {} : { before: oldId }) });
  }
  return blobs;
}

/** `git rev-list --objects --filter=object:type=blob <ref>`'s blobs (`<id> <path>` lines), with nothing before. Pure. */
export function refBlobs(list: string): NewBlob[] {
  return [...list.matchAll(/^([0-9a-f]{40,64}) (.+)$/gm)].map((m) => ({ file: m[2] as string, id: m[1] as string }));
}

/** `git rev-list --objects --filter=object:type=blob base..HEAD`'s blobs (`<id> <path>` lines), each with its path's version at `base`. */
export function rangeBlobs(list: string, base: string): NewBlob[] {
  const blobs: NewBlob[] = [];
  for (const line of list.split('\n')) {
    const m = /^([0-9a-f]{40,64}) (.+)$/.exec(line);
    if (!m) continue;
    const file = m[2] as string;
    blobs.push({ file, id: m[1] as string, before: `refs/heads/${base}:${file}` });
  }
  return blobs;
}

/**
 * The commits of a `git log --format=%x00%H --raw --no-abbrev --find-object=<id>` that bring `id` in
 * (as a raw line's new object): not those that take it away again. Pure.
 */
export function commitsAdding(log: string, id: string): string[] {
  const commits: string[] = [];
  for (const section of log.split('\0').slice(1)) {
    const [commit, ...lines] = section.split('\n');
    // `:<modes> <old ids> <new id> <status>\t<path>`: the new id is the last before the status (merges have more).
    if (lines.some((l) => l.startsWith(':') && l.split('\t')[0]?.split(' ').at(-2) === id))
      commits.push(commit as string);
  }
  return commits;
}

/** The blobs of `blobs` holding a secret its version before did not, given each name's bytes. Pure. */
export function blobsWithSecrets(
  blobs: readonly NewBlob[],
  bytesOf: (name: string) => Buffer | undefined,
  holdsSecret: (text: string) => string[],
): { hits: NewBlob[]; cut: NewBlob[] } {
  const hits: NewBlob[] = [];
  const cut: NewBlob[] = [];
  for (const blob of blobs) {
    const bytes = bytesOf(blob.id);
    if (!bytes) continue;
    const views = blobViews(bytes);
    if (views.cut) cut.push(blob);
    const found = blobSecrets(views.texts, holdsSecret);
    if (found.length === 0) continue;
    const old = blob.before !== undefined ? bytesOf(blob.before) : undefined;
    const held = new Set(old ? blobSecrets(blobViews(old).texts, holdsSecret) : []);
    if (found.some((s) => !held.has(s))) hits.push(blob);
  }
  return { hits, cut };
}

/** Bytes of cat-file output read at most: past it the change is not scanned, and not committed. */
export const MAX_BATCH = 64 * 1024 * 1024;

/**
 * The blobs of `blobs` that bring in a secret, read with one `git cat-file --batch` (their versions
 * before in the same call). A batch too large to read, or not of its shape, throws: never taken as
 * clean; so does a compressed blob whose content runs over the bound.
 */
export async function blobsAdding(
  ctx: GitContext,
  blobs: readonly NewBlob[],
  holdsSecret: (text: string) => string[],
): Promise<NewBlob[]> {
  // A name with a newline cannot be asked of --batch: its version before is then not read.
  const names = [
    ...new Set(blobs.flatMap((b) => [b.id, ...(b.before !== undefined && !b.before.includes('\n') ? [b.before] : [])])),
  ];
  if (names.length === 0) return [];
  const args = ['--no-replace-objects', 'cat-file', '--batch'];
  const out = await execGitBytes(ctx.topLevel, ctx.env, args, {
    input: Buffer.from(names.map((n) => `${n}\n`).join(''), 'utf8'),
    maxOutput: MAX_BATCH,
  });
  const objects = out.code === 0 ? parseBatch(out.stdout, names.length) : undefined;
  if (!objects) throw new GitError(args, out.code, `${out.stderr}\n${blobsTooLarge(blobs.map((b) => b.file))}`);
  const byName = new Map(names.map((n, i) => [n, objects[i]]));
  const { hits, cut } = blobsWithSecrets(blobs, (n) => byName.get(n), holdsSecret);
  if (cut.length > 0) throw new GitError(args, 1, blobsTooLarge(cut.map((b) => b.file)));
  return hits;
}
