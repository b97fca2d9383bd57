/** The CLI's long messages and help lines, one string each so a search finds them whole. */
import { escapeControls } from '../util/printable.js';

/** What each command does, in --help. */
export const SYNOPSIS_PLAN =
  'From a goal to issues to implementation: research, decomposition, planning and phase files by the agent (each checked by a hard barrier), one issue per phase in the beads file, then the loop on those issues. A checkpoint at every phase; a new run resumes where the last stopped.';

/** Exit-code lines of --help. */
export const EXIT_DEFERRED =
  '  75  deferred (DEFERRED): listing the issues or the open pull requests on GitHub failed after retries (a 404, a 5xx, the network); no issue was started and nothing was lost: run again (sysexits EX_TEMPFAIL). The action exits 0 with a warning instead';
export const EXIT_RUN_INVALID =
  '  2  invalid usage or configuration (every bad option is named), or the run cannot start (a precondition of the repository fails, another run holds the lock)';

/** Before the spaces of an absent command are closed up (main.ts). */
export const invalidUsage = (command: string | undefined, messages: readonly string[]) =>
  `agent-loop${command ? ` ${command}` : ''}: invalid usage\n${messages.map((m) => `  - ${escapeControls(m)}`).join('\n')}\nRun agent-loop ${command ?? ''} --help for every option.\n`;

export const cleanupDone = (c: {
  dryRun: boolean;
  removed: number;
  deleted: number;
  total: number;
  dir: string;
  kept: number;
  failed: number;
}) =>
  c.dryRun
    ? `Dry run: would delete ${c.removed} of ${c.total} checkpoints in ${c.dir}, keeping ${c.kept}; nothing was deleted.`
    : `Deleted ${c.deleted} of ${c.total} checkpoints in ${c.dir}, kept ${c.kept}${c.failed > 0 ? `; ${c.failed} could not be deleted (see above)` : ''}.`;

export const wouldFindHalted = (stateDir: string, id: string) =>
  `\`agent-loop run --state-dir ${stateDir}\` would find ${id} halted and run nothing, until its cause changes (see its halt diagnostic, halt.md) or it is resumed with \`--resume-halted\` and the options of the halted run (\`--fresh\` starts over).`;

/** `at`: where it resumes ("at the planning phase", "(working)"). */
export const wouldResume = (stateDir: string, id: string, at: string) =>
  `\`agent-loop run --state-dir ${stateDir}\` would resume from ${id} ${at} (\`--resume ID\` picks another, \`--fresh\` ignores them).`;

export const nothingToResume = (stateDir: string) =>
  `Nothing to resume: every checkpoint records completed work. \`agent-loop run --state-dir ${stateDir}\` starts afresh.`;

/** `listed`: the first 20 ids, listed. */
export const failingBefore = (listed: string, count: number) =>
  `  failing before, not targeted: ${listed}${count > 20 ? ` and ${count - 20} more` : ''}`;
