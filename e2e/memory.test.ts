/**
 * The built CLI holds V8's young generation at its first size (src/util/v8Flags.ts) while an
 * agent prints a long stream: the new space at exit, read inside the CLI's own process by a module
 * preloaded with --import, is the 2 MiB it starts with, where it grew to 16 MiB before (and to 4 or 8
 * MiB when the flag was set after the bundle's modules had loaded).
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { promises as fs, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { type Sandbox, createSandbox, expectExit, lastResult, runArgs, runCli } from './helpers.js';

const sandboxes: Sandbox[] = [];
afterEach(async () => {
  await Promise.all(sandboxes.splice(0).map((s) => s.cleanup()));
});

describe('memory of the CLI process', () => {
  it('an agent printing 256 MiB without a newline: the young generation stays at its first size (2 MiB; 16 before), the output is still logged and the run goes on', async () => {
    const sb = await createSandbox();
    sandboxes.push(sb);
    const report = path.join(sb.root, 'new-space.json');
    const probe = path.join(sb.root, 'probe.mjs');
    await fs.writeFile(
      probe,
      `import v8 from 'node:v8';
import { writeFileSync } from 'node:fs';
process.on('exit', () => {
  const space = v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
  writeFileSync(${JSON.stringify(report)}, JSON.stringify({ newSpaceBytes: space.space_size }));
});
`,
    );
    const r = await runCli(
      sb,
      runArgs("head -c 268435456 /dev/zero | tr '\\0' a", '--max-iterations', '1', '--test-command', 'true'),
      { env: { NODE_OPTIONS: `--import ${pathToFileURL(probe).href}` } },
    );
    expectExit(r, 1); // the issue never closes: halted at max_iterations
    const res = lastResult(r.stdout);
    expect(res).toMatchObject({ haltReason: 'max_iterations', iterations: 1 });
    expect(res.history[0]?.agent).toMatchObject({ ok: true, exitCode: 0 });
    const { newSpaceBytes } = JSON.parse(readFileSync(report, 'utf8')) as { newSpaceBytes: number };
    expect(newSpaceBytes).toBeLessThanOrEqual(2 * 1024 * 1024);
  });
});
