/**
 * Issue 41, adversarial pass over "one masking boundary": a known secret (ANTHROPIC_API_KEY, which
 * the agent is given) that enters the engine by a way the output mask does not see must still reach
 * no place a person or the public reads. The agent's output is masked line by line where it enters
 * (src/agents/process.ts); an agent speaking JSON (claude's stream-json) is decoded after that mask,
 * and JSON lets any character be written as a \u escape (`\u0073k-ant-…`): the masked line holds no
 * secret, the decoded result does. Its report's `work_remaining` becomes an escalation's reason, and
 * the reason becomes the note in the beads issues file, which nothing masks on its way out.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { existsSync, promises as fs, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import {
  type CliResult,
  type Sandbox,
  claudeArgs,
  calcSandbox,
  commit,
  createSandbox,
  git,
  DONE_REPORT,
  TEST_COMMAND,
  runArgs,
  runCli,
  shellQuote,
  tddRunArgs,
  writeAgent,
} from './helpers.js';

const sandboxes: Sandbox[] = [];
afterEach(async () => {
  await Promise.all(sandboxes.splice(0).map((s) => s.cleanup()));
});

const SECRET = 'sk-ant-api03-Q7w8E9r0T1y2U3i4O5p6A7s8D9f0';

/** Every file under `dir`, as text. */
function filesUnder(dir: string): Array<{ file: string; text: string }> {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    return statSync(p).isDirectory() ? filesUnder(p) : [{ file: p, text: readFileSync(p, 'latin1') }];
  });
}

/** The places a run publishes or keeps that hold the key in clear: the issues file, the state directory, every ref's commits, names and notes, the output. */
function holdingTheKey(sb: Sandbox, r: CliResult): string[] {
  const places = [
    ...filesUnder(path.join(sb.repo, '.beads')),
    ...filesUnder(path.join(sb.repo, '.git', 'agent-loop')),
    { file: 'git log -p --all (messages, names, notes)', text: git(sb, 'log', '-p', '--all', '--name-only') },
    { file: 'stdout', text: r.stdout },
    { file: 'stderr', text: r.stderr },
  ];
  return places.filter((p) => p.text.includes(SECRET)).map((p) => p.file);
}

/**
 * Writes `<root>/bin/claude`: it prints a stream-json init and a result whose report says work
 * remains, quoting the key it was given with its first character written as a JSON \u escape.
 */
async function writeEscapingClaude(sb: Sandbox): Promise<NodeJS.ProcessEnv> {
  const bin = path.join(sb.root, 'bin');
  await fs.mkdir(bin, { recursive: true });
  const script = `
const key = process.env.ANTHROPIC_API_KEY;
const result = 'Not done.\\n\\n\`\`\`yaml\\nwork_remaining: finish with ' + key + '\\nrequires_continuation: true\\nstuck_detected: false\\n\`\`\`';
const line = JSON.stringify({ type: 'result', subtype: 'success', is_error: false, num_turns: 1, result, session_id: 's1' });
console.log(JSON.stringify({ type: 'system', subtype: 'init', session_id: 's1', tools: [] }));
console.log(line.split(key).join('\\\\u' + key.charCodeAt(0).toString(16).padStart(4, '0') + key.slice(1)));
`;
  await fs.writeFile(path.join(bin, 'escape.cjs'), script);
  const file = path.join(bin, 'claude');
  await fs.writeFile(file, `#!/bin/sh\ncat > /dev/null\nexec node ${shellQuote(path.join(bin, 'escape.cjs'))}\n`);
  await fs.chmod(file, 0o755);
  return { PATH: `${bin}:${sb.env.PATH ?? ''}`, ANTHROPIC_API_KEY: SECRET };
}

describe('a secret the output mask cannot see as written (issue 41)', () => {
  it("claude's JSON with the key \\u-escaped: the escalation's note holds no key, in the issues file, the commits or the state directory, nor the iteration's log the escaped key", async () => {
    const sb = await createSandbox();
    sandboxes.push(sb);
    const env = await writeEscapingClaude(sb);
    const r = await runCli(sb, claudeArgs('--max-iterations-per-issue', '1', '--max-iterations', '2'), { env });
    const escalated = r.stdout.split('\n').filter((l) => l.includes('"cycle.escalated"'));
    // The report was read (the escalation quotes it): the attempt reached the sink under test.
    expect(escalated.join('\n')).toContain('finish with');
    expect(holdingTheKey(sb, r)).toEqual([]);
    // Nor as printed: the iteration's log keeps the event masked, which any JSON reader would decode.
    const escaped = `\\u0073${SECRET.slice(1)}`;
    const logs = filesUnder(path.join(sb.repo, '.git', 'agent-loop')).filter((p) => p.text.includes(escaped));
    expect(logs.map((p) => p.file)).toEqual([]);
  });
});

