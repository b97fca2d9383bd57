/**
 * pytest's test units of a Python file: logical lines (strings, brackets and backslashes joined),
 * blocks by indentation. Pure.
 */
import type { TestUnit } from './testUnit.js';

interface LogicalLine {
  start: number; // offset of the line's first character (its indentation included)
  end: number; // offset after its last physical line's newline (or the text's end)
  indent: number;
  code: string; // the text from the first non-blank character, comments and all
  blank: boolean; // blank or a comment only
}

function pythonLines(src: string, from: number, to: number): LogicalLine[] {
  const lines: LogicalLine[] = [];
  let i = from;
  while (i < to) {
    const start = i;
    let indent = 0;
    while (i < to && (src[i] === ' ' || src[i] === '\t')) {
      indent += src[i] === '\t' ? 8 - (indent % 8) : 1;
      i++;
    }
    const codeStart = i;
    let depth = 0;
    for (;;) {
      if (i >= to) break;
      const c = src[i] as string;
      if (c === '\n') {
        i++;
        if (depth === 0) break;
        continue;
      }
      if (c === '#') {
        while (i < to && src[i] !== '\n') i++;
        continue;
      }
      if (c === '\\' && src[i + 1] === '\n') {
        i += 2;
        continue;
      }
      if (c === '"' || c === "'") {
        i = pythonString(src, i, to);
        continue;
      }
      if (c === '(' || c === '[' || c === '{') depth++;
      else if (c === ')' || c === ']' || c === '}') depth = Math.max(0, depth - 1);
      i++;
    }
    const code = src.slice(codeStart, i).replace(/\n$/, '');
    lines.push({ start, end: i, indent, code, blank: code.trim() === '' || code.startsWith('#') });
  }
  return lines;
}

function pythonString(src: string, i: number, to: number): number {
  const q = src[i] as string;
  const triple = src.startsWith(q.repeat(3), i);
  const close = triple ? q.repeat(3) : q;
  i += close.length;
  while (i < to) {
    if (src[i] === '\\') {
      i += 2;
      continue;
    }
    if (src.startsWith(close, i)) return i + close.length;
    if (!triple && src[i] === '\n') return i; // an unterminated string ends with its line
    i++;
  }
  return to;
}

const PY_DEF = /^(?:async[ \t]+)?def[ \t]+(\w+)/;
const PY_CLASS = /^class[ \t]+(\w+)[ \t]*(\([^)]*\))?/;

/** The units among the logical lines of [from, to) at the block's indentation (deeper than `outer`). */
export function pythonUnits(src: string, from: number, to: number, outer: number, prefix: string): TestUnit[] {
  const lines = pythonLines(src, from, to);
  const code = lines.filter((l) => !l.blank);
  const level = code[0]?.indent ?? 0;
  if (code.length === 0 || level <= outer) return [];
  const units: TestUnit[] = [];
  for (let n = 0; n < lines.length; n++) {
    const line = lines[n] as LogicalLine;
    if (line.blank || line.indent !== level) continue;
    const def = PY_DEF.exec(line.code);
    const cls = PY_CLASS.exec(line.code);
    const isTest = def ? (def[1] as string).startsWith('test') : false;
    const isGroup = cls ? (cls[1] as string).startsWith('Test') || /TestCase\b/.test(cls[2] ?? '') : false;
    if (!isTest && !isGroup) continue;
    // Its decorators: the code lines just above it at its indentation that start with @.
    let first = n;
    for (let k = n - 1; k >= 0; k--) {
      const above = lines[k] as LogicalLine;
      if (above.blank) continue;
      if (above.indent === level && above.code.startsWith('@')) first = k;
      else break;
    }
    // Its body: the lines after it deeper than it, up to the last code line of them.
    let last = n;
    for (let k = n + 1; k < lines.length; k++) {
      const below = lines[k] as LogicalLine;
      if (below.blank) continue;
      if (below.indent > level) last = k;
      else break;
    }
    const start = (lines[first] as LogicalLine).start;
    const lastEnd = (lines[last] as LogicalLine).end;
    const end = src[lastEnd - 1] === '\n' ? lastEnd - 1 : lastEnd;
    const headEnd = line.end;
    const ownName = (isTest ? def?.[1] : cls?.[1]) as string;
    const name = prefix ? `${prefix}::${ownName}` : ownName;
    const unit: TestUnit = {
      name,
      ownName,
      start,
      end,
      head: lines
        .slice(first, n + 1)
        .filter((l) => !l.blank)
        .map((l) => l.code)
        .join('\n'),
      children: [],
    };
    if (isGroup) {
      unit.body = { start: headEnd, end };
      unit.children = pythonUnits(src, headEnd, end, level, name);
    }
    units.push(unit);
    n = last;
  }
  return units;
}
