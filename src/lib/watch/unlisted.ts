/**
 * What a watch's start missed: a watch is started from a look at disk, and chokidar lists a
 * folder, then starts its watch (fs.watch, or fs.watchFile with --poll). What changed in between
 * is in neither: with native events a folder made then was never watched (nor the notes later made
 * in it), and with --poll a note made then was never polled (its edits never seen), until
 * something else changed in that folder. The one owner of the rule for every watch started so
 * (`startWatching`): once it is ready, it looks again at what it was to watch; something missed,
 * it starts afresh (its watch is in place before its ready, a fresh look reads after: nothing made
 * then is lost), at most twice, then it takes what it still lacks as it is. What is made after
 * that look is reported by the watches in place (with --poll, once their first poll has been
 * taken: first-polls.ts).
 *
 * Its two uses: the memory folders (watch.ts `openWatcher`: each folder's entries now against
 * chokidar's listing of it, `unlistedEntries`; chokidar's `add` says nothing when its watch of a
 * path is in place, so a pass could read before it: it is handed the paths only last), and the
 * settings files and what note links lead to (file-links.ts: the ways of the links read again,
 * against those read before chokidar started; a folder made on a way, a file replaced by a link).
 *
 * Cost: once per start, one more look (for the memory folders one readdir per folder watched, an
 * lstat only of what chokidar lacks); a second start only when something changed in that window.
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

/** Fresh starts at most when a start missed something; then the watch takes what it still lacks as it is. */
export const UNLISTED_RETRIES = 2;

/** A watch `startWatching` starts (see above). */
export interface Watching<W, M> {
  /** Starts the watch from a look at disk; resolves once it is ready (undefined: nothing to watch). */
  open(): Promise<W | undefined>;
  /** What changed since that look that the watch does not have (empty: nothing). */
  missed(watch: W): Promise<M[]> | M[];
  /** Whether `watch` is still the one in use (not closed or replaced meanwhile: then nothing more is done). */
  current(watch: W): boolean;
  /** Closes `watch` before a fresh start, which `missed` asks for. */
  close(watch: W, missed: readonly M[]): Promise<void>;
}

/**
 * Starts the watch and looks again once it is ready (see above): the watch and what it still lacks
 * after the fresh starts allowed (empty when nothing was missed), or undefined when there is
 * nothing to watch or it was closed or replaced meanwhile.
 */
export async function startWatching<W, M>(watching: Watching<W, M>): Promise<{ watch: W; missed: M[] } | undefined> {
  for (let attempt = 0; ; attempt++) {
    const watch = await watching.open();
    if (watch === undefined || !watching.current(watch)) return undefined;
    const missed = await watching.missed(watch);
    if (!watching.current(watch)) return undefined;
    if (missed.length === 0 || attempt >= UNLISTED_RETRIES) return { watch, missed };
    await watching.close(watch, missed);
  }
}
