/**
 * Test results for the red/green/refactor workflow's retry prompts (seed 003: "Include the failing
 * test names and error messages"): JUnit XML from jest-junit, pytest and the go converters, read
 * tolerantly and bounded, and the failures as the prompt's text (the console output of jest,
 * pytest and go test, when there is no XML: consoleFailures.test.ts). The samples follow the
 * producers' real output (pytest's and jest's were generated, the go ones follow go-junit-report's
 * and gotestsum's golden files).
 */
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { parseJUnitXml } from '../../src/verdict/junit.js';
import { REPORT_LIMITS, type TestReport, clip, summariseFailures } from '../../src/verdict/testReport.js';

// jest-junit with its defaults (classname and name "{classname} {title}") and reportTestSuiteErrors on.
const jestJunit = `<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="jest tests" tests="4" failures="2" errors="1" time="1.204">
  <testsuite name="Calculator" errors="0" failures="2" skipped="1" timestamp="2025-01-22T10:30:00" time="0.412" tests="4">
    <testcase classname="Calculator adds numbers" name="Calculator adds numbers" time="0.003">
      <failure>Error: expect(received).toBe(expected) // Object.is equality

Expected: 3
Received: 2
    at Object.toBe (/home/runner/work/app/app/src/calc.test.ts:4:23)
    at Promise.then.completed (/home/runner/work/app/app/node_modules/jest-circus/build/utils.js:298:28)</failure>
    </testcase>
    <testcase classname="Calculator subtracts" name="Calculator subtracts" time="0.001">
    </testcase>
    <testcase classname="Calculator division throws on zero" name="Calculator division throws on zero" time="0.002">
      <failure>Error: expect(received).toThrow(expected)

Expected substring: &quot;division by zero&quot;

Received function did not throw
    at Object.toThrow (/home/runner/work/app/app/src/calc.test.ts:12:27)</failure>
    </testcase>
    <testcase classname="Calculator multiplies" name="Calculator multiplies" time="0">
      <skipped/>
    </testcase>
  </testsuite>
  <testsuite name="src/broken.test.ts" errors="1" failures="0" skipped="0" timestamp="2025-01-22T10:30:01" time="0" tests="0">
    <testcase classname="Test suite failed to run" name="src/broken.test.ts" time="0">
      <error>  ● Test suite failed to run

    src/broken.test.ts:1:10 - error TS2305: Module &apos;&quot;./calc&quot;&apos; has no exported member &apos;multiply&apos;.

    1 import { multiply } from &apos;./calc&apos;;
               ~~~~~~~~
</error>
    </testcase>
  </testsuite>
</testsuites>`;

// pytest 9 --junitxml (generated), one line as pytest writes it.
const pytestXml = `<?xml version="1.0" encoding="utf-8"?><testsuites name="pytest tests"><testsuite name="pytest" errors="0" failures="2" skipped="1" tests="4" time="0.033" timestamp="2025-01-22T10:30:00.729527+00:00" hostname="runner"><testcase classname="tests.test_user_login" name="test_login_with_valid_credentials" time="0.001"><failure message="AssertionError: expected True but got False&#10;assert False is True&#10; +  where False = login('alice', 'secret')">def test_login_with_valid_credentials():
&gt;       assert login("alice", "secret") is True, "expected True but got False"
E       AssertionError: expected True but got False
E       assert False is True
E        +  where False = login('alice', 'secret')

tests/test_user_login.py:7: AssertionError</failure></testcase><testcase classname="tests.test_user_login" name="test_rejects_wrong_password" time="0.000" /><testcase classname="tests.test_user_login" name="test_ldap" time="0.000"><skipped type="pytest.skip" message="needs LDAP">/tmp/app/tests/test_user_login.py:12: needs LDAP</skipped></testcase><testcase classname="tests.test_user_login" name="test_compare" time="0.000"><failure message="AssertionError: assert {'a': 1, 'b': '&lt;x &amp; y&gt;'} == {'a': 2, 'b': '&lt;x &amp; y&gt;'}&#10;  &#10;  Omitting 1 identical items, use -vv to show&#10;  Differing items:&#10;  {'a': 1} != {'a': 2}&#10;  Use -v to get more diff">def test_compare():
&gt;       assert {"a": 1, "b": "&lt;x &amp; y&gt;"} == {"a": 2, "b": "&lt;x &amp; y&gt;"}
E       AssertionError: assert {'a': 1, 'b': '&lt;x &amp; y&gt;'} == {'a': 2, 'b': '&lt;x &amp; y&gt;'}
E         
E         Omitting 1 identical items, use -vv to show
E         Differing items:
E         {'a': 1} != {'a': 2}
E         Use -v to get more diff

tests/test_user_login.py:17: AssertionError</failure></testcase></testsuite></testsuites>`;

