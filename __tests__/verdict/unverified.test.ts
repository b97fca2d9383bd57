/**
 * Issue 42, "read every test or say so": accepted work is unverified — held for a person unless the
 * maintainer lands such work with --accept-unverified — when nothing shows it fixes its issue, or when
 * the judged run has results the runner counted that agent-loop could not read one by one (one of
 * them could be a broken test). One rule, decided where a judge tree ran. Pure; runs read from real
 * pytest output.
 */
import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { surface } from '../../src/config/surface.js';
import type { Evidence } from '../../src/verdict/evidence.js';
import { judge } from '../../src/verdict/judge.js';
import { VERDICT_MESSAGES } from '../../src/verdict/messages.js';
import { readSuiteOutput } from '../../src/verdict/readers/index.js';
import { unverifiedBecause } from '../../src/verdict/unverified.js';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/runners/${name}`, import.meta.url), 'utf8');

// pytest counted 3 (`3 passed`), one id printed over two lines (a newline in a parameter): 2 read.
const unread = readSuiteOutput(fixture('pytest-9.0.3-rA-newline-id.txt'), 0);
// Every id read (spaces, brackets, unicode): 11 counted, 11 read.
const allRead = readSuiteOutput(fixture('pytest-9.0.3-v-rA-ids.txt'), 1);
const evidence: Evidence = {
  kind: 'fixed',
  tests: ['tests/test_nl.py::test_plain'],
  said: '1 test(s) that failed before the change pass now',
};
const noEvidence: Evidence = {
  kind: 'none',
  tests: [],
  said: 'no evidence of a fix: the agent added no test that shows the fix',
};
const cli = surface('cli');

describe('issue 42: results counted and not read make accepted work unverified', () => {
  it('accepted, with evidence, on a judged run with 1 result counted and not read: unverified, with the counts, the risk and what to do', () => {
    const verdict = judge({ baseline: unread, now: unread, targetTests: [] });
    expect(verdict).toMatchObject({ kind: 'accepted', unread: 1 });
    expect(unverifiedBecause({ verdict, judged: true, evidence, run: unread, say: cli })).toBe(
      'the runner counted 3 test result(s) in its summary and agent-loop read 2 of them one by one: ' +
        'the 1 it could not read are not judged, and one of them could be a broken test (the full output is in the log). ' +
        'Have the test command write a JUnit report and name it with --junit-file (a JUnit report is read whole), ' +
        'or land such work with --accept-unverified',
    );
  });

  it("in the action's words: the inputs, not the flags", () => {
    const verdict = judge({ baseline: unread, now: unread, targetTests: [] });
    const why = unverifiedBecause({ verdict, judged: true, evidence, run: unread, say: surface('action') });
    expect(why).toContain('name it with the input junit-file');
    expect(why).toContain('or land such work with accept-unverified: true');
    expect(why).not.toContain('--');
  });

  it('every result read (ids with spaces, brackets, unicode): verified as its evidence says', () => {
    const verdict = judge({ baseline: allRead, now: allRead, targetTests: [] });
    expect(verdict.unread).toBeUndefined();
    expect(unverifiedBecause({ verdict, judged: true, evidence, run: allRead, say: cli })).toBeUndefined();
    // A runner that prints no count (jest without --verbose): nothing to compare, nothing said.
    const jest = readSuiteOutput(fixture('jest-29-default.txt'), 1);
    expect(unverifiedBecause({ verdict, judged: true, evidence, run: jest, say: cli })).toBeUndefined();
  });

  it('no evidence and results not read: both reasons, one held work', () => {
    const verdict = judge({ baseline: unread, now: unread, targetTests: [] });
    const why = unverifiedBecause({ verdict, judged: true, evidence: noEvidence, run: unread, say: cli });
    expect(why).toMatch(/^no evidence of a fix: the agent added no test that shows the fix; and the runner counted 3 /);
  });

  it('no evidence alone: its words, as before', () => {
    const verdict = judge({ baseline: allRead, now: allRead, targetTests: [] });
    expect(unverifiedBecause({ verdict, judged: true, evidence: noEvidence, run: allRead, say: cli })).toBe(
      noEvidence.said,
    );
  });

  it('only accepted work judged in a judge tree: a rejection is retried anyway; work judged in place is not held', () => {
    const accepted = judge({ baseline: unread, now: unread, targetTests: [] });
    const rejected = { ...accepted, kind: 'rejected' as const };
    expect(unverifiedBecause({ verdict: rejected, judged: true, evidence, run: unread, say: cli })).toBeUndefined();
    expect(unverifiedBecause({ verdict: accepted, judged: false, evidence, run: unread, say: cli })).toBeUndefined();
    expect(unverifiedBecause({ verdict: accepted, judged: false, evidence: noEvidence, say: cli })).toBeUndefined();
  });
});

describe('issue 42: said ahead, with a baseline that has results not read', () => {
  it('what accepted work on this suite comes to, and what to do, in the surface’s words', () => {
    expect(VERDICT_MESSAGES.unreadAhead('pytest', 3, 2, cli)).toBe(
      "pytest counted 3 test result(s) on the cycle's base and agent-loop read 2 of them one by one: " +
        'work the tests accept on this suite is held for a person as unverified while results are not read ' +
        '(one could be a broken test). Have the test command write a JUnit report and name it with --junit-file ' +
        '(a JUnit report is read whole), or land such work with --accept-unverified',
    );
    expect(VERDICT_MESSAGES.unreadAhead('pytest', 3, 2, surface('action'))).toContain(
      'the input junit-file (a JUnit report is read whole), or land such work with accept-unverified: true',
    );
  });
});
