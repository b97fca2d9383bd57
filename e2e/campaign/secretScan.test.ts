/**
 * The campaign's secret scan (issue 11): every secret form is planted, the CLI (implement and tdd
 * workflows) and the bundled action (main, then post uploading to the cache and artifact emulators)
 * run with agents that print, split, encode and write them, and a repository test that prints
 * them; then everything that can be published is searched as bytes: the state directory, the
 * uploaded cache archive and artifact zip (unpacked), the commits and notes agent-loop made (local
 * and pushed), pull request and issue bodies, titles and comments, every request body sent to
 * GitHub, Discord bodies, the step logs, outputs and summary, stdout and stderr. Each (run, form)
 * pair is a case of the `secret-scan` category; a case holds when no place holds the form.
 */
import { afterAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { existsSync, promises as fs, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { workflowRun } from '../actionRunner.js';
import {
  commit,
  type Sandbox,
  createSandbox,
  git,
  issue,
  runArgs,
  runCli,
  tddRunArgs,
  writeAgent,
  valueCheckScript,
} from '../helpers.js';
import { type ActionsServices, type ActionsServicesOptions, startActionsServices } from '../support/actionsServices.js';
import { type DiscordServer, startDiscordServer } from '../support/discordServer.js';
import { startGitHubServer } from '../support/githubServer.js';
import { cacheArchiveFiles, unzip } from '../support/unpack.js';
import { campaign } from './tally.js';

const tally = campaign('secret-scan');

// Declared secrets (the agent's API key, a variable named like a secret) and token shapes never
// declared anywhere. Built at run time so that no literal token sits in this file as a whole.
const KEY = ['sk-ant-api03', 'Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0Fe'].join('-');
const PASSWORD = ['hunter2', 'correct', 'horse', 'battery', 'staple'].join('-');
const shape = (prefix: string, seed: string) => prefix + seed.repeat(6).slice(0, 36);
const GHP = shape('ghp_', 'Ab3De6');
const GHO = shape('gho_', 'Fh7Jk9');
const GHU = shape('ghu_', 'Lm2Np4');
const GHR = shape('ghr_', 'Qr5St8');
const PAT = `github_pat_${'11AbCdEfGh0123456789'}_${'xYz'.repeat(10)}`;
const b64 = (s: string) => Buffer.from(s).toString('base64');
const half = (s: string) => [s.slice(0, Math.floor(s.length / 2)), s.slice(Math.floor(s.length / 2))];

interface Form {
  name: string;
  needles: string[];
}
/** What must be found nowhere: the value, and for split forms each half. */
function forms(extra: Form[] = []): Form[] {
  return [
    { name: 'API key, whole', needles: [KEY] },
    { name: 'API key split across two lines', needles: half(KEY) },
    { name: 'API key split across stdout and stderr', needles: half(KEY) },
    { name: 'API key in base64', needles: [b64(KEY).slice(4, -4)] },
    { name: 'API key as x-access-token basic auth', needles: [b64(`x-access-token:${KEY}`).slice(4, -4)] },
    { name: 'secret-named variable (DB_PASSWORD)', needles: [PASSWORD] },
    { name: 'ghp_ token never declared', needles: [GHP] },
    { name: 'gho_, ghu_, ghr_ tokens never declared', needles: [GHO, GHU, GHR] },
    { name: 'github_pat_ token never declared', needles: [PAT] },
    ...extra,
  ];
}

/** Shell: print every form, on stdout and stderr, whole, split, encoded. */
const LEAK = `echo "whole: $ANTHROPIC_API_KEY and $DB_PASSWORD"
node -e 'const s = process.env.ANTHROPIC_API_KEY, h = s.length >> 1; console.log("split " + s.slice(0, h)); console.log(s.slice(h) + " end")'
node -e 'const s = process.env.ANTHROPIC_API_KEY, h = s.length >> 1; process.stdout.write("mixed " + s.slice(0, h) + "\\n"); process.stderr.write(s.slice(h) + " end\\n")'
echo "b64: $(printf %s "$ANTHROPIC_API_KEY" | base64 -w0)"
echo "AUTHORIZATION: basic $(printf 'x-access-token:%s' "$ANTHROPIC_API_KEY" | base64 -w0)"
echo "found tokens: ${GHP} ${GHO} ${GHU} ${GHR} ${PAT}"
echo "password=$DB_PASSWORD ${GHP}" >&2
`;
/** A report block saying done, with secrets in its fields. */
const LEAKY_DONE = `printf 'Done.\\n\\n\`\`\`yaml\\nwork_remaining: 0\\nrequires_continuation: false\\nsummary: used %s and ${GHP}\\n\`\`\`\\n' "$ANTHROPIC_API_KEY"`;
/** The repository's test prints the secrets it sees when it fails (a test that dumps its environment). */
const LEAKY_CHECK = valueCheckScript(
  'value is $v with $ANTHROPIC_API_KEY and $DB_PASSWORD',
  `echo "ASSERTION FAILED: value.txt is '$v' (env: $ANTHROPIC_API_KEY $DB_PASSWORD)"
echo "token in fixture: $(printf %s "$ANTHROPIC_API_KEY" | base64 -w0)" >&2`,
);
const ENV = { ANTHROPIC_API_KEY: KEY, DB_PASSWORD: PASSWORD };

interface Place {
  where: string;
  text: string;
}

function filesUnder(dir: string, label = dir): Place[] {
  if (!existsSync(dir)) return [];
  const out: Place[] = [];
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) out.push(...filesUnder(p, `${label}/${name}`));
    else out.push({ where: `${label}/${name}`, text: readFileSync(p, 'latin1') });
  }
  return out;
}

