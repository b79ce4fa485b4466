/**
 * "Is this file still being written?" — a size+mtime stability check for watch mode.
 *
 * After an add/change event a file is tracked until its size and mtime have not changed for
 * `thresholdMs` (checked by stat every `pollMs`), or until `maxWaitMs` has passed (a file that is
 * written to forever must not block syncing forever). While anything is tracked the scheduler
 * does not start a pass, so no pass reads a file half-written. Compared with chokidar's
 * `awaitWriteFinish`, this also looks at mtime (a same-size rewrite) and tells the scheduler when
 * everything has settled. One timer for all tracked files, and none when nothing is tracked.
 */
import { stat } from 'node:fs/promises';
import { systemClock, type Clock, type TimerHandle } from './scheduler.js';

export interface FileSignature {
  size: number;
  mtimeMs: number;
}

export interface StabilizerOptions {
  /** Unchanged for this long = written. 0 = no check (every file counts as written at once). */
  thresholdMs: number;
  /** Stat interval. Default max(10, thresholdMs / 2). */
  pollMs?: number;
  /** Give up waiting for a file after this long. Default max(30 s, 10 × threshold). */
  maxWaitMs?: number;
  clock?: Clock;
  stat?: (path: string) => Promise<FileSignature | undefined>;
  /** Called when a file is judged written (or vanished). */
  onSettled?: (path: string, outcome: 'stable' | 'timeout' | 'gone') => void;
  /** Called when the last tracked file settles. */
  onDrained?: () => void;
}

interface Entry {
  first: number;
  lastChange: number;
  sig: FileSignature | undefined;
  polled: boolean;
}

async function statSignature(path: string): Promise<FileSignature | undefined> {
  try {
    const st = await stat(path);
    return { size: st.size, mtimeMs: st.mtimeMs };
  } catch {
    return undefined;
  }
}

export class WriteStabilizer {
  private readonly entries = new Map<string, Entry>();
  private readonly clock: Clock;
  private readonly pollMs: number;
  private readonly maxWaitMs: number;
  private timer: TimerHandle | undefined;
  private polling = false;
  private closed = false;

  constructor(private readonly options: StabilizerOptions) {
    this.clock = options.clock ?? systemClock;
    this.pollMs = options.pollMs ?? Math.max(10, Math.floor(options.thresholdMs / 2));
    this.maxWaitMs = options.maxWaitMs ?? Math.max(30_000, options.thresholdMs * 10);
  }

  /** Number of files still being written. */
  get size(): number {
    return this.entries.size;
  }

  has(path: string): boolean {
    return this.entries.has(path);
  }

  /** The file was added or changed. */
  track(path: string): void {
    if (this.closed) return;
    if (this.options.thresholdMs <= 0) {
      this.options.onSettled?.(path, 'stable');
      if (this.entries.size === 0) this.options.onDrained?.();
      return;
    }
    const now = this.clock.now();
    const entry = this.entries.get(path);
    if (entry !== undefined) entry.lastChange = now;
    else this.entries.set(path, { first: now, lastChange: now, sig: undefined, polled: false });
    this.schedule();
  }

  /** The file was removed: stop waiting for it. */
  forget(path: string): void {
    if (!this.entries.delete(path)) return;
    if (this.entries.size === 0) {
      this.cancel();
      this.options.onDrained?.();
    }
  }

  close(): void {
    this.closed = true;
    this.entries.clear();
    this.cancel();
  }

  private cancel(): void {
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
  }

  private schedule(): void {
    if (this.timer !== undefined || this.polling || this.closed || this.entries.size === 0) return;
    this.timer = this.clock.setTimeout(() => {
      this.timer = undefined;
      void this.poll();
    }, this.pollMs);
  }

  private async poll(): Promise<void> {
    if (this.closed) return;
    this.polling = true;
    const statFn = this.options.stat ?? statSignature;
    const paths = [...this.entries.keys()];
    const sigs = await Promise.all(paths.map((p) => statFn(p)));
    this.polling = false;
    if (this.closed) return;
    const now = this.clock.now();
    let settledAny = false;
    paths.forEach((path, i) => {
      const entry = this.entries.get(path);
      if (entry === undefined) return;
      const sig = sigs[i];
      if (sig === undefined) {
        this.entries.delete(path);
        settledAny = true;
        this.options.onSettled?.(path, 'gone');
        return;
      }
      if (entry.sig === undefined || entry.sig.size !== sig.size || entry.sig.mtimeMs !== sig.mtimeMs) {
        if (entry.sig !== undefined) entry.lastChange = now;
        entry.sig = sig;
      }
      const wasPolled = entry.polled;
      entry.polled = true;
      if (wasPolled && now - entry.lastChange >= this.options.thresholdMs) {
        this.entries.delete(path);
        settledAny = true;
        this.options.onSettled?.(path, 'stable');
      } else if (now - entry.first >= this.maxWaitMs) {
        this.entries.delete(path);
        settledAny = true;
        this.options.onSettled?.(path, 'timeout');
      }
    });
    if (this.entries.size > 0) this.schedule();
    else if (settledAny) this.options.onDrained?.();
  }
}
