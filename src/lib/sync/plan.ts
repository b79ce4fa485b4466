/**
 * The plan phase: the scanned files and the state → a Plan (records to write, records to drop,
 * parts to retire, files to send, counts, actions). Nothing in the state changes here; `applyPlan`
 * writes the plan in one step. Renames are settled inside the plan: a file that disappeared and a
 * new file with the same content are one file moved, decided before anything is counted.
 */
import { existsSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Config } from '../config/config.js';
import { conflictOriginalName } from '../memory/conflict-copy.js';
import { searchProbe, type EpisodeDraft } from '../memory/episode.js';
import { totalRedactions } from '../memory/redact.js';
import { fileIdOf } from '../memory/hash.js';
import { isUnderProblem } from '../memory/scan.js';
import { fileIdFor, inLeftOutProject, originFor } from '../memory/sources.js';
import type { MemorySource, ScannedFile, ScanResult } from '../memory/types.js';
import { sentOverPulled, type PulledCopy } from '../state/pulled.js';
import { fileRecordId, type EpisodeRef, type FileRecord, type SyncState } from '../state/state.js';
import { sleep as realSleep } from '../util/backoff.js';
import { listedAs } from '../util/file-identity.js';
import { runPool } from '../util/pool.js';
import type { NoteSigner } from './note-signing.js';
import { FAILED_FILE_STEPS } from './failed-steps.js';
import { cutShortWait, goneMidWriteWait, MID_WRITE_ROUNDS, MID_WRITE_SETTLE_MS, midWriteWait } from './mid-write.js';
import { draftsByMarker, draftsMatchParts, keptDrafts, prepareEpisodes, readMemoryFile, rebuildDrafts, versionIdentity } from './prepare.js';
import type { Outgoing, PlannedAction, SyncCounts, SyncProblem } from './types.js';

/** Why a copy `pull` wrote is not sent: it is in the graph as another file's episode. */
export const PULLED_COPY = 'pulled: written by pull from another machine, in the graph as its episode';
/** Why a note this machine sent is not sent any more: its text is in the graph as another file's copy, processed first (pull/decide.ts `give-way`). */
export const GAVE_WAY = 'pulled: the same text is in the graph as another machine\'s (or clone\'s) copy, processed first; this copy left';

export interface PlanInput {
  config: Config;
  state: SyncState;
  scan: ScanResult;
  /** The sources this run covers (a record of another source is never taken for deleted). */
  sources: MemorySource[];
  force: boolean;
  nowIso: string;
  /** Signs a linked machine's notes (note-signing.ts); undefined: not linked. */
  signer?: NoteSigner | undefined;
  /** Files `pull` wrote, by absolute path → the content hash it wrote (state/pulled.ts): untouched, they are not sent; one that gave way has its own copy retracted. */
  pulledFiles?: ReadonlyMap<string, PulledCopy>;
  /** The run's clock and its way of waiting (SyncOptions): a file caught mid-write is read again once settled (mid-write.ts). */
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  signal?: AbortSignal;
}

export interface Plan {
  /** New or changed records, in scan order. */
  put: FileRecord[];
  /** Ids of records to drop: deleted files and the old names of renamed files. */
  drop: string[];
  /** Parts of deleted files, to delete from the graph. */
  retire: EpisodeRef[];
  outgoing: Map<string, Outgoing>;
  counts: Pick<SyncCounts, 'added' | 'updated' | 'signed' | 'deleted' | 'unchanged' | 'resumed' | 'renamed'>;
  actions: Array<{ id: string; action: PlannedAction }>;
  problems: SyncProblem[];
  /** Anything in the state changes (else the run journals only `lastRun`). */
  changed: boolean;
  /** For the log: what happened to which file. */
  events: Array<{ message: 'file skipped' | 'file failed' | 'file renamed' | 'file deleted' | 'file still being written'; data: Record<string, unknown> }>;
}

