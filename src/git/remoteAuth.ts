/**
 * The action's git credentials, given to its own `git push`, `fetch` and `ls-remote` only: an
 * `http.<server>/.extraheader` in the environment of that one git process (GIT_CONFIG_COUNT,
 * GIT_CONFIG_KEY_n, GIT_CONFIG_VALUE_n), the header actions/checkout would otherwise persist in
 * .git/config. The checkout keeps no credential (`persist-credentials: false`), so the agent can
 * neither read the token from .git/config nor push by itself. Pure.
 */

/** The header git sends: basic auth of `x-access-token:<token>`, as actions/checkout writes it. */
export function authorizationHeader(token: string): string {
  return `AUTHORIZATION: basic ${Buffer.from(`x-access-token:${token}`, 'utf8').toString('base64')}`;
}

/**
 * Variables that make one git process authenticate to `serverUrl` (e.g. https://github.com) with
 * `token`, after the configuration entries already in `env` (a user's own GIT_CONFIG_COUNT). The
 * first entry resets any extraheader for that server (one a checkout persisted): two
 * Authorization headers would make GitHub refuse the request.
 */
export function remoteAuthEnv(token: string, serverUrl: string, env: NodeJS.ProcessEnv): Record<string, string> {
  const origin = new URL(serverUrl).origin;
  const key = `http.${origin}/.extraheader`;
  const count = Number(env.GIT_CONFIG_COUNT);
  const first = Number.isInteger(count) && count > 0 ? count : 0;
  return {
    GIT_CONFIG_COUNT: String(first + 2),
    [`GIT_CONFIG_KEY_${first}`]: key,
    [`GIT_CONFIG_VALUE_${first}`]: '',
    [`GIT_CONFIG_KEY_${first + 1}`]: key,
    [`GIT_CONFIG_VALUE_${first + 1}`]: authorizationHeader(token),
  };
}
