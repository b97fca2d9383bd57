/** The test gate: which command proves the work is done, and running it. */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** The test command given, or detected from the repository; undefined when there is none. Pure apart from reading files. */
export function detectTestCommand(cwd: string): string | undefined {
  const pkg = path.join(cwd, 'package.json');
  if (existsSync(pkg)) {
    try {
      const scripts = (JSON.parse(readFileSync(pkg, 'utf8')) as { scripts?: Record<string, string> }).scripts;
      if (scripts?.test && !/no test specified/.test(scripts.test)) return 'npm test';
    } catch {
      // An unreadable package.json is not a test configuration.
    }
  }
  const pytestMarkers = ['pytest.ini', 'conftest.py', 'tox.ini'];
  if (pytestMarkers.some((f) => existsSync(path.join(cwd, f))) || existsSync(path.join(cwd, 'tests'))) return 'pytest';
  for (const f of ['pyproject.toml', 'setup.cfg']) {
    const file = path.join(cwd, f);
    if (existsSync(file) && /\[(tool\.pytest|tool:pytest)/.test(readFileSync(file, 'utf8'))) return 'pytest';
  }
  for (const f of ['Makefile', 'makefile', 'GNUmakefile']) {
    const file = path.join(cwd, f);
    if (existsSync(file) && /^test\s*:/m.test(readFileSync(file, 'utf8'))) return 'make test';
  }
  return undefined;
}

import { runProcess } from '../agents/process.js';
import type { TestOutcome } from './slice.js';
import type { SecretRedactor } from '../report/redact.js';

/** Runs the test command through the shell; exit code 0 is a pass. Output streams to `onLine`, a bounded tail is kept. */
export async function runTestCommand(
  command: string,
  opts: {
    cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number; signal?: AbortSignal;
    onLine: (line: string, stream: 'stdout' | 'stderr', cut?: { before: boolean; after: boolean }) => void;
    /** Told the test command's process group (the run records it while it runs). */
    onSpawn?: (pid: number) => void;
    /** Masks the output where it enters the engine. */
    mask?: SecretRedactor;
  },
): Promise<TestOutcome> {
  const r = await runProcess({ command, shell: true, cwd: opts.cwd, env: opts.env, timeoutMs: opts.timeoutMs, onLine: opts.onLine, signal: opts.signal, tailBytes: 16 * 1024, onSpawn: opts.onSpawn, mask: opts.mask });
  const note = r.timedOut ? `\n(test command timed out after ${opts.timeoutMs / 60000} min)` : r.spawnError ? `\n(${r.spawnError})` : '';
  return { passed: r.exitCode === 0 && !r.timedOut, exitCode: r.exitCode, durationMs: r.durationMs, tail: r.tail + note };
}