/** What one scanned file comes to. `record`, when present, is the record to write. */
type Verdict =
  | { kind: 'unchanged'; record?: FileRecord; changed: boolean }
  /** Deleted between scan and read: the next run sees the deletion. */
  | { kind: 'gone'; record?: FileRecord }
  /** Still being written after every settle wait (mid-write.ts STABLE_READ): left as it was for the next run. */
  | { kind: 'unsettled'; record?: FileRecord }
  /** Written just now, and what was read looks like its start (mid-write.ts CUT_SHORT): read again after the run's one wait (`readCutAgain`). */
  | { kind: 'cut'; file: ScannedFile; waitMs: number; round: number }
  | { kind: 'outcome'; record: FileRecord; status: 'skipped' | 'failed'; reason: string }
  | { kind: 'send'; record: FileRecord; drafts: EpisodeDraft[] }
  | { kind: 'version'; record: FileRecord; drafts: EpisodeDraft[]; isNew: boolean; signing?: boolean }
  | { kind: 'rename'; record: FileRecord; from: string; drafts?: EpisodeDraft[] };

/** Files prepared at once: enough to keep the disk and the CPU busy, few enough to bound the memory of bodies in flight. */
const PREPARE_CONCURRENCY = 8;

export async function planRun(input: PlanInput): Promise<Plan> {
  const { state, scan } = input;
  // A few files at a time: reading one waits on the disk, hashing and parsing the next use the CPU
  // meanwhile. Verdicts keep the scan's order (ids, renames and counts do not depend on timing).
  const verdicts = new Array<{ id: string; verdict: Verdict }>(scan.files.length);
  await runPool(scan.files, PREPARE_CONCURRENCY, async (file, index) => {
    const id = fileRecordId(file.source, file.relPath);
    verdicts[index] = { id, verdict: await assessFile(input, id, file, state.files[id]) };
  });
  await readCutAgain(input, verdicts);
  const plan: Plan = {
    put: [],
    drop: [],
    retire: [],
    outgoing: new Map(),
    counts: { added: 0, updated: 0, signed: 0, deleted: 0, unchanged: 0, resumed: 0, renamed: 0 },
    actions: [],
    problems: scan.problems.map((p) => ({ id: fileRecordId(p.source, p.relPath), reason: p.reason, message: p.message })),
    changed: false,
    events: [],
  };
  let deleted = settleRemovals(input, verdicts, plan);
  // Gone while a save moved it aside (mid-write.ts MID_WRITE): back after the wait, it is read as any note.
  const back = await backAfterSettling(input, deleted);
  if (back.length > 0) {
    deleted = deleted.filter((record) => !back.some((b) => b.record === record));
    const copies = copiesOfNotesBack(input, back);
    for (let i = verdicts.length - 1; i >= 0; i--) if (copies.has(verdicts[i]!.id) && verdicts[i]!.verdict.kind !== 'rename') verdicts.splice(i, 1);
    for (const { record, file } of back) verdicts.push({ id: record.id, verdict: await assessFile(input, record.id, file, record, 1) });
  }
  await runPool(
    verdicts.filter((entry) => entry.verdict.kind === 'rename' && entry.verdict.record.episodes.some((ref) => ref.sentAt === undefined)),
    PREPARE_CONCURRENCY,
    async (entry) => {
      entry.verdict = await resumeRenamed(input, entry.verdict as Verdict & { kind: 'rename' });
    },
  );
  for (const { id, verdict } of verdicts) foldVerdict(plan, id, verdict);
  for (const record of deleted) {
    const refs = [...record.episodes, ...record.superseded];
    if (input.config.deleteRemoved) plan.retire.push(...refs);
    plan.drop.push(record.id);
    plan.counts.deleted++;
    plan.actions.push({ id: record.id, action: 'delete' });
    plan.events.push({ message: 'file deleted', data: { id: record.id, episodes: refs.length, deleteEpisodes: input.config.deleteRemoved } });
  }
  return plan;
}

/** Writes a plan into the state: the only place planning's decisions reach it. */
export function applyPlan(state: SyncState, plan: Plan): void {
  for (const record of plan.put) state.files[record.id] = record;
  for (const id of plan.drop) delete state.files[id];
  state.orphans.push(...plan.retire);
}

/** A file whose mtime and size are as recorded is not read again: nothing in it can be new to send. */
export function sameStat(record: Pick<FileRecord, 'mtimeMs' | 'size'>, file: Pick<ScannedFile, 'mtimeMs' | 'size'>): boolean {
  return record.mtimeMs === file.mtimeMs && record.size === file.size;
}

