/**
 * What `pull` wrote (issue 42), in the state folder as `pulled.json` (0600): read by `pull`
 * (what it wrote, to tell an untouched copy from an edit), by the sync (a pulled copy, untouched,
 * is already in the graph as the other machine's episode: it is not sent again, and the version
 * this machine's own edit builds on is named in its tag), and by `status` (the conflicts).
 *
 * - `notes`: per file (its absolute path), the note it holds (`<project id>:<path>`), the version
 *   written there, the content hash of the bytes written (memory/hash.ts), the machine it came from.
 *   Keyed by file, not by note: one note can be in two memory folders of this machine (two clones
 *   of a repository, a checkout moved to a new path: Claude Code keeps a folder per path), and what
 *   is known of one file says nothing of the other (a copy missing from a new folder is not a
 *   deletion of the note).
 * - `copies`: the other side of a conflict, written beside the local note; the sync leaves them
 *   alone while untouched (they are in the graph already), `status` lists them until removed.
 * - `held`: notes of projects not mapped on this machine, kept until the project is opened
 *   here (or written with `pull --to`).
 * Beside it, `pulled.writing.jsonl`: each file a pull is writing, journaled before it is written
 * (`PendingWrites`), folded in and removed when the pull writes the ledger.
 * Changed only by `pull`, under the state lock.
 */
