/**
 * The sync engine: memory files on disk → Graphiti episodes, exactly once.
 *
 * One run = scan → plan → reconcile with the server → send → delete → (optionally) wait
 * for confirmation, all under the cross-process state lock.
 *
 * Why it is shaped like this:
 * - `add_memory` only queues and Graphiti drops failures silently, so a reply proves
 *   nothing. Every episode carries a marker in its source_description; an episode counts
 *   as delivered only once `get_episodes` shows that marker (status `confirmed`).
 * - Graphiti never deduplicates episodes, so before anything is sent we list the group and
 *   adopt an episode that already carries the marker (crash after send, lost state), and
 *   when a marker shows up twice we delete the extra copies.
 * - The state file is saved before a request goes out (the part is "in flight") and after
 *   its reply, so a kill at any moment leaves a state that the next run can finish.
 * - A server that is down leaves work `pending`: that is the outbox; nothing is dropped.
 */
import { readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import type { Config } from './config.js';
import { normalizeGroupId, projectGroupId } from './escape.js';
import { GraphitiClient, type Episode } from './graphiti.js';
import { contentHashOf, fileIdOf } from './hash.js';
import { describeOwner, withLock, type Lock, type LockOwner } from './lock.js';
import { nullLogger, type Logger } from './log.js';
import { McpError, McpNetworkError } from './mcp/errors.js';
import { buildEpisodes, parseMarker, type EpisodeDraft } from './memory/episode.js';
import { detectGraphitiOutput } from './memory/loop.js';
import { parseMemoryFile } from './memory/parse.js';
import { addCounts } from './memory/redact.js';
import { filterSources, resolveSources } from './memory/sources.js';
import { scanSources } from './memory/scan.js';
import type { MemorySource, ScannedFile } from './memory/types.js';
import { runPool } from './pool.js';
import { JournalAppender, loadState, saveState, type EpisodeRef, type FileRecord, type JournalEntry, type SyncState } from './state.js';

export interface SyncOptions {
  dryRun?: boolean;
  /** Re-read every file (ignore the mtime+size shortcut), retry failed files, reset resend counters. */
  force?: boolean;
  /** Only this source (`pai`, `auto-memory` or an extra source name). */
  source?: string;
  /** Send at most this many files in this run; the rest stay pending. */
  max?: number;
  /** After sending, wait up to this many ms for queued episodes to become visible. */
  waitMs?: number;
  signal?: AbortSignal;
  onProgress?: (p: { done: number; total: number; file?: string }) => void;
  lockTimeoutMs?: number;
  /** Who is syncing, recorded in the lock so a waiting process can say who holds it. */
  lockLabel?: string;
  /** Called when waiting for another process's lock (again whenever the holder changes). */
  onLockWait?: (holder: string) => void;
  logger?: Logger;
  graphiti?: GraphitiClient;
  /** Clock, for tests of age-based re-sends. */
  now?: () => number;
}

export interface SyncProblem {
  id: string;
  reason: string;
  message: string;
}

export interface SyncSummary {
  added: number;
  updated: number;
  deleted: number;
  unchanged: number;
  renamed: number;
  skipped: number;
  failed: number;
  pending: number;
  queued: number;
  confirmed: number;
  resent: number;
  duplicatesRemoved: number;
  redactions: number;
  /** The same by kind (`{ 'github-token': 1 }`): kinds and counts, never values. */
  redactionsByKind: Record<string, number>;
  problems: SyncProblem[];
  serverReachable: boolean;
  serverError?: string;
  dryRun: boolean;
  /** What a dry run would do, per file id. */
  plannedActions?: Array<{ id: string; action: 'add' | 'update' | 'delete' | 'rename' | 'skip' | 'fail' | 'send' }>;
}

interface PlannedSend {
  record: FileRecord;
  drafts: Map<string, EpisodeDraft>;
}

/** Listing cap for get_episodes: Graphiti has no pagination, so ask for plenty. */
const MIN_LISTING = 200;
const MAX_LISTING = 20_000;
/** A file that failed to queue this often (non-transient errors) is marked failed. */
const MAX_SEND_ATTEMPTS = 3;

export class SyncError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SyncError';
  }
}

export async function runSync(config: Config, options: SyncOptions = {}): Promise<SyncSummary> {
  const logger = (options.logger ?? nullLogger).child({ component: 'sync' });
  const sources = filterSources(resolveSources(config), options.source);
  if (options.dryRun === true) {
    const { state } = await loadState(config.stateDir, { readOnly: true });
    return (await new SyncRun(config, options, logger, state, sources, false).plan()).summary();
  }
  return withLock(
    config.stateDir,
    async (lock) => {
      const loaded = await loadState(config.stateDir);
      if (loaded.recovered !== undefined) {
        logger.warn('state file was corrupt; kept aside and rebuilding from the server', { ...loaded.recovered });
      }
      const run = new SyncRun(config, options, logger, loaded.state, sources, loaded.recovered !== undefined || loaded.fresh, lock);
      await run.plan();
      await run.apply();
      return run.summary();
    },
    {
      timeoutMs: options.lockTimeoutMs ?? 120_000,
      label: options.lockLabel ?? 'sync',
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      ...(options.onLockWait === undefined ? {} : { onWait: (holder: LockOwner | undefined) => options.onLockWait?.(describeOwner(holder)) }),
    },
  );
}

