/** Go's test units: top-level `func TestX`/`ExampleX`/`FuzzX`, by braces. Pure. */
import type { TestUnit } from './testUnit.js';

const GO_TEST = /^func[ \t]+((?:Test|Example|Fuzz)(?![a-z])\w*)[ \t]*\(/gm;

export function goUnits(src: string): TestUnit[] {
  const units: TestUnit[] = [];
  for (const m of src.matchAll(GO_TEST)) {
    const name = m[1] as string;
    if (name === 'TestMain') continue; // it runs the package's tests: code, not a test
    const start = m.index as number;
    const open = goBodyOpen(src, start);
    if (open < 0) continue;
    const close = goMatch(src, open);
    const end = close + 1;
    units.push({ name, ownName: name, start, end, head: src.slice(start, open).trim(), children: [] });
  }
  // Units inside another (a match in a raw string) are not units.
  return units.filter((u, i) => !units.some((o, j) => j !== i && o.start < u.start && u.start < o.end));
}

function goBodyOpen(src: string, from: number): number {
  let depth = 0;
  for (let i = from; i < src.length; i++) {
    const c = src[i];
    if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === '{' && depth === 0) return i;
    else if (c === '\n' && depth === 0 && src[i - 1] !== ',' && src.slice(from, i).includes(')')) {
      // a signature ends at its line
    }
  }
  return -1;
}

function goMatch(src: string, open: number): number {
  let depth = 0;
  for (let i = open; i < src.length; i++) {
    const c = src[i] as string;
    if (src.startsWith('//', i)) {
      const e = src.indexOf('\n', i);
      i = e < 0 ? src.length : e;
      continue;
    }
    if (src.startsWith('/*', i)) {
      const e = src.indexOf('*/', i + 2);
      i = e < 0 ? src.length : e + 1;
      continue;
    }
    if (c === '"' || c === "'") {
      i++;
      while (i < src.length && src[i] !== c && src[i] !== '\n') i += src[i] === '\\' ? 2 : 1;
      continue;
    }
    if (c === '`') {
      const e = src.indexOf('`', i + 1);
      i = e < 0 ? src.length : e;
      continue;
    }
    if (c === '{') depth++;
    else if (c === '}') {
      depth--;
      if (depth === 0) return i;
    }
  }
  return src.length - 1;
}
