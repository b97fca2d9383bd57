// The GitHub Action's post step (post-if: always(), so cancelled and failed runs save too):
// publishes the state directory main restored and the slice updated, to the cache and as an
// artifact. Post never fails the job: every problem is a warning.
import * as core from '@actions/core';
import { loadActionConfig } from './action/inputs.js';
import { publish, runRefs } from './action/persistence.js';
import { createRedactor } from './report/redact.js';
import { inert } from './report/workflowCommands.js';

async function post(): Promise<void> {
  const unchanged = core.getState('unchanged');
  if (unchanged) {
    core.info(
      unchanged === 'paused'
        ? 'agent-loop post: nothing to publish: the loop is paused and this run read and changed nothing.'
        : unchanged === 'idle'
          ? 'agent-loop post: nothing to publish: this run had nothing to do and changed nothing (the state it restored stays the newest).'
          : 'agent-loop post: nothing to publish: the halt stands and this run changed nothing (the state published by the run that halted stays the newest).',
    );
    return;
  }
  const stateDir = core.getState('state-dir');
  if (!stateDir) {
    core.info(
      'agent-loop post: nothing to publish (main did not run on a runner with the cache service, or stopped before the slice).',
    );
    return;
  }
  const { options, secrets } = loadActionConfig(process.env);
  for (const secret of secrets) core.setSecret(secret);
  const redact = createRedactor(secrets);
  const refs = runRefs(process.env, options.label);
  if (!refs)
    return core.warning('agent-loop post: no cache service in this environment; the checkpoint was not published.');
  const log = { info: (m: string) => core.info(inert(redact(m))), warning: (m: string) => core.warning(redact(m)) };
  const saved = await publish({
    refs,
    stateDir,
    token: options.githubToken ?? '',
    restoredGeneration: Number(core.getState('generation') || '0'),
    inUse: core.getState('checkpoint-id'),
    log,
  });
  core.info(
    saved.skipped
      ? `agent-loop post: not published: ${saved.skipped}`
      : `agent-loop post: published generation ${saved.generation} (cache ${saved.cacheKey ?? 'not saved'}, artifact ${saved.artifactId ?? 'not uploaded'}).`,
  );
}

post().catch((error: unknown) =>
  core.warning(`agent-loop post: could not publish the checkpoint: ${(error as Error)?.message ?? String(error)}`),
);
