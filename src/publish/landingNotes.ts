/**
 * The git notes of --workflow tdd as a landing publishes them: pushed with the branch and kept in its
 * bundle only when none in their history holds a secret (issue 43: agent-loop writes its notes
 * masked, but the agent can add its own with `git notes`), and merged back from a bundle.
 */
import type { Git } from '../git/git.js';
import { NOTES_REF, type NotesGit, notesWithSecret } from '../workflows/tdd/notes.js';

/**
 * Whether the notes are there to publish: the ref exists and no blob of its history holds a secret
 * (a history that cannot be read whole counts as holding one). The first refusal is told to `warn`.
 */
export function publishableNotes(
  notes: NotesGit | undefined,
  git: Pick<Git, 'refSecrets'>,
  warn: ((message: string) => void) | undefined,
): () => Promise<boolean> {
  let told = false;
  return async () => {
    if (!notes || (await notes.run(['show-ref', '--verify', '--quiet', NOTES_REF])).code !== 0) return false;
    const found = await git.refSecrets(NOTES_REF).catch((error: unknown) => [`(${(error as Error).message})`]);
    if (found.length === 0) return true;
    if (!told) warn?.(notesWithSecret(NOTES_REF, found));
    told = true;
    return false;
  };
}

/**
 * The git notes a bundle holds, merged into this checkout's (fetched from the remote just before):
 * on a note both have for one commit, the bundle's wins when its branch won (`theirs`), else the
 * remote's. A bundle without notes (an earlier version's, or no tdd) changes nothing.
 */
export async function mergeBundledNotes(git: NotesGit, bundle: string, prefer: 'theirs' | 'ours'): Promise<void> {
  const bundled = `${NOTES_REF}-bundled`;
  const fetched = await git.run(['fetch', '--quiet', '--no-tags', bundle, `+${NOTES_REF}:${bundled}`]);
  if (fetched.code !== 0) return;
  await git.run(['notes', `--ref=${NOTES_REF}`, 'merge', '--quiet', '-s', prefer, bundled]);
  await git.run(['update-ref', '-d', bundled]);
}
