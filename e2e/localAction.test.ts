/**
 * The action run by GitHub's own local runner for JavaScript actions, @github/local-action (issue 15):
 * `local-action . src/main.ts <.env file> --post src/post.ts` imports the two step modules from the
 * TypeScript sources (through tsx) and calls the run() each exports, main then post, in one process.
 * It stands in for @actions/core (inputs from the .env file, outputs printed as `::set-output` lines,
 * the job summary written to GITHUB_STEP_SUMMARY, main's saved state handed to post in memory) and
 * for @actions/cache and @actions/artifact (files under LOCAL_ACTION_CACHE_PATH and
 * LOCAL_ACTION_ARTIFACT_PATH). Everything else is real: GitHub issues on the REST stand-in, git
 * pushing over smart HTTP, a scripted agent, the repository's own failing test (the GitHub e2e rig).
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { existsSync, promises as fs, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runNode } from './actionRunner.js';
import { DONE_REPORT, writeAgent } from './helpers.js';
import { type GitHubRig, LABEL, startGitHubRig } from './githubRig.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const LOCAL_ACTION = path.join(ROOT, 'node_modules', '@github', 'local-action', 'bin', 'local-action.js');

let rig: GitHubRig;
beforeEach(async () => {
  rig = await startGitHubRig();
});
afterEach(async () => {
  await rig.close();
});

/** One line of a .env file as dotenv reads it (a value quoted, never expanded or cut at a `#`). */
function dotenvLine(name: string, value: string): string {
  if (/[\n\\]/.test(value) || (value.includes('"') && value.includes("'")))
    throw new Error(`${name}: this test writes no value with a newline, a backslash or both quotes`);
  return value.includes('"') ? `${name}='${value}'` : `${name}="${value}"`;
}

interface LocalActionRun {
  code: number | null;
  log: string;
  /** What main set, from local-action's `::set-output name=…::…` lines. */
  outputs: Record<string, string>;
  summary: string;
}

/**
 * One workflow run on a fresh runner through local-action: the state directory gone, the checkout
 * on main. The runner's variables and the inputs go into the .env file, as a maintainer debugging
 * the action writes them; the process keeps the sandbox's own environment (PATH, HOME, no git config).
 */
async function localActionRun(runId: number, agent: string): Promise<LocalActionRun> {
  const { sb } = rig;
  const runnerEnv = await rig.runnerEnv(runId, agent, {}, {}, sb.repo);
  await fs.rm(path.join(runnerEnv.RUNNER_TEMP as string, 'agent-loop'), { recursive: true, force: true });
  const local = path.join(sb.root, 'local-action');
  const summaryFile = path.join(sb.root, `summary-${runId}.md`);
  const dotenv: Record<string, string> = {
    ...(Object.fromEntries(
      Object.entries(runnerEnv).filter(([name, value]) => value !== undefined && sb.env[name] === undefined),
    ) as Record<string, string>),
    GITHUB_WORKSPACE: sb.repo,
    GITHUB_STEP_SUMMARY: summaryFile,
    // local-action's cache and artifact stand-ins keep what post publishes here, across its runs.
    LOCAL_ACTION_WORKSPACE: local,
    LOCAL_ACTION_CACHE_PATH: path.join(local, 'cache'),
    LOCAL_ACTION_ARTIFACT_PATH: path.join(local, 'artifacts'),
  };
  for (const dir of ['cache', 'artifacts']) await fs.mkdir(path.join(local, dir), { recursive: true });
  const envFile = path.join(sb.root, `run-${runId}.env`);
  await fs.writeFile(
    envFile,
    Object.entries(dotenv)
      .map(([name, value]) => dotenvLine(name, value))
      .join('\n') + '\n',
  );

  const { code, log } = await runNode(
    [LOCAL_ACTION, '.', 'src/main.ts', envFile, '--post', 'src/post.ts'],
    { ...sb.env, NO_COLOR: '1', npm_config_update_notifier: 'false' },
    ROOT,
  );
  const outputs = Object.fromEntries(
    [...log.matchAll(/^::set-output name=([^:]+)::(.*)$/gm)].map((m) => [m[1] as string, m[2] as string]),
  );
  return { code, log, outputs, summary: existsSync(summaryFile) ? await fs.readFile(summaryFile, 'utf8') : '' };
}

/** The part of local-action's log one step printed: from its banner to the next one. */
function step(log: string, banner: 'Running Action' | 'Running Post Step'): string {
  const start = log.indexOf(banner);
  if (start < 0) return '';
  const next = log.slice(start + banner.length).search(/={20,}\n\s+(Running Post Step|Action Outputs)\n/);
  return next < 0 ? log.slice(start) : log.slice(start, start + banner.length + next);
}

