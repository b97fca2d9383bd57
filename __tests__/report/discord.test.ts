import { describe, it, expect, afterEach } from '@jest/globals';
import fc from 'fast-check';
import { buildDiscordPayload, DISCORD_LIMITS, type HaltMessage } from '../../src/report/discordPayload.js';
import { postToDiscord, DISCORD_WAIT_BUDGET_MS, type DiscordDeps } from '../../src/report/discordWebhook.js';
import { createRedactor } from '../../src/secrets/redact.js';
import {
  startDiscordServer,
  validateExecuteBody,
  LIMITS,
  type DiscordServer,
} from '../../e2e/support/discordServer.js';

// --- helpers -------------------------------------------------------------------------------------

const servers: DiscordServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function server(): Promise<DiscordServer> {
  const s = await startDiscordServer();
  servers.push(s);
  return s;
}

/** Injected time: sleep records the wait and advances the clock; nothing sleeps for real. */
function harness(overrides: Partial<DiscordDeps> = {}) {
  const sleeps: number[] = [];
  const warnings: string[] = [];
  let clock = 1_000_000;
  const deps: DiscordDeps = {
    sleep: async (ms) => {
      sleeps.push(ms);
      clock += ms;
    },
    now: () => clock,
    redact: (s) => s,
    warn: (m) => warnings.push(m),
    ...overrides,
  };
  return { deps, sleeps, warnings, totalWait: () => sleeps.reduce((a, b) => a + b, 0) };
}

function expectNoWebhook(texts: (string | undefined)[], s: DiscordServer, url = s.url()) {
  for (const text of texts) {
    if (text === undefined) continue;
    expect(text).not.toContain(url);
    expect(text).not.toContain(s.token);
    expect(text).not.toContain(`/webhooks/${s.id}`);
  }
}

const message: HaltMessage = {
  title: 'agent-loop halted: tests keep failing',
  summary: 'Issue #12 failed 3 times in a row with the same test failure.',
  fields: [
    { name: 'Issue', value: '#12 Add retries', inline: true },
    { name: 'Attempts', value: '3', inline: true },
  ],
  outputTail: 'FAIL src/a.test.ts\n  expected 1, received 2',
  url: 'https://example.com/runs/1',
  color: 0xed4245,
};

type Embed = {
  title?: string;
  description?: string;
  url?: string;
  color?: number;
  fields: { name: string; value: string; inline?: boolean }[];
  footer: { text: string };
};

function embedOf(body: unknown): Embed {
  return (body as { embeds: Embed[] }).embeds[0]!;
}

function embedTotal(e: Embed): number {
  return (
    (e.title ?? '').length +
    (e.description ?? '').length +
    e.footer.text.length +
    e.fields.reduce((n, f) => n + f.name.length + f.value.length, 0)
  );
}

function expectWithinLimits(body: unknown) {
  const e = embedOf(body);
  expect((e.title ?? '').length).toBeLessThanOrEqual(256);
  expect((e.description ?? '').length).toBeLessThanOrEqual(4096);
  expect(e.fields.length).toBeLessThanOrEqual(25);
  for (const f of e.fields) {
    expect(f.name.length).toBeLessThanOrEqual(256);
    expect(f.value.length).toBeLessThanOrEqual(1024);
  }
  expect(e.footer.text.length).toBeLessThanOrEqual(2048);
  expect(embedTotal(e)).toBeLessThanOrEqual(6000);
  expect(validateExecuteBody(body)).toBeNull();
}

/** The description's code block: exactly one opening and one closing fence, at the end. */
function expectIntactBlock(description: string) {
  expect(description.split('```')).toHaveLength(3);
  expect(description.endsWith('\n```')).toBe(true);
}

// --- the emulator itself -------------------------------------------------------------------------

