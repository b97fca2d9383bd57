/** Time as a dependency: the engine never reads the wall clock or sleeps except through this. */
export interface Clock {
  now(): Date;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const systemClock: Clock = {
  now: () => new Date(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve) => {
      if (ms <= 0 || signal?.aborted) return resolve();
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        resolve();
      }
      signal?.addEventListener('abort', done, { once: true });
    }),
};

/** The last second formatted: a run formats the same second many times (history, log lines, checkpoint). */
let lastSecond = Number.NaN;
let lastText: string | undefined;

/** RFC 3339 in UTC with second precision, e.g. 2026-11-21T10:30:00Z. */
export function rfc3339(date: Date): string {
  const second = Math.floor(date.getTime() / 1000);
  if (second !== lastSecond || lastText === undefined) {
    lastText = date.toISOString().replace(/\.\d{3}Z$/, 'Z');
    lastSecond = second;
  }
  return lastText;
}
