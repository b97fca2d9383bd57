/**
 * Issue 41: one masking boundary. Secrets are masked where data enters the engine (INGRESS) and,
 * as a defence, where text leaves it for a place a person or the public reads (EGRESS); nowhere in
 * between. This reads every file of src/ with TypeScript's own parser and fails on a call of the
 * redactor (`redact(…)`, `ctx.redact(…)`, `(deps.redact ?? …)(…)`, `mask(…)`, `.piece`, `.edges`)
 * or of the output masker in a module not listed here: a re-mask downstream of the boundary. A new
 * source of data masks where it enters (and is listed as INGRESS, saying what enters); a new sink
 * that publishes is listed as EGRESS, saying why its mask is a defence and not a re-mask.
 */
import { describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const SRC = path.resolve('src');

/** Where data enters the engine, and what enters there. */
const INGRESS: Record<string, string> = {
  'src/agents/process.ts':
    'every line an agent or the test command prints, and the tails kept from them (createOutputMasker)',
  'src/agents/streamingCli.ts':
    "the strings of a JSON-speaking agent's events (claude, codex) as decoded: a \\u escape hides a secret from the line's mask",
  'src/agents/report.ts':
    "the values of an agent's report block as YAML decodes them: an escape (\\x73) hides a secret from the output's mask",
  'src/loop/testGate.ts': 'the JUnit report the test command writes (a file of the repository, read by the verdict)',
  'src/issues/guard.ts': "issue titles and bodies as the source returns them (GitHub's, beads', a file's)",
  'src/app/problems.ts': 'why a run cannot start: option values, the environment and configuration files',
  'src/app/run.ts':
    'the text of an error that stopped the run (git, the file system, GitHub) and of a listing GitHub refused, handed to the caller',
  'src/app/earlyEnds.ts': "the text of a listing that failed before the run started (a deferred run's result)",
  'src/workflows/pipeline/barrier.ts':
    "the planning agent's artifacts (research, plan, decomposition, phase files) and the barrier's findings on them",
  'src/loop/issueWork.ts': "the text of the issue source's failures (GitHub's answers, bd's stderr)",
  'src/loop/effects/issues.ts': 'the text of a listing GitHub did not answer',
  'src/loop/effects/landing.ts': "why an earlier run's finished cycle cannot be landed (git's and GitHub's text)",
  'src/publish/pullRequest.ts': "git's stderr and GitHub's refusals while a cycle's work is pushed and landed",
};

/**
 * Where text leaves the engine for a reader, each masked as a defence: what is written there is
 * composed by the engine from data masked at the INGRESS and from text that never came through it
 * (an exception's message from Node, git or Octokit, an option's value, the secrets the engine
 * holds itself to do its work). A path ending in `/` is a folder.
 */
const EGRESS: Record<string, string> = {
  'src/issues/guard.ts':
    "what the engine writes into an issue: a close reason, an escalation's or a no-change note (a beads file or bd masks nothing itself)",
  'src/report/logger.ts': 'every log line: stdout and stderr, the NDJSON events, the action log',
  'src/report/discordWebhook.ts': 'the halt posted to Discord (its own webhook URL masked too: no secret of the run)',
  'src/persist/stateFiles.ts':
    "every file agent-loop writes in the state directory (halt.md, errors.jsonl, the prompt, baselines): the action's artifacts",
  'src/persist/publishable.ts':
    'the state directory as the action publishes it (cache entry, artifact): the files the agent could write there too (issue 43)',
  'src/checkpoint/fileStore.ts': 'the checkpoints (also written through stateFiles: see the report of issue 41)',
  'src/issues/github/postedText.ts': 'every comment and body posted on GitHub',
  'src/issues/github/pullRequests.ts': 'pull request titles',
  'src/issues/github/phaseIssues.ts': "the planning pipeline's issue titles",
  'src/git/message.ts': 'commit and merge messages (pushed)',
  'src/action/': "the runner's log lines, annotations, step outputs and job summary",
};

/**
 * Re-masks not removed yet, each with what is missing before it can go (the guard keeps them from
 * spreading meanwhile). None today.
 */
const LEFT: Record<string, string> = {};

/** What masks: the redactor and its parts, by the names it is passed under, and the output masker. */
const MASKING_CALL = /^(redact|mask|piece|edges|createOutputMasker)$/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

/** The name a callee is called by: `redact`, `ctx.redact`, `(deps.redact ?? id)`, `(redact as R).piece`. */
function calleeName(node: ts.Expression): string | undefined {
  if (ts.isIdentifier(node)) return node.text;
  if (ts.isPropertyAccessExpression(node)) return node.name.text;
  if (ts.isParenthesizedExpression(node) || ts.isNonNullExpression(node) || ts.isAsExpression(node))
    return calleeName(node.expression);
  if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.QuestionQuestionToken)
    return calleeName(node.left);
  return undefined;
}

