/** Every TypeScript file of src/, for the tests that read the whole source (one git runner, one owner of the loop state). */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return filesUnder(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

/** Each file of src/ as a path relative to the repository (`src/…`, forward slashes) and its text. */
export function sourceFiles(): Array<{ rel: string; text: string }> {
  return filesUnder(path.resolve('src')).map((file) => ({
    rel: path.relative(process.cwd(), file).split(path.sep).join('/'),
    text: readFileSync(file, 'utf8'),
  }));
}