/** `round`: how many settle waits this file has had in this run (mid-write.ts MID_WRITE, STABLE_READ). */
async function assessFile(input: PlanInput, id: string, file: ScannedFile, existing: FileRecord | undefined, round = 0): Promise<Verdict> {
  const { config, force, nowIso } = input;
  let base = existing;
  if (force && base !== undefined && base.status === 'failed' && base.episodes.length > 0) base = freshAttempts(base);
  const reset = base !== existing;
  const needsDrafts = base !== undefined && base.episodes.some((e) => e.sentAt === undefined && e.uuid === undefined);
  const source = input.sources.find((s) => s.name === file.source);
  // Sent before this machine's key was in place: re-sent once, signed, so its other machines can pull it (note-signing.ts).
  const unsigned = base !== undefined && input.signer?.unsigned(source, file, base) === true;
  // What pull wrote into the file, unless this machine sent an edit of it since (state/pulled.ts
  // `sentOverPulled`): the file holding that text again (a revert) is then this machine's own version.
  const found = input.pulledFiles?.get(file.absPath);
  const pulled = found !== undefined && !sentOverPulled(found, base) ? found : undefined;
  // One text sent by two files as their own: this file's copy gives way to the one processed first
  // (pull/decide.ts `give-way`); its episodes are retracted although this machine sent that very text.
  const givesWay = pulled?.gaveWay === true && base !== undefined && base.hash === pulled.hash && (base.episodes.length > 0 || base.status !== 'skipped');
  if (base !== undefined && !force && !needsDrafts && !unsigned && !givesWay && sameStat(base, file)) {
    return { kind: 'unchanged', ...(reset ? { record: base } : {}), changed: false };
  }
  const outcome = (status: 'skipped' | 'failed', reason: string, hash?: string, retract = false): Verdict => ({
    kind: 'outcome',
    record: outcomeRecord(id, file, base, status, reason, nowIso, hash, retract),
    status,
    reason,
  });
  if (file.size > config.maxFileBytes) return outcome('skipped', `too-large: ${file.size} bytes is over MADEINOZ_KNOWLEDGE_MAX_FILE_BYTES (${config.maxFileBytes}): ${FAILED_FILE_STEPS.tooLarge}`);
  const read = await readMemoryFile(file.absPath);
  if (read.kind === 'gone') return { kind: 'gone', ...(reset ? { record: base as FileRecord } : {}) };
  if (read.kind === 'failed') return outcome('failed', read.reason);
  // Written while it was read (mid-write.ts STABLE_READ): read again once settled, until it holds still.
  if (read.kind === 'torn') return round < MID_WRITE_ROUNDS ? assessSettled(input, id, file, existing, MID_WRITE_SETTLE_MS, round + 1) : { kind: 'unsettled', ...(reset ? { record: base as FileRecord } : {}) };
  const { raw, hash } = read;
  // Caught while it was being saved (mid-write.ts MID_WRITE): read again once it has settled, once.
  const wait = round > 0 ? undefined : midWriteWait({ bytes: raw.length, scannedSize: file.size, mtimeMs: file.mtimeMs, hasEpisodes: (base?.episodes.length ?? 0) > 0, now: (input.now ?? Date.now)() });
  if (wait !== undefined) return assessSettled(input, id, file, existing, wait, round + 1);
  // Written just now and looking like its start (mid-write.ts CUT_SHORT): read again after the run's one wait.
  const cut = round > 0 ? undefined : cutShortWait(raw, read.mtimeMs, (input.now ?? Date.now)());
  if (cut !== undefined) return { kind: 'cut', file, waitMs: cut, round: round + 1 };
  // A copy `pull` wrote, untouched: it is in the graph already as the other machine's episode (issue 42).
  // Skipped, and this machine's own older version of it retracted: the pulled one replaced it.
  // (Our own sent version that pull remembered has the record's hash: it is not a pulled copy.)
  if (pulled?.hash === hash && (base?.hash !== hash || givesWay)) return outcome('skipped', pulled.gaveWay ? GAVE_WAY : PULLED_COPY, hash, true);
  if (base?.failedVersion !== undefined) {
    // The older version was sent again after this text could not be stored (restore.ts): not retried until the file changes or --force.
    if (!force && base.failedVersion.hash === hash) return restoredVersion(input, base, file);
    base = { ...base, hash: undefined }; // a new text (or --force): a new version replaces the restored one
  }
  if (base !== undefined && base.hash === hash && !needsDrafts && !unsigned) {
    // Same content (touched, or --force): nothing to send; keep status, refresh metadata.
    base = { ...base, mtimeMs: file.mtimeMs, size: file.size };
    // --force goes on to rebuild the episodes: a changed group moves them (see below).
    if (!force || base.status === 'skipped' || base.status === 'failed') return { kind: 'unchanged', record: base, changed: true };
  }
  // The same text as the current parts (their bodies rebuilt, or moved by --force): the same version in its tag.
  const sameText = base !== undefined && base.hash === hash && !unsigned;
  const tagger = input.signer?.tagFor(source, file, base?.noteTag, sameText);
  const currentOrigin = source === undefined ? config.origin : originFor(source, file.relPath);
  if (base !== undefined && sameText && base.episodes.length > 0) {
    // Built under the file id and origin the parts' markers carry (prepare.ts versionIdentity: kept
    // across a rename): a part still to send goes out under its own marker.
    const { fileId, origin } = versionIdentity(base, currentOrigin);
    const same = prepareEpisodes(config, file, fileId, origin, raw, hash, tagger);
    if (same.kind === 'episodes' && base.episodes.length === same.drafts.length && base.episodes.every((e) => e.groupId === same.groupId)) {
      if (base.episodes.every((e) => e.sentAt !== undefined)) return { kind: 'unchanged', record: base, changed: true };
      // Same version still waiting to be sent (outbox): rebuild its bodies, keep its refs. Only
      // bodies under the parts' own markers can be sent (part-feed.ts); others would leave them unsent for good.
      if (draftsMatchParts(base.episodes, same.drafts)) return { kind: 'send', record: base, drafts: same.drafts };
    }
  }
  // A new version takes the file's current ownership (a source declared shared since is shared from its next version on).
  const fileId = source === undefined ? (base?.fileId ?? fileIdOf(file.source, file.relPath)) : fileIdFor(source, file.relPath);
  const prepared = prepareEpisodes(config, file, fileId, currentOrigin, raw, hash, tagger);
  if (prepared.kind === 'skipped') return outcome('skipped', prepared.reason, hash, prepared.retract);
  if (prepared.kind === 'failed') return outcome('failed', prepared.reason, hash);
  const { drafts, redactions } = prepared;
  // The same content again, now with its tag: the old parts retire like an older version's.
  const signing = unsigned && base?.hash === hash;
  const record: FileRecord = {
    id,
    source: file.source,
    kind: file.kind,
    relPath: file.relPath,
    ...(file.project === undefined ? {} : { project: file.project }),
    fileId,
    hash,
    mtimeMs: file.mtimeMs,
    size: file.size,
    status: 'pending',
    episodes: drafts.map((d) => ({ marker: d.marker, name: d.name, groupId: d.groupId, part: d.part, parts: d.parts, probe: searchProbe(d.body), resends: 0 })),
    superseded: base === undefined ? [] : [...base.superseded, ...(signing ? base.episodes.map((e): EpisodeRef => ({ ...e, unsigned: true })) : base.episodes)],
    attempts: 0,
    redactions: totalRedactions(redactions),
    warnings: prepared.warnings,
    firstSeenAt: base?.firstSeenAt ?? nowIso,
    updatedAt: nowIso,
    ...(tagger === undefined ? {} : { noteTag: { version: tagger.version, parent: tagger.parent, project: tagger.project } }),
  };
  const isNew = base === undefined || (base.episodes.length === 0 && base.superseded.length === 0 && base.hash === undefined);
  return { kind: 'version', record, drafts, isNew, signing };
}