import { existsSync } from 'node:fs';
import { mkdir, open, readFile, unlink, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { contentHashOf } from '../memory/hash.js';
import type { CheckoutRecord } from './checkout-ids.js';
import type { Lock } from './lock.js';
import { writeFileAtomic } from '../util/fs-atomic.js';
import { isRecord } from '../util/json.js';
import { emptiedLedgerFormat, futureFormat, PULLED_VERSION, pulledFormatFor } from './format.js';
import type { FileRecord } from './types.js';

export const PULLED_FILE = 'pulled.json';

export interface PulledNote {
  project: string;
  path: string;
  version: number;
  /**
   * Content hash of the file as it was when pull last agreed with it (memory/hash.ts contentHashOf):
   * what pull wrote, or this machine's own sent version; '' when the local file is the user's
   * (a conflict copy went beside it). `version` is then still the newest one seen here: an edit
   * made here once the copy is deleted builds on it (its tag's parent: `parentVersion`).
   */
  hash: string;
  /** Absolute path written. */
  file: string;
  origin: string;
  redacted: boolean;
  pulledAt: string;
  /** The group its episodes are in (absence is judged only where that group was listed). */
  group: string;
  /**
   * The version is this machine's own, from another of its files holding the note (another clone of
   * the repository, a checkout's old path): a pulled copy like one from another machine, never this
   * file's own note (`pulledFiles`), though its origin is this machine's.
   */
  sibling?: true;
  /**
   * The file holds, untouched, a text another file's copy holds too (another machine's, another
   * clone's), and that copy was processed first (pull/incoming.ts `firstOfText`): this file's own
   * copy of the text gives way. The sync retracts its episodes of that text although it sent them
   * itself (`pulledFiles`), and the graph holds the note once.
   */
  gaveWay?: true;
  /**
   * The note's `MEMORY.md` line (pull/memory-index.ts), present from the write's journal entry until
   * the line is written: a pull killed between the note and its line leaves it, and the next pull
   * writes the line (a note Claude Code's index does not list is not loaded into any session).
   */
  indexLine?: IndexLine;
  /**
   * When pull first found no version of the note in its listed group (ISO time), while that has
   * lasted less than the group's patience (sync/pace.ts `absenceSettled`): an edit elsewhere on a
   * break-before-make server leaves the graph without the note until its new version is processed.
   * Cleared when a version is seen again; the copy goes once the absence has lasted the patience.
   */
  missingSince?: string;
  /**
   * When pull found the note's group emptied behind our back (pull.ts EMPTIED_GROUP: none of the
   * notes pull knew there listed any more), ISO time. While set, the note's absence is not judged,
   * also in later pulls that see the group written to again (a new note there makes it no longer
   * look emptied, but this note's episodes were lost with the rest, not deleted elsewhere). Cleared
   * when a version of the note is seen again (`sync --force` sent it back).
   */
  emptiedSince?: string;
  /** The mark came from the first listing of another server (SERVER_OF_RECORD), not from a wipe: taken off once the note's writer writes there (pull/writer-back.ts MOVED_NOTE_WRITER_BACK). */
  emptiedByMove?: true;
}

/** A pull's start (ISO) and the system's uptime and boot then (sync/clock-jump.ts `RunMark`). */
export interface PullMark {
  startedAt: string;
  clock: { uptimeMs: number; bootId?: string };
}

export interface IndexLine {
  memoryDir: string;
  path: string;
  title: string;
  description?: string;
}

export interface ConflictCopy {
  project: string;
  path: string;
  /** The local note that was kept. */
  file: string;
  /** The other version, written beside it. */
  copy: string;
  hash: string;
  origin: string;
  version: number;
  reason: 'both-changed' | 'redacted' | 'private' | 'same-name-here' | 'deleted-elsewhere';
  at: string;
  /**
   * A `same-name-here` copy's `MEMORY.md` line (pull/pull.ts LISTED_COPY): the copy is another note,
   * not a side of a conflict to merge. Kept while the copy is there; `listed` once written (a pull
   * killed between the copy and its line leaves it unset: the next pull writes the line).
   */
  indexLine?: IndexLine;
  listed?: true;
}

export interface HeldNote {
  project: string;
  path: string;
  version: number;
  origin: string;
  redacted: boolean;
  /** The note as it would be written. */
  text: string;
}

/**
 * A file `pull` is about to write, journaled (`pulled.writing.jsonl`, fsynced) before the file is: a
 * pull killed halfway (after some files, before its ledger) would otherwise leave notes nothing
 * knows pull wrote, which the next sync (the worker syncs before it pulls) sends as this machine's
 * own: the other machine's note doubled in the graph, and taken there for an edit made here.
 * `readPulled` settles the journal; the next `writePulled` folds it in and removes it.
 */
export interface PendingWrite {
  /** The file written: the note, or its conflict copy. */
  target: string;
  /** Content hash (memory/hash.ts) of what is written there. */
  hash: string;
  /** The note's entry once written. */
  note: PulledNote;
  /** A conflict copy's entry. */
  copy?: ConflictCopy;
}

export const PULLED_WRITING_FILE = 'pulled.writing.jsonl';

/**
 * Appends each write to the journal before it is made: O(the write), where the ledger is O(every note).
 * Each entry is appended only while the state lock is ours, read then (state/lock.ts
 * LOCK_PROVEN_AT_WRITE): the write it announces follows it, and a pull that lost the lock makes neither.
 */
export class PendingWrites {
  private handle: FileHandle | undefined;

  constructor(
    private readonly stateDir: string,
    private readonly lock: Lock,
  ) {}

  async add(write: PendingWrite): Promise<void> {
    this.lock.prove();
    if (this.handle === undefined) {
      await mkdir(this.stateDir, { recursive: true, mode: 0o700 });
      this.handle = await open(join(this.stateDir, PULLED_WRITING_FILE), 'a', 0o600);
    }
    await this.handle.write(`${JSON.stringify(write)}\n`);
    await this.handle.datasync();
  }

  async close(): Promise<void> {
    const handle = this.handle;
    this.handle = undefined;
    await handle?.close().catch(() => undefined);
  }
}

export interface PulledLedger {
  /** By absolute file path (`PulledNote.file`). */
  notes: Record<string, PulledNote>;
  copies: ConflictCopy[];
  held: Record<string, HeldNote>;
  /** The id each checkout here went by when last pulled, by its root (state/checkout-ids.ts: kept across a rename on the host). */
  checkouts: Record<string, CheckoutRecord>;
  /**
   * The last pull's start and the system's clock then (sync/clock-jump.ts): the next pull tells a
   * forward jump of the wall clock from time passing, and an absence (`missingSince`) keeps only the
   * real time it lasted (ABSENCE_AFTER_JUMP). Absent before it existed, or on an injected clock.
   */
  lastPull?: PullMark;
  /** The server the last complete listing came from (pull/server-of-record.ts SERVER_OF_RECORD). */
  server?: string;
}

export function noteId(project: string, path: string): string {
  return `${project}:${path}`;
}

export function emptyLedger(): PulledLedger {
  return { notes: {}, copies: [], held: {}, checkouts: {} };
}

/**
 * The ledger, with the writes of a pull that stopped halfway settled; empty when none was written yet or the file is unreadable (pull then treats every local note as the user's).
 * Throws StateConflictError (state/format.ts) when a newer build wrote it.
 */
export async function readPulled(stateDir: string): Promise<PulledLedger> {
  const ledger = await readLedger(stateDir);
  await settleWrites(ledger, await readPendingWrites(stateDir));
  return ledger;
}

async function readLedger(stateDir: string): Promise<PulledLedger> {
  let text: string;
  try {
    text = await readFile(join(stateDir, PULLED_FILE), 'utf8');
  } catch {
    return emptyLedger();
  }
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return emptyLedger();
  }
  // A newer build's ledger is not "none": read as empty, every pulled copy here would be sent as
  // this machine's own note (the other machine's episode doubled) and the ledger written over.
  // Written as EMPTIED_PULLED_VERSION by this build (format.ts EMPTIED_NEEDS_NEWER_LEDGER): the same shape, read as PULLED_VERSION.
  const newer = isRecord(v) && v.tool === 'graphiti-memory-sync' && !emptiedLedgerFormat(v) ? futureFormat({ path: join(stateDir, PULLED_FILE), what: 'The pull ledger', version: v.version, compatibleWith: v.compatibleWith }, PULLED_VERSION) : undefined;
  if (newer !== undefined) throw newer;
  try {
    if (!isRecord(v) || v.tool !== 'graphiti-memory-sync' || !isRecord(v.notes) || !Array.isArray(v.copies) || !isRecord(v.held)) return emptyLedger();
    // Keyed by file (a ledger written before was keyed by note id: one file per note).
    const notes: Record<string, PulledNote> = {};
    for (const n of Object.values(v.notes)) if (isRecord(n) && typeof n.file === 'string') notes[n.file] = n as unknown as PulledNote;
    const checkouts: Record<string, CheckoutRecord> = {};
    if (isRecord(v.checkouts)) for (const [root, c] of Object.entries(v.checkouts)) if (isRecord(c) && typeof c.id === 'string' && typeof c.seen === 'string') checkouts[root] = c as unknown as CheckoutRecord;
    const lastPull = pullMarkOf(v.lastPull);
    return { notes, copies: v.copies as ConflictCopy[], held: v.held as Record<string, HeldNote>, checkouts, ...(lastPull === undefined ? {} : { lastPull }), ...(typeof v.server === 'string' ? { server: v.server } : {}) };
  } catch {
    return emptyLedger();
  }
}

