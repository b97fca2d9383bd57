// Types of calls.mjs for the TypeScript tests that import it.
import type { Problem } from './lint.mjs';
import type { Unit } from './sources.mjs';

export interface InputDefinition {
  type?: string;
  default?: unknown;
  required?: boolean;
  description?: string;
  options?: string[];
}
export interface CallTargets {
  repo: string | undefined;
  workflowPath: string;
  workflow: { inputs: Record<string, InputDefinition>; secrets: Record<string, { required?: boolean } | null> };
  action: { inputs: Record<string, InputDefinition> };
}
export declare function callTargets(texts: { reusableText: string; actionText: string }): CallTargets;
export declare function callsWorkflow(uses: string, targets: CallTargets): boolean;
export declare function usesAction(uses: string, targets: CallTargets): boolean;
export declare function callProblems(unit: Unit, targets: CallTargets): Problem[];
export declare function eventContexts(on: unknown): Record<string, Record<string, unknown>>;
