/**
 * action.yml's inputs and outputs, and the README's table of them, are generated from the schema
 * (src/action/manifest.ts over src/config/options.ts): issue 15. `npm run docs` rewrites both.
 */
import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import YAML from 'yaml';
import {
  ACTION_OUTPUTS,
  TABLE_END,
  TABLE_START,
  actionInputs,
  inputDescription,
  renderActionTables,
  renderActionYmlIO,
  withActionTables,
  withActionYmlIO,
} from '../../src/action/manifest.js';
import { pausedOutputs } from '../../src/action/summary.js';
import { optionsFor } from '../../src/config/options.js';

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

/** Where `actual` first differs from `expected`, as the line of each, or undefined when they agree. */
function firstDifference(actual: string, expected: string): string | undefined {
  if (actual === expected) return undefined;
  const a = actual.split('\n');
  const e = expected.split('\n');
  const n = a.findIndex((line, i) => line !== e[i]);
  const at = n < 0 ? a.length : n;
  return `line ${at + 1}:\n  is:        ${a[at] ?? '(end)'}\n  generated: ${e[at] ?? '(end)'}`;
}

const upToDate = (file: string, text: string, generated: string) => {
  const diff = firstDifference(text, generated);
  if (diff) throw new Error(`${file} differs from what src/action/manifest.ts generates: run npm run docs.\n${diff}`);
};

describe("the action's inputs and outputs, generated from the schema (issue 15)", () => {
  it('action.yml declares each input as the schema generates it (description, default), every one optional', () => {
    const text = read('action.yml');
    upToDate('action.yml', text, withActionYmlIO(text));
    const action = YAML.parse(text) as { inputs: Record<string, Record<string, unknown>> };
    for (const input of actionInputs())
      expect([input.name, action.inputs[input.name]]).toEqual([
        input.name,
        {
          description: inputDescription(input),
          required: false,
          ...(input.default !== undefined ? { default: input.default } : {}),
        },
      ]);
    expect(action.inputs['github-token']!.default).toBe('${{ github.token }}');
  });

  it("action.yml's outputs are the manifest's, and a paused run sets only some of them", () => {
    const action = YAML.parse(read('action.yml')) as { outputs: Record<string, { description: string }> };
    expect(Object.entries(action.outputs).map(([name, o]) => ({ name, description: o.description }))).toEqual(
      ACTION_OUTPUTS,
    );
    const names = ACTION_OUTPUTS.map((o) => o.name);
    for (const name of Object.keys(pausedOutputs())) expect(names).toContain(name);
  });

  it('the inputs are the action options of the schema, checkpoint-id for --resume and resume for --resume-halted', () => {
    const flags = optionsFor('action')
      .map((o) => o.flag)
      .filter((f) => !['json', 'config'].includes(f));
    expect(actionInputs().map((i) => i.name)).toEqual(
      flags.map((f) => (f === 'resume' ? 'checkpoint-id' : f === 'resume-halted' ? 'resume' : f)),
    );
    // A change to an option's help reaches the generated action.yml (the check can fail).
    const changed = optionsFor('action').map((o) => (o.flag === 'label' ? { ...o, help: 'Another label.' } : o));
    const text = read('action.yml');
    const io = withActionYmlIO(text, renderActionYmlIO(actionInputs(changed)));
    expect(firstDifference(text, io)).toMatch(/generated: +description: "Another label\. Default: agent-loop\."/);
  });

  it("the README's table lists every input with its default and every output, as generated", () => {
    const readme = read('README.md');
    expect(readme.indexOf(TABLE_START)).toBeGreaterThan(readme.indexOf('## Inputs and outputs'));
    upToDate('README.md', readme, withActionTables(readme));
    const table = readme.slice(readme.indexOf(TABLE_START), readme.indexOf(TABLE_END));
    for (const input of actionInputs()) expect(table).toContain(`| \`${input.name}\` |`);
    for (const output of ACTION_OUTPUTS) expect(table).toContain(`| \`${output.name}\` |`);
    expect(table).toContain('| `max-iterations` | 100 |');
    expect(table).toContain('| `github-token` | ${{ github.token }} |');
    expect(renderActionTables()).toContain('| `paused` | false | Pause the loop');
  });

  it('a README without the markers is an error naming them, not a silent pass', () => {
    expect(() => withActionTables('# no table\n')).toThrow(/README.md has no <!-- action-inputs:start/);
  });
});
