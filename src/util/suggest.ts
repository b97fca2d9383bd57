/**
 * "Did you mean …?" for a mistyped name: the closest of the known names by edit distance
 * (insertions, deletions, substitutions and swaps of two neighbours, each costing 1). Pure.
 */

/** The edit distance between `a` and `b`, a swap of two neighbouring characters counting as one edit. */
export function editDistance(a: string, b: string): number {
  // d[i][j]: the distance between a's first i characters and b's first j.
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    const row = d[i] as number[];
    const prev = d[i - 1] as number[];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min((prev[j] as number) + 1, (row[j - 1] as number) + 1, (prev[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, ((d[i - 2] as number[])[j - 2] as number) + 1);
      row[j] = best;
    }
  }
  return (d[a.length] as number[])[b.length] as number;
}

/**
 * The known name `given` most likely meant: the nearest within a third of its length (at least 1
 * edit, at most 3), or the one name it is the beginning of (`--max-iter`); undefined when none is
 * near or two are equally near. Case is ignored.
 */
export function closest(given: string, known: readonly string[]): string | undefined {
  const word = given.toLowerCase();
  if (word === '') return undefined;
  const limit = Math.min(3, Math.max(1, Math.floor(word.length / 3)));
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  let tie = false;
  for (const name of known) {
    // The distance is at least the difference in length: a name that far is never the answer, and
    // a 100 000-character argument is not measured against every name (seconds of CPU).
    if (Math.abs(name.length - word.length) > limit) continue;
    const distance = editDistance(word, name.toLowerCase());
    if (distance < bestDistance) {
      [best, bestDistance, tie] = [name, distance, false];
    } else if (distance === bestDistance && name !== best) tie = true;
  }
  if (best !== undefined && bestDistance <= limit && !tie) return best;
  const extending = word.length >= 3 ? known.filter((name) => name.toLowerCase().startsWith(word)) : [];
  return extending.length === 1 ? extending[0] : undefined;
}
