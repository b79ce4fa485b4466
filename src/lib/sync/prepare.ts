/**
 * The prepare step (used by the plan phase and by re-sends): a memory file's bytes → the episode drafts to send, or the reason it sends
 * nothing. One pipeline (read → hash → parse → filter → group → build) used by planning and by
 * rebuilding the body of a part the server dropped, so both always produce the same episodes.
 */
import { close, fstat, open, read, type Stats } from 'node:fs';
import type { Config } from '../config/config.js';
import { normalizeGroupId, projectGroupId } from '../graphiti/escape.js';
import { buildEpisodes, type EpisodeDraft, type EpisodeInput } from '../memory/episode.js';
import { addCounts, type RedactionsByKind } from '../memory/redact.js';
import { contentHashOf } from '../memory/hash.js';
import { detectGraphitiOutput } from '../memory/loop.js';
import { parseMemoryFile } from '../memory/parse.js';
import { teamMemoryOf } from '../memory/sources.js';
import type { FileFacts, MemorySource, ScannedFile } from '../memory/types.js';
import { readKeptText } from '../state/kept-text.js';
import type { EpisodeRef, FileRecord } from '../state/state.js';
import type { Logger } from '../util/log.js';
import type { NoteSigner } from './note-signing.js';
import { recordOrigin } from './shared.js';
import { FAILED_FILE_STEPS } from './failed-steps.js';
import { readIsStable } from './mid-write.js';


export type Prepared =
  | { kind: 'episodes'; drafts: EpisodeDraft[]; groupId: string; redactions: RedactionsByKind; warnings: string[] }
  /** `retract`: episodes of earlier versions leave the graph (opt-out, loop, empty). */
  | { kind: 'skipped'; reason: string; retract: boolean }
  | { kind: 'failed'; reason: string };

/** `torn`: written while it was read (mid-write.ts STABLE_READ): read it again once settled. */
export type ReadResult = { kind: 'read'; raw: Buffer; hash: string; /** The file's mtime as the read's last fstat saw it (mid-write.ts CUT_SHORT). */ mtimeMs: number } | { kind: 'gone' } | { kind: 'failed'; reason: string } | { kind: 'torn' };

/**
 * node:fs with callbacks, not fs/promises: on Node 20 the promise version takes a slower round trip
 * per step and was 1.5–8x slower on 1,000 small notes; the plan reads every new or changed note
 * before anything is sent. Looked up at each call (not bound once), so a test can stand in for them.
 */
const openFile = (path: string) => new Promise<number>((resolve, reject) => open(path, 'r', (e, fd) => (e ? reject(e) : resolve(fd))));
const statOf = (fd: number) => new Promise<Stats>((resolve, reject) => fstat(fd, (e, st) => (e ? reject(e) : resolve(st))));
const closeFile = (fd: number) => new Promise<void>((resolve) => close(fd, () => resolve()));
const readAt = (fd: number, buffer: Buffer, offset: number, position: number) =>
  new Promise<number>((resolve, reject) => read(fd, buffer, offset, buffer.length - offset, position, (e, n) => (e ? reject(e) : resolve(n))));

/** The whole file from its start (it may have grown since `sizeHint`). */
async function readWhole(fd: number, sizeHint: number): Promise<Buffer> {
  let buffer = Buffer.allocUnsafe(sizeHint + 1);
  let length = 0;
  for (;;) {
    if (length === buffer.length) buffer = Buffer.concat([buffer, Buffer.allocUnsafe(buffer.length)], buffer.length * 2);
    const n = await readAt(fd, buffer, length, length);
    if (n === 0) return buffer.subarray(0, length);
    length += n;
  }
}

/**
 * Reads and hashes a file: twice on one open file, with its fstat before and after, so a text
 * written while it was read is never taken for the note (mid-write.ts STABLE_READ: `torn`).
 * `gone`: deleted since the scan (the next run sees the deletion).
 */
export async function readMemoryFile(absPath: string): Promise<ReadResult> {
  let fd: number;
  try {
    fd = await openFile(absPath);
  } catch (error) {
    return notRead(error);
  }
  try {
    const before = await statOf(fd);
    const first = await readWhole(fd, before.size);
    const second = await readWhole(fd, first.length);
    const after = await statOf(fd);
    if (!readIsStable(before, after, first, second)) return { kind: 'torn' };
    return { kind: 'read', raw: first, hash: contentHashOf(first), mtimeMs: after.mtimeMs };
  } catch (error) {
    return notRead(error);
  } finally {
    await closeFile(fd);
  }
}

function notRead(error: unknown): ReadResult {
  if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'gone' };
  return { kind: 'failed', reason: `unreadable: ${(error as Error).message}; ${FAILED_FILE_STEPS.unreadable}` };
}