/** Every masking call in a source text, as `file:line: callee`. Pure. */
function maskingCalls(fileName: string, text: string): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node)) {
      const name = calleeName(node.expression);
      if (name !== undefined && MASKING_CALL.test(name)) {
        const line = source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
        found.push(`${fileName}:${line}: ${node.expression.getText().replace(/\s+/g, ' ')}`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const listedIn = (rel: string, list: Record<string, string>) =>
  Object.keys(list).some((entry) => (entry.endsWith('/') ? rel.startsWith(entry) : rel === entry));

const listed = (rel: string) => listedIn(rel, INGRESS) || listedIn(rel, EGRESS) || listedIn(rel, LEFT);

const scanned = sourceFiles(SRC)
  .map((file) => path.relative(process.cwd(), file).split(path.sep).join('/'))
  // The masking itself: the redactor and the output masker call their own parts.
  .filter((rel) => !rel.startsWith('src/secrets/'))
  .map((rel) => ({ rel, calls: maskingCalls(rel, readFileSync(rel, 'utf8')) }));

describe('one masking boundary (issue 41)', () => {
  it('reads the whole of src/', () => {
    expect(scanned.length).toBeGreaterThan(150);
  });

  it('masks only where data enters the engine (INGRESS) or leaves it (EGRESS): no re-mask in between', () => {
    const elsewhere = scanned.filter((f) => !listed(f.rel)).flatMap((f) => f.calls);
    expect(elsewhere).toEqual([]);
  });

  it('every module listed still masks (the lists say where the masking is, not where it was)', () => {
    const masking = new Set(scanned.filter((f) => f.calls.length > 0).map((f) => f.rel));
    const stale = [...Object.keys(INGRESS), ...Object.keys(EGRESS), ...Object.keys(LEFT)].filter((entry) =>
      entry.endsWith('/') ? ![...masking].some((rel) => rel.startsWith(entry)) : !masking.has(entry),
    );
    expect(stale).toEqual([]);
  });

  it('the scan sees a re-mask however it is written (and not a comment, a message or a mask passed on)', () => {
    const calls = maskingCalls(
      'x.ts',
      [
        'const a = redact(text);',
        'const b = ctx.redact(`${reason}`);',
        'const c = (deps.redact ?? ((t: string) => t))(prompt);',
        'const d = (redact as SecretRedactor).piece(line, cut);',
        'const e = this.mask(text);',
        'const f = createOutputMasker(redact, emit);',
        '// redact(text) in a comment',
        "const g = 'redact(text)';",
        'const h = stateFiles(dir, deps.redact);',
      ].join('\n'),
    );
    expect(calls).toEqual([
      'x.ts:1: redact',
      'x.ts:2: ctx.redact',
      'x.ts:3: (deps.redact ?? ((t: string) => t))',
      'x.ts:4: (redact as SecretRedactor).piece',
      'x.ts:5: this.mask',
      'x.ts:6: createOutputMasker',
    ]);
  });
});
