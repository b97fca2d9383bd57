// The GitHub Action's main step (action.yml runs: main). Thin: everything is in action/main.ts.
import * as core from '@actions/core';
import { runAction } from './action/main.js';
import { inert } from './report/workflowCommands.js';
import { systemClock } from './util/clock.js';

const controller = new AbortController();
for (const sig of ['SIGINT', 'SIGTERM'] as const) process.on(sig, () => controller.abort());

runAction({
  core: {
    setSecret: core.setSecret,
    setOutput: core.setOutput,
    setFailed: core.setFailed,
    error: core.error,
    warning: core.warning,
    // A line of info is plain text, whatever a server or a restored file put in it (workflowCommands.ts).
    info: (message) => core.info(inert(message)),
    saveState: core.saveState,
    writeSummary: async (markdown) => {
      await core.summary.addRaw(markdown).write();
    },
  },
  env: process.env,
  cwd: process.cwd(),
  clock: systemClock,
  stdout: (text) => void process.stdout.write(text),
  signal: controller.signal,
}).catch((error: unknown) =>
  core.setFailed(`agent-loop: unexpected error: ${(error as Error)?.stack ?? String(error)}`),
);
