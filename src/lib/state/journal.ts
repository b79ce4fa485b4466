/**
 * The journal: changes made after a snapshot, appended as whole values (a record, its removal, the
 * orphan list, the last run), one JSON line each, fsynced. Replay is idempotent; a torn last line
 * (a kill mid-append) ends it.
 */
import { mkdir, open, readFile, readdir, rename, unlink, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { isRecord as isPlainObject } from '../util/json.js';
import { STATE_FILE, STATE_TOOL, StateConflictError, type EpisodeRef, type JournalEntry, type SyncState } from './types.js';
import { isStr, looksLikeEpisodeRef, looksLikeFileRecord } from './validate.js';
import { upgradeStep } from '../util/install-route.js';

export function timestampForFileName(date = new Date()): string {
  return date.toISOString().replace(/[:.]/g, '-');
}

/** `<stateDir>/state.journal-<generation>.jsonl` */
export function journalPath(stateDir: string, generation: number): string {
  return join(stateDir, `${STATE_FILE.replace(/\.json$/, '')}.journal-${generation}.jsonl`);
}

/**
 * Appends changes to the journal of the current snapshot and fsyncs them: O(size of the change),
 * where a snapshot is O(size of the state). The engine journals after every episode and writes a
 * snapshot (which folds the journal in) at phase boundaries (sync/ledger.ts). A kill mid-append
 * leaves at most a torn last line, which replay ignores. The file is kept open between appends
 * and reopened when a snapshot started a new generation; `close()` when the run ends.
 */
export class JournalAppender {
  private handle: FileHandle | undefined;
  private openPath: string | undefined;

  constructor(private readonly stateDir: string) {}

  async append(state: SyncState, entries: JournalEntry[]): Promise<void> {
    if (entries.length === 0) return;
    const path = journalPath(this.stateDir, state.generation ?? 0);
    if (this.openPath !== path) {
      await this.close();
      await mkdir(this.stateDir, { recursive: true, mode: 0o700 });
      this.handle = await open(path, 'a', 0o600);
      this.openPath = path;
    }
    await (this.handle as FileHandle).write(`${entries.map((e) => JSON.stringify(e)).join('\n')}\n`);
    await (this.handle as FileHandle).datasync();
  }

  async close(): Promise<void> {
    const handle = this.handle;
    this.handle = undefined;
    this.openPath = undefined;
    await handle?.close().catch(() => undefined);
  }
}

/** The kinds of journal entry this build writes and replays (JournalEntry). */
const ENTRY_KINDS: ReadonlySet<unknown> = new Set(['file', 'orphans', 'meta']);

/**
 * Replays the snapshot's journal onto it; returns how many entries it applied. A whole line of a
 * kind this build does not know was written by a newer build: StateConflictError, never skipped
 * (the entries after it would be lost, and with them what that build sent: state/format.ts).
 */
export async function replayJournal(stateDir: string, state: SyncState): Promise<number> {
  const path = journalPath(stateDir, state.generation ?? 0);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw error;
  }
  let applied = 0;
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    let entry: unknown;
    try {
      entry = JSON.parse(line);
    } catch {
      break; // a torn write: nothing after it was acknowledged
    }
    if (!isPlainObject(entry)) break;
    if (isStr(entry.k) && !ENTRY_KINDS.has(entry.k)) {
      throw new StateConflictError(
        `The state journal ${path} holds a change of a kind this build does not know ("${entry.k}"): a newer graphiti-memory-sync wrote it. Refusing to use or overwrite the state: ${upgradeStep('the version that wrote it, or later')}.`,
        path,
        'newer',
        STATE_TOOL,
        undefined,
      );
    }
    if (entry.k === 'file' && isStr(entry.id)) {
      if (entry.record === null) delete state.files[entry.id];
      else if (looksLikeFileRecord(entry.record) && entry.record.id === entry.id) state.files[entry.id] = entry.record;
      else break;
    } else if (entry.k === 'orphans' && Array.isArray(entry.orphans) && entry.orphans.every(looksLikeEpisodeRef)) {
      state.orphans = entry.orphans as EpisodeRef[];
    } else if (entry.k === 'meta' && isPlainObject(entry.lastRun) && isStr(entry.lastRun.startedAt)) {
      state.lastRun = entry.lastRun as NonNullable<SyncState['lastRun']>;
    } else break;
    applied++;
  }
  return applied;
}

/** Journal files in the state dir with their generation. */
async function listJournals(stateDir: string): Promise<Array<{ path: string; generation: number }>> {
  const prefix = `${STATE_FILE.replace(/\.json$/, '')}.journal-`;
  let names: string[];
  try {
    names = await readdir(stateDir);
  } catch {
    return [];
  }
  return names
    .filter((name) => name.startsWith(prefix) && name.endsWith('.jsonl'))
    .map((name) => ({ path: join(stateDir, name), generation: Number(name.slice(prefix.length, -'.jsonl'.length)) }));
}

/** Journals of a lost or damaged snapshot: removed, or (`keep`) moved aside next to the damaged file. */
export async function retireJournals(stateDir: string, keep: boolean, label = 'corrupt'): Promise<void> {
  for (const { path } of await listJournals(stateDir)) {
    if (keep) await rename(path, `${path}.${label}-${timestampForFileName()}`).catch(() => undefined);
    else await unlink(path).catch(() => undefined);
  }
}

export async function removeOldJournals(stateDir: string, current: number): Promise<void> {
  for (const { path, generation } of await listJournals(stateDir)) {
    if (Number.isInteger(generation) && generation < current) await unlink(path).catch(() => undefined);
  }
}
