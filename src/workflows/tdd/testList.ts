/**
 * The red/green/refactor workflow's test list: the issue body's Markdown checklist (`- [ ] test`,
 * `- [x] done`), or a `--plan` file in the same form. Each item becomes one red → green → refactor
 * round. An issue without a checklist is one round, described by its title. Pure.
 */
import { CHECKLIST_ITEM, inCodeFence, itemText } from '../../issues/checklist.js';

export type TestStatus = 'pending' | 'done' | 'problematic' | 'duplicate';

export interface TestItem {
  description: string;
  status: TestStatus;
}

export function parseTestList(text: string, fallbackDescription: string): TestItem[] {
  const items: TestItem[] = [];
  const lines = text.split(/\r?\n/);
  const fenced = inCodeFence(lines);
  for (const [i, line] of lines.entries()) {
    if (fenced[i]) continue;
    const m = CHECKLIST_ITEM.exec(line);
    if (!m) continue;
    items.push({ description: itemText(m[4] as string), status: m[2] === ' ' ? 'pending' : 'done' });
  }
  return items.length > 0 ? items : [{ description: fallbackDescription.trim() || 'the issue', status: 'pending' }];
}

/** The index of the first pending test, or -1 when every test is done, problematic or a duplicate. */
export function nextPending(tests: readonly TestItem[]): number {
  return tests.findIndex((t) => t.status === 'pending');
}

/** The list with one test's status changed. */
export function markTest(tests: readonly TestItem[], index: number, status: TestStatus): TestItem[] {
  return tests.map((t, i) => (i === index ? { ...t, status } : t));
}

/** The list as a checklist for prompts and the summary (problematic and duplicate tests say so). */
export function renderTestList(tests: readonly TestItem[]): string {
  return tests
    .map(
      (t) =>
        `- [${t.status === 'pending' ? ' ' : 'x'}] ${t.description}${t.status === 'problematic' || t.status === 'duplicate' ? ` (${t.status}: skipped)` : ''}`,
    )
    .join('\n');
}
