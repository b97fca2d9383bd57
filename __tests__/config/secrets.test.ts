/** Secret option values: never shown in an error, collected to be masked. */
import { describe, expect, it } from '@jest/globals';
import { collectSecrets } from '../../src/config/secrets.js';
import { load, problemsOf } from './support.js';

describe('configuration', () => {
  it('never shows a secret value in an error, and collects secrets to mask', () => {
    const problems = problemsOf(() => load(['run', '--discord-webhook', 'not a url secretvalue']));
    expect(problems.join('\n')).not.toContain('secretvalue');
    expect(
      collectSecrets(
        { discordWebhook: 'https://discord.example/api/webhooks/1/abcdef' },
        { GITHUB_TOKEN: 'ghp_123456', HOME: '/root' },
      ),
    ).toEqual(expect.arrayContaining(['https://discord.example/api/webhooks/1/abcdef', 'ghp_123456']));
  });
});
