import { BdCliSource, isOnPath, type ExecFn } from './beadsCli.js';
import { BeadsFileSource } from './beadsFile.js';
import type { IssueSource, SourceWarning } from './types.js';
import type { Terms } from '../config/surface.js';

export { BdCliSource, isOnPath, execFileCommand, BD_READY_ARGS, type ExecFn, type ExecResult } from './beadsCli.js';
export { BeadsFileSource } from './beadsFile.js';
export {
  beadsRecordToIssue,
  computeReady,
  compareIssues,
  sortIssues,
  BLOCKING_DEPENDENCY_TYPES,
  type BeadsRecord,
} from './ready.js';
export { isClosed, type Issue, type IssueSource, type SourceWarning } from './types.js';

export interface BeadsSourceOptions {
  /** The JSONL file for the file source (the CLI's default is `.beads/issues.jsonl`), relative to `cwd`. */
  issuesFile: string;
  /** The repository: bd runs there and a relative `issuesFile` resolves against it. */
  cwd: string;
  onWarning: SourceWarning;
  /** false: use the file even when `bd` is installed. Default true. */
  preferCli?: boolean;
  /** PATH searched for `bd`. Default `process.env.PATH`. */
  envPath?: string;
  /** Runs bd (tests). Default `execFileCommand`. */
  exec?: ExecFn;
  /** Clock for the file source's close timestamps. */
  now?: () => Date;
  /** Whose words the file source's errors use (default: the CLI's). */
  terms?: Terms;
}

/** The bd CLI when `bd` is on PATH (unless preferCli is false), else the JSONL file. */
export async function createBeadsSource(options: BeadsSourceOptions): Promise<IssueSource> {
  const { issuesFile, cwd, onWarning, preferCli = true } = options;
  if (preferCli && (await isOnPath('bd', options.envPath))) {
    return new BdCliSource({
      cwd,
      onWarning,
      ...(options.exec ? { exec: options.exec } : {}),
      ...(options.now ? { now: options.now } : {}),
    });
  }
  return new BeadsFileSource({
    file: issuesFile,
    cwd,
    onWarning,
    ...(options.now ? { now: options.now } : {}),
    ...(options.terms ? { terms: options.terms } : {}),
  });
}
