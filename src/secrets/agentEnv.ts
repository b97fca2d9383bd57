/**
 * The environment an agent (and the test command it can edit) runs with: the engine's own, less
 * what would let it act outside its lane. On a GitHub runner that is the Actions runtime (a token
 * that writes cache entries later runs restore, the OIDC token request), the runner's file-command
 * paths (writing GITHUB_ENV or GITHUB_OUTPUT forges the action's outputs, or sets NODE_OPTIONS for
 * every later step), the action's inputs, the Discord webhook, and the GitHub token unless the user
 * lets the agent have it. git never prompts for a password (GIT_TERMINAL_PROMPT=0): an unattended
 * agent's push without credentials fails at once instead of waiting on a terminal. Pure.
 */
const NEVER = [
  /^ACTIONS_/, // ACTIONS_RUNTIME_TOKEN, _RUNTIME_URL, _RESULTS_URL, _CACHE_URL, _ID_TOKEN_REQUEST_TOKEN/_URL, …
  /^INPUT_/,
  /^GITHUB_(ENV|OUTPUT|PATH|STATE|STEP_SUMMARY)$/,
  /^STATE_/, // what main handed to post
  /^AGENT_LOOP_DISCORD_WEBHOOK$/,
  /^AGENT_LOOP_GITHUB_TOKEN$/,
];
const GITHUB_TOKENS = /^(GITHUB_TOKEN|GH_TOKEN)$/;

export function agentEnvironment(env: NodeJS.ProcessEnv, opts: { githubToken: boolean }): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) {
    if (NEVER.some((re) => re.test(name))) continue;
    if (!opts.githubToken && GITHUB_TOKENS.test(name)) continue;
    out[name] = value;
  }
  out.GIT_TERMINAL_PROMPT = '0';
  return out;
}
