/**
 * `go test ./...`. Without -v only failing tests are named (`--- FAIL: TestX (0.00s)`, subtests
 * indented as `TestX/case`), before the line that ends their package: `ok  pkg 0.01s`,
 * `FAIL pkg 0.02s`, `FAIL pkg [build failed]` (nothing in it ran), `? pkg [no test files]`.
 * With -v, `--- PASS:` and `--- SKIP:` lines name the rest.
 */
import { FAILURE_TEXT, keepFailureText } from '../failureText.js';
import { type Outcome, clipMessage, emptyRun, recordOutcome, testId } from '../results.js';
import { type RunnerReader, plain } from './types.js';

const RESULT = /^(\s*)--- (PASS|FAIL|SKIP): (\S+) \([\d.]+s\)$/;
const PKG_OK = /^ok\s+(\S+)\s+(?:[\d.]+s|\(cached\))/;
const PKG_FAIL = /^FAIL\s+(\S+)\s+(?:[\d.]+s|\[(build failed|setup failed)\])/;
const NO_FILES = /^\?\s+(\S+)\s+\[no test files\]/;

export function goTestReader(): RunnerReader {
  const run = emptyRun(null);
  /** Each test's result read in the package not yet ended: its message's first lines, and its log (the failure text). */
  let pending: Array<{ name: string; outcome: Outcome; message: string[]; text: string[] }> = [];
  let last: { message: string[]; text: string[] } | undefined;
  let buildError: string[] = [];
  let packages = 0;
  const settle = (pkg: string) => {
    packages++;
    for (const p of pending) {
      const id = testId(pkg, p.name);
      recordOutcome(run, id, p.outcome);
      if (p.message.length > 0) run.messages[id] = clipMessage(p.message.join('\n'));
      if (p.outcome === 'failed') keepFailureText(run, id, p.text);
    }
    pending = [];
    last = undefined;
  };
  return {
    name: 'go-test',
    feed(raw) {
      const line = plain(raw);
      const r = RESULT.exec(line);
      if (r) {
        const entry = {
          name: r[3] as string,
          outcome: (r[2] === 'PASS' ? 'passed' : r[2] === 'SKIP' ? 'skipped' : 'failed') as Outcome,
          message: [] as string[],
          text: [] as string[],
        };
        pending.push(entry);
        last = entry;
        return;
      }
      const ok = PKG_OK.exec(line);
      if (ok) {
        run.groups[ok[1] as string] = 'passed';
        settle(ok[1] as string);
        return;
      }
      const fail = PKG_FAIL.exec(line);
      if (fail) {
        const pkg = fail[1] as string;
        run.groups[pkg] = fail[2] ? 'error' : 'failed';
        if (fail[2]) run.messages[`${pkg}::*`] = clipMessage(buildError.join('\n') || fail[2]);
        buildError = [];
        settle(pkg);
        return;
      }
      if (NO_FILES.test(line)) return;
      if (/^# \S+/.test(line)) {
        buildError = [];
        return;
      }
      if (last && /^\s{4,}\S/.test(line)) {
        if (last.text.length <= FAILURE_TEXT.lines) last.text.push(line.trim());
        if (last.message.length < 6) last.message.push(line.trim());
        return;
      }
      if (/^\S+\.go:\d+:\d+: /.test(line) && buildError.length < 6) buildError.push(line);
    },
    finish(exitCode) {
      if (packages === 0) return undefined;
      run.reader = 'go-test';
      run.exitCode = exitCode;
      const groups = Object.values(run.groups);
      if (groups.length > 0 && groups.every((g) => g === 'error'))
        run.cannotRun = `no package built (${Object.keys(run.groups).slice(0, 3).join(', ')}): ${Object.values(run.messages)[0] ?? 'build failed'}`;
      return run;
    },
  };
}
