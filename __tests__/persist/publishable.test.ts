/**
 * Published means scanned (issue 43): only agent-loop's own files of the state directory are
 * published, each through the secret scan; what the agent plants there is left out, a secret
 * masked where it can be, else the file left out. The real clients against the emulated services
 * are in e2e/persist.test.ts.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { type PublishScan, isOurs, publishedForm } from '../../src/persist/publishable.js';
import type { ArtifactBackend, CacheBackend } from '../../src/persist/stateBackends.js';
import { filesUnder } from '../../src/persist/stateDirectory.js';
import { saveState } from '../../src/persist/stateStore.js';
import { secretDetector } from '../../src/safety/secretScan.js';
import { createRedactor } from '../../src/secrets/redact.js';

const TOKEN = 'ghs_16C7e42F292c6912E7710c838347Ae178B4a';
const WEBHOOK = 'https://discord.com/api/webhooks/123456789012345678/abcdefghijklmnopqrstuvwxyzABCDEF0123456789';
const scan: PublishScan = { mask: createRedactor([TOKEN, WEBHOOK]), holdsSecret: secretDetector([TOKEN, WEBHOOK]) };

describe('isOurs: the files of agent-loop layout', () => {
  it.each([
    'generation.json',
    'halt.md',
    'errors.jsonl',
    'prompt.md',
    'checkpoints/0b7d3d6e-3f1a-4c55-9d2e-1a2b3c4d5e6f.json',
    'quarantine/x.json',
    'logs/iteration-3.ndjson',
    'logs/run.log',
    'baselines/abc.json',
    'outbox/actions.json',
    'parallel/halts/w1-7.md',
    'parallel/w1/7/state/checkpoints/a.json',
    'repository.json',
    'pipeline/plan.md',
  ])('%s is published', (rel) => expect(isOurs(rel)).toBe(true));

  it.each([
    'stolen.txt',
    '.env',
    'secrets/key',
    'run-notes.md',
    'parallel/w1/7/tree-7/src/calc.py',
    'tmp/x',
    'run/lock.json',
  ])('%s is not', (rel) => expect(isOurs(rel)).toBe(false));
});

describe('publishedForm', () => {
  it('masks a known secret in a text file', () => {
    const form = publishedForm(Buffer.from(`pushed with ${TOKEN}\n`), scan);
    expect('bytes' in form && form.masked).toBe(true);
    expect('bytes' in form && form.bytes.toString()).not.toContain(TOKEN);
  });

  it('keeps a clean file as it is', () => {
    const bytes = Buffer.from('{"iteration":3}\n');
    expect(publishedForm(bytes, scan)).toEqual({ bytes, masked: false });
  });

  it('leaves out a gzipped, a UTF-16 and a NUL-containing file holding a secret', () => {
    for (const bytes of [
      gzipSync(Buffer.from(`token=${TOKEN}`)),
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(`token=${TOKEN}`, 'utf16le')]),
      Buffer.concat([Buffer.from([0, 1, 2]), Buffer.from(TOKEN)]),
    ])
      expect(publishedForm(bytes, scan)).toEqual({ why: expect.stringContaining('not text') });
  });

  it('masks a secret base64-encoded within a longer text', () => {
    const hidden = Buffer.from(`the token is ${WEBHOOK} !`).toString('base64');
    const form = publishedForm(Buffer.from(`note: ${hidden}\n`), scan);
    expect('bytes' in form && form.masked).toBe(true);
  });

  it('leaves out a text file still holding a secret once masked', () => {
    const blind: PublishScan = { mask: (text) => text, holdsSecret: scan.holdsSecret };
    const hidden = Buffer.from(`the token is ${TOKEN} !`).toString('base64');
    expect(publishedForm(Buffer.from(`note: ${hidden}\n`), blind)).toEqual({ why: expect.stringContaining('form') });
  });
});

describe('saveState publishes the scanned copy', () => {
  let root: string;
  let stateDir: string;
  const published: Record<string, Map<string, Buffer>> = {};
  const warnings: string[] = [];

  const copyOf = async (dir: string) =>
    new Map(
      await Promise.all(
        (await filesUnder(dir)).map(async (f): Promise<[string, Buffer]> => [
          path.relative(dir, f),
          await fs.readFile(f),
        ]),
      ),
    );
  const cache: CacheBackend = {
    lookup: async () => undefined,
    restore: async () => undefined,
    save: async (dir) => ((published.cache = await copyOf(dir)), 1),
  };
  const artifacts: ArtifactBackend = {
    upload: async (_name, files, rootDir) => {
      expect(files.every((f) => f.startsWith(rootDir))).toBe(true);
      published.artifact = await copyOf(rootDir);
      return { id: 9 };
    },
    list: async () => [],
    download: async () => undefined,
  };

  beforeEach(async () => {
    root = await fs.mkdtemp(path.join(os.tmpdir(), 'publishable-'));
    stateDir = path.join(root, 'agent-loop');
    warnings.length = 0;
  });
  afterEach(() => fs.rm(root, { recursive: true, force: true }));

  it('leaves out what the agent planted, masks a secret in a log, and changes nothing in the state directory', async () => {
    const planted: Record<string, Buffer | string> = {
      'checkpoints/0b7d3d6e-3f1a-4c55-9d2e-1a2b3c4d5e6f.json': '{"iteration":1}',
      'logs/iteration-1.log': `the agent printed ${TOKEN}\n`,
      'stolen.txt': `GITHUB_TOKEN=${TOKEN}\nWEBHOOK=${WEBHOOK}\n`,
      'logs/env.gz': gzipSync(Buffer.from(`ACTIONS_RUNTIME_TOKEN=${TOKEN}`)),
      'parallel/w1/7/tree-7/notes.txt': WEBHOOK,
    };
    for (const [rel, content] of Object.entries(planted)) {
      await fs.mkdir(path.dirname(path.join(stateDir, rel)), { recursive: true });
      await fs.writeFile(path.join(stateDir, rel), content);
    }
    const before = await copyOf(stateDir);
    const saved = await saveState({
      stateDir,
      scope: 's',
      runId: 2,
      attempt: 1,
      cache,
      artifacts,
      scan,
      log: { info: () => undefined, notice: () => undefined, warning: (m) => warnings.push(m) },
    });

    expect(saved).toMatchObject({ generation: 1, artifactId: 9, masked: ['logs/iteration-1.log'] });
    expect(saved.leftOut?.map((l) => l.file).sort()).toEqual([
      'logs/env.gz',
      'parallel/w1/7/tree-7/notes.txt',
      'stolen.txt',
    ]);
    for (const where of ['cache', 'artifact']) {
      const files = published[where] as Map<string, Buffer>;
      expect([...files.keys()].sort()).toEqual([
        path.join('checkpoints', '0b7d3d6e-3f1a-4c55-9d2e-1a2b3c4d5e6f.json'),
        'generation.json',
        path.join('logs', 'iteration-1.log'),
      ]);
      for (const bytes of files.values()) expect(scan.holdsSecret(bytes.toString('latin1'))).toEqual([]);
    }
    // The state directory as it was (but the generation record publishing writes), no scratch left beside it.
    const after = await copyOf(stateDir);
    after.delete('generation.json');
    expect(after).toEqual(before);
    expect(await fs.readdir(root)).toEqual(['agent-loop']);
    expect(warnings.join('\n')).toMatch(/masked in what is published: logs\/iteration-1\.log/);
    expect(warnings.join('\n')).toMatch(
      /Left out of what is published, 3 file\(s\).*stolen\.txt \(agent-loop did not write it\)/,
    );
    expect(warnings.join('\n')).not.toContain(TOKEN);
  });
});
