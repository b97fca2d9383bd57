/** The action's long messages (what happened, to what, what to do next), one string each so a search finds them whole. */

/** `given`: the inputs as the action names them (src/config/surface.ts). */
export const fanOutNeedsGitHub = (role: string, given: { github: string; run: string; parallel: string }) =>
  `fan-out: ${role}: waves work GitHub issues (${given.github}) with workflow implement or tdd; run ${given.run} with ${given.parallel}.`;

/** `which`: "issue N is not in wave W", or "the input issue is empty". */
export const notInWave = (which: string) =>
  `fan-out: work: ${which}: pass the matrix entry (matrix.issue) of the plan job's matrix output.`;

export const onSuccessIgnored = (onSuccess: string, beads: string) =>
  `agent-loop: ${onSuccess} applies to ${beads}; GitHub issues are always landed as pull requests (Closes #n).`;

export const rateLimited = (e: {
  kind: string;
  method: string;
  url: string;
  willRetry: boolean;
  retryAfterSeconds?: number;
}) =>
  `GitHub ${e.kind} rate limit on ${e.method} ${e.url}: ${e.willRetry ? `waiting ${e.retryAfterSeconds} s, then retrying` : 'not retrying (out of retries, or the wait is too long)'}.`;

export const persistedCredentials = (keys: readonly string[]) =>
  `agent-loop: the checkout keeps git credentials in its configuration (${keys.join(', ')}), which the agent can read and push with. Check out with \`persist-credentials: false\` (the reusable workflow does): agent-loop authenticates its own pushes.`;

export const fanOutNeedsRunner = (role: string) =>
  `agent-loop: fan-out: ${role} hands its state to the other jobs of the wave through the Actions cache and artifacts, which this environment lacks (no ACTIONS_RUNTIME_TOKEN): run it in a workflow.`;

export const stillHalted = (reason: string | null, since: string, error: string, resume: string) =>
  `agent-loop is still halted (${reason}) since ${since}: ${error}. Nothing was run. To resume: ${resume}.`;

/** `needs`: the input or the variable missing; the inputs named as the action names them. */
export const githubNeeded = (
  source: 'github' | 'beads',
  needs: string,
  given: { github: string; beads: string; onSuccess: string },
) =>
  source === 'github'
    ? `agent-loop: ${given.github} needs ${needs}; outside GitHub Actions use ${given.beads}.`
    : `agent-loop: ${given.beads} in the action pushes each finished cycle to GitHub (${given.onSuccess}), so it needs ${needs}; outside GitHub Actions run the agent-loop CLI.`;

export const landingEarlierWaves = (cycles: number, notices: number, what: string) =>
  `agent-loop: landing ${cycles} finished cycle(s)${notices ? ` and ${notices} notice(s)` : ''} of earlier waves: ${what}.`;
