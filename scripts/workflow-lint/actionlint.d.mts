// Types of actionlint.mjs for the TypeScript tests that import it.
import type { Problem } from './lint.mjs';
import type { Unit } from './sources.mjs';

export declare function actionlintVersion(): string;
export declare function actionlintProblems(unit: Unit): Promise<Problem[]>;
