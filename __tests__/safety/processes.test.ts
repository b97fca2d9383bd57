/**
 * The records of the process groups a run starts, and how the next run ends what a killed run left
 * behind: against a /proc made of files, so that which process is signalled can be checked.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ProcessRegistry, bootTicks, endLeftovers } from '../../src/safety/processes.js';

const BOOT_ID = '6b1c2f0e-1111-4222-8333-444455556666';
/** This process's start in the fake /proc: 60 s after boot. */
const SELF_START = 6000;

let root: string;
let proc: string;
let stateDir: string;
beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'processes-'));
  proc = path.join(root, 'proc');
  stateDir = path.join(root, 'state');
  mkdirSync(path.join(proc, 'sys', 'kernel', 'random'), { recursive: true });
  writeFileSync(path.join(proc, 'sys', 'kernel', 'random', 'boot_id'), `${BOOT_ID}\n`);
  processIn(process.pid, process.pid, SELF_START);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** A process in the fake /proc: its group and its start (clock ticks since boot). */
function processIn(pid: number, pgrp: number, startTicks: number, state = 'S'): void {
  mkdirSync(path.join(proc, String(pid)), { recursive: true });
  const fields = [state, '1', String(pgrp), ...Array.from({ length: 16 }, () => '0'), String(startTicks), '0'];
  writeFileSync(path.join(proc, String(pid), 'stat'), `${pid} (an agent) ${fields.join(' ')}\n`);
}

const recordsDir = () => path.join(stateDir, 'run', 'processes');
const leftovers = async (signalled: Array<[number, string]> = []) =>
  endLeftovers(new ProcessRegistry(stateDir, undefined, proc), {
    sleep: async () => {},
    graceMs: 0,
    procRoot: proc,
    kill: (pid, sig) => {
      signalled.push([pid, sig]);
    },
  });

describe('bootTicks', () => {
  it("counts /proc clock ticks from this process's own start and the monotonic clock", () => {
    let elapsed = 2500;
    const ticks = bootTicks(proc, () => elapsed) as () => bigint;
    expect(ticks()).toBe(BigInt(SELF_START + 250));
    elapsed = 10_000;
    expect(ticks()).toBe(BigInt(SELF_START + 1000));
  });

  it('is undefined where /proc does not say when this process started', () => {
    rmSync(path.join(proc, String(process.pid)), { recursive: true });
    expect(bootTicks(proc)).toBeUndefined();
  });
});

