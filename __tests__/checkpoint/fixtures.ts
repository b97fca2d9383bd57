import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Checkpoint } from '../../src/checkpoint/types.js';
import type { Clock } from '../../src/util/clock.js';

/** A clock that stands still until told to move. */
export class FakeClock implements Clock {
  constructor(private current: Date) {}
  now(): Date {
    return new Date(this.current);
  }
  async sleep(): Promise<void> {}
  set(iso: string): void {
    this.current = new Date(iso);
  }
  advance(ms: number): void {
    this.current = new Date(this.current.getTime() + ms);
  }
}

export async function tempStateDir(): Promise<string> {
  return fs.mkdtemp(path.join(os.tmpdir(), 'agent-loop-checkpoint-'));
}

export async function removeDir(dir: string): Promise<void> {
  await fs.rm(dir, { recursive: true, force: true });
}

export const ID_A = '3b241101-e2bb-4255-8caf-4136c566a962';
export const ID_B = '9f1c2d3e-4b5a-4c6d-9e8f-0a1b2c3d4e5f';
export const ID_C = 'c0ffee00-1234-4abc-bdef-0123456789ab';

/** A checkpoint value for the pure functions. */
export function checkpoint(overrides: Partial<Checkpoint> & Pick<Checkpoint, 'id'>): Checkpoint {
  return {
    phase: 'implementation-failed',
    timestamp: '2026-11-21T10:30:00Z',
    sequence: 1,
    state: { loop: { iteration: 1 } },
    ...overrides,
  };
}

/** Writes a checkpoint file by hand, as another version of the tool (or a person) might have. */
export async function writeRaw(stateDir: string, name: string, content: string | object): Promise<string> {
  const dir = path.join(stateDir, 'checkpoints');
  await fs.mkdir(dir, { recursive: true });
  const file = path.join(dir, name);
  await fs.writeFile(file, typeof content === 'string' ? content : `${JSON.stringify(content, null, 2)}\n`);
  return file;
}

/** Collects what a command prints. */
export function capture(): { out: (line: string) => void; lines: string[]; text: () => string } {
  const lines: string[] = [];
  return { out: (line) => lines.push(line), lines, text: () => lines.join('\n') };
}
