/**
 * The iteration's git notes (--workflow tdd, seed 003's handoff state: src/loop/notes.ts): the
 * newest note on the cycle's commits, and a phase commit's note.
 */
import { newestNote, notesGit, writeNote as write } from '../notes.js';
import { repo } from './git.js';
import type { Handler, SliceContext } from './context.js';

/** The environment is the process's (gitRunner's default); the commit author the run was given. */
const notesOf = (ctx: SliceContext) => {
  const git = repo(ctx);
  return notesGit(git.topLevel, undefined, git.author);
};

export const readNotes: Handler<'readNotes'> = async (effect, ctx) => {
  const invalid: { commit: string; reason: string }[] = [];
  const newest = await newestNote(notesOf(ctx), effect.range, {
    onInvalid: (commit, reason) => invalid.push({ commit, reason }),
  });
  return { type: 'notesRead', ...(newest ? { newest } : {}), invalid };
};

export const writeNote: Handler<'writeNote'> = async (effect, ctx) => {
  await write(notesOf(ctx), effect.commit, effect.note);
  return { type: 'noteWritten', now: ctx.deps.clock.now().getTime() };
};
