/**
 * Test seams for the start of chokidar's watching: chokidar imports fs.watch and fs.watchFile from
 * node:fs, so a wrapper set on the fs module reaches it through syncBuiltinESMExports. Each
 * returns (or has) what undoes it; undo it after the test.
 */
import fs from 'node:fs';
import { EventEmitter } from 'node:events';
import { syncBuiltinESMExports } from 'node:module';

/**
 * chokidar's first poll of the paths `held` names (fs.watchFile) held back until `release()`, as
 * libuv's busy threads held it back on a loaded machine. Released, each held poll starts then (its
 * first stat taken then). `restore` undoes it (a poll still held is never started).
 */
export function holdFirstPolls(held: (path: string) => boolean): { release(): void; restore(): void; heldPaths: string[] } {
  const real = fs.watchFile;
  const pending: Array<() => void> = [];
  const heldPaths: string[] = [];
  let restored = false;
  (fs as { watchFile: unknown }).watchFile = (path: string, ...rest: unknown[]) => {
    if (!held(String(path))) return (real as (...args: unknown[]) => unknown)(path, ...rest);
    heldPaths.push(String(path));
    pending.push(() => {
      if (!restored) (real as (...args: unknown[]) => unknown)(path, ...rest);
    });
    return new EventEmitter(); // chokidar keeps it and closes the poll with fs.unwatchFile(path)
  };
  syncBuiltinESMExports();
  return {
    heldPaths,
    release: () => {
      for (const start of pending.splice(0)) start();
    },
    restore: () => {
      restored = true;
      fs.watchFile = real;
      syncBuiltinESMExports();
    },
  };
}

/**
 * Runs `before` when chokidar starts watching `folder` (fs.watch with native events, fs.watchFile
 * with --poll), after it has listed it: as a person making something there at that moment. The
 * first `times` starts (one by default). Returns what undoes it.
 */
export function wrapFolderWatch(method: 'watch' | 'watchFile', folder: string, before: () => void, times = 1): () => void {
  const real = fs[method];
  let left = times;
  (fs as Record<string, unknown>)[method] = (path: string, ...rest: unknown[]) => {
    if (left > 0 && String(path) === folder) {
      left--;
      before();
    }
    return (real as (...args: unknown[]) => unknown)(path, ...rest);
  };
  syncBuiltinESMExports();
  return () => {
    (fs as Record<string, unknown>)[method] = real;
    syncBuiltinESMExports();
  };
}

