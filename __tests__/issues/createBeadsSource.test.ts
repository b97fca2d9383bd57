import { describe, it, expect, beforeEach, afterEach } from '@jest/globals';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BdCliSource, BeadsFileSource, createBeadsSource, type ExecFn } from '../../src/issues/index.js';

let dir: string;
let binWithBd: string;
let binWithoutBd: string;

beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'create-source-'));
  binWithBd = path.join(dir, 'bin');
  binWithoutBd = path.join(dir, 'empty-bin');
  await fs.mkdir(binWithBd);
  await fs.mkdir(binWithoutBd);
  await fs.writeFile(path.join(binWithBd, 'bd'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
  await fs.mkdir(path.join(dir, '.beads'));
  await fs.writeFile(path.join(dir, '.beads', 'issues.jsonl'), '{"id":"f-1","status":"open"}\n');
});

afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

const base = () => ({ issuesFile: '.beads/issues.jsonl', cwd: dir, onWarning: () => {} });

describe('createBeadsSource', () => {
  it('uses the bd CLI when bd is on PATH, running it in cwd', async () => {
    const calls: string[] = [];
    const exec: ExecFn = async (file, args, opts) => {
      calls.push(`${opts.cwd}: ${file} ${args.join(' ')}`);
      return { code: 0, stdout: '[{"id":"cli-1","status":"open"}]', stderr: '' };
    };
    const source = await createBeadsSource({ ...base(), envPath: binWithBd, exec });
    expect(source).toBeInstanceOf(BdCliSource);
    expect(source.description).toBe('bd');
    expect((await source.ready()).map((i) => i.id)).toEqual(['cli-1']);
    expect(calls).toEqual([`${dir}: bd ready --json --limit 0`]);
  });

  it('uses the JSONL file when bd is not on PATH, resolving it against cwd', async () => {
    const source = await createBeadsSource({ ...base(), envPath: binWithoutBd });
    expect(source).toBeInstanceOf(BeadsFileSource);
    expect(source.description).toBe('beads file .beads/issues.jsonl');
    expect((await source.ready()).map((i) => i.id)).toEqual(['f-1']);
  });

  it('uses the JSONL file when preferCli is false, even with bd on PATH', async () => {
    const source = await createBeadsSource({ ...base(), envPath: binWithBd, preferCli: false });
    expect(source).toBeInstanceOf(BeadsFileSource);
  });

  it('passes warnings of the file source to onWarning', async () => {
    await fs.writeFile(path.join(dir, '.beads', 'issues.jsonl'), 'oops\n{"id":"f-1","status":"open"}\n');
    const warnings: string[] = [];
    const source = await createBeadsSource({ ...base(), onWarning: (m) => warnings.push(m), envPath: binWithoutBd });
    await source.ready();
    expect(warnings).toEqual([expect.stringMatching(/^\.beads\/issues\.jsonl:1: malformed line skipped \(/)]);
  });
});
