/**
 * `--poll`: a change made before chokidar's first poll of a path is not lost: the one owner of
 * this rule for what chokidar polls, its files (`FirstPolls`) and its folders (`FolderPolls`). The
 * files a note link leads to are polled by file-links.ts from a stat taken before the pass.
 *
 * chokidar polls each path with fs.watchFile, whose first stat, the one later stats are compared
 * with, is queued on libuv's thread pool during chokidar's start-up scan and taken whenever a
 * thread is free. On a loaded machine that came after the pass following the start (or a
 * rewatch) had read the file: an edit made between that read and the first stat was in the first
 * stat, so no poll ever reported it, and it waited for a pass owed by something else. A folder's
 * first stat came late the same way: a note made then was never reported (nor its later edits:
 * chokidar polls only the files it has seen), until something else changed in that folder.
 *
 * Files: the state chokidar's scan read of each file (the stats it hands the `ignored` filter, no
 * stat of our own) is kept until the first pass after that scan is over; then each file is
 * stat-ed once more and one whose state differs is reported as changed, before that pass ends
 * (so the scheduler owes the next pass at once). The stats are asynchronous on purpose: libuv's
 * queue is first in, first out, so each is taken after chokidar's first stat of that file has been
 * taken up by a thread. A file chokidar reports meanwhile needs no look (its poll is running); and
 * a change the check reported that chokidar's poll reports too owes nothing more (`seenAgain`).
 *
 * FIRST_POLL_SECOND_LOOK: taken up after is not done after. With several threads in the pool, the
 * check's stat of a file can run a few microseconds before chokidar's first stat of it, taken up
 * just before it by another thread (or that thread is descheduled in between). An edit saved in
 * exactly that gap is in chokidar's first stat and not in the check's, so neither reported it: the
 * note waited, unsent, for a pass owed by something else. So the check's states are kept, and every
 * file is looked at once more SECOND_LOOK_POLLS poll intervals after the check: by then chokidar's
 * first stat (taken up before the check's) is long done and its next poll has run, so a file whose
 * state moved since the check and that chokidar has not reported is one its first stat swallowed
 * (or one edited since whose poll is still to come: reported twice, the second report of the same
 * state owes nothing, `seenAgain`). The folders' guard (`FolderPolls`) rests on the same order and
 * has its own later looks (a folder changed before its first poll is looked at every interval).
 *
 * Cost: nothing per interval. Once per start or rewatch: a 32-bit state per polled file, held from
 * the scan to the second look beside the names chokidar keeps (a map by path only while the scan
 * runs: its garbage goes with the scan's), one lstat per file at the end of the pass after the
 * scan, and one more at the second look.
 */
import { lstat, stat } from 'node:fs/promises';
import { lstatSync, statSync, type Stats } from 'node:fs';
import { join, resolve } from 'node:path';

/** The stats a state is made of (fs.Stats has them). */
interface StateStats {
  ino: number;
  size: number;
  mtimeMs: number;
}

/** Lstat-s at once at a pass's end (a network drive answers each in turn anyway). */
const CONCURRENT_STATS = 16;

/** FIRST_POLL_SECOND_LOOK: poll intervals from the check to its second look (chokidar's first stat done, and one poll after it). */
export const SECOND_LOOK_POLLS = 2;

/**
 * What the check compares, as a 32-bit hash (a small integer: 10,000 of them cost 40 KiB, where
 * strings cost megabytes, which an idle watch kept as garbage): what makes chokidar's poll report a
 * change (the size, the mtime; a save by rename changes the inode). Two states hashing alike (one
 * in 2^32) is an edit left to the next pass, as before.
 */
export function stateHash(stats: StateStats): number {
  let hash = 0x811c9dc5;
  for (const n of [stats.ino, stats.size, Math.round(stats.mtimeMs * 1000)]) {
    hash = Math.imul(hash ^ n % 0x100000000, 0x01000193);
    hash = Math.imul(hash ^ Math.floor(n / 0x100000000), 0x01000193);
  }
  return hash | 0;
}

/** The state now, or undefined when the file is gone (or not ours to read). */
function stateNow(path: string): number | undefined {
  try {
    const stats = lstatSync(path, { throwIfNoEntry: false });
    return stats === undefined ? undefined : stateHash(stats);
  } catch {
    return undefined;
  }
}

async function stateLater(path: string): Promise<number | undefined> {
  try {
    return stateHash(await lstat(path));
  } catch {
    return undefined;
  }
}

export interface FirstPollChange {
  /** Resolved. */
  path: string;
  kind: 'change' | 'unlink';
  state: number | undefined;
}

/** One folder's files as the scan read them: the names as chokidar keeps them, and each one's state. */
export interface FolderStates {
  folder: string;
  names: string[];
  states: Int32Array;
}

