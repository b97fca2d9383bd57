/**
 * A three-way merge of a beads issue file (`.beads/issues.jsonl`), issue by issue (--parallel):
 * jobs that each close a different issue change neighbouring lines of the same file, which git's
 * line merge calls a conflict. Here each issue (a line, keyed by its `id`) takes the side that
 * changed it; only an issue both sides changed differently is a conflict. Pure.
 */

export type LinesMerge = { ok: true; text: string } | { ok: false; conflicts: string[] };

interface Keyed {
  order: string[];
  byId: Map<string, string>;
}

/** The lines of a JSONL file by issue id; undefined when a non-empty line is not an object with a string id. */
function keyed(text: string): Keyed | undefined {
  const order: string[] = [];
  const byId = new Map<string, string>();
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    let id: unknown;
    try {
      id = (JSON.parse(line) as { id?: unknown }).id;
    } catch {
      return undefined;
    }
    if (typeof id !== 'string' || byId.has(id)) return undefined;
    order.push(id);
    byId.set(id, line);
  }
  return { order, byId };
}

/**
 * `ours` (the base branch) with what `theirs` (a job's branch) changed since `base` (their common
 * ancestor): changed, added and removed issues. Issues in ours' order, those theirs added after.
 */
export function mergeIssueLines(base: string, ours: string, theirs: string): LinesMerge {
  const [b, o, t] = [keyed(base), keyed(ours), keyed(theirs)];
  if (!b || !o || !t) return { ok: false, conflicts: ['(a line that is not an issue with an id)'] };
  const conflicts: string[] = [];
  const out: string[] = [];
  const ids = [...o.order, ...t.order.filter((id) => !o.byId.has(id))];
  for (const id of ids) {
    const [was, mine, theirsLine] = [b.byId.get(id), o.byId.get(id), t.byId.get(id)];
    let line: string | undefined;
    if (mine === theirsLine) line = mine;
    else if (theirsLine === was) line = mine;
    else if (mine === was) line = theirsLine;
    else {
      conflicts.push(id);
      continue;
    }
    if (line !== undefined) out.push(line);
  }
  if (conflicts.length > 0) return { ok: false, conflicts };
  return { ok: true, text: out.length > 0 ? out.join('\n') + '\n' : '' };
}