/**
 * The notes of `gone` whose folder changed within the settle time, looked for again once it has
 * passed (one wait for all of them): those there again, as the scan would have found them.
 */
async function backAfterSettling(input: PlanInput, gone: readonly FileRecord[]): Promise<Array<{ record: FileRecord; file: ScannedFile }>> {
  const now = (input.now ?? Date.now)();
  const candidates: Array<{ record: FileRecord; absPath: string }> = [];
  let waitMs = 0;
  for (const record of gone) {
    const root = input.sources.find((s) => s.name === record.source)?.root;
    if (root === undefined) continue;
    const absPath = join(root, ...record.relPath.split('/'));
    const wait = goneMidWriteWait(await stat(dirname(absPath)).then((st) => st.mtimeMs, () => undefined), now);
    if (wait === undefined) continue;
    candidates.push({ record, absPath });
    waitMs = Math.max(waitMs, wait);
  }
  if (candidates.length === 0) return [];
  await (input.sleep ?? ((ms: number) => realSleep(ms, input.signal)))(waitMs);
  const back: Array<{ record: FileRecord; file: ScannedFile }> = [];
  for (const { record, absPath } of candidates) {
    const st = await stat(absPath).catch(() => undefined);
    // Back only under its own spelling: on a disk that folds names (util/file-identity.ts), a note
    // renamed by case alone is found under its old name too, and would be kept under both.
    if (st === undefined || !st.isFile() || !(await listedAs(absPath))) continue;
    back.push({ record, file: { source: record.source, kind: record.kind, relPath: record.relPath, absPath, mtimeMs: st.mtimeMs, size: st.size, ...(record.project === undefined ? {} : { project: record.project }) } });
  }
  return back;
}

