// Prints the adversarial campaign's counts (cases tried / held per category) from the tallies the
// campaign tests leave in build/campaign/ (e2e/campaign/tally.ts). Run after `npm test`.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const dir = path.resolve('build', 'campaign');
const rows = existsSync(dir)
  ? readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .map((f) => JSON.parse(readFileSync(path.join(dir, f), 'utf8')))
  : [];
if (rows.length === 0) {
  console.log('campaign: no tallies in build/campaign (run npm test first)');
  process.exit(1);
}
rows.sort((a, b) => a.category.localeCompare(b.category));
console.log('| category | cases tried | held |');
console.log('|---|---|---|');
for (const r of rows) console.log(`| ${r.category} | ${r.tried} | ${r.held} |`);
const tried = rows.reduce((n, r) => n + r.tried, 0);
const held = rows.reduce((n, r) => n + r.held, 0);
console.log(`| all | ${tried} | ${held} |`);
for (const r of rows) if (r.failed.length) console.log(`${r.category}: did not hold: ${r.failed.join('; ')}`);
process.exit(tried === held ? 0 : 1);