describe('Discord webhook emulator', () => {
  it('answers 200 with a message for wait=true, 204 without, and rejects what Discord rejects', async () => {
    const s = await server();
    const post = (body: unknown, url = `${s.url()}?wait=true`) =>
      fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

    const ok = await post({ content: 'hi' });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ content: 'hi', webhook_id: s.id, mention_everyone: false });
    expect((await post({ content: 'hi' }, s.url())).status).toBe(204);

    const empty = await post({});
    expect(empty.status).toBe(400);
    expect(await empty.json()).toEqual({ code: 50006, message: 'Cannot send an empty message' });

    const big = await post({
      embeds: [{ title: 'x'.repeat(257), fields: Array.from({ length: 26 }, () => ({ name: 'n', value: 'v' })) }],
    });
    expect(big.status).toBe(400);
    const bigBody = (await big.json()) as { code: number; message: string; errors: Record<string, unknown> };
    expect(bigBody).toMatchObject({ code: 50035, message: 'Invalid Form Body' });
    expect(bigBody.errors).toMatchObject({
      embeds: {
        0: {
          title: { _errors: [{ code: 'BASE_TYPE_MAX_LENGTH' }] },
          fields: { _errors: [{ code: 'BASE_TYPE_MAX_LENGTH' }] },
        },
      },
    });

    // Each part within its own limit, but 5 × 1024 + 4096 > 6000 in total.
    const total = await post({
      embeds: [
        {
          description: 'd'.repeat(4096),
          fields: Array.from({ length: 5 }, () => ({ name: 'n', value: 'v'.repeat(1024) })),
        },
      ],
    });
    expect(total.status).toBe(400);
    expect(await total.json()).toMatchObject({
      code: 50035,
      errors: { embeds: { _errors: [{ code: 'MAX_EMBED_SIZE_EXCEEDED' }] } },
    });

    expect((await post({ content: 'c'.repeat(LIMITS.content + 1) })).status).toBe(400);

    const unknown = await post({ content: 'hi' }, `${s.url(s.id, 'wrong-token')}?wait=true`);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ code: 10015, message: 'Unknown Webhook' });

    // Without allowed_mentions a webhook message would ping (the control for the @everyone test below).
    const ping = await post({ content: '@everyone look', allowed_mentions: { parse: ['everyone'] } });
    expect(((await ping.json()) as { mention_everyone: boolean }).mention_everyone).toBe(true);

    expect(s.received).toHaveLength(3);
    expect(s.requests.map((r) => r.status)).toEqual([200, 204, 400, 400, 400, 400, 404, 200]);
  });

  it('answers 429 the way Discord does', async () => {
    const s = await server();
    s.failNext(1, '429', 0.5);
    const res = await fetch(`${s.url()}?wait=true`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"content":"x"}',
    });
    expect(res.status).toBe(429);
    expect(await res.json()).toEqual({ message: 'You are being rate limited.', retry_after: 0.5, global: false });
    expect(res.headers.get('retry-after')).toBe('1');
    expect(res.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(res.headers.get('x-ratelimit-reset-after')).toBe('0.5');
    expect(res.headers.get('x-ratelimit-limit')).toBeTruthy();
    expect(res.headers.get('x-ratelimit-bucket')).toBeTruthy();
    expect(s.received).toHaveLength(0);
  });
});

// --- buildDiscordPayload -------------------------------------------------------------------------

