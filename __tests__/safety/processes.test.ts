/**
 * The records of the process groups a run starts, and how the next run ends what a killed run left
 * behind: against a /proc made of files, so that which process is signalled can be checked.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ProcessRegistry, earliestStart, endLeftovers } from '../../src/safety/processes.js';

const BOOT = 1_700_000_000; // /proc/stat's btime, in seconds
const at = (secondsAfterBoot: number) => new Date((BOOT + secondsAfterBoot) * 1000);

let root: string;
let proc: string;
let stateDir: string;
beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'processes-'));
  proc = path.join(root, 'proc');
  stateDir = path.join(root, 'state');
  mkdirSync(proc);
  writeFileSync(path.join(proc, 'stat'), `cpu  1 2 3 4\nbtime ${BOOT}\nprocesses 42\n`);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** A process in the fake /proc: its group and its start (clock ticks since boot). */
function processIn(pid: number, pgrp: number, startTicks: number, state = 'S'): void {
  mkdirSync(path.join(proc, String(pid)), { recursive: true });
  const fields = [state, '1', String(pgrp), ...Array.from({ length: 16 }, () => '0'), String(startTicks), '0'];
  writeFileSync(path.join(proc, String(pid), 'stat'), `${pid} (an agent) ${fields.join(' ')}\n`);
}

describe('earliestStart', () => {
  it("turns the spawn's wall clock into /proc clock ticks since boot, a second and a half early", () => {
    expect(earliestStart(at(60).toISOString(), proc)).toBe(String((60 - 1.5) * 100));
  });

  it('is undefined for a record written before the system booted: nothing it names can run', () => {
    expect(earliestStart(at(-3600).toISOString(), proc)).toBeUndefined();
  });

  it('filters nothing where the boot time cannot be read', () => {
    rmSync(path.join(proc, 'stat'));
    expect(earliestStart(at(60).toISOString(), proc)).toBe('');
  });
});

describe('the records and endLeftovers', () => {
  it('records a spawned group without reading /proc, and removes the record when it exits', () => {
    const registry = new ProcessRegistry(stateDir, () => at(60));
    registry.spawned(4242, 'agent');
    const dir = path.join(stateDir, 'run', 'processes');
    expect(JSON.parse(readFileSync(path.join(dir, '4242.json'), 'utf8'))).toEqual({
      pid: 4242,
      role: 'agent',
      startedAt: at(60).toISOString(),
    });
    registry.exited(4242);
    expect(readdirSync(dir)).toEqual([]);
  });

  it("signals the recorded group's members started since the spawn, never an older process of that group", async () => {
    new ProcessRegistry(stateDir, () => at(60)).spawned(4242, 'agent');
    processIn(4242, 4242, 6000); // the agent, started at the spawn
    processIn(4243, 4242, 6100); // its child
    processIn(4300, 4242, 100); // in a group of that number long before: not ours
    processIn(4301, 4242, 6200, 'Z'); // a zombie: nothing to end
    const signalled: Array<[number, string]> = [];
    const ended = await endLeftovers(new ProcessRegistry(stateDir), {
      sleep: async () => {},
      graceMs: 0,
      procRoot: proc,
      kill: (pid, sig) => {
        signalled.push([pid, sig]);
      },
    });
    expect(ended).toHaveLength(1);
    expect([...(ended[0]?.members ?? [])].sort()).toEqual([4242, 4243]);
    expect(signalled).toEqual([
      [-4242, 'SIGTERM'],
      [-4242, 'SIGKILL'],
    ]);
  });

  it('drops a record written before the boot without signalling anything', async () => {
    new ProcessRegistry(stateDir, () => at(-60)).spawned(4242, 'agent');
    processIn(4242, 4242, 6000); // the pid is another group leader's now
    const signalled: number[] = [];
    const ended = await endLeftovers(new ProcessRegistry(stateDir), {
      sleep: async () => {},
      graceMs: 0,
      procRoot: proc,
      kill: (pid) => {
        signalled.push(pid);
      },
    });
    expect(ended).toEqual([]);
    expect(signalled).toEqual([]);
  });

  it("still reads an earlier version's record by its /proc start time", async () => {
    const dir = path.join(stateDir, 'run', 'processes');
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      path.join(dir, '4242.json'),
      JSON.stringify({ pid: 4242, startTime: '7000', role: 'tests', startedAt: at(60).toISOString() }),
    );
    processIn(4242, 4242, 7000);
    processIn(4243, 4242, 6500); // older than the recorded leader
    const ended = await endLeftovers(new ProcessRegistry(stateDir), {
      sleep: async () => {},
      graceMs: 0,
      procRoot: proc,
      kill: () => {},
    });
    expect(ended[0]?.members).toEqual([4242]);
  });
});
