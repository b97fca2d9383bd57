/**
 * The test units of a JavaScript/TypeScript file (jest, vitest, mocha, node:test, tape): tokens
 * (strings, templates, comments, regular expressions), calls by balanced brackets. Pure.
 */
import type { TestUnit } from './testUnit.js';

interface Token {
  kind: 'id' | 'str' | 'punct' | 'other';
  text: string;
  start: number;
  end: number;
  /** For an opening bracket: the index of its closing token. */
  close?: number;
}

const REGEX_AFTER_WORD = new Set([
  'return',
  'typeof',
  'case',
  'do',
  'else',
  'in',
  'of',
  'new',
  'delete',
  'void',
  'throw',
  'instanceof',
  'yield',
  'await',
]);

/** The tokens of [from, to); with `oneGroup`, only up to the bracket that closes the first one (a template's `${…}`). */
function jsTokens(src: string, from: number, to: number, oneGroup = false): Token[] {
  const tokens: Token[] = [];
  const stack: number[] = [];
  let i = from;
  const push = (t: Token) => {
    if (t.kind === 'punct' && '([{'.includes(t.text)) stack.push(tokens.length);
    if (t.kind === 'punct' && ')]}'.includes(t.text) && stack.length > 0) {
      const open = stack.pop() as number;
      (tokens[open] as Token).close = tokens.length;
    }
    tokens.push(t);
  };
  while (i < to && !(oneGroup && tokens[0]?.close !== undefined)) {
    const c = src[i] as string;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (src.startsWith('//', i)) {
      while (i < to && src[i] !== '\n') i++;
      continue;
    }
    if (src.startsWith('/*', i)) {
      const e = src.indexOf('*/', i + 2);
      i = e < 0 ? to : e + 2;
      continue;
    }
    const start = i;
    if (c === '"' || c === "'") {
      i++;
      while (i < to && src[i] !== c && src[i] !== '\n') i += src[i] === '\\' ? 2 : 1;
      i = Math.min(to, i + 1);
      push({ kind: 'str', text: src.slice(start, i), start, end: i });
      continue;
    }
    if (c === '`') {
      i = jsTemplate(src, i, to);
      push({ kind: 'str', text: src.slice(start, i), start, end: i });
      continue;
    }
    if (/[A-Za-z_$]/.test(c)) {
      while (i < to && /[\w$]/.test(src[i] as string)) i++;
      push({ kind: 'id', text: src.slice(start, i), start, end: i });
      continue;
    }
    if (c === '/') {
      const prev = tokens[tokens.length - 1];
      const division =
        prev !== undefined &&
        ((prev.kind === 'id' && !REGEX_AFTER_WORD.has(prev.text)) ||
          prev.kind === 'str' ||
          prev.kind === 'other' ||
          (prev.kind === 'punct' && (prev.text === ')' || prev.text === ']' || prev.text === '}')));
      if (!division) {
        i++;
        let inClass = false;
        while (i < to && src[i] !== '\n') {
          if (src[i] === '\\') i++;
          else if (src[i] === '[') inClass = true;
          else if (src[i] === ']') inClass = false;
          else if (src[i] === '/' && !inClass) break;
          i++;
        }
        i++;
        while (i < to && /\w/.test(src[i] as string)) i++;
        push({ kind: 'other', text: src.slice(start, i), start, end: i });
        continue;
      }
    }
    if (/[0-9]/.test(c)) {
      while (i < to && /[\w.]/.test(src[i] as string)) i++;
      push({ kind: 'other', text: src.slice(start, i), start, end: i });
      continue;
    }
    i++;
    push({ kind: 'punct', text: c, start, end: i });
  }
  return tokens;
}

/** The end of a template literal starting at `i` (its `${…}` parts scanned as code). */
function jsTemplate(src: string, i: number, to: number): number {
  i++;
  while (i < to) {
    const c = src[i];
    if (c === '\\') i += 2;
    else if (c === '`') return i + 1;
    else if (c === '$' && src[i + 1] === '{') {
      const inner = jsTokens(src, i + 1, to, true);
      const open = inner[0];
      const close = open?.close !== undefined ? inner[open.close] : undefined;
      i = close ? close.end : to;
    } else i++;
  }
  return to;
}

