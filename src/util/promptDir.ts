/**
 * Prompt templates a user keeps in a directory (the tdd-prompts and plan-prompts options): the named
 * files that exist, read. `option.name` is the option as the surface that ran names it (--tdd-prompts).
 */
import { existsSync } from 'node:fs';
import { MiB, readInput } from './readInput.js';
import path from 'node:path';
import { printable } from './printable.js';

export function readPromptDir<K extends string>(
  option: { name: string; value: string; cwd: string },
  files: Readonly<Record<K, string>>,
): { templates: Partial<Record<K, string>>; problem?: string } {
  const dir = path.resolve(option.cwd, option.value);
  const names = Object.values(files) as string[];
  if (!existsSync(dir)) {
    return {
      templates: {},
      problem: `${option.name}: '${printable(option.value)}' does not exist. Point it at a directory holding ${names.join(', ')} (any of them).`,
    };
  }
  const templates: Partial<Record<K, string>> = {};
  for (const [key, file] of Object.entries(files) as [K, string][]) {
    if (!existsSync(path.join(dir, file))) continue;
    try {
      templates[key] = readInput(path.join(dir, file), MiB);
    } catch (error) {
      return {
        templates: {},
        problem: `${option.name}: ${(error as Error).message}; expected a prompt template file up to 1 MiB.`,
      };
    }
  }
  return { templates };
}
