/**
 * The test units of a test file's text, and whether a new version of the file only *adds* whole
 * units to the old one (issue 42: the agent may add tests, never change or remove the maintainer's).
 * Pure: text in, units or reasons out.
 *
 * A unit is what a runner collects as a test or a group of tests: pytest's `def test*` (also
 * `async def`), `class Test*` (or a `…TestCase` subclass) and its `test*` methods, each with its
 * decorators and its body by indentation; jest/vitest/mocha/node:test/tape's `test(`/`it(`/
 * `describe(`… calls with their modifiers (`.skip`, `.only`, `.each`…), by balanced brackets, named
 * by their first string argument; Go's `func TestX`/`ExampleX`/`FuzzX`. Everything else is the
 * file's module-level code (imports, fixtures, hooks, helpers, `pytestmark`), which the maintainer
 * owns as much as the tests: additions() refuses any change to it.
 *
 * The scanners are lexical (strings, comments, brackets, indentation), not parsers: what they cannot
 * tell apart is compared as text, so a misread can refuse an honest addition but not pass a change.
 */
import type { TestLanguage, TestUnit } from './testUnit.js';
import { pythonUnits } from './pythonUnits.js';
import { jsUnits } from './jsUnits.js';
import { goUnits } from './goUnits.js';

export type { TestLanguage, TestUnit } from './testUnit.js';

/** The language of a test file, by its name (undefined: not one whose units can be read). */
export function languageOf(path: string): TestLanguage | undefined {
  if (/\.py$/.test(path)) return 'python';
  if (/\.[cm]?[jt]sx?$/.test(path)) return 'javascript';
  if (/\.go$/.test(path)) return 'go';
  return undefined;
}

/** The file's top-level units, each with its children. */
export function testUnits(text: string, language: TestLanguage): TestUnit[] {
  const src = normalize(text);
  if (language === 'python') return pythonUnits(src, 0, src.length, -1, '');
  if (language === 'go') return goUnits(src);
  return jsUnits(src, 0, src.length, '');
}

/** The names of the tests a runner would run: the leaves (a group without tests counts as one). */
export function leafNames(units: TestUnit[]): string[] {
  return units.flatMap((u) => (u.children.length > 0 ? leafNames(u.children) : [u.name]));
}

/** The marks of a unit (kept) and of a new unit cut out, in a skeleton. */
const UNIT = '\u0001';
const CUT = '\u0002';

export type Additions = { ok: true; added: string[] } | { ok: false; reasons: string[] };

/**
 * Whether `nowText` is exactly `baseText` with whole new test units inserted: every unit of the base
 * is there, in its order, with the same decorators, modifiers and body; every other unit is new (a
 * name the base does not have at that place, and no name twice: a second `def test_x` shadows the
 * first); and the code around the units is unchanged. Whitespace: line endings (CRLF/LF) and the
 * blank lines (JavaScript, Go: any whitespace) around an inserted unit are not changes, nor is
 * whitespace at the end of the file; every other whitespace change is (it may sit in a string an
 * assertion compares).
 */
export function additions(baseText: string, nowText: string, language: TestLanguage): Additions {
  const base = normalize(baseText).replace(/\s*$/, '\n');
  const now = normalize(nowText).replace(/\s*$/, '\n');
  const reasons: string[] = [];
  const added: string[] = [];
  compareScope(
    { text: base, start: 0, end: base.length, units: testUnits(base, language) },
    { text: now, start: 0, end: now.length, units: testUnits(now, language) },
    language,
    '',
    reasons,
    added,
  );
  return reasons.length > 0 ? { ok: false, reasons } : { ok: true, added };
}

interface Scope {
  text: string;
  start: number;
  end: number;
  units: TestUnit[];
}

function compareScope(
  base: Scope,
  now: Scope,
  language: TestLanguage,
  where: string,
  reasons: string[],
  added: string[],
): void {
  const key = (u: TestUnit, i: number, all: TestUnit[]) =>
    `${u.ownName}#${all.slice(0, i).filter((o) => o.ownName === u.ownName).length}`;
  const baseKeys = base.units.map((u, i, all) => key(u, i, all));
  const nowKeys = now.units.map((u, i, all) => key(u, i, all));
  const baseNames = new Set(base.units.map((u) => u.ownName));
  const matched = new Map<number, number>();
  for (const [i, k] of baseKeys.entries()) {
    const j = nowKeys.indexOf(k);
    if (j < 0) reasons.push(`${label(base.units[i] as TestUnit, language)} was removed (or renamed)`);
    else matched.set(j, i);
  }
  const order = [...matched.keys()].sort((a, b) => a - b).map((j) => matched.get(j) as number);
  if (order.some((i, n) => n > 0 && i < (order[n - 1] as number)))
    reasons.push(`${scopeName(where)}: tests were moved`);
  const seen = new Set<string>();
  for (const [j, unit] of now.units.entries()) {
    const i = matched.get(j);
    if (i === undefined) {
      if (baseNames.has(unit.ownName) || seen.has(unit.ownName))
        reasons.push(`${label(unit, language)} is defined twice: ${shadowWord(language)}`);
      else if (language === 'javascript' && exclusive(unit))
        reasons.push(
          `${label(unit, language)} is new but marked to run alone (.only): every other test of the file would be skipped`,
        );
      else added.push(...leafNames([unit]));
    } else compareUnit(base.text, base.units[i] as TestUnit, now.text, unit, language, reasons, added);
    seen.add(unit.ownName);
  }
  // The code around the units: the base's with each unit cut out, against the work's with its new units cut out.
  const baseCode = skeleton(base.text, base.start, base.end, base.units, new Set(), language);
  const newOnes = new Set(now.units.filter((_, j) => !matched.has(j)));
  const nowCode = skeleton(now.text, now.start, now.end, now.units, newOnes, language);
  if (!sameCode(baseCode, nowCode, language)) reasons.push(codeChange(baseCode, nowCode, where));
}

