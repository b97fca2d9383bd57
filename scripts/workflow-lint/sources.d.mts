// Types of sources.mjs for the TypeScript tests that import it.
export interface Unit {
  file: string;
  name: string;
  text: string;
  line: number;
  column: number;
  kind?: 'action';
}
export declare const WORKFLOW_DIRS: string[];
export declare const MARKDOWN: string[];
export declare const ACTION_FILE: string;
export declare function workflowFiles(root: string): string[];
export declare function markdownFiles(root: string): string[];
export declare function unitsOf(file: string, text: string): Unit[];
export declare function defaultFiles(root: string): string[];
export declare function unitsOfFiles(files: string[], root: string): Unit[];