describe('the records and endLeftovers', () => {
  it('records a spawned group with its earliest start and the boot, and no longer names it once it exits', async () => {
    const registry = new ProcessRegistry(
      stateDir,
      () => new Date('2026-11-25T10:00:00Z'),
      proc,
      () => 30_000,
    );
    registry.spawned(4242, 'agent');
    const slot = path.join(recordsDir(), `${process.pid}-0.json`);
    expect(JSON.parse(readFileSync(slot, 'utf8'))).toEqual({
      pid: 4242,
      startTime: String(SELF_START + 3000 - 100),
      bootId: BOOT_ID,
      role: 'agent',
      startedAt: '2026-11-25T10:00:00.000Z',
    });
    registry.exited(4242);
    expect(JSON.parse(readFileSync(slot, 'utf8'))).toEqual({ pid: 0 });
    expect(await registry.records()).toEqual([]);
  });

  it('rewrites one record file per group running at once, in place and always at the same length', () => {
    const registry = new ProcessRegistry(stateDir, undefined, proc, () => 30_000);
    const slot = (k: number) => path.join(recordsDir(), `${process.pid}-${k}.json`);
    registry.spawned(4242, 'agent');
    const { ino, size } = statSync(slot(0));
    registry.exited(4242);
    registry.spawned(99_999_999, 'tests'); // a longer record in the same file
    registry.exited(99_999_999);
    registry.spawned(7, 'agent'); // a shorter one: nothing of the longer one is left after it
    expect(JSON.parse(readFileSync(slot(0), 'utf8'))).toMatchObject({ pid: 7, role: 'agent' });
    expect(statSync(slot(0))).toMatchObject({ ino, size });
    registry.spawned(8, 'tests'); // while 7 runs: a second slot
    expect(JSON.parse(readFileSync(slot(1), 'utf8'))).toMatchObject({ pid: 8, role: 'tests' });
    registry.exited(7);
    registry.exited(8);
    expect(readdirSync(recordsDir()).sort()).toEqual([`${process.pid}-0.json`, `${process.pid}-1.json`]);
  });

  it("signals the recorded group's members started since the spawn, never an older process of that group", async () => {
    new ProcessRegistry(stateDir, undefined, proc, () => 30_000).spawned(4242, 'agent');
    processIn(4242, 4242, SELF_START + 3000); // the agent, started at the spawn
    processIn(4243, 4242, SELF_START + 3100); // its child
    processIn(4300, 4242, 100); // in a group of that number long before: not ours
    processIn(4301, 4242, SELF_START + 3200, 'Z'); // a zombie: nothing to end
    const signalled: Array<[number, string]> = [];
    const ended = await leftovers(signalled);
    expect(ended).toHaveLength(1);
    expect([...(ended[0]?.members ?? [])].sort()).toEqual([4242, 4243]);
    expect(signalled).toEqual([
      [-4242, 'SIGTERM'],
      [-4242, 'SIGKILL'],
    ]);
  });

  it('leaves alone a group that got the recorded number after the recorded group ended (its leader started later)', async () => {
    new ProcessRegistry(stateDir, undefined, proc, () => 30_000).spawned(4242, 'agent');
    // The record says no earlier than SELF_START + 3000 - 100; the agent started at about SELF_START + 3000.
    processIn(4242, 4242, SELF_START + 3000 + 500); // a leader started 5 s after the spawn: another group
    processIn(4243, 4242, SELF_START + 3000 + 600); // and its child
    const signalled: Array<[number, string]> = [];
    expect(await leftovers(signalled)).toEqual([]);
    expect(signalled).toEqual([]);
  });

  it('still ends the recorded group when its leader started within the slack of the record', async () => {
    new ProcessRegistry(stateDir, undefined, proc, () => 30_000).spawned(4242, 'agent');
    processIn(4242, 4242, SELF_START + 3000 + 100); // 1 s after the recorded spawn: clock skew, still the agent
    const signalled: Array<[number, string]> = [];
    expect((await leftovers(signalled))[0]?.members).toEqual([4242]);
    expect(signalled[0]).toEqual([-4242, 'SIGTERM']);
  });

  it('whatever the wall clock says: the record is dated by the kernel, not by the injected or stepped clock', async () => {
    // A run with a clock years off (a test's manual clock, a clock stepped back) still ends its leftover.
    new ProcessRegistry(
      stateDir,
      () => new Date('2001-01-01T00:00:00Z'),
      proc,
      () => 30_000,
    ).spawned(4242, 'agent');
    processIn(4242, 4242, SELF_START + 3000);
    expect((await leftovers())[0]?.members).toEqual([4242]);
  });

  it('drops a record of another boot without signalling anything', async () => {
    new ProcessRegistry(stateDir, undefined, proc, () => 30_000).spawned(4242, 'agent');
    writeFileSync(path.join(proc, 'sys', 'kernel', 'random', 'boot_id'), 'another-boot\n');
    processIn(4242, 4242, SELF_START + 3000); // the pid is another group leader's now
    const signalled: Array<[number, string]> = [];
    expect(await leftovers(signalled)).toEqual([]);
    expect(signalled).toEqual([]);
  });

  it("still reads an earlier version's record (the leader's own start, no boot id)", async () => {
    mkdirSync(recordsDir(), { recursive: true });
    writeFileSync(
      path.join(recordsDir(), '4242.json'),
      JSON.stringify({ pid: 4242, startTime: '7000', role: 'tests', startedAt: '2026-11-25T10:00:00Z' }),
    );
    processIn(4242, 4242, 7000);
    processIn(4243, 4242, 6500); // older than the recorded leader
    expect((await leftovers())[0]?.members).toEqual([4242]);
  });

  it('a record whose slot name something else holds (a directory an agent made) goes to the next slot: no agent runs unrecorded', async () => {
    const taken = path.join(recordsDir(), `${process.pid}-0.json`);
    mkdirSync(taken, { recursive: true });
    writeFileSync(path.join(taken, 'mine'), 'not a record');
    const registry = new ProcessRegistry(stateDir, undefined, proc, () => 30_000);
    registry.spawned(4242, 'agent');
    const slot = path.join(recordsDir(), `${process.pid}-1.json`);
    expect(JSON.parse(readFileSync(slot, 'utf8'))).toMatchObject({ pid: 4242, role: 'agent' });
    // The slot is freed and used again; the taken name is never tried again.
    registry.exited(4242);
    registry.spawned(4343, 'agent');
    expect(JSON.parse(readFileSync(slot, 'utf8'))).toMatchObject({ pid: 4343 });
    expect(readFileSync(path.join(taken, 'mine'), 'utf8')).toBe('not a record');
    processIn(4343, 4343, SELF_START + 3000);
    expect((await leftovers())[0]?.members).toEqual([4343]);
  });

  it('an agent that takes every slot name it can guess (its own freed slot and the next ones, as directories) still cannot make the next agent run unrecorded', async () => {
    const registry = new ProcessRegistry(stateDir, undefined, proc, () => 30_000);
    registry.spawned(4242, 'agent');
    // While it ran, the agent replaced its own slot and made the next three names directories.
    for (let k = 0; k <= 3; k++) {
      const name = path.join(recordsDir(), `${process.pid}-${k}.json`);
      rmSync(name, { force: true });
      mkdirSync(path.join(name, 'mine'), { recursive: true });
    }
    registry.exited(4242);
    registry.spawned(4343, 'agent');
    processIn(4343, 4343, SELF_START + 3000);
    expect((await leftovers())[0]?.members).toEqual([4343]);
  });

  it('a slot an agent replaced (a FIFO, a directory, a symlink to an endless file) neither hangs nor stops the next run', async () => {
    const registry = new ProcessRegistry(stateDir, undefined, proc, () => 30_000);
    registry.spawned(4242, 'agent');
    const slot = path.join(recordsDir(), `${process.pid}-0.json`);
    rmSync(slot);
    execFileSync('mkfifo', [slot]); // a read of it would wait for a writer forever
    mkdirSync(path.join(recordsDir(), `${process.pid}-1.json`)); // removed: it is empty
    symlinkSync('/dev/zero', path.join(recordsDir(), `${process.pid}-2.json`)); // a read of it never ends
    writeFileSync(path.join(recordsDir(), '4243.json'), JSON.stringify({ pid: 4243, startTime: '', role: 'agent' }));
    processIn(4243, 4243, SELF_START + 3000);
    const signalled: Array<[number, string]> = [];
    const ended = await Promise.race([
      leftovers(signalled),
      new Promise<'hung'>((resolve) => setTimeout(() => resolve('hung'), 2000).unref()),
    ]);
    if (ended === 'hung') {
      // Unblock the read so that the test ends: open the FIFO for writing.
      writeFileSync(slot, '');
    }
    expect(ended).not.toBe('hung');
    expect((ended as Array<{ pid: number }>).map((r) => r.pid)).toEqual([4243]);
    expect(readdirSync(recordsDir())).toEqual([]);
  });

  it('reads and removes nothing through a records directory that is a symlink, nor inside a directory left there', async () => {
    const elsewhere = path.join(root, 'elsewhere');
    mkdirSync(path.join(elsewhere, 'sub'), { recursive: true });
    writeFileSync(path.join(elsewhere, 'a.json'), JSON.stringify({ pid: 4242, startTime: '', role: 'agent' }));
    writeFileSync(path.join(elsewhere, 'sub', 'b.txt'), 'b');
    mkdirSync(path.join(stateDir, 'run'), { recursive: true });
    symlinkSync(elsewhere, recordsDir());
    processIn(4242, 4242, SELF_START + 3000);
    expect(await leftovers()).toEqual([]);
    expect(readdirSync(elsewhere).sort()).toEqual(['a.json', 'sub']);
    rmSync(recordsDir());
    // A directory with something in it, in the real records directory: left as it is.
    mkdirSync(path.join(recordsDir(), 'x.json'), { recursive: true });
    writeFileSync(path.join(recordsDir(), 'x.json', 'c.txt'), 'c');
    expect(await leftovers()).toEqual([]);
    expect(readFileSync(path.join(recordsDir(), 'x.json', 'c.txt'), 'utf8')).toBe('c');
  });

  it('a forged start that is not a number filters nothing and breaks nothing', async () => {
    mkdirSync(recordsDir(), { recursive: true });
    writeFileSync(
      path.join(recordsDir(), '4242.json'),
      JSON.stringify({ pid: 4242, startTime: 'soon', role: 'agent', startedAt: 'x' }),
    );
    processIn(4242, 4242, 7000);
    expect((await leftovers())[0]?.members).toEqual([4242]);
  });
});
