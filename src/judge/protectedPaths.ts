/**
 * Which of the agent's changed paths are protected, and the judge tree's plan (issue 42). The tests
 * that judge a change are the maintainer's: every test file that exists at the cycle's base, the
 * test infrastructure (what decides which tests run and how their outcomes are read) and
 * agent-loop's own configuration file. The agent may add tests (new test files, or new whole test
 * units in an existing file: testUnits.ts) but a change to anything else protected is a finding for
 * a person, and the judge tree takes that path from the base (or drops it, when it is new). Pure:
 * the changed files' texts are read by the caller.
 */
import { additions, languageOf, leafNames, testUnits } from './testUnits.js';
import { globMatch } from './glob.js';
import { infrastructure, isTestFile } from './infrastructure.js';

/** One file of the agent's change (paths relative to the repository's root, with `/`, as git names them). */
export interface ChangedFile {
  path: string;
  status: 'added' | 'modified' | 'deleted' | 'renamed';
  /** A renamed file's path at the base. */
  from?: string;
  /** Its text at the base (a renamed file's, at `from`); absent for a binary file or one that did not exist. */
  base?: string;
  /** Its text in the work; absent for a deleted or binary file. */
  now?: string;
}

export interface ProtectionRules {
  /** agent-loop's configuration file, as the run names it, relative to the repository's root (`.agent-loop.yml`). */
  configFile: string;
  /** Globs the maintainer protects besides the conventional ones. */
  extra: string[];
  /** Globs the issue or the configuration lets change (the configuration file excepted). */
  allowed: string[];
}

export type FindingKind =
  'test-changed' | 'test-removed' | 'infrastructure-changed' | 'infrastructure-added' | 'config-changed';

export interface Finding {
  path: string;
  kind: FindingKind;
  /** What changed, in words for a person. */
  detail: string;
}

export interface Protection {
  /** The changes to protected paths: each goes to a person. */
  findings: Finding[];
  /** Changes to protected paths that the rules' `allowed` let through: reported, not findings. */
  allowed: Finding[];
  /** Paths the judge tree takes from the base (a finding's path that existed there). */
  restore: string[];
  /** Paths new in the work that the judge tree removes (a finding's path that did not exist at the base). */
  drop: string[];
  /** The tests the agent added: new test files' units, and the new units of existing test files. */
  addedTests: { path: string; names: string[] }[];
  /**
   * The plan of a tree without the agent's added tests (the test files with added units restored, the
   * new test files dropped too): the maintainer's tests alone, for a verdict on them that no added
   * test can influence from inside the same process (a module-level monkeypatch in a new test file).
   */
  withoutAddedTests: { restore: string[]; drop: string[] };
}

/** The judge's view of the agent's change. */
export function protect(changed: ChangedFile[], baseFiles: string[], rules: ProtectionRules): Protection {
  const atBase = new Set(baseFiles);
  const out: Protection = {
    findings: [],
    allowed: [],
    restore: [],
    drop: [],
    addedTests: [],
    withoutAddedTests: { restore: [], drop: [] },
  };
  const note = (path: string, kind: FindingKind, detail: string) => {
    const finding = { path, kind, detail };
    if (kind !== 'config-changed' && rules.allowed.some((g) => globMatch(g, path))) {
      out.allowed.push(finding);
      return;
    }
    out.findings.push(finding);
    if (atBase.has(path)) out.restore.push(path);
    else out.drop.push(path);
  };
  for (const file of changed) {
    if (file.status === 'renamed' && file.from !== undefined) {
      // A rename is the old path deleted and the new one added.
      one({ path: file.from, status: 'deleted', base: file.base }, atBase, rules, note, out);
      one({ path: file.path, status: 'added', now: file.now }, atBase, rules, note, out);
    } else one(file, atBase, rules, note, out);
  }
  const sorted = (list: string[]) => [...new Set(list)].sort();
  out.restore = sorted(out.restore);
  out.drop = sorted(out.drop);
  out.withoutAddedTests = {
    restore: sorted([...out.restore, ...out.withoutAddedTests.restore]),
    drop: sorted([...out.drop, ...out.withoutAddedTests.drop]),
  };
  return out;
}

type Note = (path: string, kind: FindingKind, detail: string) => void;

function one(file: ChangedFile, atBase: Set<string>, rules: ProtectionRules, note: Note, out: Protection): void {
  const { path } = file;
  // A path the base has is not new, whatever the status says.
  const status = file.status === 'added' && atBase.has(path) ? 'modified' : file.status;
  if (path === rules.configFile) {
    note(path, 'config-changed', CONFIG_DETAIL[status === 'renamed' ? 'modified' : status]);
    return;
  }
  const infra = infrastructure(file, status, rules.extra);
  if (infra) {
    note(path, status === 'added' ? 'infrastructure-added' : 'infrastructure-changed', infra);
    return;
  }
  if (!isTestFile(path)) return;
  if (status === 'deleted') {
    note(path, 'test-removed', `the test file ${path} was deleted (or renamed away): its tests no longer run`);
    return;
  }
  const language = languageOf(path);
  if (status === 'added') {
    // Without the added tests, a new test file goes whatever it holds: one with no test still runs its module's code.
    out.withoutAddedTests.drop.push(path);
    const names = language && file.now !== undefined ? leafNames(testUnits(file.now, language)) : [];
    if (names.length > 0) out.addedTests.push({ path, names });
    return;
  }
  // An existing test file, changed: fine only when it gained whole new tests.
  if (!language || file.base === undefined || file.now === undefined) {
    note(path, 'test-changed', `${path} is a test file (or test data) of the base and was changed`);
    return;
  }
  const result = additions(file.base, file.now, language);
  if (!result.ok) {
    note(path, 'test-changed', result.reasons.join('; '));
    return;
  }
  if (result.added.length > 0) {
    out.addedTests.push({ path, names: result.added });
    out.withoutAddedTests.restore.push(path);
  }
}

const CONFIG_DETAIL: Record<'added' | 'modified' | 'deleted', string> = {
  added: "agent-loop's configuration file was created by the agent: the run keeps the maintainer's configuration",
  modified:
    "agent-loop's configuration file was changed by the agent: the run keeps the maintainer's configuration (the base's)",
  deleted:
    "agent-loop's configuration file was deleted by the agent: the run keeps the maintainer's configuration (the base's)",
};
