/**
 * The halt's Discord post as every driver sends it (the serial run, run --parallel's coordinator,
 * the action's reduce job): through src/loop/effects/notices.ts, which records it in the outbox
 * first. Undefined without a webhook.
 */
import type { Notify } from '../loop/effects/notices.js';
import { toDiscordMessage } from '../report/diagnostic.js';
import { postToDiscord } from '../report/discordWebhook.js';
import type { Clock } from '../util/clock.js';

export interface NotifyDeps {
  redact: (text: string) => string;
  clock: Clock;
  /** A post that failed after its retries (redacted, without the webhook's URL). */
  warn: (message: string) => void;
  /** A post Discord accepted. */
  info: (message: string) => void;
}

export function discordNotifier(webhook: string | undefined, deps: NotifyDeps): Notify | undefined {
  if (!webhook) return undefined;
  return async (diagnostic) => {
    const r = await postToDiscord(webhook, toDiscordMessage(diagnostic), {
      redact: deps.redact,
      sleep: (ms) => deps.clock.sleep(ms),
      now: () => deps.clock.now().getTime(),
      warn: deps.warn,
    });
    if (r.ok) deps.info(`Posted the halt diagnostic to Discord (${r.attempts} attempt${r.attempts === 1 ? '' : 's'}).`);
  };
}
