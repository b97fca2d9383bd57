/**
 * Preflight (issue 40): once a serial run (implement, tdd) has work, before anything is installed or
 * any agent runs, what GitHub lets the token see of the landing (src/publish/preflight.ts). A
 * refusal halts publish_refused with no agent run; what it cannot read goes once into the summary.
 */
import type { LandingSoFar } from '../app/run.js';
import type { Options } from '../config/options.js';
import type { GitHubClient } from '../issues/github/client.js';
import { type PreflightRefusal, decidePreflight, tokenKind } from '../publish/preflight.js';
import { getter, readLandingFacts } from '../publish/preflightReads.js';
import type { ActionCore } from './actionCore.js';
import type { FanOutRole } from './fanOut.js';

/** Retries of each preflight read on a 5xx or a network error (the action's client makes 3): a read it cannot make is noted as not checked. */
export const PREFLIGHT_RETRIES = 1;

export interface PreflightCheck {
  /** Asked by the run once it has work; undefined for a fan-out job or the pipeline. */
  preflight?: (run: LandingSoFar) => Promise<PreflightRefusal | undefined>;
  /** What the check could not read (for the summary): empty until it ran. */
  notChecked(): string[];
}

export function preflightCheck(input: {
  fanOut: FanOutRole;
  options: Options;
  env: NodeJS.ProcessEnv;
  owner: string;
  repo: string;
  /** The token agent-loop talks to GitHub with (github-token). */
  token: string;
  /** A client of that token that retries PREFLIGHT_RETRIES times. */
  octokit: GitHubClient;
  core: ActionCore;
  redact: (text: string) => string;
}): PreflightCheck {
  const { options, env, owner, repo, core, redact } = input;
  let notChecked: string[] = [];
  if (input.fanOut.role !== undefined || options.workflow === 'pipeline') return { notChecked: () => notChecked };
  const preflight = async (run: LandingSoFar) => {
    const base = run.base ?? env.GITHUB_REF_NAME;
    if (!base) return undefined;
    try {
      const plan = {
        owner,
        repo,
        base,
        landing: options.onSuccess === 'merge' ? ('merge' as const) : ('pull-request' as const),
        token: tokenKind(input.token, options.workflowToken),
      };
      const verdict = decidePreflight({
        ...(await readLandingFacts(plan, getter(input.octokit, owner, repo))),
        landed: run.landed,
      });
      notChecked = verdict.notes;
      if (notChecked.length > 0)
        core.info(
          `agent-loop: ${notChecked.length} thing(s) could not be checked before the agent ran ` +
            '(GitHub refused the token or did not answer): see the job summary.',
        );
      return verdict.halt;
    } catch (error) {
      core.info(
        redact(
          `agent-loop: the check before the first agent run failed (${(error as Error).message}); the run goes on.`,
        ),
      );
      return undefined;
    }
  };
  return { preflight, notChecked: () => notChecked };
}
