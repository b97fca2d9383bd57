/**
 * What a halt keeps of the world as it is saved, read before each save of a halted loop: the base
 * branch's tip (new commits there lift some halts, src/core/haltGate.ts), and, where the halt leaves
 * a cycle's branch checked out, a digest of each open issue as it left the issues file (what a person
 * changes there later is carried, src/loop/parking.ts). Read again before every such save, not once:
 * an escalation's label lands on the base branch as its own commit between the halt's save and the
 * save after its notices. The core holds the save (SliceModel.pendingSave, with the effects that
 * follow it) while it asks, then puts what was read in the halt itself. Pure.
 */
import type { CoreConfig, PendingSave, SliceModel, Step } from './model.js';
import type { HaltReadEffect, HaltReadEvent } from './haltReadTypes.js';
import type { LoopState } from './state.js';

type Save = PendingSave['save'];

/** The branch a loop left checked out with edits in it: its escalated cycle's (parked), or the cycle in flight. */
export function branchLeft(loop: Pick<LoopState, 'parkedBranch' | 'currentCycle'>): string | undefined {
  return loop.parkedBranch ?? loop.currentCycle?.branch;
}

/**
 * What to read before saving `loop`, in order: none unless it is halted. The tip wherever there is a
 * base branch in a repository; the issues where nothing is published (the CLI: a halt moves nothing,
 * so the branch stays checked out for a person to read).
 */
export function haltReads(loop: LoopState, config: Pick<CoreConfig, 'branches' | 'publishes'>): HaltReadEffect[] {
  if (!loop.halt || !config.branches) return [];
  const left = config.publishes ? undefined : branchLeft(loop);
  return [
    ...(loop.baseBranch !== undefined ? [{ kind: 'readBaseTip' as const, branch: loop.baseBranch }] : []),
    ...(left !== undefined ? [{ kind: 'readLeftIssues' as const, branch: left }] : []),
  ];
}

/**
 * A step whose effects save a halted loop: held at that save, its first read asked instead; the
 * effects before it are performed as they are. Unchanged when no save needs a read.
 */
export function readBeforeSaving(s: Step, config: CoreConfig): Step {
  for (const [i, effect] of s.effects.entries()) {
    if (effect.kind !== 'save') continue;
    const [first] = haltReads(effect.loop, config);
    if (!first) continue;
    const pendingSave = { save: effect, rest: s.effects.slice(i + 1) };
    return { model: { ...s.model, pendingSave }, effects: [...s.effects.slice(0, i), first] };
  }
  return s.model.pendingSave ? { ...s, model: { ...s.model, pendingSave: undefined } } : s;
}

/** A read answered: put in the held save's halt and the model's; the next read asked, or the save let go. */
export function haltRead(model: SliceModel, event: HaltReadEvent, config: CoreConfig): Step {
  const pending = model.pendingSave;
  if (!pending) throw new Error(`agent-loop: the core holds no save, yet was told ${event.type}`);
  const fill = event.type === 'baseTipRead' ? { baseTip: event.tip } : { issues: event.issues };
  const save: Save = { ...pending.save, loop: withRead(pending.save.loop, fill) };
  const m: SliceModel = { ...model, loop: withRead(model.loop, fill) };
  if (event.type === 'baseTipRead') {
    const then = haltReads(save.loop, config).find((r) => r.kind === 'readLeftIssues');
    if (then) return { model: { ...m, pendingSave: { ...pending, save } }, effects: [then] };
  }
  // Let go: the save, then what followed it (held again at a later save of a halted loop, if any).
  const after = readBeforeSaving({ model: { ...m, pendingSave: undefined }, effects: pending.rest }, config);
  return { model: after.model, effects: [save, ...after.effects] };
}

/** The loop with what was read in its halt (a part that could not be read left out, as it was before). */
function withRead(loop: LoopState, fill: { baseTip?: string; issues?: Record<string, string> }): LoopState {
  if (!loop.halt) return loop;
  const halt: Record<string, unknown> = { ...loop.halt };
  for (const [key, value] of Object.entries(fill)) {
    if (value === undefined) delete halt[key];
    else halt[key] = value;
  }
  return { ...loop, halt: halt as NonNullable<LoopState['halt']> };
}