describe('a secret in what git or the test report names (issue 41)', () => {
  it('--workflow tdd: a test file (and so a test) named with the key: never committed (secret_in_change), in no note, issues file or state file', async () => {
    // The runner names each test for its file (tests/<name>.sh), in a JUnit report.
    const sb = await calcSandbox();
    sandboxes.push(sb);
    const agent = await writeAgent(
      sb,
      'tdd',
      `P="$AGENT_LOOP_PROMPT_FILE"
if grep -q "You are the test agent" "$P"; then
  echo '[ "$(sh calc.sh 2 3)" = 5 ]' > "tests/adds_$ANTHROPIC_API_KEY.sh"
elif grep -q "You are the implementing agent" "$P"; then
  printf '#!/bin/sh\\necho $(($1 + $2))\\n' > calc.sh
fi
printf 'Done.\\n\\n\`\`\`yaml\\nwork_remaining: 0\\nrequires_continuation: false\\n\`\`\`\\n'
`,
    );
    const r = await runCli(sb, [...tddRunArgs(agent), '--junit-file', 'reports/junit.xml'], {
      env: { ANTHROPIC_API_KEY: SECRET },
    });
    // The agent wrote the file named with the key (the attempt reached the commit); no ref holds it.
    expect(readdirSync(path.join(sb.repo, 'tests')).some((name) => name.includes(SECRET))).toBe(true);
    expect(holdingTheKey(sb, r)).toEqual([]);
  });

  it('--workflow tdd: a test the JUnit report names with the key (the runner decodes it; no file holds it) reaches no note, commit, issues file or state file', async () => {
    const sb = await calcSandbox();
    sandboxes.push(sb);
    // RED: a failing test, and a runner that names every test with the key, stored reversed (no scan sees it),
    // and copies each report it writes to <root>/last-junit.xml.
    const agent = await writeAgent(
      sb,
      'tdd',
      `P="$AGENT_LOOP_PROMPT_FILE"
if grep -q "You are the test agent" "$P"; then
  echo '[ "$(sh calc.sh 2 3)" = 5 ]' > tests/adds.sh
  node -e 'const fs = require("fs"); const k = [...process.env.ANTHROPIC_API_KEY].reverse().join(""); const at = "name=$(basename \\"$t\\" .sh)"; fs.writeFileSync("run-tests.sh", fs.readFileSync("run-tests.sh", "utf8").replace(at, at + "_$(printf %s " + k + " | rev)").replace("> reports/junit.xml", "> reports/junit.xml; cp reports/junit.xml ${sb.root}/last-junit.xml"))'
elif grep -q "You are the implementing agent" "$P"; then
  printf '#!/bin/sh\\necho $(($1 + $2))\\n' > calc.sh
fi
printf 'Done.\\n\\n\`\`\`yaml\\nwork_remaining: 0\\nrequires_continuation: false\\n\`\`\`\\n'
`,
    );
    const r = await runCli(sb, [...tddRunArgs(agent), '--junit-file', 'reports/junit.xml'], {
      env: { ANTHROPIC_API_KEY: SECRET },
    });
    // The report named the test with the key (the attempt reached the engine). Issue 42: the phases' runs write it
    // in a judge tree's report directory, removed after the run; the runner keeps a copy outside the repository.
    expect(readFileSync(path.join(sb.root, 'last-junit.xml'), 'utf8')).toContain(`adds_${SECRET}`);
    expect(holdingTheKey(sb, r)).toEqual([]);
  });
});

describe('a secret the report block decodes (issue 41)', () => {
  it("a report whose YAML escapes the key's first character (\\x73): the escalation's note holds no key", async () => {
    const sb = await createSandbox();
    sandboxes.push(sb);
    const agent = await writeAgent(
      sb,
      'yamlEscape',
      `k=$(printf %s "$ANTHROPIC_API_KEY" | cut -c2-)
printf '%s\\n' '\`\`\`yaml' "work_remaining: \\"finish with \\\\x73$k\\"" 'requires_continuation: true' '\`\`\`'
`,
    );
    const r = await runCli(sb, runArgs(agent, '--max-iterations-per-issue', '1', '--max-iterations', '2'), {
      env: { ANTHROPIC_API_KEY: SECRET },
    });
    // The report was read (the escalation quotes it): the attempt reached the sink under test.
    expect(
      r.stdout
        .split('\n')
        .filter((l) => l.includes('"cycle.escalated"'))
        .join('\n'),
    ).toContain('finish with');
    expect(holdingTheKey(sb, r)).toEqual([]);
  });
});

describe('a secret the JUnit report decodes (issue 41)', () => {
  it("a failing test named with the key's first character as a character reference (&#115;): the escalation's note holds no key", async () => {
    const sb = await createSandbox();
    sandboxes.push(sb);
    // The runner (no secret in it) names its failing test with what the agent left in a file of its
    // work (an untracked one: the verdict runs in a judge tree of the work, where ignored files are not).
    await fs.writeFile(
      path.join(sb.repo, 'junit.sh'),
      `mkdir -p reports\nn=$(cat name.txt 2>/dev/null)\nprintf '<testsuites><testsuite name="s" tests="1" failures="1"><testcase classname="c" name="t %s"><failure message="m">m</failure></testcase></testsuite></testsuites>\\n' "$n" > reports/junit.xml\necho 1 failed\nexit 1\n`,
    );
    await fs.writeFile(path.join(sb.repo, '.gitignore'), 'reports/\n');
    git(sb, 'add', '-A');
    commit(sb, 'junit runner');
    const agent = await writeAgent(
      sb,
      'charRef',
      `printf '&#115;%s' "$(printf %s "$ANTHROPIC_API_KEY" | cut -c2-)" > name.txt\n${DONE_REPORT}`,
    );
    const args = runArgs(
      agent,
      '--max-retries-per-step',
      '0',
      '--max-iterations',
      '3',
      '--junit-file',
      'reports/junit.xml',
    );
    args[args.indexOf(TEST_COMMAND)] = 'sh junit.sh';
    const r = await runCli(sb, args, { env: { ANTHROPIC_API_KEY: SECRET } });
    // The verdict read the report (the escalation quotes the test): the attempt reached the sink under test.
    expect(
      r.stdout
        .split('\n')
        .filter((l) => l.includes('"cycle.escalated"'))
        .join('\n'),
    ).toContain('t ');
    expect(holdingTheKey(sb, r)).toEqual([]);
  });
});