/** What agent-loop committed and noted (commits not reachable from the user's `base`, notes included: they are commits too). */
function commitsSince(gitDir: string, base: string): Place {
  const text = execFileSync('git', ['--git-dir', gitDir, 'log', '-p', '--format=fuller%n%B', '--all', '--not', base], {
    encoding: 'latin1',
    maxBuffer: 256 * 1024 * 1024,
  });
  return { where: `commits and notes in ${path.basename(gitDir)}`, text };
}

/** Records one case per form; fails naming where each form was found. */
function scan(run: string, places: Place[], all: Form[]): void {
  const found: string[] = [];
  for (const form of all) {
    const hits = places
      .filter(({ text }) => {
        const flat = text.replace(/\\n|\r?\n/g, '');
        return form.needles.some((n) => text.includes(n) || flat.includes(n));
      })
      .map((p) => {
        const t = p.text.replace(/\\n|\r?\n/g, '');
        const n = form.needles.find((x) => t.includes(x)) ?? '';
        const i = t.indexOf(n);
        return `${p.where} [${t.slice(Math.max(0, i - 60), i + n.length + 30)}]`;
      });
    if (!tally.record(`${run}: ${form.name}`, hits.length === 0)) found.push(`${form.name} in ${hits.join(', ')}`);
  }
  expect(found).toEqual([]);
}

/** A published file's bytes as text, gunzipped as well when it is gzip (what a reader of the artifact gets). */
function asText(data: Buffer): string {
  const gzip = data[0] === 0x1f && data[1] === 0x8b;
  return data.toString('latin1') + (gzip ? `\n${gunzipSync(data).toString('latin1')}` : '');
}

const sandboxes: Sandbox[] = [];
const servers: Array<{ close(): Promise<void> }> = [];
afterAll(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  await Promise.all(sandboxes.splice(0).map((s) => s.cleanup()));
});

async function leakySandbox(issues: Parameters<typeof createSandbox>[0]): Promise<{ sb: Sandbox; base: string }> {
  const sb = await createSandbox(issues);
  sandboxes.push(sb);
  await fs.writeFile(path.join(sb.repo, 'check.sh'), LEAKY_CHECK);
  commit(sb, 'a test that prints its environment', { tracked: true });
  return { sb, base: git(sb, 'rev-parse', 'HEAD') };
}

async function discord(): Promise<DiscordServer> {
  const d = await startDiscordServer();
  servers.push(d);
  return d;
}