export class FirstPolls {
  /** What chokidar's scan read, while it runs (by the paths chokidar gives; dropped at `ready`, before the heap is given back). */
  private scanning: Map<string, number> | undefined;
  /** What it read, once it is over, until the pass after it ends. */
  private scanStates: FolderStates[] | undefined;
  /** The states the pass under way will be checked against, once taken. */
  private taken: FolderStates[] | undefined;
  /** What the check found, until its second look (FIRST_POLL_SECOND_LOOK). */
  private checked: FolderStates[] | undefined;
  /** Files chokidar's poll reported since the scan (resolved), until the second look: its poll of them runs, no look is needed. */
  private readonly polled = new Set<string>();
  /** The state each file the check reported was in, until chokidar's poll reports that file. */
  private readonly reported = new Map<string, number | undefined>();

  /** A watching starts (chokidar's scan): what the one before left is dropped. */
  begin(): void {
    this.scanning = new Map();
    this.scanStates = undefined;
    this.taken = undefined;
    this.checked = undefined;
    this.polled.clear();
    this.reported.clear();
  }

  /** chokidar's scan met a file it polls, with the stats it read (the first read wins: a later read of the folder is not the scan's). */
  scanned(path: string, stats: StateStats): void {
    if (this.scanning === undefined) return;
    const abs = resolve(path);
    if (!this.scanning.has(abs)) this.scanning.set(abs, stateHash(stats));
  }

  /**
   * chokidar is ready (its scan is over): `listing` is what it watches, each folder as it names it
   * with the names it keeps there (FSWatcher.getWatched). The states wait for the next pass, kept
   * by folder beside chokidar's own names.
   */
  ready(listing: ReadonlyArray<[folder: string, names: readonly string[]]>): void {
    const scanning = this.scanning;
    this.scanning = undefined;
    if (scanning === undefined) return;
    const folders: FolderStates[] = [];
    for (const [folder, all] of listing) {
      const names: string[] = [];
      const states: number[] = [];
      for (const name of all) {
        const state = scanning.get(join(resolve(folder), name));
        if (state === undefined) continue; // a folder, or not polled
        names.push(name);
        states.push(state);
      }
      if (names.length > 0) folders.push({ folder, names, states: Int32Array.from(states) });
    }
    this.scanStates = folders;
  }

  /** A pass is about to read the notes: what its end is to be checked against (`check`), if anything. */
  passStarts(): FolderStates[] | undefined {
    if (this.scanStates === undefined || this.taken === this.scanStates) return undefined;
    this.taken = this.scanStates;
    return this.taken;
  }

  /**
   * The pass is over: the files whose state differs from what the scan read. `current` says
   * whether the watching the states belong to still runs (else nothing is reported). What it found
   * waits for the second look (`lookAgain`).
   */
  async check(folders: readonly FolderStates[], current: () => boolean): Promise<FirstPollChange[]> {
    const found = folders.map((f): FolderStates => ({ folder: f.folder, names: [...f.names], states: Int32Array.from(f.states) }));
    const changes = await this.look(folders, found, current);
    if (this.scanStates === folders) {
      this.scanStates = undefined;
      // The second look compares with what this one found (a file gone now is chokidar's: its unlink was reported here).
      this.checked = current() ? found : undefined;
      if (this.checked === undefined) this.polled.clear();
    }
    return current() ? changes : [];
  }

  /**
   * FIRST_POLL_SECOND_LOOK: SECOND_LOOK_POLLS intervals after the check, the files whose state
   * moved since it and that chokidar has not reported (its first stat swallowed the edit). Once.
   */
  async lookAgain(current: () => boolean): Promise<FirstPollChange[]> {
    const checked = this.checked;
    this.checked = undefined;
    if (checked === undefined) return [];
    const changes = await this.look(checked, undefined, current);
    if (this.checked === undefined) this.polled.clear();
    return current() ? changes : [];
  }

  /** Each file's state now against `folders`' (written into `found`, when given): those that differ, unless chokidar reported them. */
  private async look(folders: readonly FolderStates[], found: FolderStates[] | undefined, current: () => boolean): Promise<FirstPollChange[]> {
    const changes: FirstPollChange[] = [];
    // One cursor over every file, CONCURRENT_STATS lstat-s under way at a time.
    let folderAt = 0;
    let fileAt = 0;
    const nextFile = (): { path: string; before: number; i: number; folderAt: number } | undefined => {
      while (folderAt < folders.length) {
        const { folder, names, states } = folders[folderAt] as FolderStates;
        if (fileAt < names.length) {
          const i = fileAt++;
          if (names[i] === '') continue; // gone at the check
          return { path: resolve(folder, names[i] as string), before: states[i] as number, i, folderAt };
        }
        folderAt++;
        fileAt = 0;
      }
      return undefined;
    };
    const worker = async (): Promise<void> => {
      for (let file = nextFile(); file !== undefined && current(); file = nextFile()) {
        const state = await stateLater(file.path);
        if (found !== undefined) {
          const seen = found[file.folderAt] as FolderStates;
          if (state === undefined) seen.names[file.i] = '';
          else seen.states[file.i] = state;
        }
        // A file chokidar reported meanwhile: its poll runs, and reports what follows.
        if (state === file.before || this.polled.has(file.path)) continue;
        changes.push({ path: file.path, kind: state === undefined ? 'unlink' : 'change', state });
      }
    };
    await Promise.all(Array.from({ length: CONCURRENT_STATS }, worker));
    return changes;
  }

