/**
 * Installing agent-loop as the README says, from a clone: `npm pack`, then `npm install -g` of the
 * tarball into a temporary prefix with no registry (--offline, an empty cache). The bundle in
 * dist/cli carries everything the CLI runs; its runtime dependencies (package.json `dependencies`:
 * @actions/exec, which runs git) also ship inside the tarball (`bundleDependencies`), so the
 * install pulls no package from a registry; the installed
 * `agent-loop` command then runs --version, --help and a run on a temporary repository.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, promises as fs, readFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type CliResult,
  type Sandbox,
  DONE_REPORT,
  createSandbox,
  explain,
  lastResult,
  readIssues,
  runArgs,
  writeAgent,
} from './helpers.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
  dependencies: Record<string, string>;
};
/** The runtime dependencies and theirs, as the tarball ships them (node_modules/<name>/…). */
const SHIPPED = ['@actions/exec', '@actions/io'];

let tmp: string;
let prefix: string;
/** What `npm pack --json` reports of the tarball. */
let packed: { filename: string; files: { path: string }[] };
let installOutput: string;

/** npm with a private cache and user config, offline: nothing may come from a registry. */
function npm(args: string[], cwd: string): string {
  return execFileSync('npm', [...args, '--offline', '--no-audit', '--no-fund', '--cache', path.join(tmp, 'cache')], {
    cwd,
    env: { ...process.env, HOME: tmp, npm_config_userconfig: path.join(tmp, 'npmrc') },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** The installed command, run as a user runs it: the file npm linked into <prefix>/bin. */
function agentLoop(args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(path.join(prefix, 'bin', 'agent-loop'), args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', reject);
    child.on('close', (code, signal) =>
      resolve({ code, signal, stdout: Buffer.concat(out).toString(), stderr: Buffer.concat(err).toString() }),
    );
  });
}

beforeAll(async () => {
  tmp = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'agent-loop-install-')));
  prefix = path.join(tmp, 'prefix');
  await fs.writeFile(path.join(tmp, 'npmrc'), '');
  [packed] = JSON.parse(npm(['pack', '--json', '--pack-destination', tmp], ROOT));
  installOutput = npm(['install', '-g', '--prefix', prefix, path.join(tmp, packed.filename)], tmp);
}, 120_000);

afterAll(async () => {
  await fs.rm(tmp, { recursive: true, force: true });
});

describe('installing the package (README: Installing)', () => {
  it('packs the CLI bundle, its runtime dependencies and the docs, not the sources or the action', () => {
    const files = packed.files.map((f) => f.path).sort();
    const own = files.filter((f) => !f.startsWith('node_modules/'));
    expect(own).toEqual(['LICENSE', 'README.md', 'dist/cli/index.js', 'dist/cli/package.json', 'package.json']);
    const shipped = new Set(
      files.filter((f) => f.startsWith('node_modules/')).map((f) => f.split('/').slice(1, 3).join('/')),
    );
    expect([...shipped].sort()).toEqual(SHIPPED);
    expect(Object.keys(pkg.dependencies)).toEqual(['@actions/exec']);
  });

  it('installs from the tarball with no registry: its dependencies come from the tarball', async () => {
    const installed = path.join(prefix, 'lib', 'node_modules', pkg.name);
    expect(existsSync(path.join(installed, 'dist', 'cli', 'index.js'))).toBe(true);
    for (const dep of SHIPPED) expect(existsSync(path.join(installed, 'node_modules', dep, 'package.json'))).toBe(true);
    expect(await fs.readdir(path.join(prefix, 'lib', 'node_modules'))).toEqual([pkg.name]);
    expect(installOutput).toMatch(/added \d+ packages?\b/);
  });

  it('puts an agent-loop command on the prefix that prints its version and help', async () => {
    const env = { PATH: process.env.PATH, HOME: tmp };
    const version = await agentLoop(['--version'], tmp, env);
    expect(version.code).toBe(0);
    expect(version.stdout.trim()).toBe(pkg.version);
    const help = await agentLoop(['--help'], tmp, env);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: agent-loop <command> [options]');
    for (const command of ['run', 'plan', 'status', 'cleanup'])
      expect(help.stdout).toMatch(new RegExp(`^  ${command} `, 'm'));
  });

  it('runs the loop on a repository: the issue closed and the tests passing', async () => {
    const sb: Sandbox = await createSandbox();
    try {
      const agent = await writeAgent(sb, 'fixer', `echo good > value.txt\n${DONE_REPORT}`);
      const r = await agentLoop(runArgs(agent), sb.repo, sb.env);
      if (r.code !== 0) throw new Error(`expected exit code 0, got ${explain(r)}`);
      const result = lastResult(r.stdout);
      expect(result.status).toBe('complete');
      expect(result.testsPassed).toBe(true);
      expect(result.issuesClosed).toEqual(['bd-1']);
      expect(readIssues(sb)[0]?.status).toBe('closed');
    } finally {
      await sb.cleanup();
    }
  });
});

describe('the bundles (dist/cli, dist/main, dist/post)', () => {
  /** Every module a bundle loads from outside itself: ncc's `import … from "x"`, `require("x")` and createRequire calls. */
  const externals = (file: string): string[] => {
    const code = readFileSync(path.join(ROOT, 'dist', file, 'index.js'), 'utf8');
    const found = new Set<string>();
    for (const m of code.matchAll(/^import\s[^;]*?\bfrom\s*"([^"]+)"/gm)) found.add(m[1] as string);
    for (const m of code.matchAll(/^import\s*"([^"]+)"/gm)) found.add(m[1] as string);
    for (const m of code.matchAll(/(?:\brequire|createRequire\(import\.meta\.url\))\(\s*"([^"]+)"\s*\)/g))
      found.add(m[1] as string);
    for (const m of code.matchAll(/\bimport\(\s*"([^"]+)"\s*\)/g)) found.add(m[1] as string);
    return [...found].sort();
  };

  // Every bundle carries what it loads, @actions/exec included: the action has no node_modules on the
  // runner, and `node dist/cli/index.js` runs from a clone before `npm ci`.
  it.each(['cli', 'main', 'post'])('dist/%s loads nothing but Node built-in modules', (name) => {
    const loaded = externals(name);
    expect(loaded.length).toBeGreaterThan(0);
    expect(loaded.filter((m) => !isBuiltin(m))).toEqual([]);
  });
});