/**
 * CONFLICT_COPY_ALONE (memory/conflict-copy.ts) across MID_WRITE: the scan took a conflict copy for
 * the only text left of its note while the note was between the two steps of a save (moved aside,
 * written anew). The note back after the wait, the copy is left out as a scan then would have left
 * it: a new file, it is not recorded nor sent (sent, it was live knowledge, and a linked machine's
 * pull wrote it, until the next run deleted it). The ids of such copies.
 */
function copiesOfNotesBack(input: PlanInput, back: ReadonlyArray<{ record: FileRecord }>): Set<string> {
  const notes = new Set(back.map(({ record }) => record.id));
  const copies = new Set<string>();
  for (const file of input.scan.files) {
    const slash = file.relPath.lastIndexOf('/');
    const original = conflictOriginalName(file.relPath.slice(slash + 1));
    if (original === undefined) continue;
    const id = fileRecordId(file.source, file.relPath);
    if (input.state.files[id] === undefined && notes.has(fileRecordId(file.source, `${file.relPath.slice(0, slash + 1)}${original}`))) copies.add(id);
  }
  return copies;
}

/**
 * CUT_SHORT (mid-write.ts): the notes read just after a write that looks cut short, read again after
 * one wait for them all (the longest any of them needs, at most MID_WRITE_SETTLE_MS), then taken as
 * they are: the run waits once however many notes were being written.
 */
async function readCutAgain(input: PlanInput, verdicts: Array<{ id: string; verdict: Verdict }>): Promise<void> {
  const cut = verdicts.filter((entry) => entry.verdict.kind === 'cut');
  if (cut.length === 0) return;
  await (input.sleep ?? ((ms: number) => realSleep(ms, input.signal)))(Math.max(...cut.map((entry) => (entry.verdict as Verdict & { kind: 'cut' }).waitMs)));
  await runPool(cut, PREPARE_CONCURRENCY, async (entry) => {
    const { file, round } = entry.verdict as Verdict & { kind: 'cut' };
    entry.verdict = await assessSettled(input, entry.id, file, input.state.files[entry.id], 0, round);
  });
}

/** A file caught mid-write (mid-write.ts), assessed again from a fresh stat after `waitMs` (its `round`-th wait); gone meanwhile, the next run sees the deletion. */
async function assessSettled(input: PlanInput, id: string, file: ScannedFile, existing: FileRecord | undefined, waitMs: number, round: number): Promise<Verdict> {
  if (waitMs > 0) await (input.sleep ?? ((ms: number) => realSleep(ms, input.signal)))(waitMs);
  let st;
  try {
    st = await stat(file.absPath);
  } catch {
    return { kind: 'gone' };
  }
  return assessFile(input, id, { ...file, mtimeMs: st.mtimeMs, size: st.size }, existing, round);
}

/** A file whose older version was restored (restore.ts): its parts are sent from their kept text until confirmed. */
async function restoredVersion(input: PlanInput, base: FileRecord, file: ScannedFile): Promise<Verdict> {
  const record = { ...base, mtimeMs: file.mtimeMs, size: file.size };
  const unsent = record.episodes.filter((ref) => ref.sentAt === undefined && ref.uuid === undefined);
  if (unsent.length === 0) return { kind: 'unchanged', record, changed: !sameStat(base, file) };
  const drafts = await keptDrafts(input.config.stateDir, unsent);
  if (drafts === undefined) return { kind: 'unchanged', record, changed: true };
  return { kind: 'send', record, drafts: [...drafts.values()] };
}

