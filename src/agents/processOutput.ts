import type { Readable } from 'node:stream';
import { LineSplitter } from './lines.js';
import { TailBuffer } from './tail.js';

/** runProcess's output half: how a child's stdout and stderr become masked lines and two bounded tails. */

type StreamName = 'stdout' | 'stderr';

type Cut = { before: boolean; after: boolean };
type Sink = (line: string, stream: StreamName, cut?: Cut) => void;
/**
 * Makes the output masker feeding `sink`, or undefined when nothing is masked. Passed in: process.ts
 * creates it (secrets/outputMasker's one user, the masking boundary for an agent's output).
 */
export type MaskerFactory = (sink: Sink) => { push: Sink; flush(): void } | undefined;

/** The parts of a ProcessRequest the output needs (see ProcessRequest for each). */
export interface OutputOptions {
  tailBytes: number;
  maxLineBytes?: number;
  onLine?: Sink;
}

/** The child's output as it enters the engine: split into lines, masked, kept in two bounded tails. */
export interface OutputSink {
  consume(stream: Readable | null, name: StreamName): void;
  /** Release every line still held (split or masked). */
  flush(): void;
  /** Bytes read from stdout and stderr together. */
  bytes(): number;
  tail: TailBuffer;
  stderrTail: TailBuffer;
}

/** Hand a line to `req.onLine`, its cut when it is a piece; a throwing listener is ignored. */
function forwardLine(
  req: OutputOptions,
  line: string,
  stream: StreamName,
  cutBefore: boolean,
  cutAfter: boolean,
): void {
  if (!req.onLine) return;
  try {
    if (cutBefore || cutAfter) req.onLine(line, stream, { before: cutBefore, after: cutAfter });
    else req.onLine(line, stream);
  } catch {
    // A faulty listener must not break the stream.
  }
}

export function createOutputSink(req: OutputOptions, makeMasker: MaskerFactory): OutputSink {
  const tailBytes = req.tailBytes;
  const tail = new TailBuffer(tailBytes);
  const stderrTail = new TailBuffer(tailBytes);
  let bytes = 0;
  const splitters = { stdout: new LineSplitter(req.maxLineBytes), stderr: new LineSplitter(req.maxLineBytes) };
  // Masked output: the tails are built from the masked lines, never from the raw bytes.
  const masker = makeMasker((line, stream, cut) => {
    const text = cut?.after ? line : `${line}\n`;
    tail.push(text);
    if (stream === 'stderr') stderrTail.push(text);
    forwardLine(req, line, stream, cut?.before ?? false, cut?.after ?? false);
  });
  const deliver = (line: string, stream: StreamName, cutBefore: boolean, cutAfter: boolean): void => {
    if (masker) masker.push(line, stream, cutBefore || cutAfter ? { before: cutBefore, after: cutAfter } : undefined);
    else forwardLine(req, line, stream, cutBefore, cutAfter);
  };
  const emitters = {
    stdout: (line: string, cutBefore: boolean, cutAfter: boolean) => deliver(line, 'stdout', cutBefore, cutAfter),
    stderr: (line: string, cutBefore: boolean, cutAfter: boolean) => deliver(line, 'stderr', cutBefore, cutAfter),
  };
  return {
    tail,
    stderrTail,
    bytes: () => bytes,
    consume(stream, name) {
      if (!stream) return;
      stream.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        // Unmasked, the tails take the raw bytes (copied into their rings): no per-line allocation.
        if (!masker) {
          tail.push(chunk);
          if (name === 'stderr') stderrTail.push(chunk);
        }
        splitters[name].pushEach(chunk, emitters[name]);
      });
      stream.on('end', () => splitters[name].flushEach(emitters[name]));
      stream.on('error', () => {
        /* the pipe broke; 'close' still follows */
      });
    },
    flush() {
      splitters.stdout.flushEach(emitters.stdout);
      splitters.stderr.flushEach(emitters.stderr);
      masker?.flush();
    },
  };
}
