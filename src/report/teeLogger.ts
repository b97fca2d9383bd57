/** One logger that writes each event to several (the console and the run's log file). */
import type { Logger } from './logger.js';

export function teeLogger(primary: Logger, ...others: Logger[]): Logger {
  const all = [primary, ...others];
  return {
    event: (...a) => all.forEach((l) => l.event(...a)),
    info: (...a) => all.forEach((l) => l.info(...a)),
    warn: (...a) => all.forEach((l) => l.warn(...a)),
    error: (...a) => all.forEach((l) => l.error(...a)),
    output: (...a) => all.forEach((l) => l.output(...a)),
    result: (...a) => all.forEach((l) => l.result(...a)),
    // The echo budget (echo.ts) is the console's: a log file bounds itself.
    ...(primary.showsOutput !== undefined ? { showsOutput: primary.showsOutput } : {}),
  };
}

/** `logger`, which first says `preamble` just before the first thing it writes (nothing written before a run starts). */
export function withPreamble(logger: Logger, preamble: (to: Logger) => void): Logger {
  let said = false;
  const first = () => {
    if (said) return;
    said = true;
    preamble(logger);
  };
  return {
    event: (...a) => (first(), logger.event(...a)),
    info: (...a) => (first(), logger.info(...a)),
    warn: (...a) => (first(), logger.warn(...a)),
    error: (...a) => (first(), logger.error(...a)),
    output: (...a) => (first(), logger.output(...a)),
    result: (...a) => (first(), logger.result(...a)),
    ...(logger.showsOutput !== undefined ? { showsOutput: logger.showsOutput } : {}),
  };
}
