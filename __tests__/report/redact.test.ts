import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { collectSecrets } from '../../src/config/secrets.js';
import { createLogger } from '../../src/report/logger.js';
import { MASK, MIN_SECRET_LENGTH, createRedactor, secretForms } from '../../src/secrets/redact.js';

// --- generators ------------------------------------------------------------------------------------

// By code point: an astral character (😀) is one unit, never two lone surrogates (which no secret can hold).
const chars = (alphabet: string) => fc.constantFrom(...Array.from(alphabet));
const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const base62 = (min: number, max = min) => fc.string({ unit: chars(BASE62), minLength: min, maxLength: max });
const base64url = (min: number, max = min) => fc.string({ unit: chars(`${BASE62}_-`), minLength: min, maxLength: max });
const digits = (min: number, max = min) => fc.string({ unit: chars('0123456789'), minLength: min, maxLength: max });
const hex = (n: number) => fc.string({ unit: chars('0123456789abcdef'), minLength: n, maxLength: n });

/** Token shapes as the services issue them. */
const shapedToken = fc.oneof(
  fc.tuple(fc.constantFrom('ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_'), base62(36, 40)).map(([p, b]) => p + b),
  fc.tuple(base62(22), base62(59)).map(([a, b]) => `github_pat_${a}_${b}`),
  base64url(93).map((b) => `sk-ant-api03-${b}AA`),
  fc.tuple(fc.constantFrom('proj', 'svcacct', 'admin'), base64url(40, 160)).map(([k, b]) => `sk-${k}-${b}`),
  base62(48).map((b) => `sk-${b}`),
  fc
    .tuple(fc.constantFrom('b', 'p'), digits(10, 13), digits(10, 13), base62(24))
    .map(([k, a, b, c]) => `xox${k}-${a}-${b}-${c}`),
);

/** Realistic secret values: the shapes, Discord webhook URLs and tokens, random keys, passwords. */
const realisticSecret = fc.oneof(
  shapedToken,
  fc.tuple(digits(17, 19), base64url(68)).map(([id, t]) => `https://discord.com/api/webhooks/${id}/${t}`),
  base64url(68),
  base62(MIN_SECRET_LENGTH, 64),
  hex(40),
  fc.string({
    unit: chars(`${BASE62}!"#$%&'()+,-./:;<=>?@[\\]^_\`{|}~ é€😀`),
    minLength: MIN_SECRET_LENGTH,
    maxLength: 24,
  }),
);

/** A lone UTF-16 surrogate: no secret can hold one (environment values are decoded from UTF-8). */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * Any well-formed string at least MIN_SECRET_LENGTH code points long: control characters, quotes,
 * backslashes, astral characters, `*`. Lone surrogates are left out: two copies of such a "secret"
 * side by side fuse into one valid pair that no longer contains either copy's characters.
 */
const arbitrarySecret = fc
  .oneof(
    fc.string({ minLength: MIN_SECRET_LENGTH, maxLength: 30 }),
    fc.string({ unit: 'binary', minLength: MIN_SECRET_LENGTH, maxLength: 30 }),
    fc.string({ unit: 'binary-ascii', minLength: MIN_SECRET_LENGTH, maxLength: 30 }),
  )
  .filter((s) => !LONE_SURROGATE.test(s));

const secretArb = fc.oneof(realisticSecret, arbitrarySecret);

/** Text around a secret: ordinary, binary (newlines, quotes, backslashes), or secret-like. */
const textArb = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: chars(`${BASE62}\\"/%\n*`), maxLength: 40 }),
);

/**
 * Runs per property: AGENT_LOOP_PROPERTY_RUNS, 100 by default (npm test, about a second);
 * npm run test:integration runs this file again with 1,000 (scripts/test-integration.mjs), as CI does.
 */
const RUNS = { numRuns: Number(process.env.AGENT_LOOP_PROPERTY_RUNS ?? 100) };

// --- collectSecrets -----------------------------------------------------------------------------------

