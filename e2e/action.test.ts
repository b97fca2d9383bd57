/**
 * The bundled action (dist/main/index.js) run as the runner runs it: inputs as INPUT_* variables,
 * outputs and the job summary written to the GITHUB_OUTPUT and GITHUB_STEP_SUMMARY files.
 * This slice works the repository's beads issues; the GitHub source and the cache/artifact
 * persistence come next.
 */
import { describe, expect, it } from '@jest/globals';
import { execFileSync, spawn } from 'node:child_process';
import { promises as fs, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DONE_REPORT, type Sandbox, createSandbox, git, issue, writeAgent } from './helpers.js';
import { isWorkflowCommand } from '../src/report/workflowCommands.js';

const MAIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'main', 'index.js');
const SECRET = 'ghs_0123456789abcdefghijklmnopqrstuvwxyzAB';

/** The sandbox's `origin`, a bare repository holding its main: where source beads pushes finished cycles. */
function withOrigin(sb: Sandbox): string {
  const origin = path.join(sb.root, 'origin.git');
  execFileSync('git', ['init', '-q', '--bare', '-b', 'main', origin], { env: sb.env });
  git(sb, 'remote', 'add', 'origin', origin);
  git(sb, 'push', '-q', 'origin', 'main');
  return origin;
}

async function runMain(sb: Sandbox, inputs: Record<string, string>) {
  const outputFile = path.join(sb.root, 'output.txt');
  const summaryFile = path.join(sb.root, 'summary.md');
  await fs.writeFile(outputFile, '');
  await fs.writeFile(summaryFile, '');
  const env: NodeJS.ProcessEnv = {
    ...sb.env,
    GITHUB_WORKSPACE: sb.repo,
    GITHUB_REPOSITORY: 'octo/widgets',
    GITHUB_OUTPUT: outputFile,
    GITHUB_STEP_SUMMARY: summaryFile,
    RUNNER_TEMP: sb.root,
  };
  for (const [name, value] of Object.entries(inputs)) env[`INPUT_${name.toUpperCase()}`] = value;
  const child = spawn(process.execPath, [MAIN], { cwd: sb.repo, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  child.stdout.on('data', (c: Buffer) => {
    stdout += c.toString();
  });
  child.stderr.on('data', (c: Buffer) => {
    stdout += c.toString();
  });
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return {
    code,
    stdout,
    outputs: parseOutputs(readFileSync(outputFile, 'utf8')),
    summary: readFileSync(summaryFile, 'utf8'),
  };
}

/** GITHUB_OUTPUT's heredoc format: name<<DELIMITER \n value \n DELIMITER. */
function parseOutputs(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const re = /^([^\n<]+)<<(\S+)\n([\s\S]*?)\n\2$/gm;
  for (const m of text.matchAll(re)) out[m[1] as string] = m[3] as string;
  return out;
}

const base = (agent: string) => ({
  source: 'beads',
  agent: 'command',
  'agent-command': agent,
  'iteration-delay': '0',
  'test-command': 'sh check.sh',
  'issues-file': './.beads/issues.jsonl',
  'github-token': SECRET,
  // Each finished cycle pushed onto origin's main (a file remote here: no pull request API needed).
  'on-success': 'merge',
});

describe('the bundled action, main step', () => {
  it('runs one slice, sets every output and writes the job summary; exit 0 when complete', async () => {
    const sb = await createSandbox([issue('bd-1', 'Make the value good')]);
    try {
      const origin = withOrigin(sb);
      const agent = await writeAgent(sb, 'fixer', `echo good > value.txt\n${DONE_REPORT}`);
      const r = await runMain(sb, base(agent));
      expect(r.code).toBe(0);
      expect(execFileSync('git', ['--git-dir', origin, 'show', 'main:value.txt'], { encoding: 'utf8' })).toBe('good\n');
      expect(r.outputs).toMatchObject({
        status: 'complete',
        'halt-reason': '',
        iterations: '1',
        'failed-iterations': '0',
        'successful-iterations': '1',
        'issues-closed': 'bd-1',
        'issues-escalated': '',
      });
      expect(r.outputs['checkpoint-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(JSON.parse(r.outputs['result-json'] ?? '{}')).toMatchObject({
        status: 'complete',
        issuesClosed: ['bd-1'],
      });
      expect(r.summary).toContain('## ✅ agent-loop: complete');
      expect(r.summary).toContain('| closed | bd-1 |');
    } finally {
      await sb.cleanup();
    }
  });

  it('a halt fails the step with an error annotation and the diagnostic in the summary; the token never appears', async () => {
    const sb = await createSandbox([issue('bd-1', 'One'), issue('bd-2', 'Two', { priority: 2 })]);
    try {
      withOrigin(sb);
      const agent = await writeAgent(
        sb,
        'leaky',
        `echo "my token is ${SECRET}"\necho "x$AGENT_LOOP_ITERATION" >> value.txt\n${DONE_REPORT}`,
      );
      const r = await runMain(sb, base(agent));
      expect(r.code).toBe(1);
      expect(r.outputs).toMatchObject({
        status: 'halted',
        'halt-reason': 'failure_loop',
        'issues-escalated': 'bd-1,bd-2',
      });
      expect(r.stdout).toMatch(/::error::agent-loop halted \(failure_loop\): FAILURE LOOP DETECTED/);
      // One collapsible group per iteration, a warning annotation per escalation.
      const groups = r.stdout.split('\n').filter((l) => l.startsWith('::group::'));
      expect(groups).toHaveLength(8);
      expect(groups[0]).toMatch(/^::group::\[iteration 1\/100\] bd-1 "One"/);
      expect(r.stdout.split('\n').filter((l) => l === '::endgroup::')).toHaveLength(8);
      expect(r.stdout.split('\n').filter((l) => l.startsWith('::warning::Escalated '))).toEqual([
        expect.stringMatching(/^::warning::Escalated bd-1 "One": step verify failed 4 times/),
        expect.stringMatching(/^::warning::Escalated bd-2 "Two": step verify failed 4 times/),
      ]);
      expect(r.stdout).toContain(`::add-mask::${SECRET}`);
      expect(r.summary).toContain('Loop type: consecutive escalations');
      const shown = r.stdout.replace(`::add-mask::${SECRET}`, '');
      for (const text of [shown, r.summary, JSON.stringify(r.outputs)]) expect(text).not.toContain(SECRET);
    } finally {
      await sb.cleanup();
    }
  });

  it('issue 11: agent output, test output and the halt diagnostic quoting them never become workflow commands', async () => {
    const sb = await createSandbox([issue('bd-1', 'One'), issue('bd-2', 'Two', { priority: 2 })]);
    try {
      withOrigin(sb);
      // Every form the runner reads: ::name:: at a line start or after white space, ##[name] anywhere.
      const forged = `echo '::error::forged by the agent'; echo '   ::set-output name=status::complete'; echo '::endgroup::'
echo '::stop-commands::forged-token'; echo 'text ##[error]forged v1'; echo '::add-mask::value.txt' >&2`;
      await fs.appendFile(path.join(sb.repo, 'check.sh'), '');
      const agent = await writeAgent(
        sb,
        'forger',
        `${forged}\necho "x$AGENT_LOOP_ITERATION" >> value.txt\n${DONE_REPORT}`,
      );
      const r = await runMain(sb, {
        ...base(agent),
        'test-command': `sh -c "echo '::warning::forged by a test'; echo '##[group]forged'; [ \\"\\$AGENT_LOOP_TEST_PURPOSE\\" = baseline ]"`,
      });
      expect(r.outputs).toMatchObject({ status: 'halted', 'halt-reason': 'failure_loop' });
      expect(r.stdout).toContain('forged by the agent'); // it was printed, as text
      const commands = r.stdout.split('\n').filter(isWorkflowCommand);
      expect(commands.filter((l) => !/^::(add-mask|group|endgroup|warning|error)::/.test(l))).toEqual([]);
      expect(commands.filter((l) => l.includes('forged'))).toEqual([]);
      expect(r.outputs.status).toBe('halted'); // no forged set-output
    } finally {
      await sb.cleanup();
    }
  });

  it('an agent CLI that is not on PATH: the step fails saying so and naming the input that installs it', async () => {
    const sb = await createSandbox();
    try {
      sb.env.PATH = '/usr/bin:/bin'; // no claude here, whatever the machine has elsewhere
      const r = await runMain(sb, { ...base('unused'), agent: 'claude', 'agent-command': '' });
      expect(r.code).toBe(1);
      expect(r.stdout).toContain('::error::agent-loop: cannot start%0A  - agent: claude: `claude` is not on PATH.');
      expect(r.stdout).toContain(
        '%0AOn a hosted runner, set the input install-agent: true to have the action install the pinned CLI.',
      );
    } finally {
      await sb.cleanup();
    }
  });

  it('a bad input fails the step naming the input', async () => {
    const sb = await createSandbox();
    try {
      const r = await runMain(sb, { ...base('true'), 'max-iterations': 'lots' });
      expect(r.code).toBe(1);
      expect(r.stdout).toContain(
        '::error::agent-loop: invalid inputs%0A- the input max-iterations: got "lots"; expected a whole number from 1 to 1000000.',
      );
    } finally {
      await sb.cleanup();
    }
  });
});
