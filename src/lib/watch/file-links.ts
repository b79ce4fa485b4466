/**
 * How the watch watches a file that may be a symbolic link, the one owner of this rule for its
 * two uses in watch.ts: the settings files (dotfiles managers such as stow, chezmoi, yadm and
 * home-manager link `~/.claude/settings.json` and `.env` files into a repository), and the notes
 * that are links (a note kept in a dotfiles folder or an Obsidian vault and linked into a memory
 * folder, one file each).
 *
 * A link is watched as itself, in its own folder (chokidar with `followSymlinks: false` says when
 * it is replaced or pointed elsewhere), and so is every link after it and the file it finally
 * leads to, each in its own folder, one level deep and only the files named: an edit there, an
 * editor's save by rename, a `git checkout` that deletes the file and writes it anew, a target
 * that only appears later. Following the link instead (chokidar's default) watched the path
 * through it only: once the target was gone for a moment, chokidar dropped that path and never
 * took it up again (it follows a link once), so no later edit, nor pointing the link elsewhere,
 * was seen until the watch restarted.
 *
 * Paths are physical (each folder's real path), as chokidar reports them for the real folders it
 * is given: a relative link is read from the folder it really lies in (`~/.claude` may itself be a
 * link into the dotfiles). The owner looks again (the watch: at each pass) and watches what the
 * links lead to then. Folders that do not exist are left out, or, with `awaitFolders`, waited for
 * (their nearest existing folder watched for the next folder of the way).
 *
 * No change after `watch` resolves is missed: the owner reads the files after it (a pass), so
 * whatever comes later must be reported. With native events chokidar's folder watches are in place
 * before its `ready`; what changed on a way between the look at disk and those watches (a folder
 * made on it, a file replaced by a link) is looked for once they are, and the watching starts
 * afresh for it (unlisted.ts `startWatching`, the rule's one owner; with --poll the same look
 * follows the first stats). With `--poll` the paths named are polled here, not by chokidar: its
 * poll (fs.watchFile) takes the first stat, the one later stats are compared with, on libuv's
 * thread pool after its `ready`, so on a loaded machine an edit made right after the pass (by a
 * person or a test) could be that first stat, and was never reported. Here that first stat is
 * taken before `watch` resolves.
 *
 * Cost: one folder watch for each folder on the ways (with native events a folder's own watch
 * reports the changes of its files, so the files named there get no watch of their own: a
 * thousand notes linked from one vault folder are one inotify watch, and nothing else in that
 * folder is reported); with `--poll`, one lstat of each path named per interval, nothing else.
 * Each watching started (the ways changed) looks at the ways once more when it is in place: ~14 ms
 * for a thousand linked notes.
 */
import { lstatSync, readlinkSync, realpathSync, type Stats } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { watch as chokidarWatch } from 'chokidar';
import { startWatching } from './unlisted.js';

/** Links followed at most, one after another, from a file (the kernel allows 40). */
const MAX_HOPS = 16;

export interface FileLinkPaths {
  /** The paths watched: the files given, every link on the way from one and what it leads to (physical paths, sorted). */
  files: string[];
  /** The folders holding them that exist now (real paths, sorted): what chokidar is given, one level deep. */
  folders: string[];
  /** For each of `files`, the files given (as given, resolved) whose way passes through it. */
  of: Map<string, string[]>;
}

export interface FileLinkPathsOptions {
  /**
   * The files given are watched elsewhere already (the notes: by the watch of their memory
   * folder), so only what they lead to is added; a file that is no link adds nothing.
   */
  watchedElsewhere?: boolean;
  /**
   * A path whose folder does not exist is watched for on the way down: its nearest existing
   * folder is watched, with the next folder of the way named (a vault folder deleted by a
   * checkout and made again). Else such a folder is left out until the owner looks again.
   */
  awaitFolders?: boolean;
}

/** Real paths of folders, asked once per look (many links share a folder: a vault's). */
type Reals = Map<string, string | null>;

function realOrNull(path: string, reals?: Reals): string | null {
  const known = reals?.get(path);
  if (known !== undefined) return known;
  const real = realOf(path);
  reals?.set(path, real);
  return real;
}

function realOf(path: string): string | null {
  try {
    return realpathSync.native(path);
  } catch {
    return null;
  }
}

/** `path` with its folder's real path (the folder as it is if it does not exist). */
function physical(path: string, reals?: Reals): string {
  const folder = dirname(resolve(path));
  return resolve(realOrNull(folder, reals) ?? folder, basename(path));
}

