/**
 * The action's main step as a module that exports run(), the layout of actions/typescript-action:
 * run() builds what the step needs from the process (@actions/core, the environment, the working
 * directory, the system clock, a signal that SIGINT and SIGTERM abort) and runs one slice
 * (action/main.ts, where the logic is, its dependencies passed in). The bundle's entrypoint
 * (entrypoints/main.ts, dist/main/index.js) only calls it; so does `npx local-action . src/main.ts .env`.
 * It never rejects: an unexpected error fails the step.
 */
// First: it sets the engine's V8 flags (util/v8Flags.ts) before the other modules load.
import './util/setV8Flags.js';
import * as core from '@actions/core';
import { runAction } from './action/main.js';
import { inert } from './report/workflowCommands.js';
import { systemClock } from './util/clock.js';

export async function run(): Promise<void> {
  const controller = new AbortController();
  const abort = () => controller.abort();
  const signals = ['SIGINT', 'SIGTERM'] as const;
  for (const sig of signals) process.on(sig, abort);
  try {
    await runAction({
      core: {
        setSecret: core.setSecret,
        setOutput: core.setOutput,
        setFailed: core.setFailed,
        error: core.error,
        warning: core.warning,
        notice: core.notice,
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
    });
  } catch (error) {
    core.setFailed(`agent-loop: unexpected error: ${(error as Error)?.stack ?? String(error)}`);
  } finally {
    for (const sig of signals) process.off(sig, abort);
  }
}
