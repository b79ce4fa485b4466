/**
 * The one place a sync run writes the state to disk. Between snapshots each change is journaled
 * (the whole record or the whole retired list, fsynced: O(change)); a snapshot folds the journal in.
 * A dry run writes nothing; a run that lost its lock writes nothing more.
 *
 * Two ways to journal: `journal` resolves once the change is on disk (what must be durable before
 * the next step, e.g. a part in flight before its add_memory); `journalSoon` only queues it for the
 * next group commit (what a kill may lose because the next run's reconcile recovers it, e.g. the
 * reply to an add_memory), and `flush` waits for everything queued. Entries are serialized when
 * their batch starts to be written, so a batch holds the records as they were by then.
 */
import type { Lock } from '../state/lock.js';
import { JournalAppender, saveState, type FileRecord, type JournalEntry, type SyncState } from '../state/state.js';
import { SyncError } from './errors.js';

export class Ledger {
  private saving: Promise<void> | undefined;
  private saveAgain = false;
  /** Entries waiting for the next batch, and the promise that batch settles. */
  private buffer: JournalEntry[] = [];
  private nextBatch: Batch | undefined;
  /** The batch being written (one at a time: appends to one file, in order). */
  private writing: Promise<void> | undefined;
  /** A failed append may have left a torn line; nothing appended after it would replay, so every later append fails too. */
  private failure: unknown;
  private appender: JournalAppender | undefined;

  constructor(
    private readonly stateDir: string,
    private readonly state: SyncState,
    private readonly now: () => number,
    /** Undefined for a dry run: nothing is written. */
    private readonly lock: Lock | undefined,
    private readonly dryRun: boolean,
  ) {}

  /** Journals changed records and, with `orphans`, the list of parts of deleted files. */
  async journal(records: FileRecord[], orphans = false): Promise<void> {
    if (this.dryRun) return;
    this.checkLock();
    const entries: JournalEntry[] = records.map((record) => ({ k: 'file', id: record.id, record }));
    if (orphans) entries.push({ k: 'orphans', orphans: this.state.orphans });
    await this.append(entries);
  }

  /**
   * Like `journal`, without waiting: the records go out with the next group commit. For changes a
   * kill may lose (the next run recovers them); a write error surfaces at the next `journal` or `flush`.
   */
  journalSoon(records: FileRecord[]): void {
    if (this.dryRun || records.length === 0) return;
    try {
      this.checkLock();
    } catch (error) {
      this.failure ??= error;
      return;
    }
    this.append(records.map((record) => ({ k: 'file', id: record.id, record }))).catch(() => undefined); // kept in `failure`
  }

  /** Resolves once everything journaled so far is on disk. */
  async flush(): Promise<void> {
    if (this.dryRun) return;
    if (this.nextBatch !== undefined) await this.nextBatch.promise;
    else if (this.writing !== undefined) await this.writing;
    if (this.failure !== undefined) throw this.failure;
  }

  /** A run that changed nothing costs one journal line, not a snapshot. */
  async journalLastRun(): Promise<void> {
    if (this.state.lastRun !== undefined) await this.append([{ k: 'meta', lastRun: this.state.lastRun }]);
  }

  /** A new snapshot; calls made while one is being written are folded into one more write. */
  async save(): Promise<void> {
    if (this.dryRun) return;
    this.checkLock();
    if (this.saving !== undefined) {
      this.saveAgain = true;
      return this.saving;
    }
    this.saving = (async () => {
      // An append racing the snapshot could land in the journal the snapshot retires.
      await this.flush().catch(() => undefined);
      do {
        this.saveAgain = false;
        this.state.updatedAt = new Date(this.now()).toISOString();
        this.proveLock();
        await saveState(this.stateDir, this.state);
      } while (this.saveAgain);
    })().finally(() => {
      this.saving = undefined;
    });
    return this.saving;
  }

  async close(): Promise<void> {
    await this.flush().catch(() => undefined);
    await this.appender?.close();
  }

  /**
   * Whether the state lock is ours right now (read now: LOCK_PROVEN_AT_WRITE), for a write beside the
   * state that the ledger does not make (the kept texts' prune): a run that lost it leaves them as the
   * new holder has them.
   */
  holdsLock(): boolean {
    return !this.dryRun && (this.lock === undefined || this.lock.stillOurs());
  }

  private checkLock(): void {
    // Another process took the lock over (we stalled past staleMs): writing now could clobber its work.
    if (this.lock?.lost === true) throw lockLost();
  }

  /** Right before each write reaches the disk: the lock read now, not as the heartbeat last saw it (state/lock.ts LOCK_PROVEN_AT_WRITE). */
  private proveLock(): void {
    if (this.lock !== undefined && !this.lock.stillOurs()) throw lockLost();
  }

  /**
   * Group commit: entries queued while a batch is being written share the next write + fsync. A
   * caller's promise resolves once the batch holding its entries is on disk, not later batches.
   */
  private append(entries: JournalEntry[]): Promise<void> {
    if (this.dryRun) return Promise.resolve();
    if (this.failure !== undefined) return Promise.reject(this.failure);
    this.buffer.push(...entries);
    this.nextBatch ??= newBatch();
    const { promise } = this.nextBatch;
    this.writeNext();
    return promise;
  }

  private writeNext(): void {
    if (this.writing !== undefined || this.nextBatch === undefined) return;
    const batch = this.nextBatch;
    const entries = this.buffer.splice(0);
    this.nextBatch = undefined;
    this.writing = (async () => {
      try {
        if (this.failure !== undefined) throw this.failure;
        this.proveLock();
        this.appender ??= new JournalAppender(this.stateDir);
        await this.appender.append(this.state, entries);
        batch.resolve();
      } catch (error) {
        this.failure ??= error;
        batch.reject(error);
      }
    })().finally(() => {
      this.writing = undefined;
      this.writeNext();
    });
  }
}

function lockLost(): SyncError {
  return new SyncError('Lost the state lock to another process; stopping without writing.');
}

interface Batch {
  promise: Promise<void>;
  resolve: () => void;
  reject: (error: unknown) => void;
}

function newBatch(): Batch {
  let resolve!: () => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // Awaited by whoever journaled into it; a batch only `journalSoon` wrote to must not be an unhandled rejection.
  promise.catch(() => undefined);
  return { promise, resolve, reject };
}
