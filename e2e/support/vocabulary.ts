/**
 * Each surface's own words, found in a text (issue 40): a test proves with them that the action's
 * texts hold none of the CLI's words and the CLI's none of the action's. Built from the schema
 * (src/config/options.ts), as src/config/surface.ts names options.
 */
import { OPTIONS } from '../../src/config/options.js';

const FLAGS = new Set(OPTIONS.map((o) => o.flag));

/** The CLI's words in `text`: flags of agent-loop options (not other programs'), `agent-loop status`, `agent-loop run`. */
export function cliVocabulary(text: string): string[] {
  const found = [...text.matchAll(/(?:^|[^\w-])(--[a-z][a-z-]*)/g)]
    .map((m) => m[1] as string)
    .filter((f) => FLAGS.has(f.slice(2)));
  return [...found, ...(text.match(/agent-loop (status|run)\b/g) ?? [])];
}

/**
 * The action's words in `text`: an input named (`the input max-iterations`), a switch input set
 * (`resume: true`, `fresh: true`), the workflow run by hand, and the doubled forms that named both
 * (`the action: …`).
 */
export function actionVocabulary(text: string): string[] {
  return [
    ...(text.match(/\bthe input [a-z][a-z-]*/g) ?? []),
    ...(text.match(/\b(resume|fresh): true\b/g) ?? []),
    ...(text.match(/\bcheckpoint-id\b/g) ?? []),
    ...(text.match(/workflow_dispatch|run the workflow/g) ?? []),
    ...(text.match(/\(the action:|; the action:/g) ?? []),
  ];
}
