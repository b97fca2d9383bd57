/** Issue 41: one catalog and one registry of issue sources; what a source is, it says itself, not its description. */
import { describe, expect, it } from '@jest/globals';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { byKey } from '../../src/config/options.js';
import { helpText } from '../../src/config/surface.js';
import { ISSUE_SOURCES, SOURCE_NAMES } from '../../src/issues/catalog.js';
import { guardIssues } from '../../src/issues/guard.js';
import { SOURCE_FACTORIES, runSourceFactory } from '../../src/issues/registry.js';
import { createRedactor } from '../../src/secrets/redact.js';
import { load, problemsOf } from '../config/support.js';

describe('the issue sources, one entry each (issue 41)', () => {
  it('the beads file source names the file it reads (issuesFile, absolute), and the guard forwards it', async () => {
    const cwd = mkdtempSync(path.join(tmpdir(), 'sources-'));
    writeFileSync(path.join(cwd, 'issues.jsonl'), '');
    const source = await SOURCE_FACTORIES.beads({
      cwd,
      options: { issuesFile: 'issues.jsonl' },
      env: {},
      onWarning: () => {},
    });
    expect(source.issuesFile).toBe(path.join(cwd, 'issues.jsonl'));
    expect(guardIssues(source, createRedactor([])).issuesFile).toBe(path.join(cwd, 'issues.jsonl'));
  });

  it('every source of the catalog has a factory; a run builds only those any run can build', () => {
    expect(Object.keys(SOURCE_FACTORIES).sort()).toEqual([...SOURCE_NAMES].sort());
    for (const name of SOURCE_NAMES)
      expect(runSourceFactory(name) !== undefined).toBe(ISSUE_SOURCES[name].builtBy === 'any');
  });

  it("--source accepts exactly the catalog's names; one only the action builds is refused on the command line by its title", () => {
    const source = byKey.get('source')!;
    expect(source.arg).toBe(SOURCE_NAMES.join('|'));
    for (const name of SOURCE_NAMES) expect(helpText(source.help, 'cli')).toContain(ISSUE_SOURCES[name].says.cli);
    for (const name of SOURCE_NAMES.filter((n) => ISSUE_SOURCES[n].builtBy === 'action'))
      expect(problemsOf(() => load(['run', '--source', name]))).toEqual([
        expect.stringContaining(`--source ${name}: ${ISSUE_SOURCES[name].title} runs inside the GitHub Action`),
      ]);
  });
});