// pytest with a test file that does not compile: a collection error (generated, shortened).
const pytestCollectionError = `<?xml version="1.0" encoding="utf-8"?><testsuites name="pytest tests"><testsuite name="pytest" errors="1" failures="0" skipped="0" tests="1" time="0.254" timestamp="2025-01-22T10:30:00.489393+00:00" hostname="runner"><testcase classname="" name="tests.test_broken" time="0.000"><error message="collection failure">/usr/lib/python3.11/site-packages/_pytest/python.py:507: in importtestmodule
    mod = import_path(
&lt;frozen importlib._bootstrap&gt;:1204: in _gcd_import
    ???
E     File "/tmp/app/tests/test_broken.py", line 1
E       def test_x(:
E                  ^
E   SyntaxError: invalid syntax</error></testcase></testsuite></testsuites>`;

// go-junit-report v2: a failing package with subtests, and a package that does not build.
const goJunitReport = `<?xml version="1.0" encoding="UTF-8"?>
<testsuites tests="5" failures="2" errors="1">
	<testsuite name="example.com/calc" tests="4" failures="2" errors="0" id="0" hostname="runner" time="0.003" timestamp="2025-01-22T10:30:00Z">
		<properties>
			<property name="go.version" value="go1.22.2 linux/amd64"></property>
		</properties>
		<testcase name="TestAdd" classname="example.com/calc" time="0.000">
			<failure message="Failed"><![CDATA[    calc_test.go:10: add(1, 1) = 2, want 3]]></failure>
		</testcase>
		<testcase name="TestTable" classname="example.com/calc" time="0.000">
			<failure message="Failed"></failure>
		</testcase>
		<testcase name="TestTable/negative" classname="example.com/calc" time="0.000"></testcase>
		<testcase name="TestSkip" classname="example.com/calc" time="0.000">
			<skipped message="Skipped"><![CDATA[    calc_test.go:30: needs network]]></skipped>
		</testcase>
		<system-out><![CDATA[exit status 1]]></system-out>
	</testsuite>
	<testsuite name="example.com/calc/broken" tests="1" failures="0" errors="1" id="1" hostname="runner" time="0.000" timestamp="2025-01-22T10:30:00Z">
		<testcase name="[build failed]" classname="example.com/calc/broken" time="0.000">
			<error message="Build error"><![CDATA[./broken.go:4:6: unused declared and not used
./broken.go:5:2: undefined: fmt]]></error>
		</testcase>
	</testsuite>
</testsuites>
`;

// gotestsum --junitfile: the test's whole output, escaped, as the failure's text.
const gotestsumXml = `<?xml version="1.0" encoding="UTF-8"?>
<testsuites tests="2" failures="1" errors="0" time="0.512">
	<testsuite tests="2" failures="1" time="0.004" name="example.com/calc" timestamp="2025-01-22T10:30:00Z">
		<properties>
			<property name="go.version" value="go1.22.2 linux/amd64"></property>
		</properties>
		<testcase classname="example.com/calc" name="TestAdd" time="0.000000">
			<failure message="Failed" type="">=== RUN   TestAdd&#xA;--- FAIL: TestAdd (0.00s)&#xA;&#x9;calc_test.go:10: add(1, 1) = 2, want 3&#xA;</failure>
		</testcase>
		<testcase classname="example.com/calc" name="TestSub" time="0.000000"></testcase>
	</testsuite>
</testsuites>`;

