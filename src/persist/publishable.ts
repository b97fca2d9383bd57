/**
 * What of the state directory is published (issue 43: "published means scanned"). The action
 * publishes the state directory as a cache entry and a 90-day artifact; the agent runs as a user who
 * may write there. So what is published is a copy, made here, that holds
 *
 * - only the files of agent-loop's own layout (`isOurs`: its checkpoints, logs, halt diagnostic,
 *   baselines, outbox, …); anything else found there (a file the agent wrote beside them, a
 *   `--parallel` job's work tree) is left out and reported;
 * - each file passed through the secret scan first: a text file with the masker applied (every
 *   known secret and its encodings, and the token shapes), a file that is not text (NUL bytes, not
 *   UTF-8, gzip, zip, UTF-16) read as bytes in every form it decodes to (src/git/blobViews.ts) and
 *   left out when one holds a secret, or is too large to read whole; a text file that still holds a
 *   secret once masked (an encoding the masker does not undo, e.g. base64 of a longer text) is left
 *   out too.
 *
 * The state directory itself is never changed. Decisions are pure (`isOurs`, `publishedForm`); the
 * copy is a thin shell over them.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { blobSecrets, blobViews, decodedForms } from '../git/blobViews.js';
import { printable } from '../util/printable.js';
import { filesUnder } from './stateDirectory.js';
import { RUNTIME_DIR } from '../safety/processes.js';
import { STATE_DIR_ENTRIES } from '../safety/stateDir.js';

/** The secret scan a copy is made with: the masker, and the detector of a secret left in a text. */
export interface PublishScan {
  mask(text: string): string;
  holdsSecret(text: string): string[];
}

/** A file left out of what is published, and why (in words for the log). */
export interface LeftOut {
  file: string;
  why: string;
}

export interface PublishableCopy {
  /** The copy's root: publish its files. */
  dir: string;
  /** The files (relative, `/`-separated) published masked: a secret was found and masked. */
  masked: string[];
  leftOut: LeftOut[];
}

/**
 * Whether `rel` (relative to the state directory, `/`-separated) is a file of agent-loop's layout
 * (STATE_DIR_ENTRIES; its runtime files, this machine's only, never). A
 * `--parallel` job's work tree (`parallel/<wave>/<issue>/tree-<issue>/…`) is the agent's work, not
 * state: never published. Pure.
 */
export function isOurs(rel: string): boolean {
  const [top = '', ...rest] = rel.split('/');
  if (!STATE_DIR_ENTRIES.includes(top) || top === RUNTIME_DIR) return false;
  return !(top === 'parallel' && rest.slice(0, -1).some((p) => p.startsWith('tree-')));
}

/** Whether `bytes` read as text (no NUL byte, valid UTF-8). Pure. */
export function isText(bytes: Buffer): boolean {
  return !bytes.includes(0) && Buffer.from(bytes.toString('utf8'), 'utf8').equals(bytes);
}

/**
 * The form of a file's content that may be published: masked text, the bytes as they are, or
 * nothing (`why` it is left out). Pure.
 */
export function publishedForm(bytes: Buffer, scan: PublishScan): { bytes: Buffer; masked: boolean } | { why: string } {
  if (!isText(bytes)) {
    const views = blobViews(bytes);
    if (views.cut) return { why: 'it is not text and too large to scan whole' };
    if (blobSecrets(views.texts, scan.holdsSecret).length > 0)
      return { why: 'it is not text and holds a secret that cannot be masked in it' };
    return { bytes, masked: false };
  }
  const text = bytes.toString('utf8');
  const masked = scan.mask(text);
  if (blobSecrets(decodedForms(masked), scan.holdsSecret).length > 0)
    return { why: 'it holds a secret in a form the masker cannot mask' };
  return masked === text ? { bytes, masked: false } : { bytes: Buffer.from(masked, 'utf8'), masked: true };
}

/**
 * Copies what of `dir` may be published into `into` (created; the caller removes it), each file in
 * its published form; `dir` is not changed.
 */
export async function publishableCopy(
  dir: string,
  into: string,
  scan: PublishScan = { mask: (text) => text, holdsSecret: () => [] },
): Promise<PublishableCopy> {
  const out: PublishableCopy = { dir: into, masked: [], leftOut: [] };
  await fs.mkdir(into, { recursive: true });
  for (const file of await filesUnder(dir)) {
    const rel = path.relative(dir, file).split(path.sep).join('/');
    if (!isOurs(rel)) {
      out.leftOut.push({ file: rel, why: 'agent-loop did not write it' });
      continue;
    }
    const bytes = await fs.readFile(file).catch(() => undefined);
    if (!bytes) {
      out.leftOut.push({ file: rel, why: 'it could not be read' });
      continue;
    }
    const form = publishedForm(bytes, scan);
    if ('why' in form) {
      out.leftOut.push({ file: rel, why: form.why });
      continue;
    }
    if (form.masked) out.masked.push(rel);
    const to = path.join(into, ...rel.split('/'));
    await fs.mkdir(path.dirname(to), { recursive: true });
    await fs.writeFile(to, form.bytes);
  }
  return out;
}

/** Says what of the copy was masked or left out (a warning each), and returns it for the result. */
export function reportCopy(
  copy: PublishableCopy,
  dir: string,
  log: { warning(message: string): void },
): { masked?: string[]; leftOut?: LeftOut[] } {
  const out: { masked?: string[]; leftOut?: LeftOut[] } = {};
  if (copy.masked.length > 0) {
    out.masked = copy.masked;
    log.warning(
      `A secret was found in ${copy.masked.length} file(s) of the state directory ${dir} and masked in what is published: ` +
        `${listed(copy.masked)}. The files in ${dir} are as they were.`,
    );
  }
  if (copy.leftOut.length > 0) {
    out.leftOut = copy.leftOut;
    log.warning(
      `Left out of what is published, ${copy.leftOut.length} file(s) of the state directory ${dir}: ` +
        `${listed(copy.leftOut.map((l) => `${l.file} (${l.why})`))}. They stay in ${dir} only: ` +
        `what the agent writes into the state directory is never published.`,
    );
  }
  return out;
}

/** The first few of `items`, each printable, and how many more. Pure. */
function listed(items: readonly string[], max = 10): string {
  const shown = items.slice(0, max).map((item) => printable(item, 200));
  return shown.join(', ') + (items.length > max ? ` and ${items.length - max} more` : '');
}
