/**
 * The one place a sync run writes the state to disk. Between snapshots each change is journaled
 * (the whole record or the whole retired list, fsynced: O(change)); a snapshot folds the journal in.
 * A dry run writes nothing; a run that lost its lock writes nothing more.
 */
import type { Lock } from '../state/lock.js';
import { JournalAppender, saveState, type FileRecord, type JournalEntry, type SyncState } from '../state/state.js';
import { SyncError } from './errors.js';

export class Ledger {
  private saving: Promise<void> | undefined;
  private saveAgain = false;
  private buffer: JournalEntry[] = [];
  private appender: JournalAppender | undefined;
  private flushing: Promise<void> | undefined;

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
      do {
        this.saveAgain = false;
        this.state.updatedAt = new Date(this.now()).toISOString();
        await saveState(this.stateDir, this.state);
      } while (this.saveAgain);
    })().finally(() => {
      this.saving = undefined;
    });
    return this.saving;
  }

  async close(): Promise<void> {
    await this.appender?.close();
  }

  private checkLock(): void {
    // Another process took the lock over (we stalled past staleMs): writing now could clobber its work.
    if (this.lock?.lost === true) throw new SyncError('Lost the state lock to another process; stopping without writing.');
  }

  /**
   * Group commit: concurrent lanes' entries share one write + fsync. A caller's promise resolves
   * once a flush that includes its entries is on disk.
   */
  private append(entries: JournalEntry[]): Promise<void> {
    if (this.dryRun) return Promise.resolve();
    this.buffer.push(...entries);
    if (this.flushing !== undefined) return this.flushing;
    this.flushing = (async () => {
      while (this.buffer.length > 0) {
        const batch = this.buffer.splice(0);
        this.appender ??= new JournalAppender(this.stateDir);
        await this.appender.append(this.state, batch);
      }
    })().finally(() => {
      this.flushing = undefined;
    });
    return this.flushing;
  }
}