describe('collectSecrets', () => {
  const token = 'a1B2c3D4e5F6g7H8i9J0';

  it.each(['ANTHROPIC_API_KEY', 'OPENAI_API_KEY', 'CODEX_API_KEY', 'GITHUB_TOKEN', 'GH_TOKEN'])(
    'collects %s',
    (name) => {
      expect(collectSecrets({}, { [name]: token, HOME: '/home/someone' })).toEqual([token]);
    },
  );

  it(`ignores values shorter than ${MIN_SECRET_LENGTH} characters, so a 1-character value does not mask every "a"`, () => {
    const secrets = collectSecrets(
      { secretEnv: 'MY_VAR' },
      { GITHUB_TOKEN: 'a', GH_TOKEN: '12345', OPENAI_API_KEY: '', MY_VAR: 'x' },
    );
    expect(secrets).toEqual([]);
    expect(createRedactor(secrets)('a banana and 12345')).toBe('a banana and 12345');
    expect(createRedactor(['a', '12345'])('a banana and 12345')).toBe('a banana and 12345');
  });

  it('collects the variables named in --secret-env (comma-separated, spaces allowed), not the others', () => {
    const env = { DB_PASS: 'hunter22', SIGNING: 'zyxwvut98', NOT_LISTED: 'plainvalue', EMPTY: '' };
    const secrets = collectSecrets({ secretEnv: 'DB_PASS, SIGNING,,MISSING,EMPTY' }, env);
    expect(secrets.sort()).toEqual(['hunter22', 'zyxwvut98']);
  });

  it('collects the webhook URL and, on its own, its token (the secret part of …/api/webhooks/<id>/<token>)', () => {
    const hookToken = 'AbCdEf-GhIjKlMnOpQrStUvWxYz0123456789_abcdefghijklmnopqrstuvwxyz01234';
    const url = `https://discord.com/api/webhooks/123456789012345678/${hookToken}`;
    expect(collectSecrets({ discordWebhook: url }, {})).toEqual(expect.arrayContaining([url, hookToken]));
    expect(collectSecrets({ discordWebhook: `${url}?wait=true` }, {})).toEqual(expect.arrayContaining([hookToken]));
    expect(collectSecrets({ discordWebhook: 'https://discord.com/api/v10/webhooks/1/tok%2Den123' }, {})).toEqual(
      expect.arrayContaining(['tok%2Den123', 'tok-en123']),
    );
  });

  it('keeps the suffix rule, and adds a value without its trailing newline', () => {
    expect(
      collectSecrets(
        {},
        { DEPLOY_PASSWORD: 'correct-horse\n', MY_SECRET: 'battery-staple', HOME: '/home/someone' },
      ).sort(),
    ).toEqual(['battery-staple', 'correct-horse', 'correct-horse\n']);
  });
});

// --- examples -----------------------------------------------------------------------------------------

