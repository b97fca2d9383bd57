import { describe, expect, it } from '@jest/globals';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { OPTIONS } from '../src/config/options.js';
import { HaltReasons } from '../src/core/state.js';
import { HALT_TABLE_END, HALT_TABLE_START, renderHaltReasonTable } from '../src/cli/help.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');
const readme = read('README.md');
const DOCS = readdirSync(path.join(ROOT, 'docs'))
  .filter((f) => f.endsWith('.md'))
  .map((f) => `docs/${f}`);
const PAGES = ['README.md', 'CHANGELOG.md', ...DOCS];

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
const anchorOf = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}_\- ]/gu, '')
    .replace(/ /g, '-');

/** The anchors of a Markdown page's headings (outside code fences). */
function anchors(text: string): Set<string> {
  const found = new Set<string>();
  let fence = false;
  for (const line of text.split('\n')) {
    if (line.startsWith('```')) fence = !fence;
    const m = !fence && /^#{1,6} (.*)$/.exec(line);
    if (m) found.add(anchorOf(m[1] as string));
  }
  return found;
}

/** Every relative link of a page (outside code fences): [text](target). */
function links(text: string): string[] {
  const out: string[] = [];
  let fence = false;
  for (const line of text.split('\n')) {
    if (line.startsWith('```')) fence = !fence;
    if (fence) continue;
    // Inline code (`[#n](url)`) is no link.
    for (const m of line.replace(/`[^`]*`/g, '').matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = m[1] as string;
      if (!/^[a-z]+:/.test(target)) out.push(target);
    }
  }
  return out;
}

describe('README', () => {
  it('fits on a screen or two: at most 350 lines', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(350);
  });

  it('has the two quick-start commands', () => {
    const quick = readme.slice(readme.indexOf('## Quick start'), readme.indexOf('## Inputs and outputs'));
    expect(quick).toContain('npm ci && npm run demo');
    expect(quick).toContain('npm ci && npm test');
  });

  it('lists every exit code, and every halt reason under exit code 1', () => {
    for (const code of ['| 0 |', '| 1 |', '| 2 |', '| 75 |']) expect(readme).toContain(code);
    const halted = readme.split('\n').find((l) => l.startsWith('| 1 |'));
    for (const reason of HaltReasons) expect(halted).toContain(`\`${reason}\``);
  });

  it('has the table of halt reasons as generated (npm run docs)', () => {
    const table = readme.slice(
      readme.indexOf(HALT_TABLE_START) + HALT_TABLE_START.length,
      readme.indexOf(HALT_TABLE_END),
    );
    expect(table.trim()).toBe(renderHaltReasonTable());
  });

  it('links every page of docs/ and the changelog', () => {
    for (const page of [...DOCS, 'CHANGELOG.md']) expect(links(readme)).toContain(page);
  });
});

describe('docs', () => {
  it('the CLI reference documents every option with its environment variable and default', () => {
    const cli = read('docs/cli.md');
    for (const o of OPTIONS) {
      const row = cli.split('\n').find((l) => l.startsWith(`| \`--${o.flag}`));
      expect(row).toBeDefined();
      expect(row).toContain(o.env);
      if (o.defaultValue && /^[\w.-]+$/.test(o.defaultValue) && o.defaultValue !== 'false')
        expect(row).toContain(o.defaultValue);
    }
  });

  it.each(PAGES)('every relative link of %s names a file that exists, and a heading of it', (page) => {
    const broken: string[] = [];
    for (const target of links(read(page))) {
      const [file, anchor] = target.split('#') as [string, string | undefined];
      const resolved = file === '' ? page : path.posix.normalize(path.posix.join(path.posix.dirname(page), file));
      if (!existsSync(path.join(ROOT, resolved))) broken.push(`${target} (no file ${resolved})`);
      else if (anchor && resolved.endsWith('.md') && !anchors(read(resolved)).has(anchor))
        broken.push(`${target} (no heading #${anchor} in ${resolved})`);
    }
    expect(broken).toEqual([]);
  });

  it('the anchor rule is GitHub’s', () => {
    expect(anchorOf('Parallel waves (`parallel`)')).toBe('parallel-waves-parallel');
    expect(anchorOf('Tokens, pull requests and CI')).toBe('tokens-pull-requests-and-ci');
    expect(anchorOf('On GitHub, as a step')).toBe('on-github-as-a-step');
  });
});
