import { describe, it, expect } from '@jest/globals';
import { classifyCommandOutcome, formatMinutes } from '../../src/agents/classifyCommand.js';
import type { ProcessResult } from '../../src/agents/process.js';

function result(over: Partial<ProcessResult> = {}): ProcessResult {
  return {
    exitCode: 0,
    signal: null,
    timedOut: false,
    aborted: false,
    durationMs: 1000,
    tail: '',
    stderrTail: '',
    bytes: 0,
    ...over,
  };
}

describe('classifyCommandOutcome', () => {
  it('exit 0 is no failure', () => {
    expect(classifyCommandOutcome(result())).toBeUndefined();
  });

  it('a timeout is transient, in minutes with up to 2 decimals', () => {
    expect(classifyCommandOutcome(result({ timedOut: true, exitCode: null, signal: 'SIGTERM' }), 30 * 60_000)).toEqual({
      class: 'transient',
      reason: 'timeout',
      message: 'timed out after 30 min',
    });
    expect(classifyCommandOutcome(result({ timedOut: true, durationMs: 80_000 }))?.message).toBe(
      'timed out after 1.33 min',
    );
    // A command that traps SIGTERM and exits 0 after the timeout still timed out.
    expect(classifyCommandOutcome(result({ timedOut: true, exitCode: 0 }))?.reason).toBe('timeout');
  });

  it('formats minutes', () => {
    expect(formatMinutes(90_000)).toBe('1.5');
    expect(formatMinutes(60_000)).toBe('1');
    expect(formatMinutes(100)).toBe('0');
    expect(formatMinutes(45 * 60_000 + 1)).toBe('45');
  });

  it('aborted is transient killed', () => {
    expect(classifyCommandOutcome(result({ aborted: true, exitCode: null, signal: 'SIGTERM' }))).toMatchObject({
      class: 'transient',
      reason: 'killed',
    });
  });

  it('a signal is transient killed, naming it', () => {
    expect(classifyCommandOutcome(result({ exitCode: null, signal: 'SIGSEGV' }))).toEqual({
      class: 'transient',
      reason: 'killed',
      message: 'killed by signal SIGSEGV',
    });
  });

  it('a spawn error is permanent', () => {
    expect(
      classifyCommandOutcome(result({ exitCode: null, spawnError: 'working directory does not exist: /x' })),
    ).toMatchObject({
      class: 'permanent',
      reason: 'spawn_failed',
    });
  });

  it('127 and 126 are permanent', () => {
    expect(classifyCommandOutcome(result({ exitCode: 127 }))).toMatchObject({
      class: 'permanent',
      reason: 'not_found',
    });
    expect(classifyCommandOutcome(result({ exitCode: 126 }))).toMatchObject({
      class: 'permanent',
      reason: 'not_executable',
    });
  });

  it('other exit codes are transient, with the last stderr line trimmed to 200 chars', () => {
    expect(classifyCommandOutcome(result({ exitCode: 1 }))).toEqual({
      class: 'transient',
      reason: 'exit_code',
      message: 'exited with code 1',
    });
    const long = 'e'.repeat(500);
    const f = classifyCommandOutcome(result({ exitCode: 9, stderrTail: `earlier\n  ${long}  \n\n` }));
    expect(f?.message.startsWith('exited with code 9: eee')).toBe(true);
    expect(f?.message.length).toBe('exited with code 9: '.length + 200);
  });
});
