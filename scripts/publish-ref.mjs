// Names the published action in every `uses:` of it, so the reusable workflow runs the action at the
// same ref the caller pinned the workflow at:
//   node scripts/publish-ref.mjs OWNER/REPO@REF           write it, then check
//   node scripts/publish-ref.mjs --check [OWNER/REPO@REF]  check only (CI): every use names that one
//                                                         (without it: all name the same one)
// `uses:` takes no expression, so the reusable workflow cannot name its own repository and ref: the
// publisher writes them, commits, and tags that commit REF. The uses of this action are every
// `uses:` in the workflow files (.github/workflows/, examples/workflows/), in README.md and in the
// Markdown files under docs/ but
// GitHub's own (`actions/…`), local ones (`./…`) and `docker://` images: the action
// (`OWNER/REPO@REF`) and the reusable workflow (`OWNER/REPO/.github/workflows/agent-loop.yml@REF`).
// Exits 1 naming each use that differs, and 2 on a malformed OWNER/REPO@REF.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { markdownFiles, workflowFiles } from './workflow-lint/sources.mjs';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const WORKFLOW_PATH = '.github/workflows/agent-loop.yml';

/** The files that name the action, relative to root, sorted: README.md, the Markdown files under docs/, the workflow files. */
export const publishedFiles = (root = ROOT) => [...markdownFiles(root), ...workflowFiles(root)].sort();

/** `OWNER/REPO@REF` → { repo, ref }; throws an Error saying what is expected. */
export function parseTarget(text) {
  const m = /^([A-Za-z0-9][A-Za-z0-9-]{0,38})\/([A-Za-z0-9._-]{1,100})@([A-Za-z0-9._/+-]+)$/.exec(text ?? '');
  // The ref as git takes it (check-ref-format), in characters a YAML `uses:` keeps as they are: no
  // quote, `#` or `${{` that would be written into every use and then fail the check or the workflow.
  const badRef = (ref) =>
    ref.startsWith('-') ||
    ref.includes('..') ||
    ref.split('/').some((c) => c === '' || c.startsWith('.') || c.endsWith('.lock')) ||
    ref.endsWith('.');
  if (!m || m[2] === '.' || m[2] === '..' || badRef(m[3]))
    throw new Error(
      `publish-ref: '${text ?? ''}' is not OWNER/REPO@REF (e.g. my-org/agent-loop@v1, or @ a tag, branch or commit SHA).`,
    );
  return { repo: `${m[1]}/${m[2]}`, ref: m[3] };
}

const USES = /(\buses:\s*["']?)([^\s"'#]+)/g;
const isOurs = (target) => !/^(actions\/|\.\/|docker:\/\/)/.test(target) && target.includes('@');

/** Each use of the action in a text: its line, what it names, and where in the text. */
export function findUses(text, file) {
  const uses = [];
  for (const m of text.matchAll(USES)) {
    const target = m[2];
    if (!isOurs(target)) continue;
    const at = target.lastIndexOf('@');
    const name = target.slice(0, at);
    const workflow = name.endsWith(`/${WORKFLOW_PATH}`);
    uses.push({
      file,
      line: text.slice(0, m.index).split('\n').length,
      target,
      repo: workflow ? name.slice(0, -WORKFLOW_PATH.length - 1) : name,
      path: workflow ? WORKFLOW_PATH : '',
      ref: target.slice(at + 1),
      start: m.index + m[1].length,
    });
  }
  return uses;
}

/** The text with every use of the action naming repo@ref (the reusable workflow's path kept). */
export function rewrite(text, { repo, ref }) {
  let out = '';
  let last = 0;
  for (const use of findUses(text, '')) {
    out += text.slice(last, use.start) + `${repo}${use.path ? `/${use.path}` : ''}@${ref}`;
    last = use.start + use.target.length;
  }
  return out + text.slice(last);
}

/**
 * The problems of the published names: each use that differs from `target` (or, without one, from
 * the reusable workflow's own use of the action), and a workflow file with no use at all.
 */
export function checkUses(read, files, target) {
  const uses = files.flatMap((file) => findUses(read(file), file));
  const own = uses.find((u) => u.file === WORKFLOW_PATH && !u.path);
  const problems = [];
  if (!own) problems.push(`${WORKFLOW_PATH}: no step uses the action (OWNER/REPO@REF).`);
  const expected = target ?? (own && { repo: own.repo, ref: own.ref });
  if (!expected) return problems;
  for (const u of uses)
    if (u.repo !== expected.repo || u.ref !== expected.ref)
      problems.push(
        `${u.file}:${u.line}: ${u.target} should be ${expected.repo}${u.path ? `/${u.path}` : ''}@${expected.ref}.`,
      );
  return problems;
}

export function main(args, root = ROOT, log = console) {
  const check = args.includes('--check');
  const rest = args.filter((a) => a !== '--check');
  if (rest.length > 1 || (!check && rest.length !== 1)) {
    log.error('usage: node scripts/publish-ref.mjs OWNER/REPO@REF | --check [OWNER/REPO@REF]');
    return 2;
  }
  let target;
  try {
    target = rest[0] === undefined ? undefined : parseTarget(rest[0]);
  } catch (error) {
    log.error(error.message);
    return 2;
  }
  const files = publishedFiles(root);
  const read = (file) => readFileSync(path.join(root, file), 'utf8');
  if (!check)
    for (const file of files) {
      const text = read(file);
      const next = rewrite(text, target);
      if (next !== text) writeFileSync(path.join(root, file), next);
    }
  const problems = checkUses(read, files, target);
  if (problems.length > 0) {
    log.error(`publish-ref: ${problems.length} use(s) of the action disagree:`);
    for (const p of problems) log.error(`  ${p}`);
    const fix = target ? `${target.repo}@${target.ref}` : 'OWNER/REPO@REF';
    log.error(`Run: node scripts/publish-ref.mjs ${fix} (it writes every use), then commit and tag that commit.`);
    return 1;
  }
  const count = files.reduce((n, f) => n + findUses(read(f), f).length, 0);
  const own = findUses(read(WORKFLOW_PATH), WORKFLOW_PATH).find((u) => !u.path);
  log.log(`publish-ref: ${count} use(s) of the action in ${files.length} files name ${own.repo}@${own.ref}.`);
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href)
  process.exit(main(process.argv.slice(2)));
