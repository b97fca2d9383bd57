// A bundle in ASCII, for scripts/bundle.mjs. V8 keeps a script's source in memory for as long as
// the script runs, at one byte per character only when every character is Latin-1: the 242
// typographic characters (… — →) of the CLI's 1.6 MB bundle made it take 3.2 MB, and those of the
// action's 8 MB bundles 16 MB each. Each non-ASCII character is written as \uXXXX where that means
// the same character (string and template literals, regular expressions, comments, identifiers),
// and Unicode whitespace between tokens as a space; anything else (a character after a backslash,
// which \uXXXX would change, or in a tagged template's raw text) stops the build.
import * as acorn from 'acorn';

/** `source` with no character above U+007F and the same meaning; throws when it cannot be. */
export function asciify(source) {
  if (!/[\u0080-\uffff]/.test(source)) return source;
  const spans = []; // [start, end, what], every token and comment
  const tagged = []; // [start, end] of each tagged template's text: its raw strings are the tag's
  const ast = acorn.parse(source, {
    ecmaVersion: 'latest',
    sourceType: 'module',
    allowHashBang: true,
    onToken: (t) => spans.push([t.start, t.end, t.type.label]),
    onComment: (_block, _text, start, end) => spans.push([start, end, 'comment']),
  });
  (function visit(node) {
    if (!node || typeof node.type !== 'string') return;
    if (node.type === 'TaggedTemplateExpression') tagged.push([node.quasi.start, node.quasi.end]);
    for (const value of Object.values(node))
      if (Array.isArray(value)) value.forEach(visit);
      else if (value && typeof value === 'object') visit(value);
  })(ast);
  spans.sort((a, b) => a[0] - b[0]);
  const escapable = new Set(['string', 'template', 'regexp', 'comment', 'name', 'privateId']);
  const problems = [];
  let out = '';
  let copied = 0;
  let k = 0;
  for (let i = 0; i < source.length; i++) {
    if (source.charCodeAt(i) < 0x80) continue;
    while (k < spans.length && spans[k][1] <= i) k++;
    const span = spans[k] && spans[k][0] <= i ? spans[k] : undefined;
    const inTagged = tagged.some(([start, end]) => start <= i && i < end);
    let replacement;
    if (!span) replacement = /\s/.test(source[i]) ? ' ' : undefined;
    else if (escapable.has(span[2]) && source[i - 1] !== '\\' && !inTagged)
      replacement = `\\u${source.charCodeAt(i).toString(16).padStart(4, '0')}`;
    if (replacement === undefined) {
      const line = source.slice(0, i).split('\n').length;
      problems.push(
        `line ${line} (${span ? span[2] : 'between tokens'}): ${JSON.stringify(source.slice(i - 30, i + 30))}`,
      );
      continue;
    }
    out += source.slice(copied, i) + replacement;
    copied = i + 1;
  }
  if (problems.length > 0)
    throw new Error(`cannot write the bundle in ASCII with the same meaning:\n${problems.slice(0, 10).join('\n')}`);
  return out + source.slice(copied);
}
