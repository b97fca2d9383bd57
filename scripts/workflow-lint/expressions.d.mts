// Types of expressions.mjs for the TypeScript tests that import it.
export declare function hasExpression(value: unknown): boolean;
export declare function evaluate(value: unknown, contexts: Record<string, unknown>): unknown;
export declare function asInput(value: unknown): string;
