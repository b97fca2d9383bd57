// Types of lint.mjs for the TypeScript tests that import it.
import type { CallTargets } from './calls.mjs';
import type { Unit } from './sources.mjs';

export interface Problem {
  file: string;
  line: number;
  column: number;
  message: string;
  /** github (GitHub's parser), actionlint, or calls (calls.mjs). */
  linter: 'github' | 'actionlint' | 'calls';
  kind?: string;
}
export type ProjectTargets = CallTargets & { reusableText: string };
export declare const ROOT: string;
export declare function projectTargets(root?: string): ProjectTargets;
export declare function lintUnits(units: Unit[], targets?: ProjectTargets): Promise<Problem[]>;
export declare function lintFiles(files: string[], root?: string, targets?: ProjectTargets): Promise<Problem[]>;
export declare function formatProblem(problem: Problem): string;
export declare function main(
  args: string[],
  log?: { log(message: string): void; error(message: string): void },
): Promise<number>;