  /** The check's change has been reported: chokidar's report of the same state owes nothing (`seenAgain`). */
  reportedAs(change: FirstPollChange): void {
    this.reported.set(change.path, change.state);
  }

  /**
   * chokidar's poll reported `path` (resolved): its first stat has been taken, so no check is
   * needed for it. True when this is a report of the state the check reported already (nothing
   * more is owed: the pass it owed reads that state), which happens when the edit came after
   * chokidar's first stat but before the check's.
   */
  seenAgain(path: string, kind: string): boolean {
    if (this.scanStates !== undefined || this.checked !== undefined) this.polled.add(path);
    if (!this.reported.has(path)) return false;
    const reported = this.reported.get(path);
    this.reported.delete(path);
    return kind !== 'add' && stateNow(path) === reported;
  }
}

/**
 * What a folder's poll compares (inode, times, size), '' when it cannot be read: the entry, and
 * through a link the folder it leads to, which is what chokidar polls there (fs.watchFile stats
 * through links). The entry alone missed a note made in a linked folder (`memory/x.md -> ~/vault/dir`,
 * a link's own times do not move) before chokidar's first poll of it.
 */
function folderState(entry: Stats | undefined, through: Stats | undefined): string {
  if (entry === undefined) return '';
  const state = `${entry.ino} ${entry.size} ${entry.mtimeMs} ${entry.ctimeMs}`;
  if (!entry.isSymbolicLink() || through === undefined) return state;
  return `${state} ${through.ino} ${through.size} ${through.mtimeMs} ${through.ctimeMs}`;
}

function folderStateNow(path: string): string {
  try {
    const entry = lstatSync(path, { throwIfNoEntry: false });
    return folderState(entry, entry?.isSymbolicLink() === true ? statSync(path, { throwIfNoEntry: false }) : undefined);
  } catch {
    return '';
  }
}

async function folderStateLater(path: string): Promise<string> {
  try {
    const entry = await lstat(path);
    return folderState(entry, entry.isSymbolicLink() ? await stat(path).catch(() => undefined) : undefined);
  } catch {
    return '';
  }
}

export interface FolderPollsOptions {
  intervalMs: number;
  /** Whether the watching the folders belong to still runs (else the guard ends). */
  current(): boolean;
  /** `folder` changed before chokidar's first poll of it, which has swallowed that change: the watching must start over (its start-up read sees it). */
  swallowed(folder: string): void;
}

/**
 * Folders: each folder's state is taken once chokidar is ready (before the pass that follows reads
 * the notes), and an asynchronous stat of it is asked for at once, which libuv's queue (first in,
 * first out) takes after chokidar's first stat of that folder: a folder whose state is the same
 * then had its first poll taken with nothing made since, so what comes later is chokidar's to
 * report. A folder changed meanwhile is looked at every interval until chokidar reports a poll of
 * it (`polled`); still silent at the second look, chokidar's first stat swallowed the change.
 *
 * Cost: one lstat per folder at ready, one more on the thread pool; a timer only while a folder
 * changed before its first poll waits for chokidar's report (before, every folder chokidar had not
 * reported, which an unchanged folder never is: one lstat per folder per interval, for good).
 */
export class FolderPolls {
  private readonly unproven = new Map<string, { state: string; looks: number }>();
  private timer: ReturnType<typeof setInterval> | undefined;
  /** Resolves once the first stat of every folder is known taken (the pass after the start ends after it). */
  readonly settled: Promise<void>;

  constructor(folders: readonly string[], private readonly options: FolderPollsOptions) {
    for (const folder of folders) {
      const state = folderStateNow(folder);
      if (state !== '') this.unproven.set(folder, { state, looks: 0 });
    }
    if (this.unproven.size > 0) this.timer = setInterval(() => this.look(), options.intervalMs);
    this.settled = Promise.all(
      [...this.unproven].map(async ([folder, seen]) => {
        if ((await folderStateLater(folder)) === seen.state) this.unproven.delete(folder);
      }),
    ).then(() => {
      if (this.unproven.size === 0) this.stop();
    });
  }

  /** chokidar reported a poll of `path` (resolved): its first stat has been taken. */
  polled(path: string): void {
    if (this.unproven.delete(path) && this.unproven.size === 0) this.stop();
  }

  stop(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
  }

  private look(): void {
    if (!this.options.current() || this.unproven.size === 0) {
      this.stop();
      return;
    }
    for (const [folder, seen] of this.unproven) {
      if (folderStateNow(folder) === seen.state) continue;
      // Changed since: chokidar's poll, when it has its first stat, reports it within an interval.
      if (++seen.looks < 2) continue;
      this.stop();
      this.options.swallowed(folder);
      return;
    }
  }
}