class SyncRun {
  private readonly now: () => number;
  private readonly startedAt: number;
  private readonly counts = { added: 0, updated: 0, deleted: 0, unchanged: 0, renamed: 0, resent: 0, duplicatesRemoved: 0, redactions: 0 };
  private readonly problems: SyncProblem[] = [];
  private readonly redactionsByKind: Record<string, number> = {};
  private readonly actions: NonNullable<SyncSummary['plannedActions']> = [];
  private readonly sends = new Map<string, PlannedSend>();
  private serverReachable = true;
  private serverError: string | undefined;
  private graphiti: GraphitiClient | undefined;
  private ownsGraphiti = false;
  private saving: Promise<void> | undefined;
  private saveAgain = false;
  private journalBuffer: JournalEntry[] = [];
  private appender: JournalAppender | undefined;
  private flushing: Promise<void> | undefined;
  /** Anything in the state changed this run (else the end of the run journals only `lastRun`). */
  private changed = false;

  constructor(
    private readonly config: Config,
    private readonly options: SyncOptions,
    private readonly logger: Logger,
    private readonly state: SyncState,
    private readonly sources: MemorySource[],
    /** State was lost or never existed: old versions of our files in the graph may be unknown to us. */
    private readonly rebuilding: boolean,
    private readonly lock?: Lock,
  ) {
    this.now = options.now ?? Date.now;
    this.startedAt = this.now();
  }

  // ---------------------------------------------------------------- plan

  async plan(): Promise<this> {
    const scan = await scanSources(this.sources, {
      exclude: this.config.exclude,
      maxFileBytes: this.config.maxFileBytes,
      ...(this.options.signal === undefined ? {} : { signal: this.options.signal }),
    });
    for (const problem of scan.problems) {
      this.problems.push({ id: `${problem.source}:${problem.relPath}`, reason: problem.reason, message: problem.message });
    }
    const seen = new Set<string>();
    const fresh: Array<{ file: ScannedFile; hash: string }> = [];
    for (const file of scan.files) {
      const id = `${file.source}:${file.relPath}`;
      seen.add(id);
      const result = await this.planFile(id, file);
      if (result !== undefined) fresh.push(result);
    }
    this.planRemovals(scan, seen, fresh);
    return this;
  }

