/**
 * The agent's and the test command's output echoed to the console (the action's log), up to a
 * budget per run: an agent that prints gigabytes must not put gigabytes in the job's log. The
 * whole output still goes to the run's own log file (logs/iteration-N.*, itself capped at 32 MiB);
 * past the budget one warning says so and where to look, then nothing more of that run is echoed.
 */
import type { Logger } from './logger.js';

/** Bytes of one run's output echoed to the console. */
export const ECHO_MAX_BYTES = 4 * 1024 * 1024;

type OnLine = (line: string, stream: 'stdout' | 'stderr', cut?: { before: boolean; after: boolean }) => void;

export function cappedEcho(
  logger: Pick<Logger, 'output' | 'warn' | 'showsOutput'>,
  source: 'agent' | 'tests',
  /** Where the whole output is, for the warning (a log file), if anywhere. */
  whole: string | undefined,
  limit = ECHO_MAX_BYTES,
): OnLine {
  let echoed = 0;
  let capped = false;
  return (line, stream, cut) => {
    // Not shown on the console (no --verbose): the log file takes it all (it has its own bound).
    if (logger.showsOutput === false) return logger.output(source, line, stream, cut);
    if (capped) return;
    echoed += Buffer.byteLength(line) + 1;
    if (echoed > limit) {
      capped = true;
      const who = source === 'agent' ? 'The agent' : 'The test command';
      logger.warn(
        'output.capped',
        `${who} printed more than ${limit >= 1024 * 1024 ? `${Math.round(limit / 1024 / 1024)} MiB` : `${limit} bytes`} ` +
          `in this run: the rest is not shown here${whole ? `; the output is in ${whole} (up to 32 MiB)` : ''}.`,
        { source, limitBytes: limit },
      );
      return;
    }
    logger.output(source, line, stream, cut);
  };
}
