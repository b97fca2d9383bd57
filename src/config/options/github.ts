/**
 * Options (src/config/options.ts's schema, in this order): what reaches outside the run: the Discord
 * webhook, the secret variables, the GitHub Action's tokens and inputs, the commits' author.
 */
import { z } from 'zod';
import { registry, RUN, ACTION, toUndefinedIfEmpty, flagSwitch, text } from './kinds.js';

export const githubOptions = {
  discordWebhook: z.preprocess(toUndefinedIfEmpty, z.url({ protocol: /^https?$/ }).optional()).register(registry, {
    flag: 'discord-webhook',
    arg: 'URL',
    commands: RUN,
    secret: true,
    defaultText: 'none',
    help: 'Discord webhook that receives the halt diagnostic (a secret: masked in every output).',
    expected: 'an http(s) URL',
  }),
  secretEnv: text().register(registry, {
    flag: 'secret-env',
    arg: 'NAMES',
    commands: RUN,
    defaultText: 'none',
    help: 'More environment variables whose values are secrets, comma-separated (ANTHROPIC_API_KEY, OPENAI_API_KEY, CODEX_API_KEY, GITHUB_TOKEN, GH_TOKEN and the webhook URL always are).',
    expected: 'environment variable names, comma-separated',
  }),
  githubToken: text().register(registry, {
    flag: 'github-token',
    arg: 'TOKEN',
    commands: ACTION,
    secret: true,
    defaultText: '${{ github.token }}',
    help: "Token for the GitHub API (issues, labels, comments, pull requests), artifacts, and agent-loop's own git push and fetch (given to those git commands only, never stored in .git/config nor given to the agent); masked everywhere.",
    expected: 'a GitHub token',
  }),
  workflowToken: text().register(registry, {
    flag: 'workflow-token',
    arg: 'TOKEN',
    commands: ACTION,
    secret: true,
    defaultText: '${{ github.token }}',
    help: 'Leave it at its default, the workflow token: compared with github-token only, so that the check before the first agent run knows whether pull requests are opened with the workflow token, which the repository setting "Allow GitHub Actions to create and approve pull requests" governs; never used for a request.',
    expected: 'the workflow token',
  }),
  paused: flagSwitch().register(registry, {
    flag: 'paused',
    commands: ACTION,
    help: 'Pause the loop: the run ends at once, green, before it reads, installs or publishes anything (output status paused). The reusable workflow sets it from the repository variable AGENT_LOOP_PAUSED.',
    expected: 'true or false',
  }),
  label: z.string().trim().min(1).default('agent-loop').register(registry, {
    flag: 'label',
    arg: 'LABEL',
    commands: ACTION,
    help: 'Only open issues carrying this label are worked on.',
    expected: 'a label name',
  }),
  allowedAuthors: z.string().trim().min(1).default('OWNER,MEMBER,COLLABORATOR').register(registry, {
    flag: 'allowed-authors',
    arg: 'ASSOCIATIONS',
    commands: ACTION,
    help: 'Author associations whose issues may be worked on (others are skipped and listed in the summary): an outsider cannot make the agent run their text.',
    expected: 'comma-separated author associations, e.g. OWNER,MEMBER,COLLABORATOR',
  }),
  installAgent: flagSwitch().register(registry, {
    flag: 'install-agent',
    commands: ACTION,
    help: 'Install the pinned Claude Code or Codex CLI when it is not on PATH.',
    expected: 'true or false',
  }),
  fanOut: z.preprocess(toUndefinedIfEmpty, z.enum(['plan', 'work', 'reduce']).optional()).register(registry, {
    flag: 'fan-out',
    arg: 'ROLE',
    commands: ACTION,
    defaultText: 'none (one slice, one job)',
    help: "This job's part in a wave of parallel jobs (the reusable workflow's parallel): plan picks and claims up to parallel ready issues (and a landing job, matrix entry outbox, when earlier waves left work unlanded) and outputs the matrix and the wave; work runs one slice on its matrix issue (the input issue) within its share and publishes its partial state; reduce merges the wave's partial states into the loop's checkpoint and publishes it. Empty: one slice in this job.",
    expected: 'one of plan, work, reduce, or empty',
  }),
  wave: z.preprocess(toUndefinedIfEmpty, z.string().max(65_536).optional()).register(registry, {
    flag: 'wave',
    arg: 'JSON',
    commands: ACTION,
    help: "fan-out work and reduce: the wave the plan job output (its wave output: the wave's id, its jobs and their shares).",
    expected: "the plan job's wave output (JSON)",
  }),
  draftPr: flagSwitch().register(registry, {
    flag: 'draft-pr',
    commands: ACTION,
    help: 'Open the pull request of a finished issue as a draft.',
    expected: 'true or false',
  }),
  commitAuthor: z
    .preprocess(
      toUndefinedIfEmpty,
      z
        .string()
        .trim()
        .regex(/^[^<>\n]*[^<>\s]\s*<[^<>\s@]+@[^<>\s@]+>$/)
        .optional(),
    )
    .register(registry, {
      flag: 'commit-author',
      arg: "'NAME <EMAIL>'",
      commands: RUN,
      defaultText:
        "git's own identity, else github-actions[bot] <41898282+github-actions[bot]@users.noreply.github.com>",
      help: "The author and committer of agent-loop's commits (the work, wip:, merges, notes). Unset: git's configured identity, or on a machine with none (a GitHub runner) the github-actions bot.",
      expected: "a name and an email address as 'Name <name@example.com>'",
    }),
};
