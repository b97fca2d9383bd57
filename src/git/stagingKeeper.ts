/**
 * What decides what a commit stages, kept as it was when the Git opened (src/git/staging.ts): put back
 * before each commit and at a slice's end, agent-loop's own exclude lines kept, the state directory and
 * agent-loop's temporary files never staged.
 */
import { promises as fs, lstatSync } from 'node:fs';
import path from 'node:path';
import { TEMP_FILE_PATTERN } from '../util/atomicWrite.js';
import type { GitContext, StagingMoment } from './context.js';
import { workTreePath } from './repoPaths.js';
import { EXCLUDE_MARK, readStaging, restoreStaging, stagingFiles } from './staging.js';

export interface StagingKeeper {
  /** Puts back what decides what git stages, telling `onStagingRestored` what and when. */
  putBack(when: StagingMoment): Promise<void>;
  /** Takes the protected paths out of the index (the state directory, agent-loop's temporary files). */
  unstageProtected(): Promise<void>;
  /** Adds a directory, a file (`{ file: true }`) or a pattern to .git/info/exclude once: see Git.exclude. */
  exclude(relativePathOrPattern: string, options?: { file?: boolean }): Promise<void>;
}

/** The line .git/info/exclude gets for a directory, a file or a pattern. Pure. */
export function excludeLine(relativePathOrPattern: string, options: { file?: boolean } = {}): string {
  const bare = relativePathOrPattern.replace(/^\/+|\/+$/g, '');
  if (options.file) return `/${bare.replace(/[*?[\\]/g, '\\$&')}`;
  return relativePathOrPattern.includes('*') ? relativePathOrPattern : `/${bare}/`;
}

/** Reads what decides what git stages now (before any agent runs) and keeps it. */
export async function keepStaging(ctx: GitContext): Promise<StagingKeeper> {
  const { runner, topLevel, options } = ctx;
  const commonDir = path.resolve(topLevel, await ctx.git('rev-parse', '--git-common-dir'));
  const lsFilesV = async () => {
    const r = await runner.run(['ls-files', '-v', '-z']);
    return r.code === 0 ? r.stdout : '';
  };
  const staging = stagingFiles(commonDir);
  const stagingBefore = await readStaging(
    staging,
    lsFilesV,
    async () => (await runner.run(['config', '--bool', 'core.sparseCheckout'])).stdout.trim() === 'true',
  );
  /** The patterns agent-loop put in .git/info/exclude: kept when the file is put back. */
  const ourExcludes: string[] = [];
  // The state directory and agent-loop's temporary files: never staged, whatever .git/info/exclude
  // says and whatever the agent staged itself (git add -f).
  const protectedSpecs = [
    ...(options.protect ?? [])
      .map((p) => workTreePath(topLevel, p))
      .filter((rel) => rel !== undefined)
      .map((rel) => `:(top,literal)${rel}`),
    `:(top,glob)**/${TEMP_FILE_PATTERN}`,
  ];
  return {
    async unstageProtected() {
      await runner.run(['rm', '-r', '--cached', '--quiet', '--ignore-unmatch', '--', ...protectedSpecs]);
    },
    async putBack(when) {
      const restored = await restoreStaging(
        staging,
        stagingBefore,
        ourExcludes,
        lsFilesV,
        async (paths) => {
          // One flag per call: update-index applies only the last of its marking options to the paths.
          for (let i = 0; i < paths.length; i += 200)
            for (const flag of ['--no-skip-worktree', '--no-assume-unchanged'])
              await ctx.git('update-index', flag, '--', ...paths.slice(i, i + 200));
        },
        (p) => lstatSync(path.join(topLevel, p), { throwIfNoEntry: false }) !== undefined,
      );
      if (restored.length > 0) options.onStagingRestored?.(restored, when);
    },
    async exclude(relativePathOrPattern, excludeOptions = {}) {
      const file = staging.exclude;
      const line = excludeLine(relativePathOrPattern, excludeOptions);
      if (!ourExcludes.includes(line)) ourExcludes.push(line);
      const current = await fs.readFile(file, 'utf8').catch(() => '');
      if (current.split('\n').includes(line)) return;
      await fs.mkdir(path.dirname(file), { recursive: true });
      await fs.appendFile(file, `${current && !current.endsWith('\n') ? '\n' : ''}${EXCLUDE_MARK}\n${line}\n`);
    },
  };
}
