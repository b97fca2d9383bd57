/**
 * The secrets a run must mask, collected from the options and the environment once the
 * configuration is loaded.
 */
import { OPTIONS, type Options } from './options.js';

const SECRET_ENV = /(TOKEN|SECRET|PASSWORD|API_KEY|APIKEY|WEBHOOK|PRIVATE_KEY|CREDENTIALS?)$/i;

/**
 * Values that must never appear in a log line, summary or message: option values marked secret
 * (the Discord webhook URL, and its token on its own), the well-known credentials, the variables
 * named in --secret-env, and any variable whose name ends like a secret's (SECRET_ENV). Values
 * shorter than 6 characters are left out (MIN_SECRET_LENGTH in secrets/redact.ts says why).
 */
export function collectSecrets(options: Partial<Options>, env: NodeJS.ProcessEnv): string[] {
  const MIN_SECRET_LENGTH = 6;
  const WELL_KNOWN = ['ANTHROPIC_API_KEY', 'OPENAI_API_KEY', 'CODEX_API_KEY', 'GITHUB_TOKEN', 'GH_TOKEN'];
  const values = new Set<string>();
  const add = (v: unknown) => {
    if (typeof v !== 'string') return;
    values.add(v);
    // A value read from a file often keeps its newline; the value without it is what gets printed.
    values.add(v.trim());
  };
  for (const info of OPTIONS) {
    const v = options[info.key];
    if (info.secret && typeof v === 'string') {
      add(v);
      // A webhook URL's secret is its token: …/webhooks/<id>/<token> (Discord, also behind other hosts).
      const token = /\/webhooks\/[^/?#\s]+\/([^/?#\s]+)/.exec(v)?.[1];
      if (token) {
        add(token);
        try {
          add(decodeURIComponent(token));
        } catch {
          // not valid percent-encoding: the raw token is masked anyway
        }
      }
    }
  }
  const named = (options.secretEnv ?? '').split(/[\s,]+/).filter((name) => name !== '');
  for (const name of [...WELL_KNOWN, ...named]) add(env[name]);
  for (const [name, v] of Object.entries(env)) {
    if (v && SECRET_ENV.test(name)) add(v);
  }
  return [...values].filter((v) => v.length >= MIN_SECRET_LENGTH);
}
