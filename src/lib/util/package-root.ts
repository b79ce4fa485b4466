/**
 * Where this package lives on disk, found from the running module's own URL. Modules sit at
 * different depths under `lib/`, and the bundled hooks run from `dist/hooks/<name>.js`
 * (scripts/build/bundle-hooks.mjs), so a fixed `../..` cannot serve every caller: the build root is
 * the parent of the nearest `lib` or `hooks` folder above the module, whatever the build output
 * folder is called.
 */
import { statSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The build root holding the running module: `<package>/src` or `<package>/dist`. */
export function buildRootOf(hereUrl: string = import.meta.url): string {
  let dir = dirname(fileURLToPath(hereUrl));
  while (basename(dir) !== 'lib' && basename(dir) !== 'hooks') {
    const up = dirname(dir);
    if (up === dir) throw new Error(`not inside a lib/ or hooks/ folder: ${hereUrl}`);
    dir = up;
  }
  return dirname(dir);
}

/** Root of this package (one level above src/ or dist/). */
export function packageRoot(hereUrl: string = import.meta.url): string {
  return dirname(buildRootOf(hereUrl));
}

/**
 * What the files a long-running process would load next look like on disk (inode, size, mtime
 * of each; `missing` for one that is gone). An upgrade replaces them (npm writes new files: new
 * inodes) and a rebuild rewrites them (tsc writes every output: new mtimes), so a process that
 * kept the fingerprint it started with sees that its package changed under it, before it loads
 * a newer module into older code.
 */
export function filesFingerprint(files: readonly string[]): string {
  return files
    .map((file) => {
      try {
        const s = statSync(file);
        return `${s.ino}:${s.size}:${s.mtimeMs}`;
      } catch {
        return 'missing';
      }
    })
    .join('|');
}
