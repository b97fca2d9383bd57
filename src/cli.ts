#!/usr/bin/env node
// The agent-loop command. Thin: everything happens in cli/main.ts with its dependencies passed in.
// First: it sets the engine's V8 flags (util/v8Flags.ts) before the other modules load.
import './util/setV8Flags.js';
import { main } from './cli/main.js';

const controller = new AbortController();
let signalled: NodeJS.Signals | undefined;
for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.on(sig, () => {
    if (signalled) process.exit(sig === 'SIGINT' ? 130 : 143);
    signalled = sig;
    controller.abort();
  });
}

// A reader that goes away (`agent-loop status | head`) closes the pipe: stop writing to it, and let
// the command (a run with its agent, above all) finish as it would have.
const closed = { stdout: false, stderr: false };
for (const name of ['stdout', 'stderr'] as const) {
  process[name].on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    closed[name] = true;
  });
}

main(process.argv.slice(2), {
  cwd: process.cwd(),
  env: process.env,
  stdout: (s) => void (closed.stdout || process.stdout.write(s)),
  stderr: (s) => void (closed.stderr || process.stderr.write(s)),
  signal: controller.signal,
  self: [process.execPath, process.argv[1] ?? 'agent-loop'],
  ...(process.stdout.isTTY ? { columns: process.stdout.columns } : {}),
}).then(
  (code) => {
    process.exitCode = signalled ? (signalled === 'SIGINT' ? 130 : 143) : code;
  },
  (error: unknown) => {
    process.stderr.write(`agent-loop: unexpected error: ${(error as Error)?.stack ?? String(error)}\n`);
    process.exitCode = 1;
  },
);
