// Prints how far src/ is from the size rules of eslint.config.js (issue 41): files over 400 lines, functions
// over 80 lines, lines over 160 characters, each counted by ESLint itself (max-lines, max-lines-per-function,
// max-len) so the figures are the lint's. Those kept with a reason (an eslint-disable comment) are counted apart.
//   node scripts/sizes.mjs [--list] [path ...]     (npm run sizes -- [--list] [path ...])
// Without a path: src/. --list prints each place (FILE:LINE message). Exits 0: it reports, the lint enforces.
import { ESLint } from 'eslint';

const RULES = [
  ['max-lines', 'files over 400 lines'],
  ['max-lines-per-function', 'functions over 80 lines'],
  ['max-len', 'lines over 160 characters'],
];

const args = process.argv.slice(2);
const list = args.includes('--list');
const paths = args.filter((arg) => arg !== '--list');
const eslint = new ESLint({ cwd: process.cwd() });
const results = await eslint.lintFiles(paths.length > 0 ? paths : ['src']);

const counts = new Map(RULES.map(([rule]) => [rule, { over: [], kept: [] }]));
for (const result of results) {
  const file = result.filePath.slice(process.cwd().length + 1);
  for (const [messages, kind] of [
    [result.messages, 'over'],
    [result.suppressedMessages ?? [], 'kept'],
  ]) {
    for (const message of messages) {
      const count = counts.get(message.ruleId);
      if (count) count[kind].push(`${file}:${message.line} ${message.message}`);
    }
  }
}

console.log(`Sizes of ${paths.length > 0 ? paths.join(' ') : 'src/'} (${results.length} files):`);
for (const [rule, label] of RULES) {
  const { over, kept } = counts.get(rule);
  console.log(`  ${label}: ${over.length}${kept.length > 0 ? ` (and ${kept.length} kept with a reason)` : ''}`);
}
if (list) {
  for (const [rule, label] of RULES) {
    const { over, kept } = counts.get(rule);
    if (over.length + kept.length === 0) continue;
    console.log(`\n${label} (${rule}):`);
    for (const place of over) console.log(`  ${place}`);
    for (const place of kept) console.log(`  ${place} [kept with a reason]`);
  }
}
