/**
 * The action's messages in its own terms (issue 14): the engine words its advice for the CLI
 * (`--resume-halted`, `--fresh`, `--test-command`, `agent-loop status`), and the action's user has
 * inputs and job summaries instead. Every message the action prints (its log, annotations, failure,
 * job summary and outputs) passes through `inActionTerms`, which names the inputs: `--resume ID` is
 * `checkpoint-id ID`, `--resume-halted` is `resume: true`, `--fresh` is `fresh: true`, any other
 * option's flag `--x` is the input x, and `agent-loop status` is the job summary and the
 * checkpoint-id output. Flags that are no agent-loop option (pytest's `--junitxml`, tar's) are left
 * alone. Pure.
 */
import { OPTIONS } from '../config/options.js';

const FLAGS = new Set(OPTIONS.map((o) => o.flag));

/** The CLI's vocabulary that remains in a text after inActionTerms (for the tests): flags of agent-loop options, `agent-loop status`. */
export function cliVocabulary(text: string): string[] {
  const found = [...text.matchAll(/(?:^|[^\w-])(--[a-z][a-z-]*)/g)]
    .map((m) => m[1] as string)
    .filter((f) => FLAGS.has(f.slice(2)));
  return [...found, ...(text.match(/agent-loop status/g) ?? [])];
}

export function inActionTerms(text: string): string {
  return (
    text
      // The engine's advice names both already: the action's half is enough.
      .replace(/\(--resume-halted; the action: resume: true\)/g, '(resume: true)')
      .replace(/--[a-z][a-z-]* \(the action: ([a-z][a-z-]*)\)/g, 'the input $1')
      .replace(/--resume-halted(?![-\w])/g, 'resume: true')
      .replace(/--resume[ =]([0-9a-fA-F-]{36})/g, 'checkpoint-id $1')
      .replace(/--resume(?![-\w])/g, 'checkpoint-id')
      .replace(/--fresh(?![-\w])/g, 'fresh: true')
      .replace(
        /run `agent-loop status[^`]*` to list the checkpoint(?: id)?s(?: there)?/g,
        "each run's job summary and checkpoint-id output name its checkpoint",
      )
      .replace(/\(agent-loop status shows its progress\)/g, "(its job's log shows its progress)")
      .replace(/see agent-loop status/g, "see a run's checkpoint-id output")
      .replace(/`?agent-loop status`?/g, 'the job summary')
      // A flag with its value (quoted, a placeholder such as PATH, or an agent's name) is the input set to it.
      .replace(/--agent (claude|codex|command)(?![-\w])/g, 'agent: $1')
      .replace(/--([a-z][a-z-]*) ("[^"]*"|[A-Z]+\b)/g, (whole, flag: string, value: string) =>
        FLAGS.has(flag) ? `${flag}: ${value}` : whole,
      )
      .replace(/(^|[^\w-])--([a-z][a-z-]*)/g, (whole, before: string, flag: string) =>
        FLAGS.has(flag) ? `${before}the input ${flag}` : whole,
      )
  );
}
