// Types of scripts/publish-ref.mjs for the TypeScript tests that import it.
export interface Use {
  file: string;
  line: number;
  target: string;
  repo: string;
  path: string;
  ref: string;
  start: number;
}
export declare const ROOT: string;
export declare const WORKFLOW_PATH: string;
export declare function publishedFiles(root?: string): string[];
export declare function parseTarget(text: string | undefined): { repo: string; ref: string };
export declare function findUses(text: string, file: string): Use[];
export declare function rewrite(text: string, target: { repo: string; ref: string }): string;
export declare function checkUses(
  read: (file: string) => string,
  files: string[],
  target?: { repo: string; ref: string },
): string[];
export declare function main(
  args: string[],
  root?: string,
  log?: { log(message: string): void; error(message: string): void },
): number;
