import { describe, expect, it } from '@jest/globals';
import { tickItem, untickAll } from '../../src/issues/checklist.js';
import { issueFingerprint } from '../../src/issues/fingerprint.js';
import { parseTestList } from '../../src/workflows/tdd/testList.js';

describe('ticking a checklist item in an issue (issue 15)', () => {
  const body = [
    'Calculator.',
    '',
    '- [ ] adds two numbers',
    '  * [ ]   subtracts   two numbers  ',
    '- [x] multiplies',
    '- [ ] adds two numbers',
    'Done when all pass.',
  ].join('\n');

  it("ticks only that item's box, the first unticked one, and changes nothing else", () => {
    expect(tickItem(body, 'adds two numbers')).toBe(body.replace('- [ ] adds', '- [x] adds'));
    // White space runs compare as one space, as the test list reads them; the line keeps its own.
    expect(tickItem(body, 'subtracts two numbers')).toBe(body.replace('* [ ]   subtracts', '* [x]   subtracts'));
  });

  it('is idempotent: a ticked box, or an item that is not there, gives undefined (nothing to write)', () => {
    expect(tickItem(body, 'multiplies')).toBeUndefined();
    expect(tickItem(body, 'divides')).toBeUndefined();
    const once = tickItem('- [ ] one', 'one') as string;
    expect(tickItem(once, 'one')).toBeUndefined();
  });

  it('keeps CRLF line ends as they are', () => {
    expect(tickItem('intro\r\n- [ ] one\r\n- [ ] two\r\n', 'two')).toBe('intro\r\n- [ ] one\r\n- [x] two\r\n');
  });

  it('a ticked box is no edit by a person: the fingerprint ignores the boxes, not the text', () => {
    const issue = { title: 'Calculator', body };
    expect(issueFingerprint({ ...issue, body: tickItem(body, 'adds two numbers') as string })).toBe(
      issueFingerprint(issue),
    );
    expect(issueFingerprint({ ...issue, body: `${body}\n- [ ] divides` })).not.toBe(issueFingerprint(issue));
    expect(untickAll('- [x] a\n- [X] b\ntext [x]')).toBe('- [ ] a\n- [ ] b\ntext [x]');
  });
});

describe('a checklist in a fenced code block is an example, not the test list', () => {
  const body = [
    'Accept task lists. Input:',
    '```md',
    '- [ ] parses a task',
    '```',
    '~~~~',
    '- [ ] in tildes',
    '~~~',
    '- [ ] still in tildes',
    '~~~~',
    '',
    '- [ ] parses a task',
    '- [ ] rejects garbage',
  ].join('\r\n');

  it('neither reads it nor ticks it: the real box is ticked', () => {
    expect(parseTestList(body, 'x').map((t) => t.description)).toEqual(['parses a task', 'rejects garbage']);
    const ticked = tickItem(body, 'parses a task');
    expect(ticked?.split('\r\n')).toEqual([
      ...body.split('\r\n').slice(0, 10),
      '- [x] parses a task',
      '- [ ] rejects garbage',
    ]);
    expect(tickItem(body, 'in tildes')).toBeUndefined();
  });
});