describe('parseJUnitXml', () => {
  it('reads jest-junit: counts, failures with their message before the stack, a suite that failed to run', () => {
    const report = parseJUnitXml(jestJunit);

    expect(report).toMatchObject({ tests: 5, failures: 2, errors: 1, skipped: 1, omitted: 0 });
    expect(report.problem).toBeUndefined();
    expect(report.failed.map((f) => f.name)).toEqual([
      'Calculator adds numbers',
      'Calculator division throws on zero',
      'src/broken.test.ts',
    ]);
    expect(report.failed[0]).toEqual({
      name: 'Calculator adds numbers',
      classname: 'Calculator adds numbers',
      message: 'Error: expect(received).toBe(expected) // Object.is equality\n\nExpected: 3\nReceived: 2',
      details: expect.stringContaining('at Object.toBe (/home/runner/work/app/app/src/calc.test.ts:4:23)'),
    });
    expect(report.failed[1]?.message).toContain('Expected substring: "division by zero"');
    expect(report.failed[2]?.message).toContain("error TS2305: Module '\"./calc\"' has no exported member 'multiply'.");
  });

  it('reads pytest: the message attribute, entities decoded, self-closing and skipped testcases', () => {
    const report = parseJUnitXml(pytestXml);

    expect(report).toMatchObject({ tests: 4, failures: 2, errors: 0, skipped: 1, omitted: 0 });
    expect(report.problem).toBeUndefined();
    expect(report.failed).toHaveLength(2);
    expect(report.failed[0]).toMatchObject({
      name: 'test_login_with_valid_credentials',
      classname: 'tests.test_user_login',
      message:
        "AssertionError: expected True but got False\nassert False is True\n +  where False = login('alice', 'secret')",
    });
    expect(report.failed[0]?.details).toMatch(/^def test_login_with_valid_credentials\(\):\n> {7}assert login/);
    expect(report.failed[1]?.message).toMatch(/^AssertionError: assert \{'a': 1, 'b': '<x & y>'\} == /);
  });

  it('reads a pytest collection error (a test file that does not compile) as an error', () => {
    const report = parseJUnitXml(pytestCollectionError);

    expect(report).toMatchObject({ tests: 1, failures: 0, errors: 1, skipped: 0 });
    expect(report.failed).toEqual([
      {
        name: 'tests.test_broken',
        message: 'collection failure',
        details: expect.stringContaining('E   SyntaxError: invalid syntax'),
      },
    ]);
    expect(report.failed[0]?.details).toContain('<frozen importlib._bootstrap>:1204');
  });

  it('reads go-junit-report: CDATA text, go\'s generic "Failed" replaced by what the test logged, a build failure', () => {
    const report = parseJUnitXml(goJunitReport);

    expect(report).toMatchObject({ tests: 5, failures: 2, errors: 1, skipped: 1 });
    expect(report.failed).toEqual([
      {
        name: 'TestAdd',
        classname: 'example.com/calc',
        message: 'calc_test.go:10: add(1, 1) = 2, want 3',
        details: 'calc_test.go:10: add(1, 1) = 2, want 3',
      },
      { name: 'TestTable', classname: 'example.com/calc', message: 'Failed', details: '' },
      {
        name: '[build failed]',
        classname: 'example.com/calc/broken',
        message: 'Build error',
        details: './broken.go:4:6: unused declared and not used\n./broken.go:5:2: undefined: fmt',
      },
    ]);
  });

  it("reads gotestsum: the escaped output without go's === RUN / --- FAIL markers as the message", () => {
    const report = parseJUnitXml(gotestsumXml);

    expect(report).toMatchObject({ tests: 2, failures: 1, errors: 0, skipped: 0 });
    expect(report.failed[0]).toMatchObject({ name: 'TestAdd', message: 'calc_test.go:10: add(1, 1) = 2, want 3' });
    expect(report.failed[0]?.details).toBe(
      '=== RUN   TestAdd\n--- FAIL: TestAdd (0.00s)\n\tcalc_test.go:10: add(1, 1) = 2, want 3',
    );
  });

  it('reads a single <testsuite> root, with file attributes', () => {
    const report = parseJUnitXml(`<testsuite name="unit" tests="2" failures="1">
  <testcase classname="a.b" name="t1" file="tests/test_a.py"/>
  <testcase classname="a.b" name="t2" file="tests/test_a.py"><failure message="boom" type="AssertionError">trace</failure></testcase>
</testsuite>`);

    expect(report).toEqual({
      tests: 2,
      failures: 1,
      errors: 0,
      skipped: 0,
      omitted: 0,
      failed: [{ name: 't2', classname: 'a.b', file: 'tests/test_a.py', message: 'boom', details: 'trace' }],
      cases: [
        { name: 't1', classname: 'a.b', file: 'tests/test_a.py', outcome: 'passed' },
        { name: 't2', classname: 'a.b', file: 'tests/test_a.py', outcome: 'failed' },
      ],
    });
  });

  it('decodes the five entities and numeric references, keeps CDATA verbatim, leaves unknown entities alone', () => {
    const report = parseJUnitXml(`<testsuites><testsuite name="s">
<testcase name="a &amp; b &lt;c&gt;" classname='it&apos;s "q"'><failure message="&quot;x&quot; &#65;&#x42;&#x1F600; &#10;&nbsp;&#xD800;">before <![CDATA[<not a tag> &amp; ]] stays]]> after &lt;/failure&gt;</failure></testcase>
</testsuite></testsuites>`);

    expect(report.problem).toBeUndefined();
    expect(report.failed[0]).toEqual({
      name: 'a & b <c>',
      classname: 'it\'s "q"',
      message: '"x" AB😀 \n&nbsp;&#xD800;',
      details: 'before <not a tag> &amp; ]] stays after </failure>',
    });
  });

  it('reads a ">" inside a quoted attribute and a comment or doctype anywhere', () => {
    const report = parseJUnitXml(`<?xml version="1.0"?><!DOCTYPE testsuites><!-- generated <testcase name="no"/> -->
<testsuites><testsuite name="s"><testcase name="t" classname="c"><failure message="expected a > b, got a <= b"/></testcase></testsuite></testsuites>`);

    expect(report).toMatchObject({ tests: 1, failures: 1 });
    expect(report.problem).toBeUndefined();
    expect(report.failed[0]?.message).toBe('expected a > b, got a <= b');
  });

  it('counts what the suites declare when the testcases show fewer (a suite error without testcases)', () => {
    const report = parseJUnitXml(
      '<testsuites><testsuite name="a" tests="3" failures="1" errors="1" skipped="0"><testcase name="t"/></testsuite></testsuites>',
    );

    expect(report).toMatchObject({ tests: 3, failures: 1, errors: 1, skipped: 0, failed: [] });
  });

  it('takes a <failure> directly under <testsuite> as the suite failing', () => {
    const report = parseJUnitXml(
      '<testsuite name="pkg/x"><error message="setup failed">could not connect</error></testsuite>',
    );

    expect(report).toMatchObject({
      errors: 1,
      failed: [{ name: 'pkg/x', message: 'setup failed', details: 'could not connect' }],
    });
  });

  it('reads nested suites, a BOM, comments and processing instructions anywhere, CDATA holding "]]>"', () => {
    const report = parseJUnitXml(`\uFEFF<?xml version="1.0" encoding="UTF-8"?>
<!-- merged by a CI step -->
<testsuites tests="4" failures="2">
  <testsuite name="outer" tests="4" failures="2">
    <?timing 0.5?>
    <testsuite name='inner'>
      <testcase name="a" classname='pkg.inner'/>
      <testcase name="b" classname="pkg.inner"><failure message="x &#x3C; y &#60; z">expected x[y[0]] <![CDATA[]]]]><![CDATA[> 1]]> &#x27;ok&#39;</failure></testcase>
    </testsuite>
    <!-- <testcase name="commented out"/> -->
    <testcase name="c" classname="pkg.outer"><skipped/></testcase>
    <error message="teardown failed">connection reset</error>
  </testsuite>
</testsuites>`);

    expect(report).toEqual({
      tests: 4,
      failures: 2,
      errors: 1,
      skipped: 1,
      omitted: 0,
      failed: [
        { name: 'b', classname: 'pkg.inner', message: 'x < y < z', details: "expected x[y[0]] ]]> 1 'ok'" },
        { name: 'outer', message: 'teardown failed', details: 'connection reset' },
      ],
      cases: [
        { name: 'a', classname: 'pkg.inner', outcome: 'passed' },
        { name: 'b', classname: 'pkg.inner', outcome: 'failed' },
        { name: 'c', classname: 'pkg.outer', outcome: 'skipped' },
      ],
    });
  });

  describe('bounds', () => {
    it('cuts each message to 2,000 and details to 4,000 characters, marking the cut', () => {
      const xml = `<testsuite><testcase name="t"><failure message="${'m'.repeat(5_000)}">${'d'.repeat(50_000)}</failure></testcase></testsuite>`;

      const [failed] = parseJUnitXml(xml).failed;

      expect(failed?.message).toHaveLength(REPORT_LIMITS.message);
      expect(failed?.message.endsWith('m…')).toBe(true);
      expect(failed?.details).toHaveLength(REPORT_LIMITS.details);
      expect(failed?.details.endsWith('d…')).toBe(true);
    });

    it('stays bounded on a 50 MB report: a 100,000-character message, 50 MB of failure text', () => {
      const xml = `<testsuites><testsuite name="big" tests="2" failures="1"><testcase name="t0"/><testcase name="t1"><failure message="${'m'.repeat(100_000)}">${'trace line\n'.repeat(4_600_000)}</failure></testcase></testsuite></testsuites>`;
      expect(xml.length).toBeGreaterThan(50_000_000);

      const report = parseJUnitXml(xml);

      expect(report).toMatchObject({ tests: 2, failures: 1, omitted: 0 });
      expect(report.problem).toBeUndefined();
      expect(report.failed[0]?.message).toHaveLength(REPORT_LIMITS.message);
      expect(report.failed[0]?.details).toHaveLength(REPORT_LIMITS.details);
      expect(JSON.stringify(report).length).toBeLessThan(10_000);
    });

    it('reads 50 MB that is not XML (a console log where the report should be) to a problem', () => {
      const report = parseJUnitXml(`PASS src/a.test.ts\n${'console.log x < y\n'.repeat(3_000_000)}`);

      expect(report).toMatchObject({ tests: 0, failed: [], cases: [] });
      expect(report.problem).toMatch(/no <testsuites> or <testsuite> element/);
    });

    it('stops reading garbage, keeping what it read: a tag that never ends', () => {
      const report = parseJUnitXml(
        `<testsuite><testcase name="t"><failure message="m">a <b ${'c d e '.repeat(1_000_000)}`,
      );

      expect(report.problem).toBe(
        'the XML is too malformed to read further (over 100,000 errors); the XML ends inside <testsuite> <testcase> <failure>',
      );
      expect(report.failed).toEqual([{ name: 't', message: 'm', details: 'a' }]);
    });

    it('lists at most 50 failed tests and counts the ones left out', () => {
      const cases = Array.from(
        { length: 60 },
        (_, i) => `<testcase name="t${i}"><failure message="no ${i}"/></testcase>`,
      ).join('');

      const report = parseJUnitXml(`<testsuite>${cases}</testsuite>`);

      expect(report).toMatchObject({ tests: 60, failures: 60, omitted: 10 });
      expect(report.failed).toHaveLength(REPORT_LIMITS.failed);
      expect(report.failed.at(-1)?.name).toBe('t49');
    });

    it('never splits a surrogate pair when cutting', () => {
      expect(clip('ab😀cd', 4)).toBe('ab…');
      expect(clip('abc', 3)).toBe('abc');
    });
  });

  describe('malformed input: what could be read, and a problem, never a throw', () => {
    it.each([
      ['empty', '', /no <testsuites> or <testsuite> element/],
      ['not XML', 'Error: ENOENT: no such file or directory, open junit.xml', /no <testsuites> or <testsuite> element/],
      ['another root', '<html><body>502 Bad Gateway</body></html>', /the root element is <html>/],
      ['an unterminated tag', '<testsuites><testsuite name="x', /unterminated tag <testsuite/],
      ['a stray closing tag', '<testsuite></testcase></testsuite>', /<\/testcase> closes nothing/],
    ])('%s', (_what, xml, problem) => {
      const report = parseJUnitXml(xml);

      expect(report.problem).toMatch(problem);
      expect(report.failed).toEqual([]);
    });

    it('keeps the failures read before the file was cut off', () => {
      const cut = pytestXml.slice(0, pytestXml.indexOf('def test_compare():') + 10);

      const report = parseJUnitXml(cut);

      expect(report.problem).toMatch(/ends inside <testsuites> <testsuite> <testcase> <failure>/);
      expect(report).toMatchObject({ tests: 4, failures: 2, skipped: 1 });
      expect(report.failed.map((f) => f.name)).toEqual(['test_login_with_valid_credentials', 'test_compare']);
    });

    it('keeps the failures read before the file was cut off in the middle of an attribute', () => {
      const cut = pytestXml.slice(0, pytestXml.indexOf('message=', pytestXml.indexOf('name="test_compare"')) + 20);

      const report = parseJUnitXml(cut);

      expect(report.problem).toBe('unterminated tag <failure; the XML ends inside <testsuites> <testsuite> <testcase>');
      expect(report).toMatchObject({ tests: 4, failures: 2, skipped: 1 });
      expect(report.failed.map((f) => f.name)).toEqual(['test_login_with_valid_credentials']);
    });

    it('closes elements left open by a mismatched closing tag', () => {
      const report = parseJUnitXml(
        '<testsuites><testsuite><testcase name="t"><failure message="x"></testsuite></testsuites>',
      );

      expect(report.problem).toMatch(/<failure>, <testcase> not closed before <\/testsuite>/);
      expect(report).toMatchObject({ tests: 1, failures: 1, failed: [{ name: 't', message: 'x' }] });
    });

    it('keeps the problem short for deeply nested, unclosed input', () => {
      const report = parseJUnitXml(`<testsuite>${'<a>'.repeat(100_000)}`);

      expect(report.problem).toMatch(/^the XML ends inside <testsuite> <a> <a> <a> <a> <a> … \(99995 more\)$/);
    });

    it('reads a large report (20,000 testcases) whole', () => {
      const cases = Array.from(
        { length: 20_000 },
        (_, i) =>
          `<testcase classname="pkg.mod${i % 40}" name="test_${i}" time="0.001">${i % 1000 === 0 ? `<failure message="boom ${i}">${'trace line\n'.repeat(500)}</failure>` : ''}</testcase>`,
      ).join('\n');

      const report = parseJUnitXml(`<testsuites><testsuite name="big" tests="20000">${cases}</testsuite></testsuites>`);

      expect(report).toMatchObject({ tests: 20_000, failures: 20, omitted: 0 });
      expect(report.failed[19]?.message).toBe('boom 19000');
    });

    it('never throws, on any string or any cut of a real report', () => {
      fc.assert(
        fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (s) => {
          expect(typeof parseJUnitXml(s).tests).toBe('number');
        }),
      );
      for (const sample of [jestJunit, pytestXml, goJunitReport, gotestsumXml]) {
        fc.assert(
          fc.property(fc.nat(sample.length), fc.nat(sample.length), (a, b) => {
            const report = parseJUnitXml(sample.slice(Math.min(a, b), Math.max(a, b)));
            expect(report.failed.length).toBeLessThanOrEqual(REPORT_LIMITS.failed);
          }),
          { numRuns: 200 },
        );
      }
    });
  });
});

