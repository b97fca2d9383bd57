/** Replaces every secret value with *** (secrets shorter than 6 characters are not worth masking). */
export type Redactor = (text: string) => string;

export function createRedactor(secrets: readonly string[]): Redactor {
  const list = [...new Set(secrets.filter((s) => s.length >= 6))].sort((a, b) => b.length - a.length);
  if (list.length === 0) return (text) => text;
  return (text) => {
    let out = text;
    for (const secret of list) {
      if (out.includes(secret)) out = out.split(secret).join('***');
    }
    return out;
  };
}
