import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { OPTIONS } from '../src/config/options.js';
import { HaltReasons } from '../src/core/state.js';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

describe('README', () => {
  it('documents every option with its environment variable and default', () => {
    for (const o of OPTIONS) {
      const row = readme.split('\n').find((l) => l.startsWith(`| \`--${o.flag}`));
      expect(row).toBeDefined();
      expect(row).toContain(o.env);
      if (o.defaultValue && /^[\w.-]+$/.test(o.defaultValue) && o.defaultValue !== 'false')
        expect(row).toContain(o.defaultValue);
    }
  });

  it('has the two quick-start commands', () => {
    const quick = readme.slice(readme.indexOf('## Quick start'), readme.indexOf('## How a run goes'));
    expect(quick).toContain('npm ci && npm run demo');
    expect(quick).toContain('npm ci && npm test');
  });

  it('lists every exit code, and every halt reason under exit code 1', () => {
    for (const code of ['| 0 |', '| 1 |', '| 2 |']) expect(readme).toContain(code);
    const halted = readme.split('\n').find((l) => l.startsWith('| 1 |'));
    for (const reason of HaltReasons) expect(halted).toContain(`\`${reason}\``);
  });
});