/** The journal's entries, up to a torn last line (a kill mid-append). */
async function readPendingWrites(stateDir: string): Promise<unknown[]> {
  let text: string;
  try {
    text = await readFile(join(stateDir, PULLED_WRITING_FILE), 'utf8');
  } catch {
    return [];
  }
  const out: unknown[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      out.push(JSON.parse(line));
    } catch {
      break;
    }
  }
  return out;
}

/**
 * The journal of a pull that stopped before it wrote its ledger: each file that holds what it was
 * about to write there is pull's (untouched); any other (never written, or changed since: the
 * person's) is not.
 */
async function settleWrites(ledger: PulledLedger, writing: readonly unknown[]): Promise<void> {
  for (const w of writing) {
    if (!isRecord(w) || typeof w.target !== 'string' || typeof w.hash !== 'string' || !isRecord(w.note) || typeof w.note.file !== 'string') continue;
    let hash: string;
    try {
      hash = contentHashOf(await readFile(w.target));
    } catch {
      continue;
    }
    if (hash !== w.hash) continue;
    ledger.notes[w.note.file] = w.note as unknown as PulledNote;
    const copy = isRecord(w.copy) && typeof w.copy.copy === 'string' ? (w.copy as unknown as ConflictCopy) : undefined;
    if (copy !== undefined) ledger.copies = [...ledger.copies.filter((c) => c.copy !== copy.copy), copy];
  }
}

/** A recorded run mark, or undefined where it is not one (a mark that cannot be read only means no jump is told). */
function pullMarkOf(v: unknown): PullMark | undefined {
  if (!isRecord(v) || typeof v.startedAt !== 'string' || !isRecord(v.clock)) return undefined;
  const { uptimeMs, bootId } = v.clock;
  if (typeof uptimeMs !== 'number' || !Number.isFinite(uptimeMs) || (bootId !== undefined && typeof bootId !== 'string')) return undefined;
  return { startedAt: v.startedAt, clock: { uptimeMs, ...(bootId === undefined ? {} : { bootId }) } };
}

