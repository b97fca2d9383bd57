// Rewrites action.yml's inputs and outputs and the README's table of them (between the
// action-inputs markers) from src/action/manifest.ts, which generates them from the schema
// (src/config/options.ts), and the README's table of halt reasons (between the halt-reasons
// markers) from src/cli/help.ts:
//   npm run docs            write them
//   npm run docs -- --check exit 1 when either differs (__tests__/action/manifest.test.ts checks it too)
// The TypeScript is transpiled on the fly (typescript's transpileModule, the import closure of
// manifest.ts) into build/action-docs/, since Node 20 runs no TypeScript.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT = path.join(ROOT, 'build', 'action-docs');

/** Transpiles `entry` and the relative imports it reaches; returns the emitted entry's path. */
function transpile(entry, fresh = true) {
  const seen = new Set();
  const visit = (file) => {
    if (seen.has(file)) return;
    seen.add(file);
    const source = readFileSync(file, 'utf8');
    const { outputText } = ts.transpileModule(source, {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
      fileName: file,
    });
    const out = path.join(OUT, path.relative(path.join(ROOT, 'src'), file)).replace(/\.ts$/, '.js');
    mkdirSync(path.dirname(out), { recursive: true });
    writeFileSync(out, outputText);
    for (const m of source.matchAll(/from '(\.{1,2}\/[^']+)\.js'/g))
      visit(path.resolve(path.dirname(file), `${m[1]}.ts`));
  };
  if (fresh) rmSync(OUT, { recursive: true, force: true });
  visit(entry);
  return path.join(OUT, path.relative(path.join(ROOT, 'src'), entry)).replace(/\.ts$/, '.js');
}

const manifest = await import(pathToFileURL(transpile(path.join(ROOT, 'src/action/manifest.ts'))).href);
const help = await import(pathToFileURL(transpile(path.join(ROOT, 'src/cli/help.ts'), false)).href);
/** The text with what lies between the two markers replaced by body; throws when they are missing. */
function withBlock(text, start, end, body, file) {
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from < 0 || to < from) throw new Error(`${file} has no ${start} … ${end} section.`);
  return `${text.slice(0, from + start.length)}\n\n${body}\n\n${text.slice(to)}`;
}
const files = [
  { file: 'action.yml', what: "action.yml's inputs and outputs", render: manifest.withActionYmlIO },
  {
    file: 'README.md',
    what: "the README's table of the action's inputs and outputs",
    render: manifest.withActionTables,
  },
  {
    file: 'README.md',
    what: "the README's table of halt reasons",
    render: (text) =>
      withBlock(text, help.HALT_TABLE_START, help.HALT_TABLE_END, help.renderHaltReasonTable(), 'README.md'),
  },
];
let stale = 0;
for (const { file, what, render } of files) {
  const text = readFileSync(path.join(ROOT, file), 'utf8');
  const next = render(text);
  if (next === text) console.log(`${file}: ${what} up to date.`);
  else if (process.argv.includes('--check')) {
    console.error(`${file}: ${what} out of date: run npm run docs.`);
    stale += 1;
  } else {
    writeFileSync(path.join(ROOT, file), next);
    console.log(`${file}: rewrote ${what}.`);
  }
}
process.exit(stale > 0 ? 1 : 0);
