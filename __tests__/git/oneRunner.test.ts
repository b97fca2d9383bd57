/**
 * Issue 41: one git runner. Every git process agent-loop starts goes through src/git/exec.ts (its
 * hardening: no hooks, no fsmonitor, no prompt, bounded output). This reads every file of src/ (with
 * TypeScript's own parser: comments and messages are not code) and fails on a second way to start
 * git: a module that can start processes and is not one of the known ones, or a program named `git`
 * anywhere but in the runner.
 */
import { describe, expect, it } from '@jest/globals';
import ts from 'typescript';
import { sourceFiles } from '../support/sourceFiles.js';

const RUNNER = 'src/git/exec.ts';

/** The modules of src/ that may start processes, and what each starts (none of them git). */
const SPAWNERS: Record<string, string> = {
  [RUNNER]: 'git, and only git (@actions/exec)',
  'src/agents/process.ts': 'the agents and the test command, each in a process group it can kill (not git)',
  'src/issues/beadsCli.ts': 'the beads CLI, bd (not git)',
  'src/action/installAgent.ts': "npm, installing an agent's CLI in the action (not git)",
};

/** A module that starts processes when imported from. */
const PROCESS_MODULE = /^(node:)?child_process$|^@actions\/exec(\/|$)/;
/** A string that names git as a program: `git`, a path to it, `git.exe`. */
const GIT_PROGRAM = /^(.*[\\/])?git(\.exe)?$/;

interface Found {
  /** Modules imported (static, dynamic, require, re-export). */
  imports: string[];
  /** String literals that name git as a program, with their line. */
  gitPrograms: string[];
}

/** What a source text imports and which of its string literals name git as a program. Pure. */
function scan(fileName: string, text: string): Found {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: Found = { imports: [], gitPrograms: [] };
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      if (ts.isStringLiteral(node.moduleSpecifier)) found.imports.push(node.moduleSpecifier.text);
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      const ref = node.moduleReference.expression;
      if (ts.isStringLiteral(ref)) found.imports.push(ref.text);
    } else if (
      ts.isCallExpression(node) &&
      (node.expression.kind === ts.SyntaxKind.ImportKeyword ||
        (ts.isIdentifier(node.expression) && node.expression.text === 'require')) &&
      node.arguments[0] !== undefined &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      found.imports.push(node.arguments[0].text);
    } else if (ts.isStringLiteralLike(node) && GIT_PROGRAM.test(node.text) && !ts.isImportDeclaration(node.parent)) {
      const line = source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
      found.gitPrograms.push(`${fileName}:${line}: ${node.getText()}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const scanned = sourceFiles().map(({ rel, text }) => ({ rel, ...scan(rel, text) }));

describe('one git runner (issue 41)', () => {
  it('reads the whole of src/', () => {
    expect(scanned.length).toBeGreaterThan(150);
    expect(scanned.map((f) => f.rel)).toContain(RUNNER);
  });

  it('only the known modules can start a process (child_process, @actions/exec); a new one must be added here with what it starts', () => {
    const spawners = scanned.filter((f) => f.imports.some((m) => PROCESS_MODULE.test(m))).map((f) => f.rel);
    expect(spawners.sort()).toEqual(Object.keys(SPAWNERS).sort());
  });

  it('@actions/exec is imported by the git runner alone', () => {
    const users = scanned.filter((f) => f.imports.some((m) => /^@actions\/exec(\/|$)/.test(m))).map((f) => f.rel);
    expect(users).toEqual([RUNNER]);
  });

  it('git is named as a program in the git runner alone (no spawn, execFile or runProcess of git elsewhere)', () => {
    const elsewhere = scanned.filter((f) => f.rel !== RUNNER).flatMap((f) => f.gitPrograms);
    expect(elsewhere).toEqual([]);
    expect(scanned.find((f) => f.rel === RUNNER)?.gitPrograms.length).toBeGreaterThan(0);
  });

  it('the scan sees a second spawner of git however it is written (and not a message or a comment)', () => {
    const second = scan(
      'x.ts',
      [
        "import { execFile } from 'node:child_process';",
        "const cp = await import('child_process');",
        "execFile('git', ['status']);",
        'spawn(`/usr/bin/git`, []);',
        'runProcess({ command: "git", args: [\'log\'] });',
        '// execFile("git") in a comment',
        "const message = 'git: the working tree is dirty; run git stash';",
      ].join('\n'),
    );
    expect(second.imports).toEqual(['node:child_process', 'child_process']);
    expect(second.gitPrograms).toEqual(["x.ts:3: 'git'", 'x.ts:4: `/usr/bin/git`', 'x.ts:5: "git"']);
  });
});
