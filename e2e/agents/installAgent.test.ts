/**
 * `install-agent` end to end: the bundled action on a runner without Claude Code installs the
 * pinned @anthropic-ai/claude-code with the real npm (from the registry; the npm cache that
 * scripts/install-agent-clis.mjs warmed makes it quick) into RUNNER_TEMP, and the iteration runs
 * with that binary against the scripted Anthropic server.
 */
import { describe, expect, it } from '@jest/globals';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PINNED_AGENT_CLIS } from '../../src/action/installAgent.js';
import { runStep } from '../actionRunner.js';
import { createSandbox, git } from '../helpers.js';
import { claudeEnv, startAnthropicServer, textTurn, toolTurn } from '../support/anthropicServer.js';
import { report } from './support.js';

describe('install-agent', () => {
  it('installs the pinned Claude Code when it is not on PATH, and the iteration runs with it', async () => {
    const sb = await createSandbox();
    // Claude Code: run the check through Bash, then report done.
    const server = await startAnthropicServer((r) => {
      if (!r.mainLoop) return undefined;
      return JSON.stringify(r.body).includes('tool_result')
        ? textTurn(`Done.\n\n${report('0', false, 'made the value good')}`)
        : toolTurn('Bash', { command: 'echo good > value.txt && sh check.sh', description: 'fix and check' });
    });
    try {
      // source beads pushes each finished cycle (on-success: merge, onto this bare origin).
      const origin = path.join(sb.root, 'origin.git');
      git(sb, 'init', '-q', '--bare', '-b', 'main', origin);
      git(sb, 'remote', 'add', 'origin', origin);
      git(sb, 'push', '-q', 'origin', 'main');
      const runnerTemp = path.join(sb.root, 'runner-temp');
      await fs.mkdir(path.join(sb.root, 'tmp'), { recursive: true });
      await fs.mkdir(runnerTemp);
      const files = {
        GITHUB_OUTPUT: path.join(sb.root, 'out'),
        GITHUB_STEP_SUMMARY: path.join(sb.root, 'summary'),
        GITHUB_STATE: path.join(sb.root, 'state'),
      };
      for (const f of Object.values(files)) await fs.writeFile(f, '');
      const env: NodeJS.ProcessEnv = {
        ...sb.env,
        ...claudeEnv(server.url, 1),
        ...files,
        // A hosted runner: node and npm, no agent CLI.
        PATH: [path.dirname(process.execPath), '/usr/bin', '/bin'].join(path.delimiter),
        TMPDIR: path.join(sb.root, 'tmp'),
        npm_config_cache: process.env.npm_config_cache ?? path.join(os.homedir(), '.npm'),
        // What npm needs of this machine's network (its CA bundle, a proxy), as a runner's environment carries it.
        ...Object.fromEntries(
          Object.entries(process.env).filter(([k]) =>
            /^(NODE_EXTRA_CA_CERTS|SSL_CERT_FILE|SSL_CERT_DIR|https?_proxy|no_proxy|npm_config_(registry|cafile|proxy|https_proxy|strict_ssl))$/i.test(
              k,
            ),
          ),
        ),
        GITHUB_WORKSPACE: sb.repo,
        RUNNER_TEMP: runnerTemp,
        GITHUB_REPOSITORY: 'octo/widgets',
        INPUT_SOURCE: 'beads',
        'INPUT_ON-SUCCESS': 'merge',
        'INPUT_ISSUES-FILE': './.beads/issues.jsonl',
        INPUT_AGENT: 'claude',
        'INPUT_INSTALL-AGENT': 'true',
        'INPUT_AGENT-PERMISSION-MODE': 'acceptEdits',
        'INPUT_AGENT-ALLOWED-TOOLS': 'Bash Write Edit Read',
        'INPUT_TEST-COMMAND': 'sh check.sh',
        'INPUT_ITERATION-DELAY': '0',
        'INPUT_GITHUB-TOKEN': 'ghs_unused0000000000000000000000000000',
      };
      const main = await runStep('main', env, sb.repo);
      const pin = PINNED_AGENT_CLIS.claude;
      expect(main.log).toContain(`claude is not on PATH: installing ${pin.pkg}@${pin.version}`);
      expect(main.log).toContain(`agent-loop: installed ${pin.pkg}@${pin.version}.`);
      expect(main.code).toBe(0);
      expect(await fs.readFile(files.GITHUB_OUTPUT, 'utf8')).toMatch(/^status<<.*\ncomplete\n/m);
      expect(git(sb, 'show', 'main:value.txt')).toBe('good');
      expect(git(sb, '--git-dir', origin, 'show', 'main:value.txt')).toBe('good');
      expect(server.mainLoopRequests().length).toBeGreaterThanOrEqual(2); // the installed CLI talked to the model
      await expect(
        fs.access(path.join(runnerTemp, 'agent-loop-clis', 'node_modules', '.bin', 'claude')),
      ).resolves.toBeUndefined();
    } finally {
      await server.close();
      await sb.cleanup();
    }
  }, 300_000);
});
