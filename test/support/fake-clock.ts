/**
 * A manual clock: timers run only when the test advances time. The watch state machine runs on it,
 * and `sync --wait` against a test server whose queue shares it (SyncOptions `sleep`, the server's
 * `clock` option).
 */
import type { Clock, TimerHandle } from '../../src/lib/watch/scheduler.js';

export async function flushMicrotasks(): Promise<void> {
  for (let i = 0; i < 20; i++) await Promise.resolve();
}

export class FakeClock implements Clock {
  t = 0;
  private seq = 0;
  private readonly timers = new Map<number, { at: number; fn: () => void }>();

  now(): number {
    return this.t;
  }
  setTimeout(fn: () => void, ms: number): TimerHandle {
    const id = ++this.seq;
    this.timers.set(id, { at: this.t + Math.max(0, ms), fn });
    return id;
  }
  clearTimeout(handle: TimerHandle): void {
    this.timers.delete(handle as number);
  }
  /** Number of timers waiting. */
  get pending(): number {
    return this.timers.size;
  }
  /** Due times of waiting timers, relative to now. */
  get dueIn(): number[] {
    return [...this.timers.values()].map((t) => t.at - this.t).sort((a, b) => a - b);
  }
  /** The advance running now: another one starts where it ends (`advance`). */
  private advancing: Promise<void> = Promise.resolve();

  /**
   * Advances time by `ms`, running every timer that falls due (in order) and flushing promises after
   * each. Advances asked for while one runs (a run's sleep and a server's reply time, say) run one
   * after another, each from where the one before ended: interleaved, one would set the time back.
   */
  advance(ms: number): Promise<void> {
    const run = this.advancing.then(() => this.advanceNow(ms));
    this.advancing = run.catch(() => undefined);
    return run;
  }

  private async advanceNow(ms: number): Promise<void> {
    const end = this.t + ms;
    for (;;) {
      let next: [number, { at: number; fn: () => void }] | undefined;
      for (const entry of this.timers) if (entry[1].at <= end && (next === undefined || entry[1].at < next[1].at)) next = entry;
      if (next === undefined) break;
      this.timers.delete(next[0]);
      this.t = next[1].at;
      next[1].fn();
      await flushMicrotasks();
    }
    this.t = end;
    await flushMicrotasks();
  }
}
