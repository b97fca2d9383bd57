// Types of scripts/asciify.mjs for the TypeScript tests that import it.
export declare function asciify(source: string): string;
