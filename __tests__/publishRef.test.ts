/**
 * The publishing step (issue 15): scripts/publish-ref.mjs writes the published OWNER/REPO@REF into
 * every use of the action (the reusable workflow's step, the callers of the reusable workflow, the
 * README's and docs/'s examples) and checks that they agree.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { checkUses, findUses, main, parseTarget, publishedFiles, rewrite } from '../scripts/publish-ref.mjs';

const WORKFLOW = `jobs:
  agent-loop:
    steps:
      - uses: actions/checkout@v7
      - id: agent-loop
        uses: agent-loop/agent-loop@v1
`;
const CALLER = `jobs:
  agent-loop:
    uses: agent-loop/agent-loop/.github/workflows/agent-loop.yml@v1
`;
const README = `# x

The \`uses:\` lines name the action.

\`\`\`yaml
      - uses: actions/create-github-app-token@v3
      - uses: "agent-loop/agent-loop@v1"
        with: { label: agent-loop }
      - uses: ./local-action
\`\`\`
`;

let root: string;
const lines: { log: string[]; error: string[] } = { log: [], error: [] };
const log = { log: (m: string) => lines.log.push(m), error: (m: string) => lines.error.push(m) };
const file = (name: string) => readFileSync(path.join(root, name), 'utf8');
beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'publish-ref-'));
  mkdirSync(path.join(root, '.github/workflows'), { recursive: true });
  mkdirSync(path.join(root, 'examples/workflows'), { recursive: true });
  writeFileSync(path.join(root, '.github/workflows/agent-loop.yml'), WORKFLOW);
  writeFileSync(path.join(root, 'examples/workflows/agent-loop.yml'), CALLER);
  writeFileSync(path.join(root, 'README.md'), README);
  lines.log = [];
  lines.error = [];
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('publish-ref (issue 15)', () => {
  it("finds the action's uses: the action, the reusable workflow, quoted or not; not GitHub's actions nor local ones", () => {
    expect(findUses(README, 'README.md').map((u) => [u.line, u.target])).toEqual([[7, 'agent-loop/agent-loop@v1']]);
    expect(findUses(CALLER, 'c.yml')).toEqual([
      expect.objectContaining({ repo: 'agent-loop/agent-loop', path: '.github/workflows/agent-loop.yml', ref: 'v1' }),
    ]);
    expect(publishedFiles(root)).toEqual([
      '.github/workflows/agent-loop.yml',
      'README.md',
      'examples/workflows/agent-loop.yml',
    ]);
  });

  it('writes OWNER/REPO@REF into every use, keeping the workflow path, and changes nothing else', () => {
    expect(main(['my-org/agent-loop@v2.1.0'], root, log)).toBe(0);
    expect(file('.github/workflows/agent-loop.yml')).toBe(
      WORKFLOW.replace('agent-loop/agent-loop@v1', 'my-org/agent-loop@v2.1.0'),
    );
    expect(file('examples/workflows/agent-loop.yml')).toBe(
      CALLER.replace('agent-loop/agent-loop/', 'my-org/agent-loop/').replace('@v1', '@v2.1.0'),
    );
    expect(file('README.md')).toBe(README.replace('"agent-loop/agent-loop@v1"', '"my-org/agent-loop@v2.1.0"'));
    expect(lines.log).toEqual(['publish-ref: 3 use(s) of the action in 3 files name my-org/agent-loop@v2.1.0.']);
    // Written again with another ref: every use follows.
    expect(main(['my-org/agent-loop@0123456789abcdef0123456789abcdef01234567'], root, log)).toBe(0);
    expect(rewrite(file('README.md'), { repo: 'a/b', ref: 'c' })).toContain('"a/b@c"');
    expect(main(['--check', 'my-org/agent-loop@0123456789abcdef0123456789abcdef01234567'], root, log)).toBe(0);
  });

  it('issue 40: the Markdown files under docs/ (any depth) name the action too: written and checked', () => {
    mkdirSync(path.join(root, 'docs', 'action'), { recursive: true });
    writeFileSync(path.join(root, 'docs', 'action', 'workflows.md'), README);
    expect(publishedFiles(root)).toEqual([
      '.github/workflows/agent-loop.yml',
      'README.md',
      'docs/action/workflows.md',
      'examples/workflows/agent-loop.yml',
    ]);
    expect(main(['my-org/agent-loop@v2'], root, log)).toBe(0);
    expect(file('docs/action/workflows.md')).toBe(
      README.replace('"agent-loop/agent-loop@v1"', '"my-org/agent-loop@v2"'),
    );
    writeFileSync(path.join(root, 'docs', 'action', 'workflows.md'), README);
    expect(main(['--check'], root, log)).toBe(1);
    expect(lines.error[1]).toBe(
      '  docs/action/workflows.md:7: agent-loop/agent-loop@v1 should be my-org/agent-loop@v2.',
    );
  });

  it('--check fails naming each use that differs, and the command that fixes it', () => {
    writeFileSync(path.join(root, 'README.md'), README.replace('agent-loop/agent-loop@v1', 'someone/else@v1'));
    expect(main(['--check'], root, log)).toBe(1);
    expect(lines.error).toEqual([
      'publish-ref: 1 use(s) of the action disagree:',
      '  README.md:7: someone/else@v1 should be agent-loop/agent-loop@v1.',
      'Run: node scripts/publish-ref.mjs OWNER/REPO@REF (it writes every use), then commit and tag that commit.',
    ]);
    lines.error = [];
    expect(main(['--check', 'my-org/agent-loop@v2'], root, log)).toBe(1);
    expect(lines.error).toEqual([
      'publish-ref: 3 use(s) of the action disagree:',
      '  .github/workflows/agent-loop.yml:6: agent-loop/agent-loop@v1 should be my-org/agent-loop@v2.',
      '  README.md:7: someone/else@v1 should be my-org/agent-loop@v2.',
      '  examples/workflows/agent-loop.yml:3: agent-loop/agent-loop/.github/workflows/agent-loop.yml@v1 should be my-org/agent-loop/.github/workflows/agent-loop.yml@v2.',
      'Run: node scripts/publish-ref.mjs my-org/agent-loop@v2 (it writes every use), then commit and tag that commit.',
    ]);
  });

  it('a reusable workflow whose step does not use the action is a problem, not a pass', () => {
    const read = (f: string) => (f === '.github/workflows/agent-loop.yml' ? 'jobs: {}\n' : '');
    expect(checkUses(read, ['.github/workflows/agent-loop.yml'])).toEqual([
      '.github/workflows/agent-loop.yml: no step uses the action (OWNER/REPO@REF).',
    ]);
  });

  it('refuses what is not OWNER/REPO@REF (exit 2), and writes nothing', () => {
    for (const bad of [
      'my-org/agent-loop',
      'agent-loop@v1',
      'my-org/agent-loop@',
      'a/b@v1 x',
      'a/b@-x',
      'a/b/c@v1',
      "a/b@v1'",
      'a/b@v1"x',
      'a/b@v1#x',
      'a/b@${{github.ref}}',
      'a/b@v1..2',
      'a/b@v1.',
      'a/b@a//b',
      'a/b@/v1',
      'a/b@v1/',
      'a/b@.v1',
      'a/b@v1.lock',
    ]) {
      expect(() => parseTarget(bad)).toThrow(/is not OWNER\/REPO@REF/);
    }
    expect(main(['my-org/agent-loop'], root, log)).toBe(2);
    expect(main([], root, log)).toBe(2);
    expect(file('README.md')).toBe(README);
    expect(parseTarget('my-org/agent-loop@v1')).toEqual({ repo: 'my-org/agent-loop', ref: 'v1' });
    expect(parseTarget('a/b@refs/tags/v1.2.3+build_4').ref).toBe('refs/tags/v1.2.3+build_4');
  });

  it("this repository's own uses agree (what CI's --check runs)", () => {
    const quiet = { log: () => {}, error: (m: string) => lines.error.push(m) };
    expect([main(['--check'], undefined, quiet), lines.error]).toEqual([0, []]);
  });
});
