/**
 * The layering of src/, as rules (npm run deps, in CI). From the top: the entrypoints (src/cli.ts;
 * src/entrypoints/, the action's two bundles, which only call run() of src/main.ts and src/post.ts,
 * the action's steps) and their renderers (src/cli, src/action); the application layer both
 * use (src/app) and the pieces it assembles (src/publish); the workflows plugged into the engine
 * (src/workflows: implement, tdd, and the planning pipeline); the engine's interpreter (src/loop)
 * and its pure core (src/core); the adapters
 * and pure parts below them. Arrows only point down, and nothing
 * imports in a circle (type-only imports included).
 */
/** The packages src/ may import: ncc bundles them into dist/ (package.json lists them with the tooling, as devDependencies), but @actions/exec, the one runtime dependency (see no-tooling-in-src). */
const BUNDLED =
  '(^|/)node_modules/(@actions/(artifact|cache|core|exec|github)|@octokit/plugin-(retry|throttling)|sax|yaml|zod)/';
/**
 * The adapters and pure parts, top to bottom: each folder imports only folders after it (rule
 * adapter-order, one rule per folder, generated below). The judge (issue 42: which of the agent's
 * changes are protected, and the judge tree they are judged on) stands above the verdicts it may read;
 * the checkpoint store, the verdicts and the
 * reports (logger, diagnostics, Discord) use the state directory's files (persist); persist uses
 * the process records of safety (its runtime directory); safety tracks agents and checks git; an
 * agent reports its failure in failure's terms and its output through the masking of secrets (the
 * masker and the redactor, together); git merges the issues file (issues); util is a leaf.
 */
const ADAPTER_ORDER = [
  'checkpoint',
  'judge',
  'verdict',
  'report',
  'persist',
  'safety',
  'agents',
  'git',
  'issues',
  'failure',
  'secrets',
  'util',
];
const ADAPTERS = `^src/(${ADAPTER_ORDER.join('|')})/`;
/** The pure modules of src/judge: the protected paths and the test units of a file (issue 42). */
const JUDGE_RULES = '^src/judge/(protectedPaths|infrastructure|glob|testUnits?|pythonUnits|jsUnits|goUnits)\\.ts$';
/**
 * The option schema (src/config/options.ts, its parts in src/config/options/) and the surface's words
 * (src/config/surface.ts): pure tables every layer may read to name an option or an act in the words of the surface that ran (issue 40); and the catalogs of the
 * agents and of the issue sources (src/agents/catalog.ts, src/issues/catalog.ts), whose names and
 * words the schema's --agent and --source are made of. They import
 * nothing of src/ but each other.
 */