describe('createRedactor: token shapes', () => {
  const redact = createRedactor([]);
  const body36 = 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8';

  it.each(['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_'])(
    'masks GitHub %s tokens (36+ base62 characters), keeping the prefix',
    (prefix) => {
      expect(redact(`token=${prefix}${body36} done`)).toBe(`token=${prefix}${MASK} done`);
      expect(redact(`${prefix}${body36.slice(1)}`)).toBe(`${prefix}${body36.slice(1)}`); // 35: not the shape
    },
  );

  it('masks the other shapes, keeping the prefix', () => {
    const cases: [string, string][] = [
      [`github_pat_11ABCDEFG0123456789abc_${'x1'.repeat(30)}`, `github_pat_${MASK}`],
      [`sk-ant-api03-${'Ab3-_'.repeat(19)}AA`, `sk-ant-${MASK}`],
      [`sk-ant-oat01-${'Zz9'.repeat(10)}`, `sk-ant-${MASK}`],
      [`sk-proj-${'aB3_-'.repeat(20)}`, `sk-proj-${MASK}`],
      [`sk-svcacct-${'aB3'.repeat(10)}`, `sk-svcacct-${MASK}`],
      [`sk-${'aB3'.repeat(16)}`, `sk-${MASK}`],
      ['xoxb-1234567890123-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx', `xoxb-${MASK}`],
      ['xoxp-12345678901-abcdef', `xoxp-${MASK}`],
      ['Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl', `Bearer ${MASK}`],
      ['authorization: bearer abc123def456ghi', `authorization: bearer ${MASK}`],
      ['BEARER\tZm9vYmFyOmJhejEyMw==', `BEARER\t${MASK}`],
    ];
    for (const [token, masked] of cases) {
      expect(redact(`[${token}]`)).toBe(`[${masked}]`);
      expect(redact(JSON.stringify({ token }))).toBe(JSON.stringify({ token: masked }));
    }
  });

  it('leaves ordinary text alone', () => {
    const ordinary = [
      'pip install sk-learn; sk-learn is not scikit-learn',
      'task-ant-colony-simulation-with-many-words and a multitask-ant',
      'the bearer of bad news; Bearer authentication; Bearer <token>; Bearer $GITHUB_TOKEN; bearer v2',
      'commit 3f786850e387550fdab836ed7e6dc881de23001b (HEAD -> main)',
      'checkpoint 123e4567-e89b-42d3-a456-426614174000 resumed',
      'ghp_ is the prefix of a GitHub token; ghp_short; github_pat_; sk-ant-; sk-proj-abc',
      'xoxo-hugs-and-kisses-forever; xoxb-nodigitsatallhere',
      'base64: aGVsbG8gd29ybGQgdGhpcyBpcyBhIHRlc3Q= and a path /usr/local/lib/node_modules/typescript',
      `dask-${'a'.repeat(40)} and flask-${'b'.repeat(40)}`,
    ];
    for (const text of ordinary) expect(redact(text)).toBe(text);
  });

  it('leaves ordinary text alone: random words, SHAs and UUIDs', () => {
    // Not "Bearer" here: a UUID or SHA after it is a bearer token, rightly masked.
    const words = [
      'the',
      'of',
      'bad',
      'news',
      'sk-learn',
      'task-ant',
      'token',
      'ghp',
      'gh',
      'pat',
      'secret',
      'npm',
      'test',
      '-',
      '_',
      ' ',
      '\n',
      ':',
      '"',
      '=',
    ];
    const piece = fc.oneof(fc.constantFrom(...words), hex(40), hex(7), fc.uuid(), digits(1, 12));
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), (parts) => {
        const text = parts.join(' ');
        expect(createRedactor([])(text)).toBe(text);
      }),
      RUNS,
    );
  });
});