/** --force gives a file the server rejected or kept dropping a fresh set of attempts. */
function freshAttempts(record: FileRecord): FileRecord {
  const copy = structuredClone(record);
  copy.status = 'pending';
  copy.attempts = 0;
  for (const ref of copy.episodes) {
    ref.resends = 0;
    if (ref.uuid === undefined) {
      delete ref.sentAt;
      delete ref.sendOrder;
      delete ref.queuedOrder;
      delete ref.queuedAt;
    }
  }
  return copy;
}

/** A file that will not be sent (skipped or failed); `retract` also retires its episodes. */
function outcomeRecord(id: string, file: ScannedFile, base: FileRecord | undefined, status: 'skipped' | 'failed', reason: string, nowIso: string, hash: string | undefined, retract: boolean): FileRecord {
  const record: FileRecord = base === undefined
    ? {
        id,
        source: file.source,
        kind: file.kind,
        relPath: file.relPath,
        ...(file.project === undefined ? {} : { project: file.project }),
        fileId: fileIdOf(file.source, file.relPath),
        mtimeMs: file.mtimeMs,
        size: file.size,
        status,
        episodes: [],
        superseded: [],
        attempts: 0,
        firstSeenAt: nowIso,
        updatedAt: nowIso,
      }
    : { ...base };
  record.mtimeMs = file.mtimeMs;
  record.size = file.size;
  record.status = status;
  record.updatedAt = nowIso;
  if (hash !== undefined) record.hash = hash;
  if (status === 'skipped') {
    record.skipReason = reason;
    delete record.lastError;
  } else {
    record.lastError = reason;
    delete record.skipReason;
  }
  if (retract && record.episodes.length > 0) {
    record.superseded = [...record.superseded, ...record.episodes];
    record.episodes = [];
  }
  return record;
}

/**
 * Records not seen this scan: renamed (a new file has the same content) or deleted. A rename turns
 * the new file's verdict into `rename`; the deleted records are returned. A source folder that is
 * missing or could not be read must not look like a mass deletion.
 */
function settleRemovals(input: PlanInput, verdicts: Array<{ id: string; verdict: Verdict }>, plan: Plan): FileRecord[] {
  const seen = new Set(verdicts.map((v) => v.id));
  const scannedSources = new Set(input.sources.filter((s) => existsSync(s.root)).map((s) => s.name));
  const byHash = new Map<string, { entry: { verdict: Verdict }; planned: Verdict & { kind: 'version' } }>();
  for (const entry of verdicts) if (entry.verdict.kind === 'version' && entry.verdict.isNew) byHash.set(entry.verdict.record.hash as string, { entry, planned: entry.verdict });
  const deleted: FileRecord[] = [];
  for (const record of Object.values(input.state.files)) {
    if (seen.has(record.id) || !scannedSources.has(record.source)) continue;
    // Under a folder the scan could not use (its root included: relPath ''), a file is unknown, not gone.
    if (isUnderProblem(record.source, record.relPath, input.scan.problems)) continue;
    // In a project folder left out (auto memory off there: MEMORY_OFF_LEFT_OUT), a file is unseen, not gone.
    const source = input.sources.find((s) => s.name === record.source);
    if (source !== undefined && inLeftOutProject(source, record.relPath)) continue;
    plan.changed = true;
    const renamedTo = record.hash === undefined ? undefined : byHash.get(record.hash);
    if (renamedTo !== undefined && record.status !== 'failed' && record.status !== 'skipped' && sameGroups(record, renamedTo.planned.record) && !signedPathMoves(input, renamedTo.planned.record)) {
      byHash.delete(record.hash as string);
      const { entry, planned } = renamedTo;
      const moved: FileRecord = {
        ...record,
        id: planned.record.id,
        source: planned.record.source,
        kind: planned.record.kind,
        relPath: planned.record.relPath,
        ...(planned.record.project === undefined ? {} : { project: planned.record.project }),
        mtimeMs: planned.record.mtimeMs,
        size: planned.record.size,
        updatedAt: input.nowIso,
      };
      // Parts still unsent get their bodies after this (resumeRenamed): not those just built for the
      // new name, whose markers carry the new name's file id.
      entry.verdict = { kind: 'rename', record: moved, from: record.id };
      plan.drop.push(record.id);
      continue;
    }
    deleted.push(record);
  }
  return deleted;
}

/**
 * A move keeps the record's episodes only where they already are: in the group the file belongs to
 * now. A note moved to another project's memory (`{project}` groups) or another source is in the
 * graph as the old group's: kept, the new project's searches and session context would never find
 * it. Such a move is what it is for the graph: the old episodes deleted, the note added in its group.
 */
