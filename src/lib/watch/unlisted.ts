/**
 * What chokidar's start-up scan did not list: chokidar lists a folder, then starts its watch
 * (fs.watch, or fs.watchFile with --poll). An entry made in between is in neither: with native
 * events a folder made then was never watched (nor the notes later made in it), and with --poll a
 * note made then was never polled (its edits never seen), until something else changed in that
 * folder. The watch looks once its chokidar is ready (watch.ts `openWatcher`): each folder's
 * entries now against chokidar's listing of it; something missed, chokidar starts afresh (its
 * `add` says nothing when its watch of a path is in place, so a pass could read before it), at
 * most twice, then is handed what it lacks as it is. What is made after that look is reported by
 * the folder's watch (with --poll, once its first poll has been taken: watch.ts `guardFirstPolls`).
 *
 * Cost: one readdir per folder watched, once per start; an lstat only of what chokidar lacks; a
 * second start of chokidar only when something was made in that window.
 */
import type { Stats } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';

export interface UnlistedEntry {
  path: string;
  stats: Stats;
}

/**
 * The entries of `folders` (each with the names chokidar lists there, as FSWatcher.getWatched
 * gives them) that chokidar does not list. `files` false: regular files are left out (with native
 * events a folder's watch reports its files, listed or not).
 */
export async function unlistedEntries(folders: ReadonlyArray<[folder: string, listed: readonly string[]]>, files: boolean): Promise<UnlistedEntry[]> {
  const found: UnlistedEntry[] = [];
  await Promise.all(
    folders.map(async ([folder, listed]) => {
      let entries;
      try {
        entries = await readdir(folder, { withFileTypes: true });
      } catch {
        return; // gone since, or not ours to read: chokidar reports what it can
      }
      const known = new Set(listed);
      for (const entry of entries) {
        if (known.has(entry.name) || (!files && entry.isFile())) continue;
        const path = join(folder, entry.name);
        try {
          found.push({ path, stats: await lstat(path) });
        } catch {
          // Gone again: nothing to watch.
        }
      }
    }),
  );
  return found;
}