describe('createRedactor: known values', () => {
  it('masks each occurrence, the longest first', () => {
    const redact = createRedactor(['abcdef123', 'abcdef123456', 'zzzzzz']);
    expect(redact('x abcdef123456 y abcdef123 zzzzzzzzz')).toBe(`x ${MASK} y ${MASK} ${MASK}zzz`);
  });

  it('masks a text it returned before to the same text, and the next text in full (the last result is remembered)', () => {
    const redact = createRedactor(['abcdef123']);
    const once = redact('a abcdef123 b');
    expect(once).toBe(`a ${MASK} b`);
    expect(redact(once)).toBe(once);
    expect(redact('c abcdef123 d')).toBe(`c ${MASK} d`);
    expect(redact(once)).toBe(once);
    expect(redact(`${once} abcdef123`)).toBe(`a ${MASK} b ${MASK}`);
  });

  it('masks every one of many secrets (more than one alternation is built)', () => {
    const secrets = Array.from(
      { length: 300 },
      (_, i) => `https://hooks.example/api/webhooks/${i}/${'tok'.repeat(10)}${i}x[*]`,
    );
    const redact = createRedactor(secrets);
    const text = secrets.map((s, i) => (i % 2 ? JSON.stringify({ s }) : encodeURIComponent(s))).join(' ');
    const out = redact(text);
    for (const s of secrets) expect(survivors(out, s)).toEqual([]);
  });

  it('masks the webhook token on its own, e.g. in a URL rebuilt or escaped by someone else', () => {
    const hookToken = 'AbCdEf-GhIjKlMnOpQrStUvWxYz0123456789_abcdefghijklmnopqrstuvwxyz01234';
    const url = `https://discord.com/api/webhooks/123456789012345678/${hookToken}`;
    const redact = createRedactor(collectSecrets({ discordWebhook: url }, {}));
    expect(redact(`POST ${url}?wait=true failed`)).toBe(`POST ${MASK}?wait=true failed`);
    expect(redact(`https://discordapp.com/api/v9/webhooks/123456789012345678/${hookToken}`)).toBe(
      `https://discordapp.com/api/v9/webhooks/123456789012345678/${MASK}`,
    );
    // PHP-style \/ in JSON, then JSON.stringify again by the logger.
    const escaped = JSON.stringify({ line: JSON.stringify({ url }).replace(/\//g, '\\/') });
    expect(redact(escaped)).not.toContain(hookToken);
    expect(JSON.parse(redact(escaped))).toEqual({ line: `{"url":"${MASK}"}` });
    expect(redact(encodeURIComponent(url))).toBe(MASK);
  });

  it('masks the JSON-escaped, double-escaped, \\u-escaped and URL-encoded forms', () => {
    const secret = 'pa"ss\\wörd/<1>';
    const redact = createRedactor([secret]);
    const forms = [
      JSON.stringify({ s: secret }),
      JSON.stringify({ line: JSON.stringify({ s: secret }) }),
      JSON.stringify({ line: JSON.stringify({ line: JSON.stringify({ s: secret }) }) }),
      `{"s":"${JSON.stringify(secret).slice(1, -1).replace(/\//g, '\\/')}"}`, // PHP
      `{"s":"${JSON.stringify(secret).slice(1, -1).replace(/ö/g, '\\u00f6')}"}`, // Python ensure_ascii
      `{"s":"${JSON.stringify(secret).slice(1, -1).replace(/</g, '\\u003c').replace(/>/g, '\\u003e')}"}`, // Go
      `?s=${encodeURIComponent(secret)}`,
      `?s=${encodeURIComponent(secret).toLowerCase()}`,
    ];
    for (const text of forms) {
      const out = redact(text);
      expect(out).toContain(MASK);
      for (const form of secretForms(secret)) expect(out).not.toContain(form);
    }
    expect(JSON.parse(redact(forms[1] ?? ''))).toEqual({ line: `{"s":"${MASK}"}` });
  });

  it('keeps JSON valid when a match touches an escape', () => {
    // "nabcdef1" matches the n of an escaped newline: the result must not be `\***`.
    const redact = createRedactor(['nabcdef1', 'ghijkl\\']);
    const line = JSON.stringify({ line: 'x\nabcdef1 and ghijkl"' });
    expect(line).toContain('\\nabcdef1');
    expect(line).toContain('ghijkl\\"');
    const out = redact(line);
    expect(() => JSON.parse(out)).not.toThrow();
    expect(out).not.toContain('abcdef1');
  });

  it('every log line of the logger is redacted, in text and JSON mode', () => {
    const secret = 'sekrit"va\\lue';
    for (const json of [true, false]) {
      const lines: string[] = [];
      const clock = { now: () => new Date(0), sleep: async () => {} };
      const logger = createLogger({ json, write: (s) => lines.push(s), clock, redact: createRedactor([secret]) });
      logger.info('x', `message ${secret}`, { field: secret, token: `ghp_${'a'.repeat(36)}` });
      logger.output('agent', JSON.stringify({ text: `tool said ${secret}` }), 'stdout');
      logger.result({ error: secret }, `failed: ${secret}`);
      const all = lines.join('');
      for (const form of secretForms(secret)) expect(all).not.toContain(form);
      expect(all).not.toContain('a'.repeat(36));
      if (json) for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
    }
  });
});

describe('createRedactor: cut output', () => {
  const secret = 'AbCdEf-GhIjKlMnOpQrStUvWxYz0123456789';
  const redact = createRedactor([secret]);
  const text = `before ${secret} after`;
  const cut = 20;

  it('plain redaction covers every complete line, but not a secret cut across two of them', () => {
    const parts = [text.slice(0, cut), text.slice(cut)].map((p) => redact(p));
    for (const p of parts) expect(p).not.toContain(secret);
    expect(parts.join('')).toContain(secret); // the limitation that `piece` is for
  });

  it('piece() masks a fragment at a cut edge so the pieces put back together do not hold the secret', () => {
    const joined = redact.piece(text.slice(0, cut), { after: true }) + redact.piece(text.slice(cut), { before: true });
    expect(joined).not.toContain(secret);
    expect(joined).toBe(`before ${MASK}${MASK} after`);
  });

  it('piece() masks a token shape cut in two', () => {
    const token = `ghp_${'A1b2C3d4E5'.repeat(4)}`;
    const line = `x ${token} y`;
    for (let i = 1; i < line.length; i++) {
      const joined =
        createRedactor([]).piece(line.slice(0, i), { after: true }) +
        createRedactor([]).piece(line.slice(i), { before: true });
      expect(joined).not.toContain(token);
    }
  });
});

// --- properties -------------------------------------------------------------------------------------

/** Every string (keys too) in a parsed JSON value. */
const strings = (v: unknown): string[] => {
  if (typeof v === 'string') return [v];
  if (Array.isArray(v)) return v.flatMap(strings);
  if (v !== null && typeof v === 'object') return Object.entries(v).flatMap(([k, x]) => [k, ...strings(x)]);
  return [];
};

/** Every form the secret takes in output: none may survive. */
const survivors = (out: string, secret: string) => secretForms(secret).filter((form) => out.includes(form));

describe('properties: no secret survives whatever surrounds it', () => {
  it('embedded anywhere, repeated, next to another secret', () => {
    fc.assert(
      fc.property(secretArb, secretArb, fc.array(textArb, { minLength: 1, maxLength: 5 }), (s1, s2, around) => {
        const redact = createRedactor([s1, s2]);
        const text = around.join(s1) + s1 + s2 + s1 + around.join(s2) + s2 + s2;
        const out = redact(text);
        expect(out).not.toContain(s1);
        expect(out).not.toContain(s2);
      }),
      RUNS,
    );
  });

  it('inside JSON.stringify of an object (also nested): no form survives, and the JSON stays valid', () => {
    fc.assert(
      fc.property(secretArb, textArb, textArb, (secret, pre, post) => {
        const redact = createRedactor([secret]);
        const obj = {
          a: pre + secret + post,
          b: [secret, { c: `${secret}${secret}` }],
          [secret]: 1,
          d: JSON.stringify({ inner: pre + secret }),
        };
        const out = redact(JSON.stringify(obj));
        expect(survivors(out, secret)).toEqual([]);
        for (const decoded of strings(JSON.parse(out))) expect(decoded).not.toContain(secret);
      }),
      RUNS,
    );
  });

  it('JSON stays valid whatever sits next to a secret or its fragments (escapes, quotes)', () => {
    const special = fc.constantFrom('\n', '\t', '\r', '\b', '\f', '"', '\\', '/', '\u0001');
    fc.assert(
      fc.property(secretArb, textArb, special, special, (secret, pre, x, y) => {
        const redact = createRedactor([secret]);
        const value = pre + x + secret.slice(1) + y + secret + x + secret.slice(0, -1) + y;
        const out = redact(JSON.stringify({ value }));
        expect(() => JSON.parse(out)).not.toThrow();
        expect(strings(JSON.parse(out)).join(' ')).not.toContain(secret);
      }),
      RUNS,
    );
  });

  it('at line starts and ends: each line redacted on its own (as the logger does)', () => {
    fc.assert(
      fc.property(secretArb, fc.array(textArb, { maxLength: 6 }), (secret, texts) => {
        const redact = createRedactor([secret]);
        const lines = texts.flatMap((t) => [secret + t, t + secret, secret, `${secret}\r`]);
        for (const line of lines) expect(redact(line)).not.toContain(secret);
      }),
      RUNS,
    );
  });

  it('a shaped token nobody told us about is masked whatever follows it', () => {
    const separator = fc.constantFrom(' ', '\n', '"', '=', ':', '(', '/', '\t');
    fc.assert(
      fc.property(shapedToken, textArb, separator, textArb, (token, pre, sep, post) => {
        const out = createRedactor([])(pre + sep + token + post);
        expect(out).not.toContain(token);
      }),
      RUNS,
    );
  });
});

describe('properties: wherever the output is cut', () => {
  // The honest guarantee. Plain `redact` on each part: no part ever contains the secret whole
  // (a part holding only a fragment shows at most a fragment). The parts put back together may
  // contain it, and only if an occurrence straddled a cut. `piece` on each part (the cuts at
  // least as far apart as the secret is long, as LineSplitter's 64 KiB pieces are): put back
  // together, they never contain it.
  const cutCase = fc.tuple(secretArb, textArb, textArb, fc.nat(), fc.nat()).map(([secret, pre, post, i, j]) => {
    const text = pre + secret + post + secret;
    return { secret, text, i: i % (text.length + 1), j: j % (text.length + 1) };
  });

  it('plain redaction: no part contains the secret; joined, it appears only where a cut fell inside it', () => {
    fc.assert(
      fc.property(cutCase, ({ secret, text, i }) => {
        const redact = createRedactor([secret]);
        const parts = [text.slice(0, i), text.slice(i)].map(redact);
        for (const part of parts) expect(part).not.toContain(secret);
        let straddled = false;
        for (let at = text.indexOf(secret); at !== -1; at = text.indexOf(secret, at + 1))
          straddled ||= at < i && i < at + secret.length;
        if (!straddled && !/[*\\]/.test(secret)) expect(parts.join('')).not.toContain(secret);
      }),
      RUNS,
    );
  });

  it('piece(): the parts put back together never contain the secret', () => {
    fc.assert(
      fc.property(cutCase, ({ secret, text, i, j }) => {
        fc.pre(!secret.includes('*'));
        const redact = createRedactor([secret]);
        const [a, b] = [Math.min(i, j), Math.max(i, j)];
        const cuts = b - a >= secret.length ? [a, b] : [a];
        const bounds = [0, ...cuts, text.length];
        const parts = bounds.slice(0, -1).map((start, k) => text.slice(start, bounds[k + 1]));
        const out = parts.map((p, k) => redact.piece(p, { before: k > 0, after: k < parts.length - 1 }));
        for (const part of out) expect(part).not.toContain(secret);
        expect(out.join('')).not.toContain(secret);
      }),
      RUNS,
    );
  });
});

describe('properties: idempotent, never longer', () => {
  const mixed = fc.tuple(secretArb, fc.array(fc.oneof(textArb, shapedToken, secretArb), { maxLength: 6 }));

  it('redact(redact(x)) === redact(x)', () => {
    fc.assert(
      fc.property(mixed, ([secret, parts]) => {
        const redact = createRedactor([secret]);
        const text = parts.join(secret);
        expect(redact(redact(text))).toBe(redact(text));
        const json = redact(JSON.stringify({ parts }));
        expect(redact(json)).toBe(json);
      }),
      RUNS,
    );
  });

  it('redact never lengthens text; piece by at most one mask per cut edge', () => {
    fc.assert(
      fc.property(mixed, fc.boolean(), fc.boolean(), ([secret, parts], before, after) => {
        const redact = createRedactor([secret]);
        const text = parts.join(secret);
        expect(redact(text).length).toBeLessThanOrEqual(text.length);
        expect(redact.piece(text, { before, after }).length).toBeLessThanOrEqual(text.length + 2 * MASK.length);
      }),
      RUNS,
    );
  });
});