describe('issue 15: the action under @github/local-action (src/main.ts then src/post.ts, from the sources)', () => {
  it('main works a labelled issue into a pull request and sets the outputs and the summary; post publishes the state, which the next run restores', async () => {
    const { gh, sb, origin } = rig;
    gh.addIssue({ title: 'Make the value good', body: 'value.txt must say good', labels: [LABEL] });
    const agent = await writeAgent(
      sb,
      'fixer',
      `echo "$AGENT_LOOP_ISSUE_IDS" >> "$NOTES/worked"\necho good > value.txt\n${DONE_REPORT}`,
    );

    const first = await localActionRun(801, agent);
    expect(first.code).toBe(0);
    expect(first.log).not.toMatch(/^::error::/m);
    expect(first.log).not.toContain('does not export a run() function');
    expect(await fs.readFile(path.join(sb.root, 'worked'), 'utf8')).toBe('1\n');

    // Main: the outputs action.yml declares, as local-action's @actions/core stand-in received them.
    const prs = gh.pulls();
    expect(prs).toHaveLength(1);
    const prUrl = `https://github.com/${gh.owner}/${gh.repo}/pull/${prs[0]?.number}`;
    expect(first.outputs).toMatchObject({
      status: 'complete',
      'halt-reason': '',
      iterations: '1',
      'failed-iterations': '0',
      'successful-iterations': '1',
      'issues-closed': '1',
      'issues-escalated': '',
      'pull-requests': prUrl,
    });
    const checkpointId = first.outputs['checkpoint-id'];
    expect(checkpointId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(JSON.parse(first.outputs['result-json'] ?? '{}')).toMatchObject({
      status: 'complete',
      issuesClosed: ['1'],
      checkpointId,
    });
    expect(prs[0]?.body).toMatch(/^Closes #1$/m);
    expect(
      execFileSync('git', ['--git-dir', origin, 'show', 'agent-loop/issue-1:value.txt'], { encoding: 'utf8' }),
    ).toBe('good\n');
    // The job summary, written through the stand-in's core.summary to GITHUB_STEP_SUMMARY.
    expect(first.summary).toContain('## ✅ agent-loop: complete');
    // Each issue links to GitHub (GITHUB_SERVER_URL: the stand-in's), the pull request by its own URL.
    const issueUrl = `${rig.remote.serverUrl}/octo-org/agent-repo/issues/1`;
    expect(first.summary).toContain(`| pull requests | [#${prs[0]?.number}](${prUrl}) ([#1](${issueUrl})) |`);
    expect(first.summary).toContain(`| done | [#1](${issueUrl}) |`);
    expect(first.summary).toContain(checkpointId);
    // The token is masked (the stand-in's setSecret) and never printed.
    expect(first.log).not.toContain(rig.services.githubToken);

    // Post ran after main, in the same process, with the state main saved for it.
    const post = step(first.log, 'Running Post Step');
    expect(post).toMatch(/agent-loop post: published generation 1 \(cache agent-loop-\S+-801-1, artifact \d+\)\./);
    expect(readdirSync(path.join(sb.root, 'local-action', 'cache'))).toEqual([
      expect.stringMatching(/^agent-loop-\S+-801-1-[0-9a-f]+\.cache$/),
    ]);
    expect(readdirSync(path.join(sb.root, 'local-action', 'artifacts'))).toEqual([
      expect.stringMatching(/^agent-loop-checkpoint-\S+\.zip$/),
    ]);

    // The next scheduled run, on a fresh runner: main restores what post published (the baselines
    // it recorded among it) and works the new issue; post publishes the next generation.
    const next = gh.addIssue({ title: 'Keep the value good', body: 'value_is_good must pass', labels: [LABEL] });
    const second = await localActionRun(802, agent);
    expect(second.code).toBe(0);
    expect(second.log).not.toMatch(/^::error::/m);
    const main = step(second.log, 'Running Action');
    expect(main).toMatch(/Restored the state from cache entry agent-loop-\S+ \(generation 1\)\./);
    expect(main).toMatch(/Baseline for this tree already known/);
    expect(second.outputs).toMatchObject({ status: 'complete', 'issues-closed': String(next.number) });
    expect(second.outputs['checkpoint-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(second.outputs['checkpoint-id']).not.toBe(checkpointId);
    expect(step(second.log, 'Running Post Step')).toMatch(
      /agent-loop post: published generation 2 \(cache agent-loop-\S+-802-1, artifact \d+\)\./,
    );
  });
});
