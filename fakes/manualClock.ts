/** Time that moves only when told to or when the engine sleeps: `sleep` advances it at once and records the wait. */
import type { Clock } from '../src/util/clock.js';

export class ManualClock implements Clock {
  readonly start: number;
  /** Every wait asked for, in order. */
  readonly sleeps: number[] = [];
  private t: number;

  constructor(start = Date.parse('2026-11-21T10:00:00Z')) {
    this.start = start;
    this.t = start;
  }

  now(): Date {
    return new Date(this.t);
  }

  async sleep(ms: number): Promise<void> {
    this.sleeps.push(ms);
    this.t += Math.max(0, ms);
  }

  advance(ms: number): void {
    this.t += ms;
  }

  elapsedMs(): number {
    return this.t - this.start;
  }
}