/** Parsed, filtered, grouped and split into drafts whose markers carry `fileId`, `hash` and `origin`. */
export function prepareEpisodes(config: Config, file: FileFacts, fileId: string, origin: string | undefined, raw: Buffer, hash: string, noteTag?: EpisodeInput['noteTag']): Prepared {
  const parsed = parseMemoryFile(raw, file.relPath);
  if (!parsed.ok) {
    // An empty file is a choice, not an error; everything else the parser refuses is a failure.
    if (parsed.reason === 'empty') return { kind: 'skipped', reason: `${parsed.reason}: ${parsed.message}`, retract: true };
    return { kind: 'failed', reason: `${parsed.reason}: ${parsed.message}; ${FAILED_FILE_STEPS.edit}` };
  }
  const doc = parsed.data;
  if (doc.optOut !== undefined) return { kind: 'skipped', reason: `opt-out: ${doc.optOut === 'private' ? 'private: true' : 'sync: false'}`, retract: true };
  const loop = detectGraphitiOutput(doc.body);
  if (loop !== undefined) return { kind: 'skipped', reason: `loop: ${loop}`, retract: true };
  let groupId: string;
  try {
    groupId = groupFor(config, file, doc.groupId);
  } catch (error) {
    return { kind: 'failed', reason: `group-id: ${(error as Error).message}` };
  }
  // A team file is described by its place in the store: the same for every teammate, no one's home folder.
  const team = teamMemoryOf(file, file.relPath);
  const drafts = buildEpisodes({
    doc,
    source: file.source,
    kind: file.kind,
    relPath: team === undefined ? file.relPath : `team/${team.store}/${team.path}`,
    mtimeMs: file.mtimeMs,
    ...(file.project === undefined || team !== undefined ? {} : { project: file.project }),
    groupId,
    maxChars: config.maxEpisodeChars,
    fileId,
    contentHash: hash,
    ...(origin === undefined ? {} : { origin }),
    ...(noteTag === undefined ? {} : { noteTag }),
  });
  if (drafts.length === 0) return { kind: 'skipped', reason: 'empty: nothing to send after removing private blocks and footers', retract: true };
  return { kind: 'episodes', drafts, groupId, redactions: drafts.reduce((byKind, d) => addCounts(byKind, d.redactionsByKind), {}), warnings: doc.warnings.slice(0, 10) };
}

/** The file's own `group_id`, else its source's group, else the default; `{project}` per project; made safe for the database. */
export function groupFor(config: Config, file: Pick<ScannedFile, 'source' | 'kind' | 'project'>, frontmatterGroup: string | undefined): string {
  const override = config.sourceGroups[file.source] ?? config.sourceGroups[file.kind];
  let group = frontmatterGroup ?? override ?? config.groupId;
  if (group === '{project}') {
    if (file.project === undefined) group = config.groupId;
    else return projectGroupId(config.db, file.project);
  }
  return normalizeGroupId(config.db, group);
}

/**
 * The file id and origin a record's version was sent under: its parts' markers name them. A version
 * keeps them until it is replaced: across a rename (the record, its parts and their markers move to
 * the new name, plan.ts) and a source declared shared since (shared from the file's next version on).
 * So the bodies of parts still to send are built under them (the plan resuming an outbox, a pending
 * file renamed, a re-send): built under the file's current name instead, their markers would match
 * none of the parts, and the parts would never be sent.
 */
export function versionIdentity(record: Pick<FileRecord, 'fileId' | 'episodes'>, currentOrigin: string | undefined): { fileId: string; origin: string | undefined } {
  // No parts yet: nothing was sent under another origin (none in markers from before origins).
  return { fileId: record.fileId, origin: record.episodes.length === 0 ? currentOrigin : recordOrigin(record) };
}

/** Whether drafts are the bodies of exactly these parts: the same markers (file id, hash, part, origin), in order, in the same group. */
export function draftsMatchParts(parts: readonly Pick<EpisodeRef, 'marker' | 'groupId'>[], drafts: readonly Pick<EpisodeDraft, 'marker' | 'groupId'>[]): boolean {
  return parts.length === drafts.length && parts.every((ref, i) => ref.marker === drafts[i]?.marker && ref.groupId === drafts[i]?.groupId);
}

/**
 * The bodies of a record that must be (re-)sent but was not read this run, by marker. Undefined
 * when the file changed since (content, group or parts): the next run plans it as an update.
 */
export async function rebuildDrafts(config: Config, sources: readonly MemorySource[], record: FileRecord, logger: Logger | undefined, signer?: NoteSigner): Promise<Map<string, EpisodeDraft> | undefined> {
  // A restored older version (restore.ts): its text is the one kept, not the file's.
  if (record.failedVersion !== undefined) return keptDrafts(config.stateDir, record.episodes);
  const source = sources.find((s) => s.name === record.source);
  if (source === undefined) return undefined;
  const read = await readMemoryFile(`${source.root}/${record.relPath}`);
  if (read.kind !== 'read') {
    if (read.kind === 'failed') logger?.warn('cannot re-read file for re-send', { id: record.id, error: read.reason });
    return undefined;
  }
  if (read.hash !== record.hash) return undefined;
  // The same markers as the parts being re-sent.
  const { fileId, origin } = versionIdentity(record, source.origin);
  const prepared = prepareEpisodes(config, record, fileId, origin, read.raw, read.hash, signer?.tagFor(source, record, record.noteTag, true));
  if (prepared.kind !== 'episodes' || !draftsMatchParts(record.episodes, prepared.drafts)) return undefined;
  return draftsByMarker(prepared.drafts);
}

export function draftsByMarker(drafts: EpisodeDraft[]): Map<string, EpisodeDraft> {
  return new Map(drafts.map((d) => [d.marker, d]));
}

/** The kept drafts of `parts` (state/kept-text.ts), by marker; undefined when any is missing. */
export async function keptDrafts(stateDir: string, parts: readonly EpisodeRef[]): Promise<Map<string, EpisodeDraft> | undefined> {
  const drafts: EpisodeDraft[] = [];
  for (const ref of parts) {
    const draft = await readKeptText(stateDir, ref.marker);
    if (draft === undefined) return undefined;
    drafts.push(draft);
  }
  return draftsByMarker(drafts);
}
