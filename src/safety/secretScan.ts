/**
 * Whether a line of the agent's change holds a secret, before it is committed: a declared secret's
 * value (the run's secrets, as the redactor masks them) or a token whose shape leaves no doubt
 * (GitHub, Anthropic). Looser shapes the redactor masks in logs (`Bearer …`, `sk-…`) are left out
 * here: test fixtures hold such strings, and refusing their commit would stop honest work.
 */
import { MIN_SECRET_LENGTH } from '../secrets/redact.js';

const UNMISTAKABLE = /gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,}|sk-ant-[A-Za-z0-9_-]{20,}/g;

/** The secrets a line holds (the values themselves, for comparing; never printed). */
export function secretDetector(secrets: readonly string[]): (line: string) => string[] {
  const values = [...new Set(secrets.filter((s) => typeof s === 'string' && s.length >= MIN_SECRET_LENGTH))];
  return (line) => [...(line.match(UNMISTAKABLE) ?? []), ...values.filter((v) => line.includes(v))];
}
