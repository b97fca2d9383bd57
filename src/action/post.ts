/**
 * The action's post step (post-if: always(), so cancelled and failed runs save too): publishes the
 * state directory main restored and the slice updated, to the cache and as an artifact. Post never
 * fails the job: every problem is a warning. @actions/core is passed in, as is the environment.
 */
import { createRedactor } from '../secrets/redact.js';
import { secretDetector } from '../safety/secretScan.js';
import { loadActionConfig } from './inputs.js';
import { publish, runRefs } from './persistence.js';

/** The part of @actions/core the post step uses. */
export interface PostCore {
  /** What main handed over (GITHUB_STATE): the state directory, its generation, the checkpoint it used. */
  getState(name: string): string;
  setSecret(secret: string): void;
  info(message: string): void;
  warning(message: string): void;
}

export interface PostDeps {
  core: PostCore;
  env: NodeJS.ProcessEnv;
}

export async function postAction({ core, env }: PostDeps): Promise<void> {
  // Checked first: a paused run restores nothing, so it hands over no state directory either.
  const unchanged = core.getState('unchanged');
  if (unchanged) {
    core.info(
      unchanged === 'paused'
        ? 'agent-loop post: nothing to publish: the loop is paused and this run read and changed nothing.'
        : unchanged === 'reduced'
          ? 'agent-loop post: nothing to publish: this wave was reduced into the checkpoint before (a re-run reduce changes nothing).'
          : unchanged === 'plan'
            ? 'agent-loop post: nothing to publish: a fan-out plan hands its wave to the work and reduce jobs as ' +
              'its outputs (the reduce publishes the checkpoint).'
            : unchanged === 'idle'
              ? 'agent-loop post: nothing to publish: this run had nothing to do and changed nothing (the state it restored stays the newest).'
              : unchanged === 'stopped'
                ? 'agent-loop post: nothing to publish: the run stopped before it started (GitHub refused the token) ' +
                  'and changed nothing (the state it restored stays the newest).'
                : unchanged === 'deferred'
                  ? 'agent-loop post: nothing to publish: this run was deferred (a listing failed on GitHub) before it ' +
                    'changed anything (the state it restored stays the newest).'
                  : 'agent-loop post: nothing to publish: the halt stands and this run changed nothing (the state published ' +
                    'by the run that halted stays the newest).',
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
  const { options, secrets } = loadActionConfig(env);
  for (const secret of secrets) core.setSecret(secret);
  const redact = createRedactor(secrets);
  const run = runRefs(env, options.label);
  // A fan-out work job publishes its partial state under its own lineage (main's `scope`).
  const scope = core.getState('scope');
  const refs = run && scope ? { ...run, scope } : run;
  if (!refs)
    return core.warning('agent-loop post: no cache service in this environment; the checkpoint was not published.');
  const log = {
    info: (m: string) => core.info(redact(m)),
    notice: (m: string) => core.info(redact(m)),
    warning: (m: string) => core.warning(redact(m)),
  };
  const saved = await publish({
    refs,
    stateDir,
    token: options.githubToken ?? '',
    restoredGeneration: Number(core.getState('generation') || '0'),
    inUse: core.getState('checkpoint-id'),
    log,
    scan: { mask: redact, holdsSecret: secretDetector(secrets) },
  });
  core.info(
    saved.skipped
      ? `agent-loop post: not published: ${saved.skipped}`
      : `agent-loop post: published generation ${saved.generation} (cache ${saved.cacheKey ?? 'not saved'}, artifact ${saved.artifactId ?? 'not uploaded'}).`,
  );
}
