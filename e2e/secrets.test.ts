/**
 * Issue 11, "no secret leaves": output is masked once where it enters the engine, so every sink
 * (the log, the per-iteration logs, errors.jsonl, the checkpoints' tails, the prompt) is clean; a
 * secret split across lines or across stdout and stderr, base64-encoded or in the basic-auth form
 * actions/checkout writes, is masked too; an alphanumeric wall of output is not masked whole; and
 * the agent's environment holds no runtime token, file-command path, input or webhook.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { existsSync, promises as fs, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { type Sandbox, DONE_REPORT, createSandbox, runArgs, runCli, writeAgent } from './helpers.js';

const sandboxes: Sandbox[] = [];
afterEach(async () => {
  await Promise.all(sandboxes.splice(0).map((s) => s.cleanup()));
});

const SECRET = 'sk-ant-api03-Q7w8E9r0T1y2U3i4O5p6A7s8D9f0';
const HALF = SECRET.length / 2;

/** Every file under `dir`, as text. */
function filesUnder(dir: string): Array<{ file: string; text: string }> {
  if (!existsSync(dir)) return [];
  const out: Array<{ file: string; text: string }> = [];
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) out.push(...filesUnder(p));
    else out.push({ file: p, text: readFileSync(p, 'latin1') });
  }
  return out;
}

function expectNowhere(places: Array<{ file: string; text: string }>, needles: string[]): void {
  for (const { file, text } of places) {
    const flat = text.replace(/\\n|\r?\n/g, '');
    for (const needle of needles) {
      if (flat.includes(needle)) throw new Error(`${file} holds ${needle.slice(0, 6)}…`);
    }
  }
}

describe('secrets are masked where output enters the engine (issue 11)', () => {
  it('a declared secret printed whole, split across two lines, split across stdout and stderr, base64 and as x-access-token basic auth: in no log, state file or output', async () => {
    const sandbox = await createSandbox();
    sandboxes.push(sandbox);
    const b64 = Buffer.from(SECRET).toString('base64');
    const basic = Buffer.from(`x-access-token:${SECRET}`).toString('base64');
    const agent = await writeAgent(
      sandbox,
      'leaky',
      `echo "whole: $ANTHROPIC_API_KEY"
node -e 'const s = process.env.ANTHROPIC_API_KEY; console.log("split " + s.slice(0, ${HALF})); console.log(s.slice(${HALF}) + " end")'
node -e 'const s = process.env.ANTHROPIC_API_KEY; process.stdout.write("mixed " + s.slice(0, ${HALF}) + "\\n"); process.stderr.write(s.slice(${HALF}) + " end\\n")'
echo "AUTHORIZATION: basic ${basic}"
echo "blob QUJD${b64}QUJD"
printf '%s\\n' '\`\`\`yaml' "work_remaining: still to do $ANTHROPIC_API_KEY" 'requires_continuation: false' '\`\`\`'
`,
    );
    const r = await runCli(sandbox, runArgs(agent, '--max-iterations', '1'), { env: { ANTHROPIC_API_KEY: SECRET } });
    const stateDir = path.join(sandbox.repo, '.git', 'agent-loop');
    const places = [...filesUnder(stateDir), { file: 'stdout', text: r.stdout }, { file: 'stderr', text: r.stderr }];
    expect(places.filter((p) => p.file.endsWith('errors.jsonl')).map((p) => p.file)).toEqual([
      path.join(stateDir, 'errors.jsonl'),
    ]); // the validation_error entry was written
    expectNowhere(places, [SECRET, SECRET.slice(0, HALF), SECRET.slice(HALF), b64.slice(4, -4), basic.slice(4, -4)]);
  });

  it('a wall of alphanumeric output is not masked whole (a 200 KB line stays readable)', async () => {
    const sandbox = await createSandbox();
    sandboxes.push(sandbox);
    const agent = await writeAgent(
      sandbox,
      'wall',
      `node -e 'process.stdout.write("Ab1".repeat(70000) + "\\n")'\necho good > value.txt\n${DONE_REPORT}`,
    );
    const r = await runCli(sandbox, runArgs(agent));
    expect(r.code).toBe(0);
    const shown = r.stdout
      .split('\n')
      .filter((l) => l.includes('"agent.output"'))
      .map((l) => (JSON.parse(l) as { line: string }).line)
      .join('');
    expect(shown.length).toBeGreaterThan(190_000);
    expect((shown.match(/\*\*\*/g) ?? []).length).toBeLessThan(20);
  });
});

describe('what the agent can reach (issue 11)', () => {
  const RUNNER = {
    ACTIONS_RUNTIME_TOKEN: 'runtime-token-value-123',
    ACTIONS_RUNTIME_URL: 'http://127.0.0.1:9/runtime',
    ACTIONS_RESULTS_URL: 'http://127.0.0.1:9/results',
    ACTIONS_CACHE_URL: 'http://127.0.0.1:9/cache',
    ACTIONS_ID_TOKEN_REQUEST_TOKEN: 'id-token-value-456',
    ACTIONS_ID_TOKEN_REQUEST_URL: 'http://127.0.0.1:9/oidc',
    GITHUB_ENV: '/tmp/env-file',
    GITHUB_OUTPUT: '/tmp/output-file',
    GITHUB_PATH: '/tmp/path-file',
    GITHUB_STATE: '/tmp/state-file',
    GITHUB_STEP_SUMMARY: '/tmp/summary-file',
    'INPUT_GITHUB-TOKEN': 'ghs_inputtoken0123456789abcdef0123456789',
    AGENT_LOOP_DISCORD_WEBHOOK: 'http://127.0.0.1:9/api/webhooks/1/abc',
    GITHUB_TOKEN: 'ghs_workflowtoken0123456789abcdef01234567',
    GH_TOKEN: 'ghs_workflowtoken0123456789abcdef01234567',
  };

  async function agentEnv(extra: string[]): Promise<string> {
    const sandbox = await createSandbox();
    sandboxes.push(sandbox);
    const agent = await writeAgent(
      sandbox,
      'envdump',
      `env > "$NOTES/agent-env"\necho good > value.txt\n${DONE_REPORT}`,
    );
    const r = await runCli(sandbox, runArgs(agent, ...extra), { env: RUNNER });
    expect(r.code).toBe(0);
    return fs.readFile(path.join(sandbox.root, 'agent-env'), 'utf8');
  }

  it("never holds the runner's runtime tokens and URLs, file-command paths, inputs, the webhook, or the GitHub token", async () => {
    const env = await agentEnv([]);
    for (const name of Object.keys(RUNNER)) expect(env).not.toMatch(new RegExp(`^${name}=`, 'm'));
  });

  it('holds GITHUB_TOKEN only with --agent-github-token', async () => {
    const env = await agentEnv(['--agent-github-token']);
    expect(env).toMatch(/^GITHUB_TOKEN=ghs_workflowtoken/m);
    expect(env).not.toMatch(/^ACTIONS_RUNTIME_TOKEN=/m);
  });
});