describe('buildDiscordPayload', () => {
  it('puts the message in one embed, the tail in a code block, and parses no mentions', () => {
    const body = buildDiscordPayload(message);
    expect(body.allowed_mentions).toEqual({ parse: [] });
    const e = embedOf(body);
    expect(e).toMatchObject({
      title: message.title,
      url: message.url,
      color: message.color,
      fields: message.fields,
      footer: { text: 'agent-loop' },
    });
    expect(e.description).toBe(`${message.summary}\n\n\`\`\`\n${message.outputTail}\n\`\`\``);
    expectWithinLimits(body);
  });

  it('truncates oversized input visibly and stays within every limit', () => {
    const body = buildDiscordPayload({
      title: 'T'.repeat(300),
      summary: 'S'.repeat(500),
      fields: Array.from({ length: 40 }, (_, i) => ({ name: `field ${i}`, value: 'v'.repeat(2000) })),
      outputTail: Array.from({ length: 1000 }, (_, i) => `line ${String(i).padStart(4, '0')}`)
        .join('\n')
        .padEnd(10_000, 'x'),
    });
    expectWithinLimits(body);
    const e = embedOf(body);
    expect(e.title).toHaveLength(256);
    expect(e.title!.endsWith('…')).toBe(true);
    // Every kept field value was cut (2000 > 1024) and says so.
    for (const f of e.fields) expect(f.value.endsWith('…')).toBe(true);
    expect(e.fields.length).toBeLessThan(40);
    // The footer counts exactly the fields that were left out.
    expect(e.footer.text).toContain(`${40 - e.fields.length} more fields left out`);
    // The tail keeps its end, says how much was cut, and the block is intact.
    expect(e.description).toMatch(/^S{500}\n\n```\n… \(\d+ earlier characters left out\)\n/);
    expect(e.description!.endsWith('x\n```')).toBe(true);
    const omitted = Number(/… \((\d+) earlier/.exec(e.description!)![1]);
    const keptTail = e.description!.split('left out)\n')[1]!.slice(0, -4);
    expect(omitted + keptTail.length).toBe(10_000);
    expectIntactBlock(e.description!);
  });

  it('fills the 6000 with fields of the maximum size without breaking any limit', () => {
    const body = buildDiscordPayload({
      title: 't'.repeat(256),
      summary: 's'.repeat(5000),
      fields: Array.from({ length: 25 }, () => ({ name: 'n'.repeat(256), value: 'v'.repeat(1024) })),
      outputTail: 'o'.repeat(5000),
    });
    expectWithinLimits(body);
    const e = embedOf(body);
    expect(e.description!.length).toBeGreaterThanOrEqual(1000); // the description keeps its share
    expect(e.footer.text).toMatch(/\d+ more fields left out/);
    expect(e.description).toContain('…');
  });

  it('says when more than 25 fields were given, even if they are all short', () => {
    const body = buildDiscordPayload({
      title: 't',
      summary: 's',
      fields: Array.from({ length: 30 }, (_, i) => ({ name: `${i}`, value: 'v' })),
    });
    expectWithinLimits(body);
    expect(embedOf(body).fields).toHaveLength(25);
    expect(embedOf(body).footer.text).toContain('5 more fields left out');
  });

  it('neutralises backticks so the output cannot break out of its code block, with nothing invisible added (issue 15)', () => {
    for (const tail of [
      'before\n```\n@everyone injected **bold** outside\n```\nafter',
      '````\nfour',
      'ends with backticks ``',
      '```',
      '`'.repeat(50),
    ]) {
      const body = buildDiscordPayload({ title: 't', summary: 'summary with ``` too', fields: [], outputTail: tail });
      const d = embedOf(body).description!;
      expectIntactBlock(d);
      const inside = d.slice(d.indexOf('```\n') + 4, -4);
      expect(inside).not.toContain('```'); // Discord would end the block there, whatever the fence
      // The summary's backticks are escaped (shown and copied as backticks); no invisible character anywhere.
      expect(d.startsWith('summary with \\`\\`\\` too\n\n```\n')).toBe(true);
      expect(d).not.toMatch(/[\u200b-\u200d\u2060\ufeff]/);
      // The output is all there; the only change is a visible space inside each run of three or more backticks.
      expect(inside.replace(/(?<=``) (?=`)/g, '')).toBe(tail.replace(/\s+$/, ''));
    }
  });

  it('keeps blank fields valid, drops a non-http url and a bad colour, and never splits a surrogate pair', () => {
    const body = buildDiscordPayload({
      title: '😀'.repeat(200),
      summary: '',
      fields: [{ name: '', value: '   ' }],
      url: 'javascript:alert(1)',
      color: -1,
      outputTail: '😀'.repeat(3000),
    });
    expectWithinLimits(body);
    const e = embedOf(body);
    expect(e.fields[0]).toEqual({ name: '(empty)', value: '(empty)' });
    expect(e.url).toBeUndefined();
    expect(e.color).toBeUndefined();
    const loneSurrogate = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
    expect(e.title).not.toMatch(loneSurrogate);
    expect(e.description).not.toMatch(loneSurrogate);
  });

  it('stays within the limits and keeps the block intact for any input (property)', () => {
    const text = fc.string({ unit: fc.constantFrom('a', ' ', '\n', '`', '@', '…', '😀', 'x'), maxLength: 3000 });
    fc.assert(
      fc.property(
        text,
        text,
        fc.array(
          fc.record({
            name: fc.string({ maxLength: 400 }),
            value: text,
            inline: fc.option(fc.boolean(), { nil: undefined }),
          }),
          { maxLength: 40 },
        ),
        fc.option(fc.string({ unit: fc.constantFrom('a', '\n', '`', '😀'), maxLength: 12_000 }), { nil: undefined }),
        (title, summary, fields, outputTail) => {
          const body = buildDiscordPayload({ title, summary, fields, outputTail });
          expectWithinLimits(body);
          const e = embedOf(body);
          const left = /(\d+) more fields? left out/.exec(e.footer.text);
          expect(e.fields.length + (left ? Number(left[1]) : 0)).toBe(fields.length);
          if (e.description?.includes('```')) expectIntactBlock(e.description);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('uses the documented limits', () => {
    expect(DISCORD_LIMITS).toEqual(LIMITS);
  });
});

// --- postToDiscord -------------------------------------------------------------------------------

describe('postToDiscord', () => {
  it('posts a normal message with wait=true; the emulator accepts and records it', async () => {
    const s = await server();
    const h = harness();
    const result = await postToDiscord(s.url(), message, h.deps);
    expect(result).toEqual({ ok: true, attempts: 1 });
    expect(s.received).toHaveLength(1);
    expect(s.received[0]).toEqual(buildDiscordPayload(message));
    expect(s.received[0]!.allowed_mentions).toEqual({ parse: [] });
    expect(s.requests[0]).toMatchObject({
      method: 'POST',
      query: 'wait=true',
      contentType: 'application/json',
      status: 200,
    });
    expect(h.warnings).toEqual([]);
    expect(h.sleeps).toEqual([]);
  });

  it('keeps an existing query string when adding wait=true', async () => {
    const s = await server();
    const h = harness();
    expect(await postToDiscord(`${s.url()}?thread_id=42`, message, h.deps)).toEqual({ ok: true, attempts: 1 });
    expect(new URLSearchParams(s.requests[0]!.query).get('thread_id')).toBe('42');
    expect(new URLSearchParams(s.requests[0]!.query).get('wait')).toBe('true');
  });

  it('sends oversized input truncated, and the emulator accepts it', async () => {
    const s = await server();
    const h = harness();
    const result = await postToDiscord(
      s.url(),
      {
        title: 'T'.repeat(300),
        summary: 'summary',
        fields: Array.from({ length: 40 }, (_, i) => ({ name: `f${i}`, value: 'v'.repeat(2000) })),
        outputTail: 'o'.repeat(10_000),
      },
      h.deps,
    );
    expect(result).toEqual({ ok: true, attempts: 1 });
    expect(s.requests.map((r) => r.status)).toEqual([200]);
    expectWithinLimits(s.received[0]);
    expect(embedOf(s.received[0]).footer.text).toMatch(/\d+ more fields left out/);
  });

  it('does not ping for @everyone, @here, roles or users in issue text', async () => {
    const s = await server();
    const h = harness();
    const result = await postToDiscord(
      s.url(),
      {
        title: '@everyone issue #3',
        summary: '@everyone @here please look <@&123456789012345678>',
        fields: [{ name: 'Author', value: '<@123456789012345678> @everyone' }],
        outputTail: '@everyone',
      },
      h.deps,
    );
    expect(result.ok).toBe(true);
    expect(s.received[0]!.allowed_mentions).toEqual({ parse: [] });
    expect(s.messages[0]).toMatchObject({ mention_everyone: false, mentions: [], mention_roles: [] });
  });

  it('on 429 with retry_after 0.5 waits 500 ms once, then succeeds', async () => {
    const s = await server();
    s.failNext(1, '429', 0.5);
    const h = harness();
    const result = await postToDiscord(s.url(), message, h.deps);
    expect(result).toEqual({ ok: true, attempts: 2 });
    expect(h.sleeps).toEqual([500]);
    expect(s.requests.map((r) => r.status)).toEqual([429, 200]);
    expect(s.received).toHaveLength(1);
    expect(h.warnings).toEqual([]);
  });

  it('gives up with a warning when retry_after is beyond the 30 s budget', async () => {
    const s = await server();
    s.failNext(1, '429', 120);
    const h = harness();
    const result = await postToDiscord(s.url(), message, h.deps);
    expect(result.ok).toBe(false);
    expect(result.attempts).toBe(1);
    expect(h.sleeps).toEqual([]);
    expect(h.totalWait()).toBeLessThanOrEqual(DISCORD_WAIT_BUDGET_MS);
    expect(h.warnings).toHaveLength(1);
    expect(h.warnings[0]).toMatch(/rate limited.*120 s.*30 s budget/);
    expect(s.received).toHaveLength(0);
    expectNoWebhook([...h.warnings, result.error], s);
  });

  it('keeps repeated 429s within the 30 s budget', async () => {
    const s = await server();
    s.failNext(10, '429', 10);
    const h = harness();
    const result = await postToDiscord(s.url(), message, h.deps);
    expect(result.ok).toBe(false);
    expect(h.sleeps).toEqual([10_000, 10_000, 10_000]);
    expect(h.totalWait()).toBeLessThanOrEqual(DISCORD_WAIT_BUDGET_MS);
    expect(h.warnings).toHaveLength(1);
  });

  it('on 500 twice backs off 1 s then 2 s and succeeds', async () => {
    const s = await server();
    s.failNext(2, '500');
    const h = harness();
    const result = await postToDiscord(s.url(), message, h.deps);
    expect(result).toEqual({ ok: true, attempts: 3 });
    expect(h.sleeps).toEqual([1000, 2000]);
    expect(s.requests.map((r) => r.status)).toEqual([500, 500, 200]);
    expect(s.received).toHaveLength(1);
  });

  it('gives up on a persistent 502 with bounded waits and a warning', async () => {
    const s = await server();
    s.failNext(100, '502');
    const h = harness();
    const result = await postToDiscord(s.url(), message, h.deps);
    expect(result.ok).toBe(false);
    expect(h.totalWait()).toBeLessThanOrEqual(DISCORD_WAIT_BUDGET_MS);
    expect(h.sleeps.every((ms, i) => i === 0 || ms >= h.sleeps[i - 1]!)).toBe(true); // exponential, never shrinking
    expect(result.attempts).toBe(s.requests.length);
    expect(h.warnings).toHaveLength(1);
    expect(h.warnings[0]).toContain('HTTP 502');
    expect(h.warnings[0]).not.toContain('<html>');
    expectNoWebhook([...h.warnings, result.error], s);
  });

  it('on 404 Unknown Webhook makes one attempt and warns, without throwing', async () => {
    const s = await server();
    const h = harness();
    const url = s.url('999', 'a-token-that-does-not-exist-0123456789');
    const result = await postToDiscord(url, message, h.deps);
    expect(result.ok).toBe(false);
    expect(result.attempts).toBe(1);
    expect(h.sleeps).toEqual([]);
    expect(h.warnings).toHaveLength(1);
    expect(h.warnings[0]).toMatch(/HTTP 404: Unknown Webhook, code 10015/);
    expectNoWebhook([...h.warnings, result.error], s, url);
    expect(h.warnings[0]).not.toContain('a-token-that-does-not-exist');
  });

  it('on 400 (invalid body) makes one attempt and warns with what Discord said', async () => {
    const s = await server();
    // A fetch that breaks the body on its way, so the real emulator answers 400.
    const h = harness({
      fetch: (input, init) => fetch(input, { ...init, body: '{"embeds":[{"title":"' + 'x'.repeat(300) + '"}]}' }),
    });
    const result = await postToDiscord(s.url(), message, h.deps);
    expect(result).toMatchObject({ ok: false, attempts: 1 });
    expect(h.warnings[0]).toMatch(
      /HTTP 400: Invalid Form Body, code 50035, embeds\.0\.title: Must be 256 or fewer in length/,
    );
    expectNoWebhook(h.warnings, s);
  });

  it('on connection refused warns and does not throw', async () => {
    const s = await server();
    const url = s.url();
    await s.close();
    const h = harness();
    const result = await postToDiscord(url, message, h.deps);
    expect(result.ok).toBe(false);
    expect(result.attempts).toBeGreaterThanOrEqual(1);
    expect(h.totalWait()).toBeLessThanOrEqual(DISCORD_WAIT_BUDGET_MS);
    expect(h.warnings).toHaveLength(1);
    expect(h.warnings[0]).toMatch(/network error/);
    expectNoWebhook([...h.warnings, result.error], s, url);
  });

  it('masks the webhook URL in warnings even when fetch puts it in an error and redact misses it', async () => {
    const s = await server();
    const url = s.url();
    const h = harness({
      redact: (x) => x, // knows no secrets
      fetch: async (input) => {
        throw new TypeError(`Failed to fetch ${String(input)} (token ${s.token})`, { cause: new Error(`bad ${url}`) });
      },
    });
    const result = await postToDiscord(url, message, h.deps);
    expect(result.ok).toBe(false);
    expect(h.warnings.length).toBeGreaterThan(0);
    expect(h.warnings.join('\n')).toContain('the Discord webhook');
    expectNoWebhook([...h.warnings, result.error], s, url);
  });

  it('does not print an invalid webhook URL either', async () => {
    const h = harness();
    const bad = 'discord.com/api/webhooks/1/not-a-url-secret-token';
    const result = await postToDiscord(bad, message, h.deps);
    expect(result).toMatchObject({ ok: false, attempts: 0 });
    expect(h.warnings.join('\n')).not.toContain('not-a-url-secret-token');
  });

  it('redacts the payload before sending, and the warnings', async () => {
    const s = await server();
    const secret = 'sk-live-0123456789abcdef';
    const h = harness({ redact: createRedactor([secret]) });
    const result = await postToDiscord(
      s.url(),
      {
        title: `leak ${secret}`,
        summary: `summary ${secret}`,
        fields: [{ name: secret, value: `v ${secret}` }],
        outputTail: `Authorization: Bearer ${secret}\n`,
      },
      h.deps,
    );
    expect(result.ok).toBe(true);
    const sent = JSON.stringify(s.received[0]);
    expect(sent).not.toContain(secret);
    expect(embedOf(s.received[0]).description).toContain('Authorization: Bearer ***');

    // The webhook URL in the message text is masked too.
    await postToDiscord(s.url(), { ...message, summary: `posting to ${s.url()}` }, h.deps);
    expect(JSON.stringify(s.received[1])).not.toContain(s.token);

    // A warning built from Discord's answer goes through redact.
    const w = harness({
      redact: createRedactor([secret]),
      fetch: async () =>
        new Response(JSON.stringify({ code: 50035, message: `Invalid Form Body near ${secret}` }), { status: 400 }),
    });
    await postToDiscord(s.url(), message, w.deps);
    expect(w.warnings[0]).toContain('***');
    expect(w.warnings[0]).not.toContain(secret);
  });

  it('never throws, even when redact or warn throw', async () => {
    const s = await server();
    const h = harness({
      redact: () => {
        throw new Error('boom');
      },
      warn: () => {
        throw new Error('warn broke');
      },
    });
    const result = await postToDiscord(s.url(), message, h.deps);
    expect(result.ok).toBe(false);
    expect(s.requests).toHaveLength(0); // nothing unredacted was sent
  });
});