describe('secret scan: nothing that can be published holds a secret', () => {
  it('the CLI, implement workflow: a leaky agent and test, a fix, then a change that holds a token (halt, Discord)', async () => {
    const { sb, base } = await leakySandbox([issue('bd-1', 'Make the value good'), issue('bd-2', 'Write the config')]);
    const hook = await discord();
    // bd-1: leaks, fails the test once, then fixes. bd-2: writes a token into a file (never committed).
    const agent = await writeAgent(
      sb,
      'leaky',
      `${LEAK}
case "$AGENT_LOOP_ISSUE_IDS" in
  bd-1) [ -e "$NOTES/tried" ] && echo good > value.txt; touch "$NOTES/tried";;
  bd-2) echo "token = ${GHP}" > config.ini; echo "key = $ANTHROPIC_API_KEY" >> config.ini;;
esac
${LEAKY_DONE}`,
    );
    const r = await runCli(sb, runArgs(agent, '--discord-webhook', hook.url(), '--max-retries-per-step', '1'), {
      env: ENV,
    });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/secret_in_change/);
    expect(hook.received.length).toBeGreaterThan(0); // the halt diagnostic went out
    scan(
      'cli implement',
      [
        { where: 'stdout', text: r.stdout },
        { where: 'stderr', text: r.stderr },
        ...filesUnder(path.join(sb.repo, '.git', 'agent-loop'), 'state dir'),
        commitsSince(path.join(sb.repo, '.git'), base),
        { where: 'discord bodies', text: JSON.stringify(hook.received) },
      ],
      forms([{ name: 'webhook token', needles: [hook.token] }]),
    );
  });

  it("the CLI, tdd workflow: the failing test's output (what git notes record) and every phase's output", async () => {
    const { sb } = await leakySandbox([
      issue('bd-1', 'Make the value good', { description: 'Tests:\n- [ ] value is good\n' }),
    ]);
    // The suite: tests/*.sh, each failing test reported as pytest does (FAILED file::name - output).
    await fs.writeFile(
      path.join(sb.repo, 'run-tests.sh'),
      `#!/bin/sh
failed=0
for t in tests/*.sh; do
  [ -e "$t" ] || continue
  name=$(basename "$t" .sh)
  if out=$(sh "$t" 2>&1); then echo "PASSED $t::$name"; else echo "FAILED $t::$name - $out"; failed=1; fi
done
exit $failed
`,
    );
    await fs.mkdir(path.join(sb.repo, 'tests'));
    await fs.writeFile(path.join(sb.repo, 'tests', 'README.md'), 'tests/*.sh\n');
    git(sb, 'add', '-A');
    commit(sb, 'a suite');
    const base = git(sb, 'rev-parse', 'HEAD');
    // RED writes a test that fails printing secrets; GREEN fixes; REFACTOR leaves it. All leak.
    const agent = await writeAgent(
      sb,
      'tdd',
      `${LEAK}
P="$AGENT_LOOP_PROMPT_FILE"
if grep -q "You are the test agent" "$P"; then
  printf '#!/bin/sh\\nv=$(cat value.txt); [ "$v" = good ] || { echo "value was $v with $ANTHROPIC_API_KEY"; exit 1; }\\n' > tests/value_is_good.sh
elif grep -q "You are the implementing agent" "$P"; then
  echo good > value.txt
fi
${LEAKY_DONE}`,
    );
    const r = await runCli(sb, tddRunArgs(agent), { env: ENV });
    if (r.code !== 0)
      console.log(
        r.stdout
          .split('\n')
          .filter((l) => !l.includes('agent.output'))
          .join('\n')
          .slice(-4000),
      );
    expect(r.code).toBe(0);
    expect(git(sb, 'notes', '--ref', 'refs/notes/agent-loop', 'list')).not.toBe(''); // notes were written
    scan(
      'cli tdd',
      [
        { where: 'stdout', text: r.stdout },
        { where: 'stderr', text: r.stderr },
        ...filesUnder(path.join(sb.repo, '.git', 'agent-loop'), 'state dir'),
        commitsSince(path.join(sb.repo, '.git'), base),
      ],
      forms(),
    );
  });

  it('the bundled action, main then post: cache archive, artifact zip, pushed commits, pull request, comments, GitHub requests, Discord, log, summary, outputs', async () => {
    const servicesOptions: ActionsServicesOptions = {};
    const services: ActionsServices = await startActionsServices(servicesOptions);
    servers.push(services);
    const token = services.githubToken;
    const { sb, base } = await leakySandbox([]);
    const origin = path.join(sb.root, 'origin.git');
    execFileSync('git', ['init', '-q', '--bare', '-b', 'main', origin], { env: sb.env });
    git(sb, 'remote', 'add', 'origin', origin);
    git(sb, 'push', '-q', 'origin', 'main');
    const [owner, repo] = services.repository.split('/') as [string, string];
    const gh = await startGitHubServer({ owner, repo, token, gitDir: origin });
    servers.push(gh);
    servicesOptions.restFallback = gh.url;
    const hook = await discord();
    // A user pasted tokens into the issues: the title reaches commit messages and the pull request's title.
    gh.addIssue({
      title: `Make the value good (was failing with ${GHP})`,
      body: `value_is_good fails. Seen with GITHUB_TOKEN=${token}`,
      labels: ['agent-loop'],
    });
    gh.addIssue({ title: 'Hopeless', body: `value_is_good, password ${PASSWORD}`, labels: ['agent-loop'] });
    // The agent also writes what it found into the state directory, which the action publishes
    // (issue 43): a file of its own, a gzipped one, and a log beside agent-loop's.
    const stateDir = path.join(sb.root, 'tmp', 'agent-loop');
    const planted = `${stateDir}/stolen.txt`;
    const agent = await writeAgent(
      sb,
      'leaky',
      `${LEAK}
mkdir -p "${stateDir}/logs" "${stateDir}/loot"
printf 'key=%s password=%s token=${token} hook=${hook.url()} ${GHP}\n' "$ANTHROPIC_API_KEY" "$DB_PASSWORD" > "${planted}"
cp "${planted}" "${stateDir}/loot/env"
gzip -c "${planted}" > "${stateDir}/logs/env.gz"
cp "${planted}" "${stateDir}/logs/iteration-99.log"
case "$AGENT_LOOP_ISSUE_IDS" in
  1) [ -e "$NOTES/tried" ] && echo good > value.txt; touch "$NOTES/tried";;
esac
${LEAKY_DONE}`,
    );
    const runEnv = services.env({ runId: 901, attempt: 1 });
    const env: NodeJS.ProcessEnv = {
      ...sb.env,
      ...runEnv,
      ...ENV,
      RUNNER_TEMP: path.join(sb.root, 'tmp'),
      INPUT_AGENT: 'command',
      'INPUT_AGENT-COMMAND': agent,
      'INPUT_ITERATION-DELAY': '0',
      'INPUT_TEST-COMMAND': 'sh check.sh',
      INPUT_LABEL: 'agent-loop',
      'INPUT_GITHUB-TOKEN': token,
      'INPUT_ALLOWED-AUTHORS': 'OWNER,MEMBER,COLLABORATOR',
      'INPUT_MAX-RETRIES-PER-STEP': '1',
      'INPUT_MAX-CONSECUTIVE-ESCALATIONS': '1',
      'INPUT_DISCORD-WEBHOOK': hook.url(),
    };
    await fs.mkdir(env.RUNNER_TEMP as string, { recursive: true });
    const r = await workflowRun({ runId: 901, repo: sb.repo, scratch: sb.root, env });

    // The run did what makes every sink write: a pull request, an escalation comment, a halt to Discord, both uploads.
    expect(r.outputs).toMatchObject({ status: 'halted', 'issues-closed': '1', 'issues-escalated': '2' });
    expect(gh.pulls()).toHaveLength(1);
    expect(gh.issue(2)?.comments.length).toBeGreaterThan(0);
    expect(hook.received.length).toBeGreaterThan(0);
    const caches = services.caches();
    const artifacts = services.artifacts();
    expect(caches.length).toBeGreaterThan(0);
    expect(artifacts.length).toBeGreaterThan(0);

    expect(r.post.log).toMatch(/Left out of what is published, 3 file\(s\).*loot\/env.*stolen\.txt/);
    expect(r.post.log).toMatch(/masked in what is published: .*logs\/iteration-99\.log/);
    const unmasked = (log: string) =>
      log
        .split('\n')
        .filter((l) => !l.startsWith('::add-mask::'))
        .join('\n');
    const published = gh.issues.map((i) => ({
      title: i.number === 1 || i.number === 2 ? "(the user's own)" : i.title,
      body: i.pull ? i.body : '',
      comments: i.comments,
    }));
    scan(
      'action',
      [
        { where: 'main log', text: unmasked(r.main.log) },
        { where: 'post log', text: unmasked(r.post.log) },
        { where: 'outputs', text: JSON.stringify(r.outputs) },
        { where: 'summary', text: r.summary },
        ...caches.flatMap((c) =>
          cacheArchiveFiles(services.cacheArchive(c.key)).map((e) => ({
            where: `cache ${c.key}: ${e.name}`,
            text: asText(e.data),
          })),
        ),
        ...artifacts.flatMap((a) =>
          unzip(services.artifactZip(a.id)).map((e) => ({
            where: `artifact ${a.name}: ${e.name}`,
            text: asText(e.data),
          })),
        ),
        { where: 'pull requests, issue comments', text: JSON.stringify(published) },
        { where: 'GitHub request bodies', text: JSON.stringify(gh.requests.map((q) => q.body ?? null)) },
        { where: 'discord bodies', text: JSON.stringify(hook.received) },
        commitsSince(origin, base),
        commitsSince(path.join(sb.repo, '.git'), base),
        // The runner's own disk, but for what the agent planted there (never published: the post log says so).
        ...filesUnder(stateDir, 'state dir').filter(
          (p) => !/\/(stolen\.txt|loot\/env|logs\/env\.gz|logs\/iteration-99\.log)$/.test(p.where),
        ),
      ],
      forms([
        {
          name: 'workflow token (pasted into an issue)',
          needles: [token, b64(`x-access-token:${token}`).slice(4, -4)],
        },
        { name: 'webhook token', needles: [hook.token] },
      ]),
    );
  });
});