  /** Returns the file and its hash when it is new to the state (a rename candidate). */
  private async planFile(id: string, file: ScannedFile): Promise<{ file: ScannedFile; hash: string } | undefined> {
    const existing = this.state.files[id];
    const force = this.options.force === true;
    if (force && existing !== undefined && existing.status === 'failed' && existing.episodes.length > 0) {
      // --force gives a file the server rejected or kept dropping a fresh set of attempts.
      existing.status = 'pending';
      existing.attempts = 0;
      for (const ref of existing.episodes) {
        ref.resends = 0;
        if (ref.uuid === undefined) {
          delete ref.sentAt;
          delete ref.queuedAt;
        }
      }
    }
    const needsDrafts = existing !== undefined && existing.episodes.some((e) => e.sentAt === undefined && e.uuid === undefined);
    if (existing !== undefined && !force && !needsDrafts && existing.mtimeMs === file.mtimeMs && existing.size === file.size) {
      this.counts.unchanged++;
      return undefined;
    }
    this.changed = true; // every path from here on may touch the record
    if (file.size > this.config.maxFileBytes) {
      this.setOutcome(id, file, existing, 'skipped', `too-large: ${file.size} bytes is over MADEINOZ_KNOWLEDGE_MAX_FILE_BYTES (${this.config.maxFileBytes})`);
      return undefined;
    }
    let raw: Buffer;
    try {
      raw = await readFile(file.absPath);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return undefined; // deleted between scan and read: the next run sees the deletion
      this.setOutcome(id, file, existing, 'failed', `unreadable: ${(error as Error).message}`);
      return undefined;
    }
    const hash = contentHashOf(raw);
    if (existing !== undefined && existing.hash === hash && !needsDrafts) {
      // Same content (touched, or --force): nothing to send; keep status, refresh metadata.
      existing.mtimeMs = file.mtimeMs;
      existing.size = file.size;
      // --force goes on to rebuild the episodes: a changed group moves them (see below).
      if (!force || existing.status === 'skipped' || existing.status === 'failed') {
        this.counts.unchanged++;
        return undefined;
      }
    }
    const parsed = parseMemoryFile(raw, file.relPath);
    if (!parsed.ok) {
      // An empty file is a choice, not an error; everything else the parser refuses is a failure.
      this.setOutcome(id, file, existing, parsed.reason === 'empty' ? 'skipped' : 'failed', `${parsed.reason}: ${parsed.message}`, hash, parsed.reason === 'empty');
      return undefined;
    }
    const doc = parsed.data;
    if (doc.optOut !== undefined) {
      this.setOutcome(id, file, existing, 'skipped', `opt-out: ${doc.optOut === 'private' ? 'private: true' : 'sync: false'}`, hash, true);
      return undefined;
    }
    const loop = detectGraphitiOutput(doc.body);
    if (loop !== undefined) {
      this.setOutcome(id, file, existing, 'skipped', `loop: ${loop}`, hash, true);
      return undefined;
    }
    let groupId: string;
    try {
      groupId = this.groupFor(file, doc.groupId);
    } catch (error) {
      this.setOutcome(id, file, existing, 'failed', `group-id: ${(error as Error).message}`, hash);
      return undefined;
    }
    const fileId = existing?.fileId ?? fileIdOf(file.source, file.relPath);
    const drafts = buildEpisodes({
      doc,
      source: file.source,
      kind: file.kind,
      relPath: file.relPath,
      mtimeMs: file.mtimeMs,
      ...(file.project === undefined ? {} : { project: file.project }),
      groupId,
      maxChars: this.config.maxEpisodeChars,
      fileId,
      contentHash: hash,
    });
    if (drafts.length === 0) {
      this.setOutcome(id, file, existing, 'skipped', 'empty: nothing to send after removing private blocks and footers', hash, true);
      return undefined;
    }
    const redactions = drafts.reduce((n, d) => n + d.redactions, 0);
    this.counts.redactions += redactions;
    for (const d of drafts) addCounts(this.redactionsByKind, d.redactionsByKind);

    if (existing !== undefined && existing.hash === hash && existing.episodes.length === drafts.length && existing.episodes.every((e) => e.groupId === groupId)) {
      if (existing.episodes.every((e) => e.sentAt !== undefined)) {
        this.counts.unchanged++;
        return undefined;
      }
      // Same version still waiting to be sent (outbox): rebuild its bodies, keep its refs.
      this.sends.set(id, { record: existing, drafts: new Map(drafts.map((d) => [d.marker, d])) });
      this.actions.push({ id, action: 'send' });
      return undefined;
    }
    const nowIso = new Date(this.now()).toISOString();
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
      episodes: drafts.map((d) => ({ marker: d.marker, name: d.name, groupId: d.groupId, part: d.part, parts: d.parts, resends: 0 })),
      superseded: existing === undefined ? [] : [...existing.superseded, ...existing.episodes],
      attempts: 0,
      redactions,
      warnings: doc.warnings.slice(0, 10),
      firstSeenAt: existing?.firstSeenAt ?? nowIso,
      updatedAt: nowIso,
    };
    const isNew = existing === undefined || (existing.episodes.length === 0 && existing.superseded.length === 0 && existing.hash === undefined);
    this.state.files[id] = record;
    this.sends.set(id, { record, drafts: new Map(drafts.map((d) => [d.marker, d])) });
    if (isNew) {
      this.counts.added++;
      this.actions.push({ id, action: 'add' });
      return { file, hash };
    }
    this.counts.updated++;
    this.actions.push({ id, action: 'update' });
    return undefined;
  }

  /** Records a file that will not be sent (skipped or failed); `retract` also removes its episodes from the graph. */
  private setOutcome(id: string, file: ScannedFile, existing: FileRecord | undefined, status: 'skipped' | 'failed', reason: string, hash?: string, retract = false): void {
    const nowIso = new Date(this.now()).toISOString();
    const record: FileRecord = existing ?? {
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
    };
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
      record.superseded.push(...record.episodes);
      record.episodes = [];
    }
    this.state.files[id] = record;
    this.sends.delete(id);
    this.actions.push({ id, action: status === 'skipped' ? 'skip' : 'fail' });
    if (status === 'failed') this.problems.push({ id, reason: reason.split(':')[0] ?? reason, message: reason });
    this.logger.info(status === 'skipped' ? 'file skipped' : 'file failed', { id, reason });
  }

  private planRemovals(scan: { problems: Array<{ source: string; relPath: string }> }, seen: Set<string>, fresh: Array<{ file: ScannedFile; hash: string }>): void {
    const scannedSources = new Set(this.sources.filter((s) => existsSync(s.root)).map((s) => s.name));
    // A folder we could not read must not look like a mass deletion.
    const shadowed = scan.problems.map((p) => `${p.source}:${p.relPath}`);
    const byHash = new Map<string, { file: ScannedFile; hash: string }>();
    for (const f of fresh) byHash.set(f.hash, f);
    for (const record of Object.values(this.state.files)) {
      if (seen.has(record.id) || !scannedSources.has(record.source)) continue;
      if (shadowed.some((prefix) => record.id === prefix || record.id.startsWith(`${prefix}/`))) continue;
      this.changed = true;
      const renamedTo = record.hash === undefined ? undefined : byHash.get(record.hash);
      if (renamedTo !== undefined && record.status !== 'failed' && record.status !== 'skipped') {
        this.transferRename(record, renamedTo.file);
        byHash.delete(record.hash as string);
        continue;
      }
      delete this.state.files[record.id];
      this.sends.delete(record.id);
      const refs = [...record.episodes, ...record.superseded];
      if (this.config.deleteRemoved) this.state.orphans.push(...refs);
      this.counts.deleted++;
      this.actions.push({ id: record.id, action: 'delete' });
      this.logger.info('file deleted', { id: record.id, episodes: refs.length, deleteEpisodes: this.config.deleteRemoved });
    }
  }

  /** Same content under a new name: move the record, send nothing. */
  private transferRename(old: FileRecord, file: ScannedFile): void {
    const id = `${file.source}:${file.relPath}`;
    const planned = this.state.files[id];
    if (planned === undefined) return;
    delete this.state.files[old.id];
    this.sends.delete(id);
    this.sends.delete(old.id);
    this.state.files[id] = {
      ...old,
      id,
      source: file.source,
      kind: file.kind,
      relPath: file.relPath,
      ...(file.project === undefined ? {} : { project: file.project }),
      mtimeMs: file.mtimeMs,
      size: file.size,
      updatedAt: new Date(this.now()).toISOString(),
    };
    if (old.status === 'pending') {
      // Still unsent: its bodies are those just built for the new name.
      const pendingDrafts = this.draftsFor(planned);
      if (pendingDrafts !== undefined) this.sends.set(id, { record: this.state.files[id] as FileRecord, drafts: pendingDrafts });
    }
    this.counts.added--;
    this.counts.renamed++;
    const action = this.actions.findIndex((a) => a.id === id);
    if (action >= 0) this.actions.splice(action, 1, { id, action: 'rename' });
    this.logger.info('file renamed', { from: old.id, to: id });
  }

  private draftsFor(record: FileRecord): Map<string, EpisodeDraft> | undefined {
    return this.sends.get(record.id)?.drafts;
  }

  private groupFor(file: ScannedFile, frontmatterGroup: string | undefined): string {
    const override = this.config.sourceGroups[file.source] ?? this.config.sourceGroups[file.kind];
    let group = frontmatterGroup ?? override ?? this.config.groupId;
    if (group === '{project}') {
      if (file.project === undefined) group = this.config.groupId;
      else return projectGroupId(this.config.db, file.project);
    }
    return normalizeGroupId(this.config.db, group);
  }

  // ---------------------------------------------------------------- apply

  async apply(): Promise<void> {
    try {
      const needsServer =
        this.sends.size > 0 ||
        this.state.orphans.length > 0 ||
        Object.values(this.state.files).some((r) => r.superseded.length > 0 || r.episodes.some((e) => e.uuid === undefined));
      if (!needsServer) return;
      this.changed = true;
      this.graphiti = this.options.graphiti;
      if (this.graphiti === undefined) {
        this.graphiti = new GraphitiClient(this.config, { logger: this.logger });
        this.ownsGraphiti = true;
      }
      // Parts found "in flight" from an earlier run were enqueued, if at all, before now
      // (retired ones too: their drop is judged by the same clock, see reconcile).
      const inFlight = (ref: EpisodeRef) => {
        if (ref.sentAt !== undefined && ref.uuid === undefined && ref.queuedAt === undefined) ref.queuedAt = new Date(this.startedAt).toISOString();
      };
      for (const record of Object.values(this.state.files)) for (const ref of [...record.episodes, ...record.superseded]) inFlight(ref);
      for (const ref of this.state.orphans) inFlight(ref);
      if (!(await this.reconcile(true))) return;
      await this.sendPending();
      await this.deleteRetired();
      if ((this.options.waitMs ?? 0) > 0 && this.serverReachable) await this.waitForConfirmation(this.options.waitMs ?? 0);
    } finally {
      this.state.lastRun = { startedAt: new Date(this.startedAt).toISOString(), finishedAt: new Date(this.now()).toISOString(), summary: this.countsByStatus(), redactions: { ...this.redactionsByKind } };
      if (this.changed) await this.save();
      else await this.appendToJournal([{ k: 'meta', lastRun: this.state.lastRun }]); // a no-op run costs one line, not a snapshot
      await this.appender?.close();
      if (this.ownsGraphiti) await this.graphiti?.close().catch(() => undefined);
    }
  }

  private checkLock(): void {
    // Another process took the lock over (we stalled past staleMs): writing now could clobber its work.
    if (this.lock?.lost === true) throw new SyncError('Lost the state lock to another process; stopping without writing.');
  }

  /** Journals changed records (cheap, O(record)); the next snapshot folds them in. */
  private async journal(records: FileRecord[], orphans = false): Promise<void> {
    if (this.options.dryRun === true) return;
    this.checkLock();
    const entries: JournalEntry[] = records.map((record) => ({ k: 'file', id: record.id, record }));
    if (orphans) entries.push({ k: 'orphans', orphans: this.state.orphans });
    await this.appendToJournal(entries);
  }

  /**
   * Group commit: concurrent lanes' entries share one write + fsync. A caller's promise resolves
   * once a flush that includes its entries is on disk.
   */
  private appendToJournal(entries: JournalEntry[]): Promise<void> {
    if (this.options.dryRun === true) return Promise.resolve();
    this.journalBuffer.push(...entries);
    if (this.flushing !== undefined) return this.flushing;
    this.flushing = (async () => {
      while (this.journalBuffer.length > 0) {
        const batch = this.journalBuffer.splice(0);
        this.appender ??= new JournalAppender(this.config.stateDir);
        await this.appender.append(this.state, batch);
      }
    })().finally(() => {
      this.flushing = undefined;
    });
    return this.flushing;
  }

  private async save(): Promise<void> {
    if (this.options.dryRun === true) return;
    this.checkLock();
    if (this.saving !== undefined) {
      this.saveAgain = true;
      return this.saving;
    }
    this.saving = (async () => {
      do {
        this.saveAgain = false;
        this.state.updatedAt = new Date(this.now()).toISOString();
        await saveState(this.config.stateDir, this.state);
      } while (this.saveAgain);
    })().finally(() => {
      this.saving = undefined;
    });
    return this.saving;
  }

  private markServerDown(error: unknown): void {
    if (!this.serverReachable) return;
    this.serverReachable = false;
    this.serverError = error instanceof Error ? error.message : String(error);
    this.logger.warn('server unavailable; work stays pending for the next run', { error: this.serverError });
  }

  private groupsInUse(): string[] {
    const groups = new Set<string>();
    for (const record of Object.values(this.state.files)) for (const ref of [...record.episodes, ...record.superseded]) groups.add(ref.groupId);
    for (const ref of this.state.orphans) groups.add(ref.groupId);
    return [...groups].sort();
  }

  /**
   * Lists our groups and brings the state in line with what the graph holds: confirms
   * visible parts, adopts parts already there, deletes duplicate copies, detects silent
   * drops (FIFO per group) and schedules their re-send. Returns false if the server is unreachable.
   */
  private async reconcile(initial: boolean): Promise<boolean> {
    const graphiti = this.graphiti as GraphitiClient;
    const visible = new Map<string, Episode[]>();
    const ourRefs = Object.values(this.state.files).reduce((n, r) => n + r.episodes.length + r.superseded.length, this.state.orphans.length);
    const cap = Math.min(MAX_LISTING, Math.max(MIN_LISTING, ourRefs * 2 + 100));
    for (const group of this.groupsInUse()) {
      let episodes: Episode[];
      try {
        episodes = await graphiti.getEpisodes([group], cap, this.options.signal);
      } catch (error) {
        if (error instanceof McpError && !error.retryable && error.kind !== 'tool') throw new SyncError(`Graphiti rejected get_episodes: ${error.message}`, { cause: error });
        this.markServerDown(error);
        return false;
      }
      if (episodes.length >= cap) this.logger.warn('get_episodes hit its cap; some episodes may be invisible to confirmation', { group, cap });
      for (const episode of episodes) {
        const marker = parseMarker(episode.source_description);
        if (marker === undefined) continue;
        // The marker names file and content, not the group: the same content may live in two groups.
        const key = visibleKey(group, marker.raw);
        const list = visible.get(key) ?? [];
        list.push(episode);
        visible.set(key, list);
      }
    }

    const nowIso = new Date(this.now()).toISOString();
    // Latest send time of any of our parts that is visible, per group: FIFO says anything
    // enqueued before it and still missing was dropped.
    const newestVisibleSend = new Map<string, number>();
    // When each group's queue last showed progress (one of our parts became visible). Graphiti can
    // take hours through a long backlog (one LLM-bound worker per group), so age alone is no proof
    // of a drop: only a queue that has shown no progress for confirmMaxAge is taken to have lost it.
    const lastProgress = new Map<string, number>();
    const retireList: EpisodeRef[] = [];
    const stalled = (group: string, since: number) => this.now() - Math.max(since, lastProgress.get(group) ?? 0) > this.config.confirmMaxAgeMs;

    for (const record of Object.values(this.state.files)) {
      for (const ref of record.episodes) {
        const found = visible.get(visibleKey(ref.groupId, ref.marker));
        if (found === undefined || found.length === 0) continue;
        const keep = found.find((e) => e.uuid === ref.uuid) ?? (found[0] as Episode);
        if (ref.uuid === undefined) {
          ref.uuid = keep.uuid;
          ref.confirmedAt = nowIso;
          if (ref.sentAt === undefined) ref.sentAt = nowIso; // adopted: it was already in the graph
        }
        for (const extra of found) if (extra.uuid !== keep.uuid) retireList.push({ ...ref, uuid: extra.uuid });
        visible.delete(visibleKey(ref.groupId, ref.marker));
        if (ref.confirmedAt !== undefined) {
          const t = Date.parse(ref.confirmedAt);
          if (t > (lastProgress.get(ref.groupId) ?? 0)) lastProgress.set(ref.groupId, t);
        }
        if (ref.sentAt !== undefined) {
          const t = Date.parse(ref.sentAt);
          if (t > (newestVisibleSend.get(ref.groupId) ?? 0)) newestVisibleSend.set(ref.groupId, t);
        }
      }
    }
    // Old versions and deleted files whose uuid we did not know yet.
    const resolveRetired = (refs: EpisodeRef[]) => {
      for (const ref of refs) {
        if (ref.uuid !== undefined) continue;
        const found = visible.get(visibleKey(ref.groupId, ref.marker));
        if (found === undefined || found.length === 0) continue;
        ref.uuid = (found[0] as Episode).uuid;
        for (const extra of found.slice(1)) retireList.push({ ...ref, uuid: extra.uuid });
        visible.delete(visibleKey(ref.groupId, ref.marker));
      }
    };
    for (const record of Object.values(this.state.files)) resolveRetired(record.superseded);
    resolveRetired(this.state.orphans);
    // A retired part whose uuid is still unknown has nothing to delete once it can no longer
    // appear: it was never sent (superseded or deleted before its turn), or it was sent and the
    // same FIFO / age evidence as for current parts says the server dropped it. Kept, such refs
    // stayed in the state forever and every later run (and every --wait) waited for them.
    const gone = (ref: EpisodeRef): boolean => {
      if (ref.uuid !== undefined) return false;
      if (ref.sentAt === undefined) return true;
      const since = Date.parse(ref.queuedAt ?? ref.sentAt);
      return (newestVisibleSend.get(ref.groupId) ?? 0) > since || stalled(ref.groupId, since);
    };
    for (const record of Object.values(this.state.files)) if (record.superseded.some(gone)) record.superseded = record.superseded.filter((ref) => !gone(ref));
    if (this.state.orphans.some(gone)) this.state.orphans = this.state.orphans.filter((ref) => !gone(ref));
    if (this.rebuilding) {
      // Lost state: visible versions of our current files that we no longer know about are stale.
      const current = new Map(Object.values(this.state.files).map((r) => [r.fileId, r]));
      for (const [, episodes] of visible) {
        for (const episode of episodes) {
          const marker = parseMarker(episode.source_description);
          const owner = marker === undefined ? undefined : current.get(marker.fileId);
          if (owner !== undefined && marker !== undefined && marker.hash !== owner.hash?.slice(0, marker.hash.length)) {
            retireList.push({ marker: marker.raw, name: episode.name, groupId: episode.group_id, part: marker.part, parts: marker.parts, uuid: episode.uuid, resends: 0 });
          }
        }
      }
    }
    for (const ref of retireList) {
      this.state.orphans.push(ref);
      this.counts.duplicatesRemoved++;
    }

    // Silent drops: FIFO evidence or old age → back to the outbox.
    for (const record of Object.values(this.state.files)) {
      if (record.status === 'failed' || record.status === 'skipped') continue;
      for (const ref of record.episodes) {
        if (ref.uuid !== undefined || ref.sentAt === undefined || ref.queuedAt === undefined) continue;
        const queuedAt = Date.parse(ref.queuedAt);
        const newer = newestVisibleSend.get(ref.groupId) ?? 0;
        const aged = stalled(ref.groupId, queuedAt);
        if (newer > queuedAt || aged) {
          if (ref.resends >= this.config.maxResends) {
            record.status = 'failed';
            record.lastError = `dropped: the server accepted this episode ${ref.resends + 1} times but never stored it (check the Graphiti server log for "Failed to process episode")`;
            this.problems.push({ id: record.id, reason: 'dropped', message: record.lastError });
            continue;
          }
          this.logger.warn('episode was dropped by the server; re-sending', { id: record.id, marker: ref.marker, evidence: newer > queuedAt ? 'fifo' : 'age', resends: ref.resends });
          ref.resends++;
          delete ref.sentAt;
          delete ref.queuedAt;
          this.counts.resent++;
          if (!this.sends.has(record.id)) await this.reloadDrafts(record);
        }
      }
      this.refreshStatus(record);
    }
    if (initial) await this.save();
    return true;
  }

  /** Rebuilds the bodies of a record that must be (re-)sent but was not read this run. */
  private async reloadDrafts(record: FileRecord): Promise<void> {
    const source = this.sources.find((s) => s.name === record.source);
    if (source === undefined) return;
    try {
      const raw = await readFile(`${source.root}/${record.relPath}`);
      const hash = contentHashOf(raw);
      if (hash !== record.hash) return; // changed since: the next run plans it as an update
      const parsed = parseMemoryFile(raw, record.relPath);
      if (!parsed.ok) return;
      const drafts = buildEpisodes({
        doc: parsed.data,
        source: record.source,
        kind: record.kind,
        relPath: record.relPath,
        mtimeMs: record.mtimeMs,
        ...(record.project === undefined ? {} : { project: record.project }),
        groupId: record.episodes[0]?.groupId ?? this.config.groupId,
        maxChars: this.config.maxEpisodeChars,
        fileId: record.fileId,
        contentHash: hash,
      });
      this.sends.set(record.id, { record, drafts: new Map(drafts.map((d) => [d.marker, d])) });
    } catch (error) {
      this.logger.warn('cannot re-read file for re-send', { id: record.id, error: (error as Error).message });
    }
  }

  private refreshStatus(record: FileRecord): void {
    // Failed and skipped are verdicts: only a new version of the file (or --force) lifts them.
    if (record.status === 'failed' || record.status === 'skipped') return;
    const previous = record.status;
    if (record.episodes.some((e) => e.sentAt === undefined)) record.status = 'pending';
    else if (record.episodes.some((e) => e.uuid === undefined)) record.status = 'queued';
    else {
      record.status = 'confirmed';
      if (previous !== 'confirmed') record.confirmedAt = new Date(this.now()).toISOString();
    }
  }

  private async sendPending(): Promise<void> {
    const graphiti = this.graphiti as GraphitiClient;
    let jobs = [...this.sends.values()].filter((s) => s.record.status === 'pending' && s.record.episodes.some((e) => e.sentAt === undefined));
    if (this.options.max !== undefined) jobs = jobs.slice(0, Math.max(0, this.options.max));
    const total = jobs.length;
    let done = 0;
    this.options.onProgress?.({ done, total });
    await runPool(
      jobs,
      this.config.concurrency,
      async (job) => {
        for (const ref of job.record.episodes) {
          if (ref.sentAt !== undefined || !this.serverReachable || this.options.signal?.aborted === true) continue;
          const draft = job.drafts.get(ref.marker);
          if (draft === undefined) continue;
          ref.sentAt = new Date(this.now()).toISOString();
          job.record.status = 'pending';
          await this.journal([job.record]); // in flight: a kill from here on is resolved by the next run's reconcile
          try {
            await graphiti.addMemory(
              {
                name: draft.name,
                episodeBody: draft.body,
                groupId: draft.groupId,
                source: 'text',
                sourceDescription: draft.sourceDescription,
                referenceTime: draft.referenceTime,
              },
              this.options.signal,
            );
            ref.queuedAt = new Date(this.now()).toISOString();
            job.record.queuedAt = ref.queuedAt;
            delete job.record.lastError;
          } catch (error) {
            if (mayHaveArrived(error)) {
              // The request may have been queued (timeout, reset, abort mid-flight): treat it as in
              // flight; reconcile confirms it or, on FIFO/age evidence, sends it again.
              ref.queuedAt = new Date(this.now()).toISOString();
            } else {
              delete ref.sentAt;
            }
            this.onSendError(job.record, error);
          }
          this.refreshStatus(job.record);
          job.record.updatedAt = new Date(this.now()).toISOString();
          await this.journal([job.record]);
        }
        done++;
        this.options.onProgress?.({ done, total, file: job.record.id });
      },
      () => !this.serverReachable || this.options.signal?.aborted === true,
    );
  }

  private onSendError(record: FileRecord, error: unknown): void {
    const message = error instanceof Error ? error.message : String(error);
    record.lastError = message;
    if (error instanceof McpError && (error.retryable || error.kind === 'aborted')) {
      // Transient after all retries (server down, overloaded, …): stop sending; all stays in the outbox.
      if (error.kind !== 'aborted') this.markServerDown(error);
      return;
    }
    record.attempts++;
    if (record.attempts >= MAX_SEND_ATTEMPTS) {
      record.status = 'failed';
      this.problems.push({ id: record.id, reason: 'rejected', message });
    }
    this.logger.warn('episode rejected by the server', { id: record.id, attempts: record.attempts, error: message });
  }

  /** Deletes superseded versions and episodes of deleted files once their uuid is known. */
  private async deleteRetired(): Promise<void> {
    const graphiti = this.graphiti as GraphitiClient;
    // An episode a current part holds is never deleted: after a revert (A → B → A before A's old
    // episode was deleted) or a re-created file, reconcile adopts the old episode for the current
    // part, and deleting it as retired would lose the content while the state says "confirmed".
    const current = new Set<string>();
    for (const record of Object.values(this.state.files)) for (const ref of record.episodes) if (ref.uuid !== undefined) current.add(ref.uuid);
    const remove = async (refs: EpisodeRef[]): Promise<EpisodeRef[]> => {
      const keep: EpisodeRef[] = [];
      for (const ref of refs) {
        if (ref.uuid !== undefined && current.has(ref.uuid)) continue;
        if (ref.uuid === undefined || !this.serverReachable || this.options.signal?.aborted === true) {
          keep.push(ref);
          continue;
        }
        try {
          await graphiti.deleteEpisode(ref.uuid, this.options.signal);
        } catch (error) {
          if (error instanceof McpError && error.retryable) this.markServerDown(error);
          this.logger.warn('delete_episode failed; will retry next run', { uuid: ref.uuid, error: (error as Error).message });
          keep.push(ref);
        }
      }
      return keep;
    };
    for (const record of Object.values(this.state.files)) {
      if (record.superseded.length === 0) continue;
      record.superseded = await remove(record.superseded);
      await this.journal([record]);
    }
    if (this.state.orphans.length > 0) {
      this.state.orphans = await remove(this.state.orphans);
      await this.journal([], true);
    }
  }

  /** Polls get_episodes (with backoff) until nothing is queued or `waitMs` has passed. */
  private async waitForConfirmation(waitMs: number): Promise<void> {
    const deadline = this.now() + waitMs;
    let delay = 50;
    while (this.now() < deadline && this.serverReachable && this.options.signal?.aborted !== true) {
      const waiting = Object.values(this.state.files).some((r) => r.status === 'queued' || r.status === 'pending' || r.superseded.some((s) => s.uuid === undefined));
      if (!waiting && this.state.orphans.every((o) => o.uuid !== undefined)) break;
      await new Promise((resolve) => setTimeout(resolve, Math.min(delay, Math.max(0, deadline - this.now()))));
      delay = Math.min(delay * 2, 2000);
      if (!(await this.reconcile(false))) break;
      await this.sendPending();
      await this.deleteRetired();
    }
  }

  // ---------------------------------------------------------------- summary

  private countsByStatus(): Record<'pending' | 'queued' | 'confirmed' | 'failed' | 'skipped', number> {
    // Totals cover the sources of this run (all of them unless --source narrowed it).
    const names = new Set(this.sources.map((s) => s.name));
    const out = { pending: 0, queued: 0, confirmed: 0, failed: 0, skipped: 0 };
    for (const record of Object.values(this.state.files)) if (names.has(record.source)) out[record.status]++;
    return out;
  }

  summary(): SyncSummary {
    const byStatus = this.countsByStatus();
    const result: SyncSummary = {
      added: this.counts.added,
      updated: this.counts.updated,
      deleted: this.counts.deleted,
      unchanged: this.counts.unchanged,
      renamed: this.counts.renamed,
      skipped: byStatus.skipped,
      failed: byStatus.failed,
      pending: byStatus.pending,
      queued: byStatus.queued,
      confirmed: byStatus.confirmed,
      resent: this.counts.resent,
      duplicatesRemoved: this.counts.duplicatesRemoved,
      redactions: this.counts.redactions,
      redactionsByKind: { ...this.redactionsByKind },
      problems: this.problems,
      serverReachable: this.serverReachable,
      dryRun: this.options.dryRun === true,
    };
    if (this.serverError !== undefined) result.serverError = this.serverError;
    if (this.options.dryRun === true) result.plannedActions = this.actions;
    return result;
  }
}

function visibleKey(group: string, marker: string): string {
  return `${group}\u0000${marker}`;
}

/** Errors after which the server may still have queued the episode; a refused connection or an HTTP answer says it did not. */
function mayHaveArrived(error: unknown): boolean {
  if (!(error instanceof McpError)) return false;
  if (error.kind === 'timeout' || error.kind === 'aborted') return true;
  if (error instanceof McpNetworkError) return !['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH'].includes(error.code ?? '');
  return false;
}

/** True when a run left nothing failed and nothing unsent (the CLI's exit 0). */
export function isClean(summary: SyncSummary): boolean {
  return summary.failed === 0 && summary.pending === 0 && summary.serverReachable;
}