/**
 * Writes the ledger, then removes the journal of writes it now holds; with `lock`, only while it is
 * ours, read then (LOCK_PROVEN_AT_WRITE): a pull that lost it would write over the new holder's
 * ledger and remove its journal. Without: a caller that holds no lock (tests of the format).
 */
export async function writePulled(stateDir: string, ledger: PulledLedger, lock: Lock | undefined): Promise<void> {
  lock?.prove();
  await writeFileAtomic(join(stateDir, PULLED_FILE), `${JSON.stringify({ tool: 'graphiti-memory-sync', version: pulledFormatFor(Object.values(ledger.notes)), ...ledger })}\n`, { mode: 0o600, mkdirMode: 0o700 });
  await unlink(join(stateDir, PULLED_WRITING_FILE)).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT') throw error;
  });
}

/** What the sync reads of a file pull wrote (or took for another file's copy). */
export interface PulledCopy {
  /** The content hash written (or found): a file with it now is untouched. */
  hash: string;
  /** This machine's own copy of that text gives way (`PulledNote.gaveWay`). */
  gaveWay: boolean;
  /** The version of the note pull wrote (or took the file for); absent for a conflict copy (another path, another note). */
  version?: number;
}

/**
 * Files pull wrote from another machine, by absolute path → the content hash written: a file with
 * that hash now is an untouched pulled copy. Entries of this machine's own versions (`ours`) are
 * left out, except one written from another of its files (`sibling`: another clone's edit): such a file is this machine's note, whatever the sync's state says (after a lost state
 * it must be adopted as ours, never taken for someone else's copy and retracted).
 */
export function pulledFiles(ledger: PulledLedger, ours: ReadonlySet<string>): Map<string, PulledCopy> {
  const out = new Map<string, PulledCopy>();
  for (const n of Object.values(ledger.notes)) if (!ours.has(n.origin) || n.sibling === true) out.set(n.file, { hash: n.hash, gaveWay: n.gaveWay === true, version: n.version });
  for (const c of ledger.copies) out.set(c.copy, { hash: c.hash, gaveWay: false });
  return out;
}

/**
 * Whether this machine sent, from the file, a version of its own built on the copy pull wrote there
 * (its tag's parent is that copy's version or later: an edit made here since the pull), so that
 * version may be in the graph. Sent, it is the note's newest version: the other machine takes it at
 * its next pull and deletes its own copy (pull/decide.ts), which this machine cannot see happen. The
 * pulled text is then no longer known to be in the graph: a file holding it again (the edit reverted
 * before the next pull records it) is this machine's own new version, sent as one, never an
 * untouched pulled copy whose own versions are retracted, which would leave the note in the graph
 * nowhere (and the next pulls, finding no version, remove the untouched copies on both machines).
 * A version sent before the pull (what the pull wrote over) names an older parent: not this.
 * Parts only queued count (the server may have processed them since); a version never sent does not:
 * nothing of it reached the graph, the other machine kept its copy.
 */
export function sentOverPulled(copy: PulledCopy, record: Pick<FileRecord, 'noteTag' | 'episodes' | 'superseded'> | undefined): boolean {
  if (copy.version === undefined || record?.noteTag === undefined || record.noteTag.parent < copy.version) return false;
  return [...record.episodes, ...record.superseded].some((e) => e.sentAt !== undefined || e.uuid !== undefined);
}

/**
 * The version an edit of `file` builds on (the parent in its note tag, memory/note-tag.ts): the
 * newest version pull wrote into it or saw of it, except a version only put beside it as a conflict
 * copy that is still there. Until the person deletes the copy (merged, or dismissed) nothing of it is
 * in the note: an edit made meanwhile (the hooks' next sync sends it) builds on what came before.
 * Claiming the copy's version would make the machine that wrote it take this edit for its successor
 * and write it over its own version there, which then survived only in this machine's copy.
 */
export function parentVersion(ledger: PulledLedger, file: string, exists: (path: string) => boolean = existsSync): number {
  let parent = ledger.notes[file]?.version ?? 0;
  for (const c of ledger.copies) if (c.file === file && c.version <= parent && exists(c.copy)) parent = Math.max(0, c.version - 1);
  return parent;
}

