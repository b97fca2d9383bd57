import { describe, expect, it } from '@jest/globals';
import { rfc3339 } from '../../src/util/clock.js';

describe('rfc3339', () => {
  it('formats to the second in UTC, whatever second came before (the last one is remembered)', () => {
    expect(rfc3339(new Date('2026-11-21T10:30:00.999Z'))).toBe('2026-11-21T10:30:00Z');
    expect(rfc3339(new Date('2026-11-21T10:30:00.001Z'))).toBe('2026-11-21T10:30:00Z');
    expect(rfc3339(new Date('2026-11-21T10:30:01.000Z'))).toBe('2026-11-21T10:30:01Z');
    expect(rfc3339(new Date('2026-11-21T10:30:00.500Z'))).toBe('2026-11-21T10:30:00Z');
    expect(rfc3339(new Date('1969-12-31T23:59:59.500Z'))).toBe('1969-12-31T23:59:59Z');
    expect(rfc3339(new Date('1969-12-31T23:59:59.900Z'))).toBe('1969-12-31T23:59:59Z');
    expect(rfc3339(new Date('1970-01-01T00:00:00.100Z'))).toBe('1970-01-01T00:00:00Z');
  });

  it('refuses an invalid date as toISOString does', () => {
    expect(() => rfc3339(new Date(Number.NaN))).toThrow(RangeError);
  });
});
