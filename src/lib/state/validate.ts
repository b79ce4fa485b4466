/**
 * Is this parsed JSON a state we may use? Identity first (another tool's file or a newer format is
 * a conflict, never "corrupt"), then the schema, record by record.
 */
import { z } from 'zod/v3';
import { isRecord as isPlainObject } from '../util/json.js';
import { futureFormat, heldFormat, migrateState, STATE_VERSION } from './format.js';
import { FILE_STATUSES, STATE_TOOL, StateConflictError, type FileRecord, type SyncState } from './types.js';

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
export const isStr = (v: unknown): v is string => typeof v === 'string';
const optStr = (v: unknown): boolean => v === undefined || typeof v === 'string';
const isCount = (v: unknown): boolean => Number.isInteger(v) && (v as number) >= 0;
const FILE_KINDS: ReadonlySet<unknown> = new Set(['pai', 'auto-memory', 'extra']);
const STATUSES: ReadonlySet<unknown> = new Set(FILE_STATUSES);

export function looksLikeEpisodeRef(v: unknown): boolean {
  if (!isPlainObject(v)) return false;
  return (
    isStr(v.marker) && isStr(v.name) && isStr(v.groupId) && isCount(v.part) && isCount(v.parts) && (v.parts as number) > 0 &&
    optStr(v.uuid) && optStr(v.sentAt) && optStr(v.queuedAt) && optStr(v.confirmedAt) && isCount(v.resends)
  );
}

export function looksLikeFileRecord(v: unknown): v is FileRecord {
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

/** A null-prototype `files` object: a relPath like `__proto__.md` is just a key. */
export function emptyFiles(): Record<string, FileRecord> {
  return Object.create(null) as Record<string, FileRecord>;
}

function describeZodError(error: z.ZodError, prefix: (string | number)[] = []): string {
  const issue = error.issues[0];
  if (issue === undefined) return 'schema mismatch';
  const path = [...prefix, ...issue.path].map((p) => (typeof p === 'number' ? `[${p}]` : `.${JSON.stringify(p).slice(1, -1)}`)).join('');
  return `schema mismatch at ${path || '(root)'}: ${issue.message}`;
}

export type Validation = { ok: true; state: SyncState } | { ok: false; reason: string } | { ok: 'conflict'; error: StateConflictError };

export function validate(raw: unknown, path: string): Validation {
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
  if (obj.tool === STATE_TOOL) {
    // 3 with a held part is this build's own 2 (format.ts HELD_NEEDS_NEWER_FORMAT); any other newer version is judged as newer than 2.
    const newer = heldFormat(obj) ? undefined : futureFormat({ path, what: 'State file', version: obj.version, compatibleWith: obj.compatibleWith }, STATE_VERSION);
    if (newer !== undefined) return { ok: 'conflict', error: newer };
    // An older format (or a newer one declared compatible) is brought to this build's, in one place.
    migrateState(obj);
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
