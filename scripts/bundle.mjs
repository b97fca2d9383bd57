// Bundles each entrypoint with ncc into dist/<name>/index.js (one bundle per entrypoint), the three
// side by side, in ASCII (scripts/asciify.mjs), and writes dist/inputs.sha256: a hash of everything the
// bundles are built from (src/, package.json, package-lock.json, tsconfig.json, this script and asciify.mjs).
//
// `--if-stale` (what npm test and npm run test:e2e use) skips the build when dist/inputs.sha256
// matches the inputs, so a fresh clone, or CI after its dist/ check, does not bundle again: each
// ncc build type-checks the whole program and takes most of a minute. `npm run bundle` always builds.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { asciify } from './asciify.mjs';

const entrypoints = { cli: 'src/cli.ts', main: 'src/entrypoints/main.ts', post: 'src/entrypoints/post.ts' };
const STAMP = 'dist/inputs.sha256';

function files(dir) {
  return readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .flatMap((e) => (e.isDirectory() ? files(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}

function inputsHash() {
  const hash = createHash('sha256');
  for (const file of [
    ...files('src'),
    'package.json',
    'package-lock.json',
    'tsconfig.json',
    'scripts/bundle.mjs',
    'scripts/asciify.mjs',
  ]) {
    hash.update(`${file.split(path.sep).join('/')}\0`);
    hash.update(readFileSync(file));
    hash.update('\0');
  }
  return hash.digest('hex');
}

const expected = inputsHash();
const fresh = () =>
  existsSync(STAMP) &&
  readFileSync(STAMP, 'utf8').trim() === expected &&
  Object.keys(entrypoints).every((name) => existsSync(`dist/${name}/index.js`));
if (process.argv.includes('--if-stale') && fresh()) {
  console.log('dist/ is up to date with src/ (dist/inputs.sha256): not bundling again.');
  process.exit(0);
}

function build(name, entry) {
  // Build beside the target and swap it in, so a test running meanwhile never finds dist/<name> missing.
  const out = `dist/${name}`;
  const tmp = `dist/.${name}.${process.pid}.tmp`;
  rmSync(tmp, { recursive: true, force: true });
  const child = spawn(
    process.execPath,
    ['node_modules/@vercel/ncc/dist/ncc/cli.js', 'build', entry, '-o', tmp, '--target', 'es2022', '-q'],
    { stdio: 'inherit' },
  );
  return new Promise((resolve) =>
    child.on('close', (code) => {
      if (code !== 0) {
        rmSync(tmp, { recursive: true, force: true });
        resolve(code ?? 1);
        return;
      }
      try {
        writeFileSync(`${tmp}/index.js`, asciify(readFileSync(`${tmp}/index.js`, 'utf8')));
      } catch (error) {
        console.error(`${out}/index.js: ${error.message}`);
        rmSync(tmp, { recursive: true, force: true });
        resolve(1);
        return;
      }
      chmodSync(`${tmp}/index.js`, 0o755);
      mkdirSync(out, { recursive: true });
      const built = readdirSync(tmp);
      for (const file of built) renameSync(`${tmp}/${file}`, `${out}/${file}`); // each file replaced atomically
      for (const file of readdirSync(out))
        if (!built.includes(file)) rmSync(`${out}/${file}`, { recursive: true, force: true });
      rmSync(tmp, { recursive: true, force: true });
      resolve(0);
    }),
  );
}

rmSync(STAMP, { force: true });
const codes = await Promise.all(Object.entries(entrypoints).map(([name, entry]) => build(name, entry)));
const failed = codes.find((code) => code !== 0);
if (failed !== undefined) process.exit(failed);
writeFileSync(STAMP, `${expected}\n`);
