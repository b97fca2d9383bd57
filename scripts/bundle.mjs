// Bundles each entrypoint with ncc into dist/<name>/index.js (one bundle per entrypoint).
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';

const entrypoints = { cli: 'src/cli.ts', main: 'src/main.ts', post: 'src/post.ts' };

for (const [name, entry] of Object.entries(entrypoints)) {
  // Build beside the target and swap it in, so a test running meanwhile never finds dist/<name> missing.
  const out = `dist/${name}`;
  const tmp = `dist/.${name}.${process.pid}.tmp`;
  rmSync(tmp, { recursive: true, force: true });
  const r = spawnSync(
    process.execPath,
    ['node_modules/@vercel/ncc/dist/ncc/cli.js', 'build', entry, '-o', tmp, '--target', 'es2022', '-q'],
    { stdio: 'inherit' },
  );
  if (r.status !== 0) {
    rmSync(tmp, { recursive: true, force: true });
    process.exit(r.status ?? 1);
  }
  chmodSync(`${tmp}/index.js`, 0o755);
  mkdirSync(out, { recursive: true });
  const fresh = readdirSync(tmp);
  for (const file of fresh) renameSync(`${tmp}/${file}`, `${out}/${file}`); // each file replaced atomically
  for (const file of readdirSync(out))
    if (!fresh.includes(file)) rmSync(`${out}/${file}`, { recursive: true, force: true });
  rmSync(tmp, { recursive: true, force: true });
}
