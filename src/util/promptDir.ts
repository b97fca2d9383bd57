/** Prompt templates a user keeps in a directory (--tdd-prompts, --plan-prompts): the named files that exist, read. */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

export function readPromptDir<K extends string>(
  option: { flag: string; value: string; cwd: string },
  files: Readonly<Record<K, string>>,
): { templates: Partial<Record<K, string>>; problem?: string } {
  const dir = path.resolve(option.cwd, option.value);
  const names = Object.values(files) as string[];
  if (!existsSync(dir)) {
    return { templates: {}, problem: `--${option.flag}: '${option.value}' does not exist. Point it at a directory holding ${names.join(', ')} (any of them).` };
  }
  const templates: Partial<Record<K, string>> = {};
  for (const [key, file] of Object.entries(files) as [K, string][]) {
    if (existsSync(path.join(dir, file))) templates[key] = readFileSync(path.join(dir, file), 'utf8');
  }
  return { templates };
}
