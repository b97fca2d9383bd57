/**
 * The action's post step as a module that exports run(), the layout of actions/typescript-action:
 * run() takes what the step needs from the process (@actions/core, the environment) and publishes
 * the checkpoint (action/post.ts). The bundle's entrypoint (entrypoints/post.ts, dist/post/index.js)
 * only calls it; `npx local-action . src/main.ts .env --post src/post.ts` runs it after main.
 * It never rejects and never fails the job: anything unexpected is a warning.
 */
import * as core from '@actions/core';
import { postAction } from './action/post.js';
import { inert } from './report/workflowCommands.js';

export async function run(): Promise<void> {
  try {
    await postAction({
      core: {
        getState: core.getState,
        setSecret: core.setSecret,
        // A line of info is plain text, whatever a server or a restored file put in it (workflowCommands.ts).
        info: (message) => core.info(inert(message)),
        warning: core.warning,
      },
      env: process.env,
    });
  } catch (error) {
    core.warning(`agent-loop post: could not publish the checkpoint: ${(error as Error)?.message ?? String(error)}`);
  }
}