/** The file and, while it is a link, where each link leads, existing or not. */
function linkChain(file: string, reals?: Reals): string[] {
  const chain = [physical(file, reals)];
  for (let hop = 0; hop < MAX_HOPS; hop++) {
    const link = chain[chain.length - 1] as string;
    let target: string;
    try {
      // Asked first, without an error for a plain file or none: a thrown error costs more than the call.
      if (lstatSync(link, { throwIfNoEntry: false })?.isSymbolicLink() !== true) break;
      target = readlinkSync(link);
    } catch {
      break; // not a link (or not there, or not ours to read): the end of the way
    }
    const next = physical(resolve(dirname(link), target), reals);
    if (chain.includes(next)) break; // a loop of links: each is watched once
    chain.push(next);
  }
  return chain;
}

/** The entry of the nearest existing folder above `path` on the way down to it (physical), when `path`'s folder does not exist. */
function wayDown(path: string, reals: Reals): string | undefined {
  let child = path;
  for (let folder = dirname(path); folder !== child; child = folder, folder = dirname(folder)) {
    const real = realOrNull(folder, reals);
    if (real !== null) return child === path ? undefined : resolve(real, basename(child));
  }
  return undefined;
}

/** What to watch for `files` (existing or not), as they lie on disk now. */
export function fileLinkPaths(files: readonly string[], options: FileLinkPathsOptions = {}): FileLinkPaths {
  const of = new Map<string, string[]>();
  const add = (path: string, file: string) => {
    const owners = of.get(path);
    if (owners === undefined) of.set(path, [file]);
    else if (!owners.includes(file)) owners.push(file);
  };
  const reals: Reals = new Map();
  for (const file of new Set(files.map((f) => resolve(f)))) {
    const way = linkChain(file, reals);
    for (const path of options.watchedElsewhere === true ? way.slice(1) : way) {
      add(path, file);
      const entry = options.awaitFolders === true ? wayDown(path, reals) : undefined;
      if (entry !== undefined) add(entry, file);
    }
  }
  const all = [...of.keys()].sort();
  const folders = [...new Set(all.map((file) => dirname(file)))].filter((folder) => realOrNull(folder, reals) === folder).sort();
  return { files: all, folders, of };
}

export interface FileLinksWatchOptions extends FileLinkPathsOptions {
  /** Stat polling instead of native events (`--poll`), every `intervalMs`. */
  poll: boolean;
  intervalMs: number;
  /** Something happened to `path`, one of the paths watched: `files` are the files given whose way passes through it. */
  onChange(files: readonly string[], path: string): void;
  onError(error: unknown): void;
}

/** What a poll compares: the entry itself (a link as a link), '' when it is not there. */
function signature(path: string): string {
  let stats: Stats | undefined;
  try {
    stats = lstatSync(path, { throwIfNoEntry: false });
  } catch (error) {
    return `error ${(error as NodeJS.ErrnoException).code ?? ''}`; // not ours to read (yet)
  }
  return stats === undefined ? '' : `${stats.ino} ${stats.mode} ${stats.size} ${stats.mtimeMs} ${stats.ctimeMs}`;
}

/**
 * `--poll`: each path's entry compared every `intervalMs` with what it was, starting from a stat
 * taken now (see above). Written anew, replaced by a rename, deleted, made, a link pointed
 * elsewhere: each changes the inode, size, times or type.
 */
function pollPaths(paths: readonly string[], intervalMs: number, report: (path: string) => void): { close(): Promise<void> } {
  const last = new Map(paths.map((path) => [path, signature(path)]));
  const timer = setInterval(() => {
    for (const [path, before] of last) {
      const now = signature(path);
      if (now === before) continue;
      last.set(path, now);
      report(path);
    }
  }, intervalMs);
  return {
    close: () => {
      clearInterval(timer);
      return Promise.resolve();
    },
  };
}

/** The paths of a look at disk that a watch started from an earlier look (`before`) does not watch as they lie now. */
function changedPaths(before: FileLinkPaths, now: FileLinkPaths): string[] {
  const [watchedBefore, watchedNow] = [new Set(before.folders), new Set(now.folders)];
  const changed = new Set<string>();
  for (const path of now.of.keys()) if (!before.of.has(path) || watchedBefore.has(dirname(path)) !== watchedNow.has(dirname(path))) changed.add(path);
  for (const path of before.of.keys()) if (!now.of.has(path)) changed.add(path);
  return [...changed];
}

const keyOf = (ways: FileLinkPaths): string => `${ways.files.join('\0')}\0\0${ways.folders.join('\0')}`;

/** One watching of the paths of one look at disk. */
interface Current {
  watcher: { close(): Promise<void> };
  ways: FileLinkPaths;
  key: string;
}

