/**
 * Graphiti's ingestion worker: one FIFO queue per group, processed one item at a time after
 * `processingDelayMs` (a macrotask when 0) on the server's clock (options.ts `clock`), pausable,
 * and forgotten on restart (no persistence).
 */
import { systemClock, type Clock, type TimerHandle } from '../../../src/lib/watch/scheduler.js';
import type { QueueItem } from './records.js';

type Timer = { kind: 'clock'; clock: Clock; handle: TimerHandle } | { kind: 'immediate'; handle: NodeJS.Immediate };

export class IngestQueue {
  private readonly queues = new Map<string, QueueItem[]>();
  private readonly running = new Set<string>();
  private readonly timers = new Set<Timer>();
  private pending = 0;
  private paused = false;
  private idleWaiters: Array<() => void> = [];

  constructor(
    private readonly delayMs: () => number,
    /** The server's clock, read when an item is scheduled (a test may set it after the server started). */
    private readonly clock: () => Clock,
    /** Runs one item; a throw still counts it as finished. */
    private readonly process: (item: QueueItem) => void,
  ) {}

  /** Items enqueued and not yet finished (processed, failed or dropped). */
  get pendingCount(): number {
    return this.pending;
  }

  enqueue(item: QueueItem): void {
    this.pending += 1;
    let q = this.queues.get(item.groupId);
    if (!q) {
      q = [];
      this.queues.set(item.groupId, q);
    }
    q.push(item);
    if (!this.running.has(item.groupId)) this.scheduleNext(item.groupId);
  }

  /** Holds every worker before its next item (items already waiting out their delay still run). */
  pause(): void {
    this.paused = true;
  }

  resume(): void {
    this.paused = false;
    for (const groupId of [...this.queues.keys()]) if (!this.running.has(groupId)) this.scheduleNext(groupId);
  }

  private scheduleNext(groupId: string): void {
    if (this.paused) {
      this.running.delete(groupId);
      return;
    }
    const q = this.queues.get(groupId);
    const item = q?.shift();
    if (!q || !item) {
      this.running.delete(groupId);
      this.queues.delete(groupId);
      return;
    }
    this.running.add(groupId);
    const delay = Math.max(0, this.delayMs());
    const clock = this.clock();
    let timer: Timer;
    const run = () => {
      this.timers.delete(timer);
      try {
        this.process(item);
      } finally {
        this.pending -= 1;
        this.scheduleNext(groupId);
        this.checkIdle();
      }
    };
    // On a test's fake clock even a 0 delay waits for that clock to move.
    timer = delay > 0 || clock !== systemClock ? { kind: 'clock', clock, handle: clock.setTimeout(run, delay) } : { kind: 'immediate', handle: setImmediate(run) };
    this.timers.add(timer);
  }

  /** Resolves once every group queue is drained (immediately when nothing is pending). */
  whenIdle(): Promise<void> {
    if (this.pending === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private checkIdle(): void {
    if (this.pending !== 0) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const w of waiters) w();
  }

  /** A restart: queued-but-unprocessed episodes are lost (no persistence in Graphiti). Returns how many. */
  dropQueues(): number {
    for (const t of this.timers) {
      if (t.kind === 'clock') t.clock.clearTimeout(t.handle);
      else clearImmediate(t.handle);
    }
    this.timers.clear();
    const lost = this.pending;
    this.queues.clear();
    this.running.clear();
    this.pending = 0;
    this.checkIdle();
    return lost;
  }
}
