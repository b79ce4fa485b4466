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
import { mkdir, open, readFile, readdir, rename, stat, unlink, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod/v3';
import { isRecord as isPlainObject } from '../util/json.js';
import { JsonFileError, readJsonFile, removeStaleTempFiles, writeFileAtomic } from '../util/fs-atomic.js';
import type { SourceKind } from '../memory/types.js';

export const STATE_TOOL = 'graphiti-memory-sync';
export const STATE_VERSION = 1;
export const STATE_FILE = 'state.json';

export type FileStatus = 'pending' | 'queued' | 'confirmed' | 'failed' | 'skipped';
export const FILE_STATUSES: readonly FileStatus[] = ['pending', 'queued', 'confirmed', 'failed', 'skipped'];

/** The one status counter: records per status, optionally only those `include` accepts. */
export function countByStatus(records: Iterable<FileRecord>, include: (record: FileRecord) => boolean = () => true): Record<FileStatus, number> {
  const counts: Record<FileStatus, number> = { pending: 0, queued: 0, confirmed: 0, failed: 0, skipped: 0 };
  for (const record of records) if (include(record)) counts[record.status]++;
  return counts;
}

export interface EpisodeRef {
  /** Provenance marker embedded in the episode (how we find it on the server). */
  marker: string;
  name: string;
  groupId: string;
  part: number;
  parts: number;
  uuid?: string;
  sentAt?: string;
  /** When add_memory accepted (queued) this part; the confirmation clock starts here. */
  queuedAt?: string;
  confirmedAt?: string;
  resends: number;
}

export interface FileRecord {
  /** `${source}:${relPath}` */
  id: string;
  source: string;
  kind: SourceKind;
  relPath: string;
  project?: string;
  /** Stable short hash of source+relPath, used in markers (memory/hash.ts `fileIdOf`). */
  fileId: string;
  /** Content hash of what was (or will be) sent. */
  hash?: string;
  mtimeMs: number;
  size: number;
  status: FileStatus;
  skipReason?: string;
  /** The current version's episode parts. */
  episodes: EpisodeRef[];
  /** Older versions' episodes still to delete (uuid may be unknown yet). */
  superseded: EpisodeRef[];
  attempts: number;
  lastError?: string;
  redactions?: number;
  warnings?: string[];
  firstSeenAt: string;
  updatedAt: string;
  queuedAt?: string;
  confirmedAt?: string;
}

export interface SyncState {
  tool: 'graphiti-memory-sync';
  version: 1;
  createdAt: string;
  updatedAt: string;
  /** Null-prototype object keyed by file id. */
  files: Record<string, FileRecord>;
  /** Episodes of deleted files still to delete. */
  orphans: EpisodeRef[];
  /** `redactions`: secrets redacted by kind in that run (kinds and counts, never values). */
  lastRun?: { startedAt: string; finishedAt?: string; summary?: Record<string, number>; redactions?: Record<string, number> };
  /** Snapshot generation; the journal of changes made after this snapshot is `state.journal-<generation>.jsonl`. */
  generation?: number;
}

/**
 * One change appended to the journal between snapshots: a whole record (or its removal), or the
 * whole orphan list. Whole values, not patches, so replay is idempotent and order is all that matters.
 */
export type JournalEntry =
  | { k: 'file'; id: string; record: FileRecord | null }
  | { k: 'orphans'; orphans: EpisodeRef[] }
  | { k: 'meta'; lastRun: NonNullable<SyncState['lastRun']> };

export interface LoadedState {
  state: SyncState;
  /** Set when the previous file was unusable and has been moved to `corruptPath`. */
  recovered?: { reason: string; corruptPath: string };
  /** True when no usable state existed (missing file or recovered). */
  fresh: boolean;
  /** How many journal entries were replayed on top of the snapshot. */
  journalEntries?: number;
}

export interface LoadStateOptions {
  /** Never modify anything on disk (dry runs, `status`): a damaged file is reported, not moved aside. */
  readOnly?: boolean;
}

/** The state file belongs to another tool or to a newer version of this one: we refuse to touch it. */
export class StateConflictError extends Error {
  constructor(
    message: string,
    readonly path: string,
    readonly kind: 'foreign' | 'newer',
    readonly foundTool: string | undefined,
    readonly foundVersion: number | undefined,
  ) {
    super(message);
    this.name = 'StateConflictError';
  }
}

// Schemas. `.passthrough()` keeps fields this build does not know (added by a later build of the
// same state version) so an older binary sharing the state dir does not silently drop them.
const episodeRefSchema = z
  .object({
    marker: z.string(),
    name: z.string(),
    groupId: z.string(),
    part: z.number().int().nonnegative(),
    parts: z.number().int().positive(),
    uuid: z.string().optional(),
    sentAt: z.string().optional(),
    queuedAt: z.string().optional(),
    confirmedAt: z.string().optional(),
    resends: z.number().int().nonnegative(),
  })
  .passthrough();

const fileRecordSchema = z
  .object({
    id: z.string(),
    source: z.string(),
    kind: z.enum(['pai', 'auto-memory', 'extra']),
    relPath: z.string(),
    project: z.string().optional(),
    fileId: z.string(),
    hash: z.string().optional(),
    mtimeMs: z.number(),
    size: z.number().nonnegative(),
    status: z.enum(['pending', 'queued', 'confirmed', 'failed', 'skipped']),
    skipReason: z.string().optional(),
    episodes: z.array(episodeRefSchema),
    superseded: z.array(episodeRefSchema),
    attempts: z.number().int().nonnegative(),
    lastError: z.string().optional(),
    redactions: z.number().int().nonnegative().optional(),
    warnings: z.array(z.string()).optional(),
    firstSeenAt: z.string(),
    updatedAt: z.string(),
    queuedAt: z.string().optional(),
    confirmedAt: z.string().optional(),
  })
  .passthrough();

const stateSchema = z
  .object({
    tool: z.literal(STATE_TOOL),
    version: z.literal(STATE_VERSION),
    createdAt: z.string(),
    updatedAt: z.string(),
    // Validated record by record below: z.record would rebuild the object with plain assignment.
    files: z.custom<Record<string, unknown>>((v) => typeof v === 'object' && v !== null && !Array.isArray(v), { message: 'files must be an object' }),
    orphans: z.array(episodeRefSchema),
    lastRun: z
      .object({ startedAt: z.string(), finishedAt: z.string().optional(), summary: z.record(z.number()).optional() })
      .passthrough()
      .optional(),
    generation: z.number().int().nonnegative().optional(),
  })
  .passthrough();

// Hand-written equivalents of the record schemas, used first when loading. Measured with 10,000
// records (Node 20): zod's safeParse per record costs ~150-400 ms per load, these checks ~5 ms, and
// the load is on the path of every no-op sync run. Each check accepts a subset of what the zod
// schema accepts (never more), so a record failing here is re-checked by zod, which decides and
// words the error. Records passing here are used as parsed (unknown keys kept, like passthrough).
const isStr = (v: unknown): v is string => typeof v === 'string';
const optStr = (v: unknown): boolean => v === undefined || typeof v === 'string';
const isCount = (v: unknown): boolean => Number.isInteger(v) && (v as number) >= 0;
const FILE_KINDS: ReadonlySet<unknown> = new Set(['pai', 'auto-memory', 'extra']);
const STATUSES: ReadonlySet<unknown> = new Set(FILE_STATUSES);

function looksLikeEpisodeRef(v: unknown): boolean {
  if (!isPlainObject(v)) return false;
  return (
    isStr(v.marker) && isStr(v.name) && isStr(v.groupId) && isCount(v.part) && isCount(v.parts) && (v.parts as number) > 0 &&
    optStr(v.uuid) && optStr(v.sentAt) && optStr(v.queuedAt) && optStr(v.confirmedAt) && isCount(v.resends)
  );
}

function looksLikeFileRecord(v: unknown): v is FileRecord {
  if (!isPlainObject(v)) return false;
  return (
    isStr(v.id) && isStr(v.source) && FILE_KINDS.has(v.kind) && isStr(v.relPath) && optStr(v.project) && isStr(v.fileId) && optStr(v.hash) &&
    typeof v.mtimeMs === 'number' && typeof v.size === 'number' && v.size >= 0 && STATUSES.has(v.status) && optStr(v.skipReason) &&
    Array.isArray(v.episodes) && v.episodes.every(looksLikeEpisodeRef) && Array.isArray(v.superseded) && v.superseded.every(looksLikeEpisodeRef) &&
    isCount(v.attempts) && optStr(v.lastError) && (v.redactions === undefined || isCount(v.redactions)) &&
    (v.warnings === undefined || (Array.isArray(v.warnings) && v.warnings.every(isStr))) &&
    isStr(v.firstSeenAt) && isStr(v.updatedAt) && optStr(v.queuedAt) && optStr(v.confirmedAt)
  );
}

export function statePath(stateDir: string): string {
  return join(stateDir, STATE_FILE);
}

/** The record id (key of `files`): `<source>:<relPath>`. */
export function fileRecordId(source: string, relPath: string): string {
  return `${source}:${relPath}`;
}

function emptyFiles(): Record<string, FileRecord> {
  return Object.create(null) as Record<string, FileRecord>;
}

export function createEmptyState(now: string = new Date().toISOString()): SyncState {
  return { tool: STATE_TOOL, version: STATE_VERSION, createdAt: now, updatedAt: now, files: emptyFiles(), orphans: [] };
}

function describeZodError(error: z.ZodError, prefix: (string | number)[] = []): string {
  const issue = error.issues[0];
  if (issue === undefined) return 'schema mismatch';
  const path = [...prefix, ...issue.path].map((p) => (typeof p === 'number' ? `[${p}]` : `.${JSON.stringify(p).slice(1, -1)}`)).join('');
  return `schema mismatch at ${path || '(root)'}: ${issue.message}`;
}

type Validation = { ok: true; state: SyncState } | { ok: false; reason: string } | { ok: 'conflict'; error: StateConflictError };

function validate(raw: unknown, path: string): Validation {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return { ok: false, reason: 'schema mismatch: not a JSON object' };
  const obj = raw as Record<string, unknown>;
  // Identity first: another tool's file or a newer format must never be treated as corrupt.
  // A file with no `tool` field at all is treated as damaged, not foreign (it is moved aside, never deleted).
  if (typeof obj.tool === 'string' && obj.tool !== STATE_TOOL) {
    return {
      ok: 'conflict',
      error: new StateConflictError(
        `State file ${path} was written by "${obj.tool}", not ${STATE_TOOL}. Refusing to use or overwrite it: point MADEINOZ_KNOWLEDGE_STATE_DIR at a folder of its own, or move the file away.`,
        path,
        'foreign',
        obj.tool,
        typeof obj.version === 'number' ? obj.version : undefined,
      ),
    };
  }
  if (obj.tool === STATE_TOOL && typeof obj.version === 'number' && obj.version > STATE_VERSION) {
    return {
      ok: 'conflict',
      error: new StateConflictError(
        `State file ${path} has format version ${obj.version}, newer than this build understands (${STATE_VERSION}). Refusing to use or overwrite it: upgrade graphiti-memory-sync.`,
        path,
        'newer',
        STATE_TOOL,
        obj.version,
      ),
    };
  }
  const top = stateSchema.safeParse(obj);
  if (!top.success) return { ok: false, reason: describeZodError(top.error) };
  const files = emptyFiles();
  const rawFiles = obj.files as Record<string, unknown>;
  // Object.keys on JSON.parse output includes an own "__proto__" key if present; reading it with
  // rawFiles[key] returns the own property (JSON.parse defines, it does not assign).
  for (const key of Object.keys(rawFiles)) {
    const value = rawFiles[key];
    let record: FileRecord;
    if (looksLikeFileRecord(value)) {
      record = value;
    } else {
      // The fast check is stricter than or equal to the schema: zod has the last word and the message.
      const parsed = fileRecordSchema.safeParse(value);
      if (!parsed.success) return { ok: false, reason: describeZodError(parsed.error, ['files', key]) };
      record = parsed.data as FileRecord;
    }
    if (record.id !== key) return { ok: false, reason: `schema mismatch at .files.${key}: id "${record.id}" does not match its key` };
    files[key] = record;
  }
  const state = { ...(top.data as Omit<SyncState, 'files'>), files } as SyncState;
  return { ok: true, state };
}

function timestampForFileName(date = new Date()): string {
  return date.toISOString().replace(/[:.]/g, '-');
}

/** Moves a damaged state file aside to `state.json.corrupt-<timestamp>[-n]`; never overwrites an earlier one. */
async function moveAside(path: string): Promise<string> {
  const base = `${path}.corrupt-${timestampForFileName()}`;
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
  const text = JSON.stringify(state);
  await mkdir(stateDir, { recursive: true, mode: 0o700 });
  await writeFileAtomic(statePath(stateDir), text, { mode: 0o600 });
  await removeOldJournals(stateDir, state.generation);
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

async function replayJournal(stateDir: string, state: SyncState): Promise<number> {
  let text: string;
  try {
    text = await readFile(journalPath(stateDir, state.generation ?? 0), 'utf8');
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
async function retireJournals(stateDir: string, keep: boolean): Promise<void> {
  for (const { path } of await listJournals(stateDir)) {
    if (keep) await rename(path, `${path}.corrupt-${timestampForFileName()}`).catch(() => undefined);
    else await unlink(path).catch(() => undefined);
  }
}

async function removeOldJournals(stateDir: string, current: number): Promise<void> {
  for (const { path, generation } of await listJournals(stateDir)) {
    if (Number.isInteger(generation) && generation < current) await unlink(path).catch(() => undefined);
  }
}