/** Watches a set of files that may be links (see above); `watch` again with the files as they are now. */
export class FileLinksWatch {
  private current: Current | undefined;
  private closed = false;
  /** One change of what is watched at a time. */
  private queue: Promise<void> = Promise.resolve();
  /** Ends the wait for chokidar's `ready` (a closed watcher never says it): a pass waiting in `watch` is not held up by a stop. */
  private endWait: (() => void) | undefined;

  constructor(private readonly options: FileLinksWatchOptions) {}

  /** Watches `files` as they lie on disk now (nothing is done when that is what is watched); resolves once chokidar is ready. */
  watch(files: readonly string[]): Promise<void> {
    const next = this.queue.then(() => this.rewatch(files));
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** The paths watched now (tests, diagnostics). */
  get watching(): { files: string[]; folders: string[] } {
    return { files: [...(this.current?.ways.files ?? [])], folders: [...(this.current?.ways.folders ?? [])] };
  }

  async close(): Promise<void> {
    this.closed = true;
    this.endWait?.();
    const current = this.current;
    this.current = undefined;
    await current?.watcher.close().catch(() => undefined);
  }

  private async rewatch(files: readonly string[]): Promise<void> {
    if (this.closed) return;
    let look = fileLinkPaths(files, this.options);
    if (this.current?.key === keyOf(look)) return;
    await this.current?.watcher.close().catch(() => undefined);
    this.current = undefined;
    const started = await startWatching<Current, string>({
      open: () => this.open(look),
      // The ways as they lie now, once the watches are in place: what changed on them since the look is watched by a fresh start.
      missed: (watching) => {
        look = fileLinkPaths(files, this.options);
        return changedPaths(watching.ways, look);
      },
      current: (watching) => !this.closed && this.current === watching,
      close: async (watching) => {
        this.current = undefined;
        await watching.watcher.close().catch(() => undefined);
      },
    });
    // Still changing at each start: the files whose ways changed owe their owner a look (it watches them again then).
    for (const path of started?.missed ?? []) {
      const owners = look.of.get(path) ?? started?.watch.ways.of.get(path);
      if (owners !== undefined) this.options.onChange(owners, path);
    }
  }

  /** Watches the paths of `ways`; resolves once that is in place (undefined: nothing to watch, or closed meanwhile). */
  private async open(ways: FileLinkPaths): Promise<Current | undefined> {
    const { files: paths, folders, of } = ways;
    if (folders.length === 0 || this.closed) return undefined;
    const key = keyOf(ways);
    const { poll, intervalMs } = this.options;
    if (poll) {
      const polled = pollPaths(paths, intervalMs, (path) => {
        const owners = of.get(path);
        if (owners !== undefined && !this.closed && this.current?.watcher === polled) this.options.onChange(owners, path);
      });
      this.current = { watcher: polled, ways, key };
      return this.current;
    }
    const folderSet = new Set(folders);
    const fsw = chokidarWatch(folders, {
      ignored: (path, stats) => {
        const abs = resolve(path);
        if (folderSet.has(abs)) return false;
        // The folder's own watch reports its files (the raw events below); a link named is watched as itself.
        return !of.has(abs) || stats?.isFile() === true;
      },
      depth: 0,
      ignoreInitial: true,
      persistent: true,
      // A link is watched as itself (replaced, pointed elsewhere); where it leads is named too and watched there.
      followSymlinks: false,
      ignorePermissionErrors: true,
    });
    const current: Current = { watcher: fsw, ways, key };
    this.current = current;
    // Nothing is reported before chokidar is ready: its start-up scan says `add` for each link
    // named, `ignoreInitial` notwithstanding, and the owner reads the files after `watch` anyway
    // (the folders' watches are in place before `ready`).
    let ready = false;
    const report = (path: string) => {
      const owners = of.get(path);
      if (owners !== undefined && ready && !this.closed && this.current === current) this.options.onChange(owners, path);
    };
    fsw.on('all', (_kind, path) => report(resolve(path)));
    // A raw event of a folder's watch: `evPath` is the name of the entry that changed (none on some platforms: any of them).
    fsw.on('raw', (_rawEvent, evPath, details) => {
      const watchedPath = (details as { watchedPath?: unknown } | undefined)?.watchedPath;
      if (typeof watchedPath !== 'string') return;
      const folder = resolve(watchedPath);
      if (typeof evPath === 'string' && evPath !== '') report(resolve(folder, evPath));
      else for (const path of paths) if (dirname(path) === folder) report(path);
    });
    fsw.on('error', (error) => this.options.onError(error));
    await new Promise<void>((resolveReady) => {
      this.endWait = resolveReady;
      fsw.once('ready', () => {
        ready = true;
        resolveReady();
      });
    });
    this.endWait = undefined;
    return current;
  }
}
