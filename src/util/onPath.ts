/** Whether a program can be found on PATH, without running a shell. */
import { constants as fsConstants, promises as fs } from 'node:fs';
import path from 'node:path';

/**
 * Whether `cmd` names an executable file in one of the PATH directories (on Windows also with the
 * PATHEXT extensions). A `cmd` containing a path separator is checked as that path. Empty PATH
 * entries (which would mean the current directory) are ignored.
 */
export async function isOnPath(cmd: string, envPath = process.env.PATH): Promise<boolean> {
  return (await findOnPath(cmd, envPath)) !== undefined;
}

/** The executable file `cmd` names on PATH (as isOnPath finds it), or undefined. */
export async function findOnPath(cmd: string, envPath = process.env.PATH): Promise<string | undefined> {
  if (cmd === '') return undefined;
  const windows = process.platform === 'win32';
  const extensions = windows
    ? ['', ...(process.env.PATHEXT ?? '.EXE;.CMD;.BAT;.COM').split(';').filter(Boolean)]
    : [''];
  const candidates =
    cmd.includes('/') || (windows && cmd.includes('\\'))
      ? [cmd]
      : (envPath ?? '')
          .split(path.delimiter)
          .filter((dir) => dir !== '')
          .map((dir) => path.join(dir, cmd));
  for (const candidate of candidates) {
    for (const ext of extensions) {
      if (await isExecutableFile(candidate + ext, windows)) return candidate + ext;
    }
  }
  return undefined;
}

async function isExecutableFile(file: string, windows: boolean): Promise<boolean> {
  try {
    const stat = await fs.stat(file);
    if (!stat.isFile()) return false;
    if (!windows) await fs.access(file, fsConstants.X_OK);
    return true;
  } catch {
    return false;
  }
}
