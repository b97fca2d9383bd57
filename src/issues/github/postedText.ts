/**
 * What the GitHub issue source posts (comments, issue and pull request titles and bodies): redacted,
 * then cut to fit what GitHub accepts.
 */

/** GitHub refuses comment bodies over 65536 characters; the note is cut well before. */
export const MAX_NOTE_LENGTH = 60_000;

/** A comment or body as posted: redacted, then cut to MAX_NOTE_LENGTH. */
export function commentText(redact: (text: string) => string, text: string): string {
  return truncate(redact(text), MAX_NOTE_LENGTH);
}

/** `text` in at most `max` characters, marked as cut when it was. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = max - 20;
  const code = text.charCodeAt(cut - 1);
  if (code >= 0xd800 && code <= 0xdbff) cut--; // do not split a surrogate pair
  return `${text.slice(0, cut)}\n\n… (truncated)`;
}
