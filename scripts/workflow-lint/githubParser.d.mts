// Types of githubParser.mjs for the TypeScript tests that import it.
import type { Problem } from './lint.mjs';
import type { Unit } from './sources.mjs';

export interface FileReference {
  owner?: string;
  repository?: string;
  path: string;
  version?: string;
}
export declare function githubParserProblems(
  unit: Unit,
  called: (ref: FileReference) => { name: string; content: string } | undefined,
): Promise<Problem[]>;
