/**
 * `--poll`: an edit made before chokidar's first poll of a file is not lost (the one owner of
 * this rule for the files chokidar polls; the folders are watch.ts `guardFirstPolls`'s, the
 * files a note link leads to are polled by file-links.ts from a stat taken before the pass).
 *
 * chokidar polls each file with fs.watchFile, whose first stat, the one later stats are compared
 * with, is queued on libuv's thread pool during chokidar's start-up scan and taken whenever a
 * thread is free. On a loaded machine that came after the pass following the start (or a
 * rewatch) had read the file: an edit made between that read and the first stat was in the first
 * stat, so no poll ever reported it, and it waited for a pass owed by something else.
 *
 * So the state chokidar's scan read of each file (the stats it hands the `ignored` filter, no
 * stat of our own) is kept until the first pass after that scan is over; then each file is
 * stat-ed once more and one whose state differs is reported as changed, before that pass ends
 * (so the scheduler owes the next pass at once). The stats are asynchronous on purpose: libuv's
 * queue is first in, first out, so each is taken after chokidar's first stat of that file has been
 * taken up by a thread. A file chokidar reports meanwhile needs no look (its poll is running); and
 * a change the check reported that chokidar's poll reports too owes nothing more (`seenAgain`).
 *
 * Cost: nothing per interval. Once per start or rewatch: a short string per polled file, held
 * from the scan to the end of the next pass, and one lstat per file at that pass's end.
 */
import { lstat } from 'node:fs/promises';
import { lstatSync } from 'node:fs';
import { resolve } from 'node:path';

/** The stats a state is made of (fs.Stats has them). */
interface StateStats {
  ino: number;
  size: number;
  mtimeMs: number;
}

/** Lstat-s at once at a pass's end (a network drive answers each in turn anyway). */
const CONCURRENT_STATS = 16;

/**
 * What the check compares: what makes chokidar's poll report a change (the size, the mtime; a
 * save by rename changes the inode), '' when the file is gone.
 */
export function fileState(stats: StateStats | undefined): string {
  return stats === undefined ? '' : `${stats.ino} ${stats.size} ${stats.mtimeMs}`;
}

function stateNow(path: string): string {
  try {
    return fileState(lstatSync(path, { throwIfNoEntry: false }));
  } catch {
    return '';
  }
}

async function stateLater(path: string): Promise<string> {
  try {
    return fileState(await lstat(path));
  } catch {
    return '';
  }
}

export interface FirstPollChange {
  path: string;
  kind: 'change' | 'unlink';
  state: string;
}

export class FirstPolls {
  /** What chokidar's scan read, while it runs. */
  private scanning: Map<string, string> | undefined;
  /** What it read, once it is over, until a pass starts. */
  private waiting: Map<string, string> | undefined;
  /** What the pass under way will be compared with at its end. */
  private checking: Map<string, string> | undefined;
  /** The state each file the check reported was in, until chokidar's poll reports that file. */
  private readonly reported = new Map<string, string>();

  /** A watching starts (chokidar's scan): what the one before left is dropped. */
  begin(): void {
    this.scanning = new Map();
    this.waiting = undefined;
    this.checking = undefined;
    this.reported.clear();
  }

  /** chokidar's scan met a file it polls, with the stats it read (the first read wins: a later read of the folder is not the scan's). */
  scanned(path: string, stats: StateStats): void {
    if (this.scanning === undefined) return;
    const abs = resolve(path);
    if (!this.scanning.has(abs)) this.scanning.set(abs, fileState(stats));
  }

  /** chokidar is ready (its scan is over): the states wait for the next pass. */
  ready(): void {
    this.waiting = this.scanning;
    this.scanning = undefined;
  }

  /** Stops recording and forgets everything (native events; the watch stops). */
  clear(): void {
    this.scanning = undefined;
    this.waiting = undefined;
    this.checking = undefined;
    this.reported.clear();
  }

  /** A pass is about to read the notes: whether its end is to be checked (`check`). */
  passStarts(): boolean {
    if (this.waiting === undefined) return false;
    this.checking = this.waiting;
    this.waiting = undefined;
    return true;
  }

  /**
   * The pass is over: the files whose state differs from what the scan read. `current` says
   * whether the watching the states belong to still runs (else nothing is reported).
   */
  async check(current: () => boolean): Promise<FirstPollChange[]> {
    const states = this.checking;
    if (states === undefined) return [];
    const paths = [...states.keys()];
    const changes: FirstPollChange[] = [];
    let next = 0;
    const look = async (): Promise<void> => {
      while (next < paths.length && current()) {
        const path = paths[next++] as string;
        const state = await stateLater(path);
        const before = states.get(path);
        // Gone from the map: chokidar reported the file meanwhile (its poll runs).
        if (before === undefined || before === state) continue;
        changes.push({ path, kind: state === '' ? 'unlink' : 'change', state });
      }
    };
    await Promise.all(Array.from({ length: Math.min(CONCURRENT_STATS, paths.length) }, look));
    if (this.checking === states) this.checking = undefined;
    return current() ? changes : [];
  }

  /** The check's change has been reported: chokidar's report of the same state owes nothing (`seenAgain`). */
  reportedAs(change: FirstPollChange): void {
    this.reported.set(change.path, change.state);
  }

  /**
   * chokidar's poll reported `path`: its first stat has been taken, so no check is needed for it.
   * True when this is a report of the state the check reported already (nothing more is owed:
   * the pass it owed reads that state), which happens when the edit came after chokidar's first
   * stat but before the check's.
   */
  seenAgain(path: string, kind: string): boolean {
    this.scanning?.delete(path);
    this.waiting?.delete(path);
    this.checking?.delete(path);
    const reported = this.reported.get(path);
    if (reported === undefined) return false;
    this.reported.delete(path);
    return kind !== 'add' && stateNow(path) === reported;
  }
}
