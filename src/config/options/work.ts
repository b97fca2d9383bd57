/**
 * Options (src/config/options.ts's schema, in this order): What work a run does and how it lands: the test
 * suite, the issues, the workflow and its plan, prompts and test reports.
 */
import { z } from 'zod';
import { registry, RUN, PLAN, toUndefinedIfEmpty, int, flagSwitch, text, globList } from './kinds.js';

export const workOptions = {
  testCommand: text().register(registry, {
    flag: 'test-command',
    arg: 'CMD',
    commands: RUN,
    defaultText: 'auto: npm test, pytest, go test ./..., cargo test or make test',
    help: "The test suite: run once on each cycle's starting tree (the baseline) and again when the agent says the work is done; the work is judged test by test against the baseline (a test that passed must still pass, the issue's tests must pass). Detected from package.json's test script, pytest's configuration or test_*.py files, go.mod, Cargo.toml, or a Makefile test target.",
    expected: 'a non-empty shell command',
  }),
  batch: flagSwitch().register(registry, {
    flag: 'batch',
    commands: RUN,
    help: 'Put all ready issues into one cycle with one prompt, instead of one issue per cycle.',
    expected: 'true or false',
  }),
  parallel: int(1, 256)
    .default(1)
    .register(registry, {
      flag: 'parallel',
      arg: 'N',
      commands: ['run', 'action'],
      help: 'Work up to N issues at once. run: each in its own git worktree, agent process and test run, finished issues merged into the base branch one at a time (a merge conflict works the issue again on the new base); at most 32. The action (fan-out plan): the most issues one wave works at the same time, one matrix job each (a GitHub matrix holds at most 256 jobs). 1: one issue after another.',
      expected: 'a whole number from 1 to 256 (32 for run)',
    }),
  issue: z
    .preprocess(
      (v) =>
        typeof v === 'string' && v.trim() !== ''
          ? v
              .split(',')
              .map((s) => s.trim())
              .filter((s) => s !== '')
          : toUndefinedIfEmpty(v),
      z
        .array(z.string().regex(/^[A-Za-z0-9._:-]{1,100}$/))
        .min(1)
        .optional(),
    )
    .register(registry, {
      flag: 'issue',
      arg: 'ID[,ID]',
      commands: ['run', 'action'],
      defaultText: 'every ready issue',
      help: "Work only these issues (comma-separated ids); the others are left alone. The action's fan-out work: the one issue this job works (the plan's matrix entry, matrix.issue; the entry outbox lands earlier waves' unlanded work without running the agent).",
      expected: 'issue ids separated by commas, e.g. bd-1,bd-2',
    }),
  onSuccess: z.enum(['merge', 'branch', 'pull-request']).default('merge').register(registry, {
    flag: 'on-success',
    arg: 'merge|branch|pull-request',
    commands: RUN,
    help: "In git: merge a finished cycle's branch into the base branch, or leave it on its branch (agent-loop/<id>; while it is not merged, no run works that issue again: merge it, or delete it to have the issue worked again). In the action with source beads: pull-request (its default: push the branch, open a pull request) or merge (push to the base branch on GitHub).",
    expected: 'one of merge, branch, pull-request',
  }),
  acceptUnverified: flagSwitch().register(registry, {
    flag: 'accept-unverified',
    commands: RUN,
    help: 'Land work the verdict accepted without evidence of the fix (no target of the issue passes that failed before, no test of the agent fails on the base and passes on the change), or whose judged run has test results the runner counted that agent-loop could not read one by one, as verified work is landed. By default such work is unverified and held for a person: a draft pull request labelled agent-loop:unverified (GitHub), or left on its branch with a note on the issue (beads, local runs); never merged, the issue left open.',
    expected: 'true or false',
  }),
  protectedPaths: globList().register(registry, {
    flag: 'protected-paths',
    arg: 'GLOB[,GLOB]',
    commands: RUN,
    defaultText: 'none besides the test files, the test infrastructure and the configuration file',
    help: "Paths the agent may not change besides the test files the base has, the test infrastructure and agent-loop's configuration file (globs, e.g. fixtures/**): a change to one is held for a person, never merged, and the verdict runs with the base's version.",
    expected: 'globs separated by commas (a list in the configuration file)',
  }),
  allowedPaths: globList().register(registry, {
    flag: 'allowed-paths',
    arg: 'GLOB[,GLOB]',
    commands: RUN,
    defaultText: 'none',
    help: "Protected paths the agent may change for every issue (globs, e.g. tests/snapshots/**): no finding, and the verdict runs with the agent's version. An issue allows paths for itself with allowed: in its agent-loop block. agent-loop's configuration file is never allowed.",
    expected: 'globs separated by commas (a list in the configuration file)',
  }),
  plan: text().register(registry, {
    flag: 'plan',
    arg: 'FILE',
    commands: RUN,
    defaultText: 'none',
    help: (n) =>
      `A plan included in every prompt; with ${n('workflow', 'tdd')}, the test list (a Markdown checklist) instead of the issue's.`,
    expected: 'a path to a readable file',
  }),
  goal: text().register(registry, {
    flag: 'goal',
    arg: 'TEXT',
    commands: PLAN,
    defaultText: 'none',
    help: (n) =>
      `What the planning pipeline works towards (or ${n('goalFile')}): research, decomposition, planning, phases, one issue per phase, then the loop on them.`,
    expected: 'a non-empty text',
  }),
  goalFile: text().register(registry, {
    flag: 'goal-file',
    arg: 'FILE',
    commands: PLAN,
    defaultText: 'none',
    help: (n) => `The goal, read from a file (instead of ${n('goal')}).`,
    expected: 'a path to a readable file',
  }),
  planPrompts: text().register(registry, {
    flag: 'plan-prompts',
    arg: 'DIR',
    commands: PLAN,
    defaultText: 'built in',
    help: 'A directory whose research.md, decomposition.md, planning.md or phase_decomposition.md replace the built-in prompt of that phase ({{goal}}, {{research}}, {{decomposition}}, {{plan}}, {{artifact}}, {{failure}}).',
    expected: 'a path to a directory',
  }),
  workflow: z
    .enum(['implement', 'tdd', 'pipeline'])
    .default('implement')
    .register(registry, {
      flag: 'workflow',
      arg: 'implement|tdd|pipeline',
      commands: RUN,
      help: (n) =>
        `implement: the agent works until the tests pass. tdd: red/green/refactor per item of the issue's checklist (or ${n('plan')}), a commit and a git note (refs/notes/agent-loop) per phase. pipeline (the action): the planning pipeline from ${n('goal')}, as \`agent-loop plan\`.`,
      expected: 'one of implement, tdd, pipeline',
    }),
  junitFile: text().register(registry, {
    flag: 'junit-file',
    arg: 'PATH',
    commands: RUN,
    defaultText: 'none',
    help: "A path inside the repository: the JUnit XML report the test command writes (jest-junit, pytest --junitxml, gotestsum), read for each test's outcome and message (the baseline, every verdict, TDD's phases); without it the runner's output is read (pytest, jest, vitest, mocha, node --test, go test, cargo test). Needed when the suite fails before any change and its output is none of those.",
    expected: 'a path relative to the repository',
  }),
  tddPrompts: text().register(registry, {
    flag: 'tdd-prompts',
    arg: 'DIR',
    commands: RUN,
    defaultText: 'built in',
    help: (n) =>
      `A directory whose red.md, green.md or refactor.md replace the built-in prompt of that agent ({{issue}}, {{test}}, {{tests}}, {{testCommand}}, {{testFile}}, {{failure}}, {{attempt}}), for ${n('workflow', 'tdd')}.`,
    expected: 'a path to a directory',
  }),
};
