/**
 * The slice's work on the issue source: one issue effect with its failure classified, a finished
 * cycle's issue actions, a checklist tick, the escalation's label (committed on a git base branch).
 */
import type { IssueAction, IssueEffectFailure, LandingFailure } from '../core/events.js';
import { ESCALATED_LABEL, NO_CHANGE_LABEL } from '../issues/types.js';
import type { Ports } from './effects/context.js';
import { LandingError } from './publish.js';

type Tick = Extract<IssueAction, { kind: 'tick' }>;

/** One issue effect; a failure classified: `gone` is warned about and dropped (it can never succeed), the rest returned. */
export async function issueEffect(
  { deps, redact }: Ports,
  id: string,
  what: string,
  run: () => Promise<void>,
): Promise<LandingFailure | undefined> {
  const { source, logger } = deps;
  const classify =
    deps.classifyIssueFailure ??
    ((error: unknown, issue: string, doing: string): IssueEffectFailure => ({
      class: 'transient',
      message: `could not ${doing} ${issue} in ${source.description}: ${(error as Error).message}`,
    }));
  try {
    await run();
    return undefined;
  } catch (error) {
    const failure = classify(error, id, what);
    if (failure.class !== 'gone') return { ...failure, message: redact(failure.message) };
    logger.warn('issue.gone', `${redact(failure.message)}: dropped (it can never be done).`, { issueId: id, what });
    return undefined;
  }
}

/** A finished cycle's issue actions, before its commit; a failure that is not `gone` is the landing's. */
export async function performIssueActions(ports: Ports, actions: readonly IssueAction[] | undefined): Promise<void> {
  const { source } = ports.deps;
  for (const action of actions ?? []) {
    if (action.kind === 'markHeld') {
      const held = await markHeld(ports, action);
      if (held) throw new LandingError(held);
      continue;
    }
    const failed =
      action.kind === 'tick'
        ? await issueEffect(ports, action.id, `tick "${action.item}" in`, () => tick(ports, action))
        : action.kind === 'markNoChange' && source.markNoChange
          ? await issueEffect(ports, action.id, `label ${NO_CHANGE_LABEL}`, () =>
              source.markNoChange!(action.id, action.note, action.close),
            )
          : await issueEffect(ports, action.id, 'close', () => source.close(action.id, action.note));
    if (failed) throw new LandingError(failed);
  }
}

/**
 * Work held for a person (issue 42): the issue labelled with the note, left open. A source that
 * cannot label (none such yet) is told once in the log: the checkpoint keeps the issue held.
 */
async function markHeld(
  ports: Ports,
  action: Extract<IssueAction, { kind: 'markHeld' }>,
): Promise<LandingFailure | undefined> {
  const { source, logger } = ports.deps;
  if (!source.markHeld) {
    logger.info(
      'issue.held',
      `${action.id} is held for a person; ${source.description} cannot label it ${action.label}: this run's checkpoint keeps it from being worked again.`,
      { issueId: action.id },
    );
    return undefined;
  }
  return issueEffect(ports, action.id, `label ${action.label}`, () =>
    source.markHeld!(action.id, action.note, action.label),
  );
}

/** A checklist item's box ticked in its issue (--workflow tdd); sources without checklists do nothing. */
export async function tick({ deps }: Ports, action: Tick): Promise<void> {
  const { source, logger } = deps;
  if (!source.tickChecklistItem || !(await source.tickChecklistItem(action.id, action.item))) return;
  logger.info('issue.ticked', `Ticked "${action.item}" in ${action.id} (${source.description}).`, {
    issueId: action.id,
    item: action.item,
  });
}

/**
 * A tick as a notice, between iterations: where the issues live in the repository (beads), the
 * change is committed at once (on the cycle's branch, it lands with the work), so that the next
 * phase starts from a clean tree. The failures (none: it was done).
 */
export async function tickNotice(ports: Ports, action: Tick): Promise<string[]> {
  const { source, logger, git } = ports.deps;
  const failed = await issueEffect(ports, action.id, `tick "${action.item}" in`, () => tick(ports, action));
  if (failed) {
    logger.warn(
      'source.warning',
      `Could not tick "${action.item}" in ${action.id} (${source.description}): ${failed.message}. It stays recorded; the next run tries again.`,
    );
    return [failed.message];
  }
  if (git) await git.commitAll(`agent-loop: ${action.id} ticks "${action.item}"`.slice(0, 120));
  return [];
}

/** Labels and notes the issues in the source; on a git base branch, commits that bookkeeping. The failures. */
export async function labelEscalated(
  ports: Ports,
  ids: string[],
  note: string,
  baseBranch: string | undefined,
): Promise<string[]> {
  const { settings, source, logger, git } = ports.deps;
  if (settings.closeOnBranch) {
    // Beads issues published from a runner that is thrown away: a label committed here would never
    // reach GitHub (and would move the base branch the halt compares with). The checkpoint keeps it.
    logger.info(
      'escalation.kept',
      `${ids.join(', ')} escalated: kept in the checkpoint, not labelled in ${source.description} (the ` +
        `label would not outlast this runner). Later runs skip ${ids.length === 1 ? 'it' : 'them'} until ` +
        `${ids.length === 1 ? 'it is' : 'they are'} edited on the base branch, or start over with the input fresh: true.`,
      { issueIds: ids },
    );
    return [];
  }
  const failures: string[] = [];
  for (const id of ids) {
    const failed = await issueEffect(ports, id, `label ${ESCALATED_LABEL}`, () => source.markEscalated(id, note));
    if (!failed) continue;
    failures.push(failed.message);
    logger.warn(
      'source.warning',
      `Could not label ${id} as escalated in ${source.description}: ${failed.message}. It stays recorded; the next run tries again.`,
    );
  }
  if (git && (await git.currentRef()) === baseBranch) await git.commitAll(`agent-loop: ${ids.join(' ')} escalated`);
  return failures;
}
