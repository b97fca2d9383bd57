#!/usr/bin/env node
// The agent-loop command. Thin: everything happens in cli/main.ts with its dependencies passed in.
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

main(process.argv.slice(2), {
  cwd: process.cwd(),
  env: process.env,
  stdout: (s) => void process.stdout.write(s),
  stderr: (s) => void process.stderr.write(s),
  signal: controller.signal,
}).then(
  (code) => {
    process.exitCode = signalled ? (signalled === 'SIGINT' ? 130 : 143) : code;
  },
  (error: unknown) => {
    process.stderr.write(`agent-loop: unexpected error: ${(error as Error)?.stack ?? String(error)}\n`);
    process.exitCode = 1;
  },
);
