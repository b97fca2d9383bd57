/**
 * Issue 41: one owner of the loop state, one checkpoint opener. A run's checkpoint (seed 001's
 * phase, `state.stage`, `state.loop`) is written by src/checkpoint/runCheckpoint.ts alone, through
 * the store and the state directory's one writer; the checkpoint a loop runs on is chosen, or a new
 * one started, by openCheckpoint (src/loop/slice.ts) alone. This reads every file of src/ with
 * TypeScript's own parser (comments and messages are not code) and fails on a second writer or
 * opener.
 */
import { describe, expect, it } from '@jest/globals';
import ts from 'typescript';
import { sourceFiles } from '../support/sourceFiles.js';

const WRITER = 'src/checkpoint/runCheckpoint.ts';
const OPENER = 'src/loop/slice.ts';
/** The checkpoint store itself, which these write and read through. */
const STORE = /^src\/checkpoint\//;

/** Modules that name a choice of checkpoint or a new checkpoint's id without opening a loop on it, and why. */
const NOT_OPENERS: Record<string, string> = {
  'src/cli/status.ts': 'shows which checkpoint a run would resume (pickRunnable, the opener’s own choice), opens none',
  'src/workflows/pipeline/run.ts':
    "a plan's own checkpoint (newCheckpointId) before any loop; its loop is opened by openCheckpoint",
};

interface Found {
  /** `….write(…)` on a checkpoint store (a receiver named `store`/`…Store`, or `new FileCheckpointStore(…)`). */
  storeWrites: string[];
  /** References to STAGE_KEY: what composes a run's checkpoint state. */
  stageKeys: string[];
  /** Calls that choose the checkpoint a loop runs on or start a new one: pickRunnable, newCheckpointId. */
  opens: string[];
}

/** Where a source text writes a checkpoint, composes a run's state, or opens a checkpoint. Pure. */
function scan(fileName: string, text: string): Found {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: Found = { storeWrites: [], stageKeys: [], opens: [] };
  const at = (node: ts.Node) => `${fileName}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node)) {
      const callee = node.expression;
      if (ts.isPropertyAccessExpression(callee) && callee.name.text === 'write') {
        const receiver = callee.expression;
        const isStore =
          (ts.isNewExpression(receiver) && receiver.expression.getText() === 'FileCheckpointStore') ||
          /(^|\.)(store|\w*Store)$/.test(receiver.getText().replace(/\s+/g, ''));
        if (isStore) found.storeWrites.push(at(node));
      }
      const name = ts.isIdentifier(callee) ? callee.text : undefined;
      if (name === 'pickRunnable' || name === 'newCheckpointId') found.opens.push(`${at(node)}: ${name}`);
    } else if (ts.isIdentifier(node) && node.text === 'STAGE_KEY' && !ts.isImportSpecifier(node.parent)) {
      found.stageKeys.push(at(node));
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const scanned = sourceFiles().map(({ rel, text }) => ({ rel, ...scan(rel, text) }));
const outsideStore = scanned.filter((f) => !STORE.test(f.rel));

describe('one owner of the loop state, one checkpoint opener (issue 41)', () => {
  it('reads the whole of src/', () => {
    expect(scanned.length).toBeGreaterThan(150);
    expect(scanned.map((f) => f.rel)).toEqual(expect.arrayContaining([WRITER, OPENER]));
  });

  it("a run's checkpoint is written by runCheckpoint.ts alone: no other module outside the store calls a checkpoint store's write", () => {
    expect(outsideStore.flatMap((f) => f.storeWrites)).toEqual([]);
    expect(scanned.find((f) => f.rel === WRITER)?.storeWrites).toHaveLength(1);
  });

  it("no module outside the store composes a run's checkpoint state (STAGE_KEY)", () => {
    expect(outsideStore.flatMap((f) => f.stageKeys)).toEqual([]);
  });

  it('the checkpoint a loop runs on is chosen, or a new one started, by openCheckpoint alone; a new exception must be added here with why', () => {
    const openers = outsideStore.filter((f) => f.opens.length > 0).map((f) => f.rel);
    expect(openers.sort()).toEqual([OPENER, ...Object.keys(NOT_OPENERS)].sort());
  });

  it('the scan sees a second writer or opener however it is written (and not a message or a comment)', () => {
    const second = scan(
      'x.ts',
      [
        'await store.write({ id, phase, state: { loop } });',
        'await this.deps.store.write(cp);',
        "await new FileCheckpointStore(dir, {}).write({ id, phase: 'x', state: {} });",
        'const state = { [STAGE_KEY]: stage, loop };',
        'const chosen = pickRunnable(checkpoints, now).checkpoint;',
        'const id = newCheckpointId();',
        'await files.write(file, text);',
        "// store.write({ id }) in a comment; 'pickRunnable(x)' in a message",
      ].join('\n'),
    );
    expect(second.storeWrites).toEqual(['x.ts:1', 'x.ts:2', 'x.ts:3']);
    expect(second.stageKeys).toEqual(['x.ts:4']);
    expect(second.opens).toEqual(['x.ts:5: pickRunnable', 'x.ts:6: newCheckpointId']);
  });
});
