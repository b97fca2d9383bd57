/**
 * Issue 43, "every committed blob is scanned as bytes", on the built CLI: an agent fixes the issue and
 * commits, itself, a declared secret in a file git shows as "Binary files differ" (NUL bytes,
 * `.gitattributes` `*.bin binary`, UTF-16 with a BOM, gzip). The landing is refused
 * `secret_in_change` and nothing reaches main; the same fix without the file lands.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import {
  type Sandbox,
  DONE_REPORT,
  commit,
  createSandbox,
  expectExit,
  git,
  lastResult,
  runArgs,
  runCli,
  writeAgent,
} from './helpers.js';

const sandboxes: Sandbox[] = [];
afterEach(async () => {
  await Promise.all(sandboxes.splice(0).map((s) => s.cleanup()));
});

// A variable named like a secret is declared (src/config/secrets.ts); no token shape: only the declared value is found.
const PASSWORD = ['blob', 'scan', 'horse', 'battery', 'staple'].join('-');

/** Node code (in the agent's shell) writing the form's file, the secret read from the agent's $SECRET_VALUE. */
const FORMS: Array<[string, string, string]> = [
  [
    'a file with NUL bytes',
    'data.dat',
    'Buffer.concat([Buffer.from([0, 1, 0]), Buffer.from("pw=" + s), Buffer.from([0])])',
  ],
  ['a text file behind .gitattributes *.bin binary', 'config.bin', 'Buffer.from("password = " + s + "\\n")'],
  [
    'UTF-16 with a BOM',
    'settings.ini',
    'Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("password=" + s + "\\r\\n", "utf16le")])',
  ],
  ['gzip', 'env.gz', 'require("zlib").gzipSync(Buffer.from("DB_PASSWORD=" + s + "\\n"))'],
];

async function sandboxWithAttributes(): Promise<Sandbox> {
  const sb = await createSandbox();
  sandboxes.push(sb);
  await fs.writeFile(path.join(sb.repo, '.gitattributes'), '*.bin binary\n');
  git(sb, 'add', '.gitattributes');
  commit(sb, 'attributes: *.bin is binary');
  return sb;
}

/** The agent's script: the fix, and (with `file`) the secret written in its form and committed by the agent. */
function agentScript(file?: string, code?: string): string {
  const leak =
    file !== undefined
      ? `SECRET_VALUE='${PASSWORD}' node -e 'const s = process.env.SECRET_VALUE; require("fs").writeFileSync(${JSON.stringify(file)}, ${code})'
git add -A && git -c user.name=agent -c user.email=agent@example.invalid commit -q -m 'the fix, with settings'
`
      : '';
  return `echo good > value.txt\n${leak}${DONE_REPORT}`;
}

describe('a secret in a file git calls binary is never merged (issue 43)', () => {
  it.each(FORMS)('%s committed by the agent: secret_in_change, main unchanged', async (_name, file, code) => {
    const sb = await sandboxWithAttributes();
    const main = git(sb, 'rev-parse', 'main');
    const agent = await writeAgent(sb, 'leaker', agentScript(file, code));
    const r = await runCli(sb, runArgs(agent, '--max-iterations', '2'), { env: { DB_PASSWORD: PASSWORD } });
    const result = lastResult(r.stdout);
    expect([r.code, result.status, result.haltReason]).toEqual([1, 'halted', 'secret_in_change']);
    expect(result.diagnostic).toContain(file);
    expect(r.stdout + r.stderr).not.toContain(PASSWORD);
    expect(git(sb, 'rev-parse', 'main')).toBe(main);
    expect(git(sb, 'ls-tree', '-r', '--name-only', 'main')).not.toContain(file);
  });

  it('the same fix without the file lands', async () => {
    const sb = await sandboxWithAttributes();
    const agent = await writeAgent(sb, 'honest', agentScript());
    const r = await runCli(sb, runArgs(agent, '--max-iterations', '2'), { env: { DB_PASSWORD: PASSWORD } });
    expectExit(r, 0);
    expect(lastResult(r.stdout)).toMatchObject({ status: 'complete', issuesClosed: ['bd-1'] });
    expect(git(sb, 'show', 'main:value.txt')).toBe('good');
  });
});
