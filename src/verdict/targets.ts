/**
 * What an issue must make pass: an `agent-loop` block in its text (a fenced code block whose info
 * string is `agent-loop`, YAML with `tests:` and/or `verify:`, and `allowed:` paths), else the tests of
 * the suite that its text names (by their whole id, or by a distinctive last part of it that names one
 * test only), and the pytest ids it names that the suite does not have yet (tests to write: testsToWrite).
 * When it names none, the verdict takes the baseline failures it fixed (judge.ts). Pure.
 */
import YAML from 'yaml';
import type { SuiteRun } from './results.js';
import { closest } from '../util/suggest.js';
import { VERDICT_MESSAGES } from './messages.js';

export interface IssueTargets {
  /** Test ids, as the suite's reader names them (or as the block gives them). */
  tests: string[];
  /** Commands that must exit 0. */
  verify: string[];
  /**
   * Protected paths the issue lets its work change (its block's `allowed:`, globs; issue 42): no
   * finding, and the judge tree keeps the agent's version. Absent when none.
   */
  allowed?: string[];
  /**
   * Why the issue's agent-loop block cannot be taken as written (not valid YAML, not a mapping, a key
   * agent-loop does not know such as a mistyped `verfy:`, an entry that is not a string): what it asks
   * to pass is not known for sure, so the issue cannot be verified and is never closed on the
   * agent's word (a check that was meant and never ran would be a false "done").
   */
  unreadable?: string;
}

/** How to write a command YAML would misread, for the messages. */
export const QUOTING_HINT = VERDICT_MESSAGES.quotingHint;

/** The keys of an agent-loop block. */
const BLOCK_KEYS = ['tests', 'verify', 'allowed'];

