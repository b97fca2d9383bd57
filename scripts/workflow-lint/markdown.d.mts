// Types of markdown.mjs for the TypeScript tests that import it.
export interface FencedBlock {
  info: string;
  line: number;
  indent: number;
  text: string;
}
export declare function fencedBlocks(markdown: string): FencedBlock[];
export declare function isWholeWorkflow(yaml: string): boolean;
export declare function workflowBlocks(markdown: string): FencedBlock[];
