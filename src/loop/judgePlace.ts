/**
 * Where the agent's work is judged (issue 42): after its turn (its process group gone), the work is
 * read as a tree, its change against the cycle's base weighed by `protect` (src/judge/protectedPaths.ts),
 * and a judge tree opened holding the maintainer's tests alone (the plan `withoutAddedTests`: every
 * protected path the agent changed taken from the base or dropped, and the agent's added tests left
 * out, so that no module-level code of theirs runs in the process that judges the maintainer's
 * tests). The findings go to the core with the verdict; the caller runs the suite in the tree and
 * closes it. Two more trees can be opened for the agent's added tests (proof of fix, issue 42): the
 * judge tree with them (the findings' paths still the base's), and the base with only those test
 * files, as the work has them.
 */
import type { TestPlace } from '../judge/judgeRun.js';
import type { JudgeTrees } from '../judge/judgeTree.js';
import { textNeeded } from '../judge/infrastructure.js';
import { type Finding, type ProtectionRules, protect } from '../judge/protectedPaths.js';
import type { IssueTargets } from '../verdict/targets.js';
import type { SliceSettings } from './deps.js';

export interface JudgePlace {
  place: TestPlace;
  /** The changes to paths the maintainer owns: each makes the work not a pass. */
  findings: Finding[];
  /** Symlinks of the work pointing outside the repository, removed from the judge tree. */
  removedLinks: string[];
  /** The tests the agent added (not run by this verdict), by file. */
  addedTests: { path: string; names: string[] }[];
  /** Opens the judge tree with the agent's added tests: the work, every protected path it changed taken from the base or dropped. */
  withAddedTests(): Promise<OpenedPlace>;
  /**
   * Opens a tree of the cycle's base with only the agent's added test files in it, as the work has them
   * (its new test files, a helper among them too, and the existing test files it added tests to).
   */
  baseWithAddedTests(): Promise<OpenedPlace>;
  close(): Promise<void>;
}

/** A tree the suite runs in, to close after. */
export interface OpenedPlace {
  place: TestPlace;
  close(): Promise<void>;
}

/**
 * What a test command is usually installed into, ignored by git: linked into the judge tree from the
 * repository (as the agent left them: the limit is said in docs/how-a-run-goes.md#verdicts).
 */
const INSTALLED = ['node_modules', '.venv', 'venv'];

/** The configuration file a run reads when none is named. */
const DEFAULT_CONFIG_FILE = '.agent-loop.yml';

/**
 * What the judge protects for a cycle: the maintainer's extras (--protected-paths), and what the
 * maintainer's configuration (--allowed-paths) and the cycle's issues (`allowed:` in their
 * agent-loop block) let change. Pure.
 */
export function judgeRules(
  settings: Pick<SliceSettings, 'configFile' | 'protectedPaths' | 'allowedPaths'>,
  targets: Pick<IssueTargets, 'allowed'>,
): ProtectionRules {
  return {
    configFile: settings.configFile ?? DEFAULT_CONFIG_FILE,
    extra: [...(settings.protectedPaths ?? [])],
    allowed: [...new Set([...(settings.allowedPaths ?? []), ...(targets.allowed ?? [])])],
  };
}

/**
 * Reads the work's change from `base`, weighs it, and opens its judge tree: the maintainer's tests
 * alone (`withoutAddedTests`, the verdict's), or with the agent's added tests (`withAddedTests`:
 * --workflow tdd's RED, whose new tests are the phase's aim).
 */
export async function openJudgePlace(
  trees: JudgeTrees,
  base: string,
  rules: ProtectionRules,
  plan: 'withoutAddedTests' | 'withAddedTests' = 'withoutAddedTests',
): Promise<JudgePlace> {
  const change = await trees.change({ base, wants: textNeeded });
  const protection = protect(change.changed, change.baseFiles, rules);
  const { restore, drop } = plan === 'withAddedTests' ? protection : protection.withoutAddedTests;
  const work = { commit: change.tree };
  const tree = await trees.open({ base, work, restore, drop, link: INSTALLED });
  const opened = async (plan: { restore: string[]; drop: string[] }): Promise<OpenedPlace> => {
    const t = await trees.open({ base, work, ...plan, link: INSTALLED });
    return { place: { cwd: t.dir, reportDir: t.reportDir }, close: () => t.close() };
  };
  // The agent's new test files (those with no test too: a helper module of its tests) and the existing ones it added tests to.
  const findingPaths = new Set([...protection.restore, ...protection.drop]);
  const testFiles = new Set(
    [...protection.withoutAddedTests.restore, ...protection.withoutAddedTests.drop].filter((p) => !findingPaths.has(p)),
  );
  return {
    place: { cwd: tree.dir, reportDir: tree.reportDir },
    findings: protection.findings,
    removedLinks: tree.removedLinks,
    addedTests: protection.addedTests,
    withAddedTests: () => opened({ restore: protection.restore, drop: protection.drop }),
    // Every path the work changed taken as the base has it (removed where the base has none), but the added tests' files.
    baseWithAddedTests: () =>
      opened({ restore: changedPaths(change.changed).filter((p) => !testFiles.has(p)), drop: [] }),
    close: () => tree.close(),
  };
}

/** Every path a change touches: a renamed file's old path too. */
const changedPaths = (changed: { path: string; from?: string }[]): string[] => [
  ...new Set(changed.flatMap((c) => (c.from !== undefined ? [c.path, c.from] : [c.path]))),
];
