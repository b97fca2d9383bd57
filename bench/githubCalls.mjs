// The GitHub API calls one slice of the action makes, with a backlog of 10 and of 5,000 labelled
// issues (target: the same order of magnitude). The bundled dist/main runs as the runner runs it,
// source github, against the GitHub REST stand-in (e2e/support/githubServer.ts, Link pagination,
// ETags, rate-limit accounting) with real git pushing to a bare origin. The slice works 3 issues:
// each is fixed by the agent, pushed, and gets its pull request and label.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { cliEnv, loadBundled, repoRoot, tempDir, verdict } from './lib/common.mjs';

const OUT = path.join('build', 'bench-github');
const SLICE = 3;

const loadServer = () => loadBundled('bench/githubCalls-entry.ts', OUT);

/** A repository with a failing value check, pushed to a bare origin beside it, and the agent that fixes it. */
export function sliceRepo(dir) {
  const env = cliEnv(dir, { git: true });
  const git = (...args) => {
    const r = spawnSync('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@example.invalid', ...args], {
      cwd: dir,
      encoding: 'utf8',
      env,
    });
    if (r.status !== 0) throw new Error(`git ${args.join(' ')} failed: ${r.stderr}`);
  };
  const repo = path.join(dir, 'repo');
  const origin = path.join(dir, 'origin.git');
  git('init', '-q', '--bare', '-b', 'main', origin);
  git('init', '-q', '-b', 'main', repo);
  writeFileSync(path.join(repo, 'value.txt'), 'bad\n');
  // In TAP, so that the suite is read per test (a failing suite nobody can read halts baseline_unreadable).
  writeFileSync(
    path.join(repo, 'check.sh'),
    'echo "TAP version 13"\nif [ "$(cat value.txt)" = good ]; then echo "ok 1 - value_is_good"; r=0; else echo "not ok 1 - value_is_good"; r=1; fi\necho "1..1"\nexit $r\n',
  );
  git('-C', repo, 'add', '-A');
  git('-C', repo, 'commit', '-q', '-m', 'bench: a value to fix');
  git('-C', repo, 'remote', 'add', 'origin', origin);
  git('-C', repo, 'push', '-q', 'origin', 'main');
  writeFileSync(
    path.join(dir, 'agent.sh'),
    "echo good > value.txt\nprintf 'Done.\\n```yaml\\nwork_remaining: 0\\nrequires_continuation: false\\n```\\n'\n",
  );
  return { repo, origin, env };
}

async function oneSlice(startGitHubServer, backlog) {
  const dir = tempDir('github-calls');
  const { repo, origin, env } = sliceRepo(dir);
  const server = await startGitHubServer({ owner: 'octo-org', repo: 'widgets', gitDir: origin });
  try {
    server.addIssues(backlog, (i) => ({ title: `Issue ${i + 1}`, labels: ['agent-loop'] }));
    const files = { GITHUB_OUTPUT: path.join(dir, 'out'), GITHUB_STEP_SUMMARY: path.join(dir, 'summary') };
    for (const f of Object.values(files)) writeFileSync(f, '');
    const child = spawn(process.execPath, [path.join(repoRoot, 'dist', 'main', 'index.js')], {
      cwd: repo,
      env: {
        ...env,
        ...files,
        HOME: dir,
        // The state directory is $RUNNER_TEMP/agent-loop: this slice's own (else os.tmpdir()'s, shared).
        RUNNER_TEMP: dir,
        GITHUB_WORKSPACE: repo,
        GITHUB_REPOSITORY: `${server.owner}/${server.repo}`,
        GITHUB_API_URL: server.url,
        'INPUT_GITHUB-TOKEN': server.token,
        INPUT_AGENT: 'command',
        'INPUT_AGENT-COMMAND': `sh ${JSON.stringify(path.join(dir, 'agent.sh'))}`,
        'INPUT_TEST-COMMAND': 'sh check.sh',
        'INPUT_ITERATION-DELAY': '0',
        'INPUT_SLICE-ITERATIONS': String(SLICE),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let log = '';
    child.stdout.on('data', (c) => {
      log += c;
    });
    child.stderr.on('data', (c) => {
      log += c;
    });
    const code = await new Promise((resolve) => child.on('close', resolve));
    const out = readFileSync(files.GITHUB_OUTPUT, 'utf8');
    if (code !== 0 || !/^pull-requests<<\S+\n\S+,\S+,\S+\n/m.test(out))
      throw new Error(
        `the slice over ${backlog} issues did not open ${SLICE} pull requests (exit ${code}):\n${log.slice(-3000)}`,
      );
    const requests = server.requests;
    const kind = (r) =>
      `${r.method} ${r.path.replace(/^\/repos\/[^/]+\/[^/]+|^\/repositories\/\d+/, '').replace(/\/\d+/g, '/{n}')}`;
    const byKind = {};
    for (const r of requests) byKind[kind(r)] = (byKind[kind(r)] ?? 0) + 1;
    return {
      backlog,
      total: requests.length,
      counted: requests.filter((r) => r.counted).length,
      notModified: requests.filter((r) => r.status === 304).length,
      byKind,
    };
  } finally {
    await server.close();
  }
}

export async function benchGitHubCalls() {
  const { startGitHubServer } = await loadServer();
  const small = await oneSlice(startGitHubServer, 10);
  const large = await oneSlice(startGitHubServer, 5000);
  const ratio = large.total / small.total;
  const row = (r) => [
    'github api calls',
    `slice of ${SLICE} issues, backlog ${r.backlog.toLocaleString('en')}`,
    'requests one slice makes (counted against the rate limit; 304s are free)',
    `${r.total} requests (${r.counted} counted)`,
    'same order of magnitude for 10 and 5,000',
    verdict(ratio < 10),
  ];
  return {
    rows: [row(small), row(large)],
    notes: [
      `github api calls: per slice of ${SLICE} issues, by request: ${Object.entries(large.byKind)
        .sort()
        .map(([k, n]) => `${k} ×${n}`)
        .join(', ')} (backlog 5,000); ` +
        `the listing reads at most 3 pages of 100 whatever the backlog, and each finished issue costs a pull-request lookup, its creation and a label.`,
    ],
    data: { small, large, ratio: Number(ratio.toFixed(2)) },
  };
}
