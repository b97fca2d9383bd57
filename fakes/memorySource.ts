/** Open issues in memory, most urgent first; closing, escalating and ticking change them in place. */
import { tickItem } from '../src/issues/checklist.js';
import { ESCALATED_LABEL, type Issue, type IssueSource } from '../src/issues/types.js';

export class MemorySource implements IssueSource {
  readonly description = 'memory';
  /** The reason each issue was closed with, by id. */
  readonly closedWith: Record<string, string> = {};
  /** The note each issue was escalated with, by id. */
  readonly escalatedWith: Record<string, string> = {};
  /** Ticks asked for, in order; `tickFailures` ticks throw first (a source that is down). */
  readonly ticks: string[] = [];
  tickFailures = 0;

  constructor(public issues: Issue[]) {}

  /** Open issues `id`, titled `Issue <id>`, in priority order. */
  static of(...ids: string[]): MemorySource {
    return new MemorySource(
      ids.map((id, i) => ({
        id,
        title: `Issue ${id}`,
        body: `Do ${id}`,
        status: 'open',
        labels: [],
        dependencies: [],
        priority: i,
      })),
    );
  }

  async ready(): Promise<Issue[]> {
    return this.issues.filter((i) => i.status === 'open');
  }

  async get(id: string): Promise<Issue | undefined> {
    const i = this.issues.find((x) => x.id === id);
    return i ? { ...i } : undefined;
  }

  async markEscalated(id: string, note: string): Promise<void> {
    const i = this.issues.find((x) => x.id === id);
    if (i && !i.labels.includes(ESCALATED_LABEL)) i.labels = [...i.labels, ESCALATED_LABEL];
    this.escalatedWith[id] = note;
  }

  async close(id: string, reason: string): Promise<void> {
    const i = this.issues.find((x) => x.id === id);
    if (i) i.status = 'closed';
    this.closedWith[id] = reason;
  }

  async tickChecklistItem(id: string, item: string): Promise<boolean> {
    if (this.tickFailures > 0) {
      this.tickFailures--;
      throw new Error('502 Bad Gateway');
    }
    const i = this.issues.find((x) => x.id === id);
    const body = i ? tickItem(i.body, item) : undefined;
    this.ticks.push(`${id}: ${item}`);
    if (!i || body === undefined) return false;
    i.body = body;
    return true;
  }
}
