// Bundles each entrypoint with ncc into dist/<name>/index.js (one bundle per entrypoint).
import { spawnSync } from 'node:child_process';
import { chmodSync, rmSync } from 'node:fs';

const entrypoints = { cli: 'src/cli.ts' };

for (const [name, entry] of Object.entries(entrypoints)) {
  const out = `dist/${name}`;
  rmSync(out, { recursive: true, force: true });
  const r = spawnSync(process.execPath, ['node_modules/@vercel/ncc/dist/ncc/cli.js', 'build', entry, '-o', out, '--target', 'es2022', '-q'], { stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
  chmodSync(`${out}/index.js`, 0o755);
}
