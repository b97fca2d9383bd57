/** The command line's help and usage errors, as a new user meets them (a new user's pass, issue 41). */
import { describe, expect, it } from '@jest/globals';
import { main } from '../../src/cli/main.js';

async function cli(argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, {
    cwd: '/nonexistent',
    env: {},
    stdout: (t) => out.push(t),
    stderr: (t) => err.push(t),
  });
  return { code, stdout: out.join(''), stderr: err.join('') };
}

describe('agent-loop --help', () => {
  it('a mistyped command with --help prints the help and says what was wrong: exit 2', async () => {
    const r = await cli(['clean', '--help']);
    expect(r.code).toBe(2);
    expect(r.stdout).toContain('Usage: agent-loop <command> [options]');
    expect(r.stderr).toContain("Unknown command 'clean': did you mean cleanup?");
  });

  it('an unknown option beside --help is named too', async () => {
    const r = await cli(['run', '--max-iteration', '5', '--help']);
    expect(r.code).toBe(2);
    expect(r.stdout).toContain('--max-iterations');
    expect(r.stderr).toContain('Unknown option --max-iteration: did you mean --max-iterations?');
  });

  it('a command --help alone is exit 0 with nothing on stderr, and the top-level help names --version', async () => {
    const r = await cli(['status', '--help']);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect((await cli(['--help'])).stdout).toContain('`agent-loop --version` prints the version');
  });
});
