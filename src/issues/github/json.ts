/** Reading GitHub's JSON answers: which values are objects one can look into. */

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