const WORDS = '^src/config/(options|surface|options/[a-z]+)\\.ts$|^src/(agents|issues)/catalog\\.ts$';

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No import cycles, type-only imports included.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'entrypoints-on-top',
      severity: 'error',
      comment: 'Only the entrypoints and their own folder import the CLI or the action.',
      from: { path: '^src/', pathNot: '^src/(cli|action)/|^src/(cli|main|post)\\.ts$' },
      to: { path: '^src/(cli|action)/' },
    },
    {
      name: 'bundle-entrypoints-only-call-run',
      severity: 'error',
      comment:
        "The action's bundle entrypoints (src/entrypoints/) only call run() of their step (src/main.ts, src/post.ts): what @github/local-action runs is what the runner runs.",
      from: { path: '^src/entrypoints/' },
      to: { path: '^src/', pathNot: '^src/(main|post)\\.ts$' },
    },
    {
      name: 'action-not-via-cli',
      severity: 'error',
      comment: 'The action and the CLI each render the application layer; neither imports the other.',
      from: { path: '^src/action/' },
      to: { path: '^src/cli/' },
    },
    {
      name: 'engine-names-no-workflow',
      severity: 'error',
      comment: 'The engine (src/loop) runs the workflow it is given; it names none.',
      from: { path: '^src/loop/' },
      to: { path: '^src/(workflows|publish|app)/' },
    },
    {
      name: 'workflows-below-the-application',
      severity: 'error',
      from: { path: '^src/workflows/' },
      to: { path: '^src/(publish|app)/' },
    },
    {
      name: 'workflows-apart',
      severity: 'error',
      comment:
        'Each workflow stands alone: implement, tdd and pipeline import none of the others (src/workflows/index.ts lists them).',
      from: { path: '^src/workflows/([^/]+)/' },
      to: { path: '^src/workflows/', pathNot: '^src/workflows/$1/' },
    },
    {
      name: 'adapters-below-the-engine',
      severity: 'error',
      comment:
        'Adapters and pure parts never import the engine, the workflows or the application (the schema and its words excepted: they are pure tables).',
      from: { path: ADAPTERS },
      to: { path: '^src/(core|loop|workflows|publish|app|cli|action)/|^src/config/', pathNot: WORDS },
    },
    ...ADAPTER_ORDER.slice(1, -1).map((folder, i) => ({
      name: `adapter-order-${folder}`,
      severity: 'error',
      comment: `The adapters import only down the order (ADAPTER_ORDER above): ${folder}/ imports none of ${ADAPTER_ORDER.slice(0, i + 1).join(', ')}.`,
      from: { path: `^src/${folder}/` },
      to: { path: `^src/(${ADAPTER_ORDER.slice(0, i + 1).join('|')})/` },
    })),
    {
      name: 'words-are-leaves',
      severity: 'error',
      comment: 'The option schema and the surface words import nothing of src/ but each other.',
      from: { path: WORDS },
      to: { path: '^src/', pathNot: WORDS },
    },
    {
      name: 'core-is-pure',
      severity: 'error',
      comment:
        'The core (src/core) decides and performs nothing: no Node built-ins (files, processes, timers), nothing above it (the schema and its words excepted: pure tables).',
      from: { path: '^src/core/' },
      to: {
        path: '^src/(loop|workflows|publish|app|cli|action|config)/|^(node:)?(fs|child_process|net|http|https|os|timers|worker_threads)(/|$)',
        pathNot: WORDS,
      },
    },
    {
      name: 'judge-rules-are-pure',
      severity: 'error',
      comment:
        "What is protected and what a test file's units are (src/judge/protectedPaths.ts and the modules it reads) is decided on texts: no Node built-ins, and nothing of src/ but each other (the judge tree's I/O is apart).",
      from: { path: JUDGE_RULES },
      to: { path: '^src/', pathNot: JUDGE_RULES },
    },
    {
      name: 'judge-rules-use-no-io-module',
      severity: 'error',
      from: { path: JUDGE_RULES },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'core-uses-no-io-module',
      severity: 'error',
      from: { path: '^src/core/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'util-is-a-leaf',
      severity: 'error',
      from: { path: '^src/util/' },
      to: { path: '^src/', pathNot: '^src/util/' },
    },
    {
      name: 'git-below-safety',
      severity: 'error',
      comment:
        "safety/ uses git (the preconditions, the state directory's place, the baseline's checkout); " +
        'git/ never imports safety/: the git helpers live in git/ (issue 41).',
      from: { path: '^src/git/' },
      to: { path: '^src/safety/' },
    },
    {
      name: 'one-git-runner',
      severity: 'error',
      comment:
        'Every git process starts in src/git/exec.ts (issue 41: no hooks, no fsmonitor, no prompt, bounded output). ' +
        "Only the known modules start processes: the git runner, the agents' process-group runner (src/agents/process.ts, " +
        "also the test command's), bd (src/issues/beadsCli.ts) and the action's install of an agent CLI; none runs git " +
        '(__tests__/git/oneRunner.test.ts fails on git named as a program anywhere else).',
      from: {
        path: '^src/',
        pathNot: '^src/(git/exec|agents/process|issues/beadsCli|action/installAgent)\\.ts$',
      },
      to: { dependencyTypes: ['core'], path: '^(node:)?child_process$' },
    },
    {
      name: 'actions-exec-is-the-git-runner',
      severity: 'error',
      comment: '@actions/exec starts git, in src/git/exec.ts alone (issue 41).',
      from: { path: '^src/', pathNot: '^src/git/exec\\.ts$' },
      to: { path: '(^|/)node_modules/@actions/exec/' },
    },
    {
      name: 'one-masking-boundary',
      severity: 'error',
      comment:
        'Issue 41: secrets are masked where data enters the engine. The redactor is made (createRedactor) by what builds a run ' +
        "(src/app/, src/action/), and the output masker is applied where a process's output enters (src/agents/process.ts); " +
        'everything else is handed the redactor, as a type. __tests__/secrets/oneMaskingBoundary.test.ts fails on a call of it ' +
        'outside the modules it lists.',
      from: { path: '^src/', pathNot: '^src/(app|action|secrets)/|^src/safety/secretScan\\.ts$' },
      to: { path: '^src/secrets/redact\\.ts$', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'one-output-masker',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/(agents/process|secrets/[^/]+)\\.ts$' },
      to: { path: '^src/secrets/outputMasker\\.ts$' },
    },
    {
      name: 'no-tests-in-src',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^(__tests__|e2e|bench|fakes)/' },
    },
    {
      name: 'no-tooling-in-src',
      severity: 'error',
      comment:
        'Every package but @actions/exec (the one runtime dependency, shipped in the tarball) is a devDependency: the bundles in dist/ carry what src/ uses, so src/ may import only the bundled runtime packages, never the build and test tooling.',
      from: { path: '^src/' },
      to: { dependencyTypes: ['npm-dev'], dependencyTypesNot: ['type-only'], pathNot: BUNDLED },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