const DECLARES = new Set(['function', 'const', 'let', 'var', 'class', 'async', 'new', 'typeof', 'import', 'export']);
const JS_GROUPS = new Set(['describe', 'suite', 'context', 'fdescribe', 'xdescribe', 'xcontext']);
const JS_TESTS = new Set(['test', 'it', 'specify', 'fit', 'xit', 'xtest', 'xspecify']);

/** The units among the statements of [from, to). */
export function jsUnits(src: string, from: number, to: number, prefix: string): TestUnit[] {
  const tokens = jsTokens(src, from, to);
  const units: TestUnit[] = [];
  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k] as Token;
    const prev = tokens[k - 1];
    if (t.kind !== 'id' || !(JS_GROUPS.has(t.text) || JS_TESTS.has(t.text))) continue;
    // A member (`t.test(`, `re.test(`) or a declaration (`function test(`) is not a test.
    if (prev && ((prev.kind === 'punct' && prev.text === '.') || (prev.kind === 'id' && DECLARES.has(prev.text))))
      continue;
    const unit = jsCall(src, tokens, k, prefix);
    if (!unit) continue;
    units.push(unit.unit);
    k = unit.last;
  }
  return units;
}

/** The call chain starting at token k (`it.skip.each(table)('name', fn).timeout(5)`), as a unit; undefined when it is not a call. */
function jsCall(src: string, tokens: Token[], k: number, prefix: string): { unit: TestUnit; last: number } | undefined {
  let j = k + 1;
  let calls = 0;
  let nameCall: Token | undefined;
  let firstCall: Token | undefined;
  let headEnd = (tokens[k] as Token).end;
  for (;;) {
    const t = tokens[j];
    if (!t) break;
    if (t.kind === 'punct' && t.text === '.' && tokens[j + 1]?.kind === 'id') {
      if (calls === 0) headEnd = (tokens[j + 1] as Token).end;
      j += 2;
      continue;
    }
    if (t.kind === 'str' && t.text.startsWith('`') && calls === 0 && j > k + 1) {
      // describe.each`table`
      j++;
      calls++;
      continue;
    }
    if (t.kind === 'punct' && t.text === '(' && t.close !== undefined) {
      firstCall ??= t;
      if (!nameCall && tokens[j + 1]?.kind === 'str') nameCall = t;
      calls++;
      j = t.close + 1;
      continue;
    }
    break;
  }
  nameCall ??= firstCall;
  if (calls === 0 || !nameCall) return undefined;
  const lastToken = tokens[j - 1] as Token;
  let end = lastToken.end;
  if (tokens[j]?.kind === 'punct' && tokens[j]?.text === ';') end = (tokens[j] as Token).end;
  const nameIndex = tokens.indexOf(nameCall) + 1;
  const nameToken = tokens[nameIndex] as Token;
  let ownName: string;
  if (nameToken.kind === 'str') ownName = nameToken.text.slice(1, -1);
  else {
    let e = nameIndex;
    while (e < (nameCall.close as number) && tokens[e]?.text !== ',') e++;
    ownName = src.slice(nameToken.start, (tokens[e - 1] ?? nameToken).end);
  }
  let start = (tokens[k] as Token).start;
  const lineStart = src.lastIndexOf('\n', start - 1) + 1;
  if (/^[ \t]*$/.test(src.slice(lineStart, start))) start = lineStart;
  const nl = src.indexOf('\n', end);
  const lineEnd = nl < 0 ? src.length : nl;
  if (/^[ \t]*$/.test(src.slice(end, lineEnd))) end = lineEnd;
  const head = src.slice((tokens[k] as Token).start, headEnd);
  const name = prefix ? `${prefix} › ${ownName}` : ownName;
  const unit: TestUnit = { name, ownName, start, end, head, children: [] };
  if (JS_GROUPS.has((tokens[k] as Token).text)) {
    // Its body: the last {…} block among the arguments of the call that named it.
    let block: Token | undefined;
    for (let b = nameIndex; b < (nameCall.close as number); b++) {
      const t = tokens[b] as Token;
      if (t.kind === 'punct' && t.text === '{' && t.close !== undefined) {
        block = t;
        b = t.close;
      }
    }
    if (block) {
      const close = tokens[block.close as number] as Token;
      unit.body = { start: block.end, end: close.start };
      unit.children = jsUnits(src, block.end, close.start, name);
    }
  }
  return { unit, last: j - 1 };
}
