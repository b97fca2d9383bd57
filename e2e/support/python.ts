/** The Python e2e tests run pytest with. */
import { execFileSync } from 'node:child_process';

/** The Python that has pytest, by its real path (the sandbox's HOME hides a version manager's shims). */
export const PYTHON = execFileSync('python3', ['-c', 'import sys; print(sys.executable)']).toString().trim();