const BLOCK = /^[ \t]*(`{3,}|~{3,})[ \t]*agent-loop[ \t]*\n([\s\S]*?)^[ \t]*\1[ \t]*$/gm;

/**
 * Between the issues' texts of one cycle (a --batch cycle has several), as the cycle keeps them in
 * one string (`joinIssueTexts`): ASCII's record separator, which no issue text holds.
 */
const ISSUE_SEPARATOR = '\n\u001e\n';
/** The texts of a cycle's issues as one string that `issueTargets` reads issue by issue. Pure. */
export const joinIssueTexts = (texts: readonly string[]): string =>
  texts.map((t) => t.replaceAll('\u001e', '')).join(ISSUE_SEPARATOR);

/**
 * What a cycle's issues ask to pass, together: each issue's agent-loop blocks (several in one issue
 * count), else the tests its text names. In a --batch cycle one issue's block does not hide what
 * another issue names (until issue 42 it did: `text` was read as one issue, and any block dropped
 * every other issue's named tests). One block that cannot be taken makes the whole unreadable.
 */
export function issueTargets(text: string, baseline: SuiteRun | undefined): IssueTargets {
  const out: IssueTargets = { tests: [], verify: [] };
  for (const one of text.split(ISSUE_SEPARATOR)) {
    const read = oneIssueTargets(one, baseline);
    if (read.unreadable) return read;
    out.tests = [...new Set([...out.tests, ...read.tests])];
    out.verify = [...new Set([...out.verify, ...read.verify])];
    if (read.allowed) out.allowed = [...new Set([...(out.allowed ?? []), ...read.allowed])];
  }
  return out;
}

/** One issue's targets: its agent-loop blocks (all of them), else the tests its text names. */
function oneIssueTargets(text: string, baseline: SuiteRun | undefined): IssueTargets {
  const out: IssueTargets = { tests: [], verify: [] };
  // A GitHub body written in the web editor ends its lines with CRLF: the block is found all the same.
  const blocks = [...text.replace(/\r\n?/g, '\n').matchAll(BLOCK)].map((m) => m[2] as string);
  for (const block of blocks) {
    const one = blockTargets(block);
    if (one.unreadable) return one;
    out.tests = [...new Set([...out.tests, ...one.tests])];
    out.verify = [...new Set([...out.verify, ...one.verify])];
    if (one.allowed) out.allowed = [...new Set([...(out.allowed ?? []), ...one.allowed])];
  }
  if (out.tests.length > 0 || out.verify.length > 0) return out;
  // A block that only allows paths names no target: the tests the text names still are.
  if (baseline) out.tests = [...new Set([...namedTests(text, baseline), ...testsToWrite(text, baseline)])];
  return out;
}

/** Targets that cannot be taken, and why. */
const refused = (unreadable: string): IssueTargets => ({ tests: [], verify: [], unreadable });

/** One agent-loop block's YAML: its tests and verify, or why it cannot be taken. */
function blockTargets(block: string): IssueTargets {
  let doc: unknown;
  try {
    doc = YAML.parse(block);
  } catch (error) {
    return refused(
      `the agent-loop block is not valid YAML (${(error as Error).message.split('\n')[0]}); ${QUOTING_HINT}`,
    );
  }
  if (doc && typeof doc === 'object' && !Array.isArray(doc)) {
    const d = doc as Record<string, unknown>;
    const problems: string[] = [];
    const tests = strings(d.tests, 'tests', problems);
    const verify = strings(d.verify, 'verify', problems);
    // Globs, a list or one comma-separated string.
    const allowed = strings(d.allowed, 'allowed', problems).flatMap((g) =>
      g
        .split(',')
        .map((p) => p.trim())
        .filter((p) => p !== ''),
    );
    for (const key of Object.keys(d).filter((k) => !BLOCK_KEYS.includes(k))) {
      const meant = closest(key, BLOCK_KEYS);
      problems.push(`a key agent-loop does not know: ${key}${meant ? ` (did you mean ${meant}?)` : ''}`);
    }
    if (problems.length > 0)
      return refused(
        `the agent-loop block cannot be taken as written: ${problems.join('; ')}; it knows tests: and verify:, each a string or a list of strings`,
      );
    return { tests, verify, ...(allowed.length ? { allowed } : {}) };
  }
  if (doc !== undefined && doc !== null)
    return refused(
      `the agent-loop block must be a mapping with tests: and/or verify: (it is ${Array.isArray(doc) ? 'a list' : `a ${typeof doc}`})`,
    );
  return { tests: [], verify: [] };
}

function strings(value: unknown, key: string, problems: string[]): string[] {
  if (value === undefined || value === null) return [];
  const list = Array.isArray(value) ? value : [value];
  const good = list.filter((v): v is string => typeof v === 'string' && v.trim() !== '').map((v) => v.trim());
  if (good.length !== list.length) problems.push(`${key}: must be a string or a list of strings`);
  return good;
}

/**
 * The suite's test ids the text names: whole, or by a last part (≥ 5 characters) only one test has.
 * A name is found as a word, not inside one, and a name of fewer than 5 characters with no group
 * (tape's test `-`, a test `a`) or with no letter or digit is not taken from prose at all: a text
 * with a dash in it does not name the test `-`.
 */
export function namedTests(text: string, run: SuiteRun): string[] {
  const ids = [...new Set([...Object.keys(run.tests)])];
  const found = new Set<string>();
  const lastPart = (id: string) => id.split(/::| › | > |\//).at(-1) ?? id;
  const byLast = new Map<string, string[]>();
  for (const id of ids) {
    const last = lastPart(id);
    byLast.set(last, [...(byLast.get(last) ?? []), id]);
  }
  for (const id of ids) {
    if (nameable(id, id.length > lastPart(id).length) && bounded(id).test(text)) {
      found.add(id);
      continue;
    }
    const last = lastPart(id);
    if (last.length < 5 || (byLast.get(last) ?? []).length !== 1) continue;
    if (nameable(last, false) && bounded(last).test(text)) found.add(id);
  }
  return [...found];
}

/** A pytest test id in prose: a `.py` file's path, then `::` and one or more names (a parametrized case's brackets too). */
const PYTEST_ID = /(?<![\w./-])((?:[\w.-]+\/)*[\w.-]+\.py)((?:::[A-Za-z_]\w*)+(?:\[[^\]\s]*\])?)/g;

/**
 * The pytest test ids the text names that the suite does not have yet (issue 42: a test the issue
 * asks the agent to write is a target to create): `tests/test_x.py::test_y` as pytest would name it.
 * Only where the baseline was read from pytest (the form is pytest's). An id the suite has, whole or by
 * the end of its path (`test_x.py::test_y` for `tests/test_x.py::test_y`), is not one to write; a file
 * the suite has, named by the end of its path, is named as the suite names it. Pure.
 */
export function testsToWrite(text: string, baseline: SuiteRun): string[] {
  if (baseline.reader !== 'pytest') return [];
  const ids = Object.keys(baseline.tests);
  const endsWith = (whole: string, end: string) => whole === end || whole.endsWith(`/${end}`);
  const out = new Set<string>();
  for (const m of text.matchAll(PYTEST_ID)) {
    const [whole, file, rest] = m as unknown as [string, string, string];
    // A parametrized test is named by its cases (`…::test_y[1]`) in the suite.
    if (ids.some((id) => endsWith(id, whole) || endsWith(id.replace(/\[.*$/, ''), whole))) continue;
    const group = Object.keys(baseline.groups).find((g) => endsWith(g, file)) ?? file;
    const id = `${group}${rest}`;
    if (!(id in baseline.tests)) out.add(id);
  }
  return [...out];
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A name prose can be said to name: a letter or digit in it, and 5 characters or more unless it has a group. */
const nameable = (name: string, grouped: boolean) => /[\p{L}\p{N}]/u.test(name) && (grouped || name.length >= 5);

/** `name` as a word of a text: not preceded or followed by a word character. */
const bounded = (name: string) => new RegExp(`(^|[^\\w])${escape(name)}($|[^\\w])`);
