/** Commit and merge messages: cleaned to what git can take, and handed to git in a file, never as an argument. */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { GitContext } from './context.js';

/**
 * A commit message git can take whatever the text holds: masked, with control characters
 * and ANSI escapes removed, on one line (agent-loop's messages are one line), no NUL. Pure.
 */
/* eslint-disable no-control-regex -- control characters are what cleanMessage removes */
export function cleanMessage(message: string, redact: (text: string) => string = (t) => t): string {
  const text = redact(message)
    .replace(/\x1b\[[0-?]*[ -/]*[@-~]/g, '') // CSI (colours, cursor moves)
    .replace(/\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?/g, '') // OSC (titles, links)
    .replace(/[\r\n\t]+/g, ' ') // one line: a title's newline must not forge more lines
    .replace(/[\u0000-\u001f\u007f-\u009f]/g, '')
    .replace(/ {2,}/g, ' ')
    .trim();
  return `${text || 'agent-loop'}\n`;
}
/* eslint-enable no-control-regex */

/** Runs `git <args> -F <file>` with the message, cleaned, in a file of its own: never an argument. */
export async function withMessage(ctx: GitContext, message: string, args: (file: string) => string[]): Promise<void> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'agent-loop-msg-'));
  const file = path.join(dir, 'message');
  try {
    await fs.writeFile(file, cleanMessage(message, ctx.options.redact));
    await ctx.git(...args(file));
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}