describe('summariseFailures', () => {
  it('lists pytest failures with their message and the assertion lines', () => {
    expect(summariseFailures(parseJUnitXml(pytestXml))).toBe(
      [
        '2 failing tests:',
        '- tests.test_user_login › test_login_with_valid_credentials: AssertionError: expected True but got False',
        '    assert False is True',
        "     +  where False = login('alice', 'secret')",
        "- tests.test_user_login › test_compare: AssertionError: assert {'a': 1, 'b': '<x & y>'} == {'a': 2, 'b': '<x & y>'}",
        '    Omitting 1 identical items, use -vv to show',
        '    Differing items:',
        "    {'a': 1} != {'a': 2}",
        '    Use -v to get more diff',
      ].join('\n'),
    );
  });

  it('names a jest test once (jest-junit repeats the suite in the name) and counts the suite that failed to run', () => {
    const text = summariseFailures(parseJUnitXml(jestJunit));

    expect(text.split('\n')[0]).toBe('3 failing tests:');
    expect(text).toContain(
      '- Calculator adds numbers: Error: expect(received).toBe(expected) // Object.is equality\n    Expected: 3\n    Received: 2',
    );
    expect(text).toContain('- Test suite failed to run › src/broken.test.ts: ● Test suite failed to run');
    expect(text).not.toContain('at Object.toBe');
  });

  it('shows the compiler output under a go build failure', () => {
    const text = summariseFailures(parseJUnitXml(goJunitReport));

    expect(text).toContain(
      '- example.com/calc/broken › [build failed]: Build error\n    ./broken.go:4:6: unused declared and not used\n    ./broken.go:5:2: undefined: fmt',
    );
    expect(text).toContain('- example.com/calc › TestAdd: calc_test.go:10: add(1, 1) = 2, want 3\n-');
  });

  it('shows at most `max` failures and says how many more there are', () => {
    const cases = Array.from(
      { length: 60 },
      (_, i) => `<testcase name="t${i}"><failure message="no ${i}"/></testcase>`,
    ).join('');

    const text = summariseFailures(parseJUnitXml(`<testsuite>${cases}</testsuite>`), 3);

    expect(text).toBe('60 failing tests:\n- t0: no 0\n- t1: no 1\n- t2: no 2\n- … and 57 more');
  });

  it('says when nothing failed, and when the report could not be read', () => {
    const none: TestReport = { tests: 3, failures: 0, errors: 0, skipped: 0, failed: [], omitted: 0, cases: [] };

    expect(summariseFailures(none)).toBe('No failing tests.');
    expect(summariseFailures(parseJUnitXml(''))).toMatch(
      /^No failing tests found in the test report\. \(The test report could not be read completely: no <testsuites>/,
    );
  });
});
