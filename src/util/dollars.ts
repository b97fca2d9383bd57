/** Dollars as a maintainer reads them: cents, or more digits under a cent (`$0.46`, `$0.0042`). Pure. */
export function dollars(usd: number): string {
  return `$${usd >= 0.01 || usd === 0 ? usd.toFixed(2) : usd.toFixed(4)}`;
}