function compareUnit(
  baseText: string,
  base: TestUnit,
  nowText: string,
  now: TestUnit,
  language: TestLanguage,
  reasons: string[],
  added: string[],
): void {
  const name = label(base, language);
  if (base.head !== now.head) {
    reasons.push(`${name}: its ${headWord(language)} changed (${oneLine(base.head)} → ${oneLine(now.head)})`);
    return;
  }
  if (base.body && now.body && (base.children.length > 0 || now.children.length > 0)) {
    const outer = (t: string, u: TestUnit) =>
      t.slice(u.start, (u.body as { start: number }).start) + '\0' + t.slice((u.body as { end: number }).end, u.end);
    if (outer(baseText, base) !== outer(nowText, now)) reasons.push(`${name}: changed outside its tests`);
    compareScope(
      { text: baseText, start: base.body.start, end: base.body.end, units: base.children },
      { text: nowText, start: now.body.start, end: now.body.end, units: now.children },
      language,
      base.name,
      reasons,
      added,
    );
    return;
  }
  if (baseText.slice(base.start, base.end) !== nowText.slice(now.start, now.end))
    reasons.push(`${name}: its body changed`);
}

/** Whether a JavaScript unit, or one inside it, runs alone (`.only`, `fit`, `fdescribe`): the runner skips the others. */
const exclusive = (u: TestUnit): boolean =>
  /(^|\.)only\b|^f(it|describe|test)\b/.test(u.head) || u.children.some(exclusive);

/** The text of a range with every unit replaced by a mark (`\u0001`) and each of `drop` cut out with its surrounding blank lines (a `\u0002` mark). */
function skeleton(
  text: string,
  start: number,
  end: number,
  units: TestUnit[],
  drop: Set<TestUnit>,
  language: TestLanguage,
): string {
  let out = '';
  let at = start;
  for (const u of units) {
    if (drop.has(u)) {
      out = trimJunction(out + text.slice(at, u.start), language) + CUT;
      at = skipJunction(text, u.end, end, language);
    } else {
      out += text.slice(at, u.start) + UNIT;
      at = u.end;
    }
  }
  return out + text.slice(at, end);
}

/** Whether two skeletons are the same code, the whitespace at a junction (where a unit was cut out of the work) aside. */
function sameCode(base: string, now: string, language: TestLanguage): boolean {
  let at = 0;
  for (const [n, part] of now.split(CUT).entries()) {
    if (n > 0) {
      // A unit goes between two lines (or two tokens): the base breaks there, or the scope ends or begins.
      if (at > 0 && at < base.length && !/\s/.test(base[at] as string)) return false;
      at = skipJunction(base, at, base.length, language);
    }
    if (!base.startsWith(part, at)) return false;
    at += part.length;
  }
  return at === base.length;
}

/** The text before a cut unit, without the line breaks and blank lines (Python; any whitespace elsewhere) that led to it. */
const trimJunction = (s: string, language: TestLanguage) =>
  language !== 'python' ? s.replace(/\s+$/, '') : /^\s*$/.test(s) ? '' : s.replace(/(?:\n[ \t]*)+$/, '');

/** Past the blank lines (Python, from a line's start: the next code line's indentation is code) or the whitespace at `at`. */
function skipJunction(text: string, at: number, end: number, language: TestLanguage): number {
  if (language !== 'python') {
    while (at < end && /\s/.test(text[at] as string)) at++;
    return at;
  }
  for (;;) {
    let j = at;
    while (j < end && (text[j] === ' ' || text[j] === '\t')) j++;
    if (j >= end) return j;
    if (text[j] !== '\n') return at;
    at = j + 1;
  }
}

function codeChange(base: string, now: string, where: string): string {
  const b = base.split('\n');
  const n = now.split('\n');
  let i = 0;
  while (i < b.length && i < n.length && b[i] === n[i]) i++;
  const clean = (s: string | undefined) => oneLine((s ?? '').split(CUT).join('…').split(UNIT).join('…'));
  const line = (s: string | undefined) => JSON.stringify(s !== undefined ? clean(s) : '(end)');
  return `${scopeName(where)}: code outside the tests was added or changed (first difference: ${line(n[i])}, was ${line(b[i])})`;
}

const scopeName = (where: string) => (where ? where : 'the module');
const label = (u: TestUnit, language: TestLanguage) => (language === 'javascript' ? `'${u.name}'` : u.name);
const headWord = (language: TestLanguage) =>
  language === 'python' ? 'decorators or signature' : language === 'go' ? 'signature' : 'call (modifiers)';
const shadowWord = (language: TestLanguage) =>
  language === 'python'
    ? 'the second definition shadows the first'
    : language === 'go'
      ? 'Go refuses a second definition'
      : 'two tests with one name cannot be told apart';
const oneLine = (s: string) => {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > 80 ? `${t.slice(0, 77)}...` : t;
};

/** CRLF and lone CR line endings as LF (every language here reads them so, in string literals too). */
const normalize = (text: string) => text.replace(/\r\n?/g, '\n');
