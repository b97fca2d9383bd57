/**
 * The adversarial campaign's tally: each category counts the cases it tried and the ones that
 * held, in build/campaign/<category>.json, so that `node scripts/campaign-report.mjs` can print the
 * README's table (cases tried / held). A case that did not hold also fails its test: the tally is
 * the count, the assertions are the verdict.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export interface Tally {
  /** Records one case; returns `held` so that a test can `expect(tally.record(…)).toBe(true)`. */
  record(name: string, held: boolean): boolean;
  readonly tried: number;
  readonly held: number;
}

const DIR = path.resolve('build', 'campaign');

export function campaign(category: string): Tally {
  const failed: string[] = [];
  let tried = 0;
  let held = 0;
  const write = () => {
    mkdirSync(DIR, { recursive: true });
    writeFileSync(
      path.join(DIR, `${category}.json`),
      `${JSON.stringify({ category, tried, held, failed: failed.slice(0, 20) })}\n`,
    );
  };
  return {
    record(name, ok) {
      tried += 1;
      if (ok) held += 1;
      else failed.push(name);
      write();
      return ok;
    },
    get tried() {
      return tried;
    },
    get held() {
      return held;
    },
  };
}
