/**
 * The sync state: one versioned JSON file, `<stateDir>/state.json`.
 *
 * - every snapshot is atomic (fs-atomic: temp + fsync + rename), and writers hold the
 *   cross-process lock (lock.ts) from load to their last write;
 * - between snapshots each change is appended to a journal (JournalAppender), O(change), so the
 *   engine can record every episode (sync/ledger.ts decides when);
 * - a file that cannot be parsed or validated is moved aside (never deleted) and the load says so
 *   (`recovered`), so the engine rebuilds from the markers on the server instead of re-sending;
 * - a file written by another tool or by a newer version of this tool is never touched:
 *   StateConflictError.
 *
 * File ids are `<source>:<relPath>` and relPaths are user-controlled, so `files` is a
 * null-prototype object: a relPath like `__proto__.md` or `constructor` is just a key.
 */
import { mkdir, rename, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { JsonFileError, readJsonFile, removeStaleTempFiles, writeFileAtomic } from '../util/fs-atomic.js';
import { emptyFiles, validate } from './validate.js';
import { removeOldJournals, replayJournal, retireJournals, timestampForFileName } from './journal.js';
import { STATE_VERSION, stateFormatFor } from './format.js';
import { STATE_FILE, STATE_TOOL, type EpisodeRef, type FileRecord, type LoadedState, type LoadStateOptions, type SyncState } from './types.js';

export * from './types.js';
export { STATE_VERSION } from './format.js';
export { JournalAppender, journalPath } from './journal.js';

export function statePath(stateDir: string): string {
  return join(stateDir, STATE_FILE);
}

/** The record id (key of `files`): `<source>:<relPath>`. */
export function fileRecordId(source: string, relPath: string): string {
  return `${source}:${relPath}`;
}

/**
 * Every part the state knows: each record's current and older versions, and the orphans (the one
 * list of them). `chased`: without the current parts of a failed or skipped file (verdicts: their
 * parts are not waited for), as reconcile and the pace read them.
 */
export function everyPart(state: SyncState, options: { chased?: boolean } = {}): EpisodeRef[] {
  const verdict = (r: FileRecord) => options.chased === true && (r.status === 'failed' || r.status === 'skipped');
  return [...Object.values(state.files).flatMap((r) => (verdict(r) ? r.superseded : [...r.episodes, ...r.superseded])), ...state.orphans];
}

/** Every retired part: older versions of files that still exist, then the orphans (parts of deleted files, duplicate copies). */
export function retiredParts(state: SyncState): EpisodeRef[] {
  return [...Object.values(state.files).flatMap((r) => r.superseded), ...state.orphans];
}

/**
 * When a part was queued: the server's reply (`queuedAt`), else when it went out (a reply not yet
 * journaled); NaN when it was never sent. The confirmation clock and the drop evidence start here.
 */
export function queuedTime(ref: Pick<EpisodeRef, 'queuedAt' | 'sentAt'>): number {
  return Date.parse(ref.queuedAt ?? ref.sentAt ?? '');
}

/** A part's place in the server's queue: when we sent it (the replies come back in any order), else when it was queued; NaN when unknown. */
export function sentTime(ref: Pick<EpisodeRef, 'queuedAt' | 'sentAt'>): number {
  return Date.parse(ref.sentAt ?? ref.queuedAt ?? '');
}

export function createEmptyState(now: string = new Date().toISOString()): SyncState {
  return { tool: STATE_TOOL, version: STATE_VERSION, createdAt: now, updatedAt: now, files: emptyFiles(), orphans: [] };
}

/** Moves a damaged state file aside to `state.json.corrupt-<timestamp>[-n]`; never overwrites an earlier one. */
async function moveAside(path: string, label = 'corrupt'): Promise<string> {
  const base = `${path}.${label}-${timestampForFileName()}`;
  for (let n = 0; n < 1000; n++) {
    const target = n === 0 ? base : `${base}-${n}`;
    try {
      await stat(target);
      continue; // taken: try the next suffix
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    await rename(path, target);
    return target;
  }
  throw new Error(`Cannot move damaged state file ${path} aside: too many earlier copies`);
}

/**
 * Loads `<stateDir>/state.json`.
 * - missing → fresh empty state (`fresh: true`);
 * - invalid JSON, truncated, empty, or schema mismatch → moved to `state.json.corrupt-<timestamp>`,
 *   fresh state with `recovered` set;
 * - written by another tool, or a newer version → throws StateConflictError, file untouched;
 * - unreadable (EACCES, EISDIR, …) → the I/O error is thrown (nothing is moved).
 * Callers that will save should hold the lock (lock.ts) from load to save.
 */
export async function loadState(stateDir: string, options: LoadStateOptions = {}): Promise<LoadedState> {
  const path = statePath(stateDir);
  if (options.readOnly !== true) await removeStaleTempFiles(path);
  for (let attempt = 0; ; attempt++) {
    let raw: unknown;
    let reason: string | undefined;
    try {
      raw = await readJsonFile(path);
      if (raw === undefined) {
        // No snapshot: a journal without one belongs to a state that is gone.
        if (options.readOnly !== true) await retireJournals(stateDir, false);
        return { state: createEmptyState(), fresh: true };
      }
    } catch (error) {
      if (!(error instanceof JsonFileError)) throw error;
      reason = error.bytes === 0 ? 'empty file' : `invalid JSON (${error.bytes} bytes): ${error.detail}`;
    }
    if (reason === undefined) {
      const result = validate(raw, path);
      if (result.ok === 'conflict') throw result.error;
      if (result.ok) {
        const journalEntries = await replayJournal(stateDir, result.state);
        return { state: result.state, fresh: false, ...(journalEntries > 0 ? { journalEntries } : {}) };
      }
      reason = result.reason;
    }
    if (options.readOnly === true) return { state: createEmptyState(), recovered: { reason, corruptPath: path }, fresh: true };
    try {
      const corruptPath = await moveAside(path);
      await retireJournals(stateDir, true);
      return { state: createEmptyState(), recovered: { reason, corruptPath }, fresh: true };
    } catch (error) {
      // Another process moved or replaced it between our read and rename: read again (once).
      if ((error as NodeJS.ErrnoException).code === 'ENOENT' && attempt === 0) continue;
      throw error;
    }
  }
}

/**
 * Puts the state (snapshot and journals) aside under `label`, kept for the user: the next run starts
 * from no state (`origin --split`: the state copied from another machine is forgotten, not lost).
 * Returns where the snapshot went; undefined when there was none. Call it under the state lock.
 */
export async function setStateAside(stateDir: string, label: string): Promise<string | undefined> {
  let aside: string | undefined;
  try {
    aside = await moveAside(statePath(stateDir), label);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await retireJournals(stateDir, true, label);
  return aside;
}

/**
 * Writes the state atomically (mode 0600, folder created 0700) and sets `state.updatedAt`.
 * Compact JSON without indentation: a few thousand records stringify in milliseconds, so the engine
 * can afford a save after every episode (the file is for machines; `status` is the human view).
 */
export async function saveState(stateDir: string, state: SyncState): Promise<void> {
  state.updatedAt = new Date().toISOString();
  // A new generation: appends from now on go to the next journal, which this snapshot precedes.
  // Time-based, so a fresh state (after a lost or corrupt file) never lands on the number of a
  // journal left over from the old one and replays it.
  state.generation = Math.max((state.generation ?? 0) + 1, Date.now());
  // Snapshot synchronously: changes made while the write is in flight belong to the next save.
  // Written as the version older builds refuse while a part is held (format.ts HELD_NEEDS_NEWER_FORMAT).
  const text = JSON.stringify({ ...state, version: stateFormatFor(everyPart(state)) });
  await mkdir(stateDir, { recursive: true, mode: 0o700 });
  await writeFileAtomic(statePath(stateDir), text, { mode: 0o600 });
  await removeOldJournals(stateDir, state.generation);
}