function sameGroups(record: FileRecord, moved: FileRecord): boolean {
  const groups = new Set(moved.episodes.map((ref) => ref.groupId));
  return record.episodes.every((ref) => groups.has(ref.groupId));
}

/**
 * A file renamed before every part of its version went out: the rest goes out from the new name,
 * under the markers its parts carry (the file id kept across the rename, prepare.ts versionIdentity),
 * so its bodies are built again under them. No bodies when the file changed since the scan (or cannot
 * be read): the record stays pending with its parts unsent, and the next run plans it.
 */
async function resumeRenamed(input: PlanInput, verdict: Verdict & { kind: 'rename' }): Promise<Verdict> {
  const drafts = await rebuildDrafts(input.config, input.sources, verdict.record, undefined, input.signer);
  return drafts === undefined ? verdict : { ...verdict, drafts: [...drafts.values()] };
}

/**
 * A note this machine signs names its path in its tag (memory/note-tag.ts): renamed in place, its
 * episodes would still carry the old name, so the person's other machines would keep the note under
 * it and bring it back here with their next edit (a second copy beside the renamed one). Such a
 * rename is sent as what it is for them: the old name deleted, the new one added.
 */
function signedPathMoves(input: PlanInput, renamed: FileRecord): boolean {
  if (input.signer === undefined) return false;
  const source = input.sources.find((s) => s.name === renamed.source);
  return input.signer.tagFor(source, renamed) !== undefined;
}

/**
 * Skipped files reported with the run's problems, as failed ones are: the user's note is not in
 * the graph, and only they can change that (a too-large file: split it or raise the limit). The
 * other skips are the user's own choice or ours to make (empty, opt-out, a pulled copy, a loop).
 */
const REPORTED_SKIPS: ReadonlySet<string> = new Set(['too-large']);

/** A verdict reason's kind: `too-large: 5000 bytes …` → `too-large`. */
function reasonOf(reason: string): string {
  return reason.split(':')[0] ?? reason;
}

function foldVerdict(plan: Plan, id: string, verdict: Verdict): void {
  if (verdict.kind !== 'unchanged' || verdict.changed) plan.changed = true;
  switch (verdict.kind) {
    case 'gone':
      if (verdict.record !== undefined) plan.put.push(verdict.record);
      return;
    case 'cut':
      return; // never here: readCutAgain has read it again
    case 'unsettled':
      if (verdict.record !== undefined) plan.put.push(verdict.record);
      plan.events.push({ message: 'file still being written', data: { id, rounds: MID_WRITE_ROUNDS } });
      return;
    case 'unchanged':
      if (verdict.record !== undefined) plan.put.push(verdict.record);
      plan.counts.unchanged++;
      return;
    case 'outcome':
      plan.put.push(verdict.record);
      plan.actions.push({ id, action: verdict.status === 'skipped' ? 'skip' : 'fail' });
      if (verdict.status === 'failed' || REPORTED_SKIPS.has(reasonOf(verdict.reason))) plan.problems.push({ id, reason: reasonOf(verdict.reason), message: verdict.reason });
      plan.events.push({ message: verdict.status === 'skipped' ? 'file skipped' : 'file failed', data: { id, reason: verdict.reason } });
      return;
    case 'send':
      plan.put.push(verdict.record);
      plan.outgoing.set(id, { record: verdict.record, drafts: draftsByMarker(verdict.drafts) });
      plan.actions.push({ id, action: 'send' });
      // Not new, not changed, and not "unchanged" either: its sending is still to finish.
      plan.counts.resumed++;
      return;
    case 'version':
      plan.put.push(verdict.record);
      plan.outgoing.set(id, { record: verdict.record, drafts: draftsByMarker(verdict.drafts) });
      plan.actions.push({ id, action: verdict.isNew ? 'add' : verdict.signing === true ? 'sign' : 'update' });
      plan.counts[verdict.isNew ? 'added' : verdict.signing === true ? 'signed' : 'updated']++;
      return;
    case 'rename':
      plan.put.push(verdict.record);
      if (verdict.drafts !== undefined) plan.outgoing.set(id, { record: verdict.record, drafts: draftsByMarker(verdict.drafts) });
      plan.actions.push({ id, action: 'rename' });
      plan.counts.renamed++;
      plan.events.push({ message: 'file renamed', data: { from: verdict.from, to: id } });
      return;
  }
}
