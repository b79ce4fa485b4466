/** Where the checkout is, and how a child process loads our TypeScript sources. */
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The repository root (no trailing slash). */
export const REPO_ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));

/**
 * tsx's loader as a file URL, for `node --import <it> script.ts`: ONE process, so signals reach the
 * process that does the work (the `tsx` binary is a wrapper that runs the script in a second one).
 */
export const TSX_LOADER = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

/** file:// URL of a source module, for `import` statements inside child scripts. */
export function srcUrl(relPath: string): string {
  return pathToFileURL(join(REPO_ROOT, relPath)).href;
}
