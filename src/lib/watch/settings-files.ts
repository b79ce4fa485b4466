/**
 * Which paths the watch watches so that any change of its settings files owes a pass
 * (watch.ts watchSettingsFiles), a settings file that is a symbolic link included: dotfiles
 * managers (stow, chezmoi, yadm, home-manager) link `~/.claude/settings.json` and `.env` files
 * into a repository.
 *
 * A link is watched as itself, in its own folder (chokidar with `followSymlinks: false` says when
 * it is replaced or pointed elsewhere), and so is every link after it and the file it finally
 * leads to, each in its own folder: an edit there, an editor's save by rename, a `git checkout`
 * that deletes the file and writes it anew, a target that only appears later. Following the link
 * instead (chokidar's default) watched the path through it only: once the target was gone for a
 * moment, chokidar dropped that path and never took it up again (it follows a link once), so no
 * later edit, nor pointing the link elsewhere, was seen until the watch restarted.
 *
 * Paths are physical (each folder's real path), as chokidar reports them for the real folders it
 * is given: a relative link is read from the folder it really lies in (`~/.claude` may itself be a
 * link into the dotfiles).
 */
import { readlinkSync, realpathSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';

/** Links followed at most, one after another, from a settings file (the kernel allows 40). */
const MAX_HOPS = 16;

export interface SettingsWatchPaths {
  /** Every settings file, every link on the way from one and what it leads to (physical paths, sorted). */
  files: string[];
  /** The folders holding them that exist now (real paths, sorted): what chokidar is given, one level deep. */
  folders: string[];
}

function realOrNull(path: string): string | null {
  try {
    return realpathSync.native(path);
  } catch {
    return null;
  }
}

/** `path` with its folder's real path (the folder as it is if it does not exist). */
function physical(path: string): string {
  const folder = dirname(resolve(path));
  return resolve(realOrNull(folder) ?? folder, basename(path));
}

/** The settings file and, while it is a link, where each link leads, existing or not. */
function linkChain(file: string): string[] {
  const chain = [physical(file)];
  for (let hop = 0; hop < MAX_HOPS; hop++) {
    const link = chain[chain.length - 1] as string;
    let target: string;
    try {
      target = readlinkSync(link);
    } catch {
      break; // not a link (or not there): the end of the way
    }
    const next = physical(resolve(dirname(link), target));
    if (chain.includes(next)) break; // a loop of links: each is watched once
    chain.push(next);
  }
  return chain;
}

/** What to watch for `files` (the settings files, existing or not), as they lie on disk now. */
export function settingsWatchPaths(files: readonly string[]): SettingsWatchPaths {
  const all = [...new Set(files.flatMap(linkChain))].sort();
  const folders = [...new Set(all.map((file) => dirname(file)))].filter((folder) => realOrNull(folder) === folder).sort();
  return { files: all, folders };
}
