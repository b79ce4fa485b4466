/**
 * When watch mode runs a sync pass: the debounce / backoff / confirmation state machine.
 *
 * Pure logic over an injectable clock, so it can be tested with fake passes and fake time.
 *
 * - `notify()` marks the tree dirty and (re)arms a trailing debounce of `debounceMs`; a steady
 *   stream of events still gets a pass at least every `maxDebounceMs`. Events while a pass runs
 *   only set the dirty flag: passes never overlap, and the next one is debounced after it ends.
 * - A pass may start only when `canStart()` says so (no file is still being written); if it may
 *   not, it starts as soon as `writesSettled()` is called.
 * - Server outage (a pass reports `serverReachable: false`, or pending work plus a server
 *   error): exponential backoff with jitter (1 s → 60 s), then a retry pass, until it recovers.
 *   New events during an outage do not shorten the backoff (the outbox keeps them).
 * - Lock busy (LockTimeoutError from the pass): retry with backoff, the dirty flag kept.
 * - Anything `queued` (sent, not yet visible) or `pending` after a healthy pass: one follow-up
 *   confirmation pass, when the engine's listing schedule says the next listing is due
 *   (`summary.nextListingInMs`, sync/schedule.ts: the same rule as the hooks' worker and
 *   `sync --wait`), else with its own backoff (2 s → 60 s); a change resets it. Nothing queued →
 *   no timer at all.
 * - Other errors: reported, retried with backoff; errors judged fatal end the watch.
 * - `stop()` cancels the timer, aborts the in-flight pass through its AbortSignal and waits for
 *   it to finish (the engine saves its state in a finally block).
 *
 * Size: PassScheduler is one state machine (idle → debouncing → settling → syncing → backoff or
 * confirm-wait) over an injected clock; split, its transitions would be spread over files.
 */
import type { SyncSummary } from '../sync/types.js';
import { backoffDelay as spreadDelay } from '../util/backoff.js';

export type TimerHandle = unknown;

export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

export interface BackoffPolicy {
  initialMs: number;
  maxMs: number;
  /** Multiplier per attempt. Default 2. */
  factor?: number;
  /** ± fraction of random spread. Default 0.2. */
  jitter?: number;
}

export const DEFAULT_SERVER_BACKOFF: BackoffPolicy = { initialMs: 1_000, maxMs: 60_000 };
export const DEFAULT_CONFIRM_BACKOFF: BackoffPolicy = { initialMs: 2_000, maxMs: 60_000 };
export const DEFAULT_LOCK_BACKOFF: BackoffPolicy = { initialMs: 1_000, maxMs: 30_000 };
export const DEFAULT_ERROR_BACKOFF: BackoffPolicy = { initialMs: 2_000, maxMs: 60_000 };
/** Bounds of a confirmation pass set by the engine's listing schedule. */
/**
 * Errors that end the watch instead of being retried: the state folder is a newer version's or
 * another tool's (StateConflictError), or the package was replaced under the watch
 * (PackageChangedError, watch/pass-process.ts). Both need a start of the right version.
 */
const FATAL_ERRORS: ReadonlySet<string | undefined> = new Set(['StateConflictError', 'PackageChangedError']);

const MIN_SCHEDULED_CONFIRM_MS = 250;
const MAX_SCHEDULED_CONFIRM_MS = 10 * 60_000;

/** Delay before attempt `attempt` (1-based) of a backoff policy (util/backoff.ts, spread ± jitter). */
export function backoffDelay(policy: BackoffPolicy, attempt: number, random: () => number = Math.random): number {
  const jitter = policy.jitter ?? 0.2;
  return spreadDelay({ initialMs: policy.initialMs, maxMs: policy.maxMs, ...(policy.factor === undefined ? {} : { factor: policy.factor }), low: 1 - jitter, high: 1 + jitter }, attempt, random);
}

export type PassReason = 'initial' | 'change' | 'retry' | 'confirm';
export type BackoffReason = 'server' | 'lock' | 'error' | 'confirm';
export type SchedulerPhase = 'idle' | 'debouncing' | 'settling' | 'syncing' | 'backoff' | 'confirm-wait' | 'stopped';

export interface PassStartInfo {
  pass: number;
  reason: PassReason;
}
export interface PassDoneInfo extends PassStartInfo {
  summary: SyncSummary;
  durationMs: number;
}
export interface BackoffInfo {
  reason: BackoffReason;
  delayMs: number;
  attempt: number;
  message?: string;
}

export interface SchedulerHooks {
  onPassStart?(info: PassStartInfo): void;
  onPass?(info: PassDoneInfo): void;
  onBackoff?(info: BackoffInfo): void;
  onError?(error: unknown, info: { fatal: boolean; pass: number }): void;
  onPhase?(phase: SchedulerPhase): void;
  /** A fatal error ended the watch: the owner should stop with this exit code. */
  onFatal?(error: unknown): void;
}

export interface SchedulerOptions {
  debounceMs: number;
  /** Longest a pass is delayed by a steady stream of events. Default max(10 × debounce, 5 s). */
  maxDebounceMs?: number;
  runPass(signal: AbortSignal, reason: PassReason): Promise<SyncSummary>;
  /** False while a file is still being written. Default: always true. */
  canStart?(): boolean;
  clock?: Clock;
  random?: () => number;
  serverBackoff?: BackoffPolicy;
  confirmBackoff?: BackoffPolicy;
  lockBackoff?: BackoffPolicy;
  errorBackoff?: BackoffPolicy;
  isLockBusy?(error: unknown): boolean;
  isFatal?(error: unknown): boolean;
  hooks?: SchedulerHooks;
}

function errorName(error: unknown): string | undefined {
  return error instanceof Error ? error.name : undefined;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

type TimerKind = 'debounce' | 'retry' | 'confirm';

export class PassScheduler {
  private readonly clock: Clock;
  private readonly random: () => number;
  private readonly maxDebounceMs: number;
  private dirty = false;
  private firstDirtyAt: number | undefined;
  private timer: { handle: TimerHandle; kind: TimerKind; at: number } | undefined;
  private running: Promise<void> | undefined;
  private controller: AbortController | undefined;
  private waitingForWrites = false;
  /** A pass is owed because the last one failed (server, lock, error). */
  private retryOwed = false;
  private stopped = false;
  private readonly failures = { server: 0, lock: 0, error: 0 };
  private confirmRound = 0;
  private phaseNow: SchedulerPhase = 'idle';
  private passCount = 0;
  private lastSummaryValue: SyncSummary | undefined;

  constructor(private readonly options: SchedulerOptions) {
    this.clock = options.clock ?? systemClock;
    this.random = options.random ?? Math.random;
    this.maxDebounceMs = options.maxDebounceMs ?? Math.max(options.debounceMs * 10, 5_000);
  }

  get phase(): SchedulerPhase {
    return this.phaseNow;
  }
  get passes(): number {
    return this.passCount;
  }
  get isDirty(): boolean {
    return this.dirty;
  }
  get lastSummary(): SyncSummary | undefined {
    return this.lastSummaryValue;
  }
  /** What the single timer is waiting for, if any (for status display and tests). */
  get pendingTimer(): { kind: TimerKind; inMs: number } | undefined {
    return this.timer === undefined ? undefined : { kind: this.timer.kind, inMs: Math.max(0, this.timer.at - this.clock.now()) };
  }
  get isRunning(): boolean {
    return this.running !== undefined;
  }

  /** Runs the first pass now. */
  start(): void {
    if (this.stopped || this.running !== undefined) return;
    this.dirty = true;
    this.launch('initial');
  }

  /** Something changed on disk. */
  notify(): void {
    if (this.stopped) return;
    this.dirty = true;
    this.firstDirtyAt ??= this.clock.now();
    if (this.running !== undefined) return; // scheduled when the pass ends
    if (this.timer?.kind === 'retry') return; // keep the backoff; the retry pass takes the change along
    this.armDebounce();
  }

  /** The write stabilizer has nothing pending any more. */
  writesSettled(): void {
    if (this.stopped || !this.waitingForWrites || this.running !== undefined || this.timer !== undefined) return;
    this.fire();
  }

  /** Cancels timers, aborts the running pass and waits for it to end. Idempotent. */
  async stop(reason: unknown = new Error('watch stopped')): Promise<void> {
    if (!this.stopped) {
      this.stopped = true;
      this.clearTimer();
      this.controller?.abort(reason);
      this.setPhase('stopped');
    }
    await this.running;
  }

  private setPhase(phase: SchedulerPhase): void {
    if (this.phaseNow === phase) return;
    if (this.phaseNow === 'stopped') return;
    this.phaseNow = phase;
    this.options.hooks?.onPhase?.(phase);
  }

  private clearTimer(): void {
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer.handle);
    this.timer = undefined;
  }

  private setTimer(kind: TimerKind, ms: number): void {
    this.clearTimer();
    const handle = this.clock.setTimeout(() => {
      if (this.timer?.handle !== handle) return;
      this.timer = undefined;
      this.fire();
    }, ms);
    this.timer = { handle, kind, at: this.clock.now() + ms };
  }

  private armDebounce(): void {
    const now = this.clock.now();
    const first = this.firstDirtyAt ?? now;
    const delay = Math.max(0, Math.min(this.options.debounceMs, first + this.maxDebounceMs - now));
    this.setTimer('debounce', delay);
    this.setPhase('debouncing');
  }

  private fire(): void {
    if (this.stopped || this.running !== undefined) return;
    if (this.options.canStart !== undefined && !this.options.canStart()) {
      this.waitingForWrites = true;
      this.setPhase('settling');
      return;
    }
    this.waitingForWrites = false;
    this.launch(this.retryOwed ? 'retry' : this.dirty ? 'change' : 'confirm');
  }

  private launch(reason: PassReason): void {
    const wasDirty = this.dirty;
    this.dirty = false;
    this.firstDirtyAt = undefined;
    this.clearTimer();
    const pass = ++this.passCount;
    const controller = new AbortController();
    this.controller = controller;
    this.options.hooks?.onPassStart?.({ pass, reason });
    this.setPhase('syncing');
    const started = this.clock.now();
    this.running = (async () => {
      try {
        let summary: SyncSummary;
        try {
          summary = await this.options.runPass(controller.signal, reason);
        } catch (error) {
          this.running = undefined;
          this.afterError(error, pass, wasDirty, controller.signal.aborted);
          return;
        }
        this.running = undefined;
        this.lastSummaryValue = summary;
        this.options.hooks?.onPass?.({ pass, reason, summary, durationMs: this.clock.now() - started });
        this.afterPass(summary, reason, wasDirty);
      } finally {
        this.running = undefined;
        if (this.controller === controller) this.controller = undefined;
      }
    })();
  }

  private afterPass(summary: SyncSummary, reason: PassReason, wasDirty: boolean): void {
    if (this.stopped) return;
    this.failures.lock = 0;
    this.failures.error = 0;
    const outage = !summary.serverReachable || (summary.pending > 0 && summary.serverError !== undefined);
    if (outage) {
      this.failures.server++;
      this.retryOwed = true;
      const delayMs = backoffDelay(this.options.serverBackoff ?? DEFAULT_SERVER_BACKOFF, this.failures.server, this.random);
      this.setTimer('retry', delayMs);
      this.options.hooks?.onBackoff?.({ reason: 'server', delayMs, attempt: this.failures.server, message: summary.serverError ?? 'server unreachable' });
      this.setPhase('backoff');
      return;
    }
    this.failures.server = 0;
    this.retryOwed = false;
    if (wasDirty || reason === 'initial' || reason === 'change') this.confirmRound = 0;
    if (this.dirty) {
      // Events that arrived during the pass: a fresh window from now (a burst may still be going on).
      this.firstDirtyAt = this.clock.now();
      this.armDebounce();
      return;
    }
    if (summary.queued > 0 || summary.pending > 0) {
      this.confirmRound++;
      // The engine's listing schedule (sync/schedule.ts) says when the answer can have changed;
      // the back-off clock only covers work with nothing to list (unsent parts).
      const scheduled = summary.nextListingInMs;
      const delayMs = scheduled !== undefined ? Math.min(MAX_SCHEDULED_CONFIRM_MS, Math.max(MIN_SCHEDULED_CONFIRM_MS, scheduled)) : backoffDelay(this.options.confirmBackoff ?? DEFAULT_CONFIRM_BACKOFF, this.confirmRound, this.random);
      this.setTimer('confirm', delayMs);
      this.options.hooks?.onBackoff?.({ reason: 'confirm', delayMs, attempt: this.confirmRound });
      this.setPhase('confirm-wait');
      return;
    }
    this.confirmRound = 0;
    this.setPhase('idle');
  }

  private afterError(error: unknown, pass: number, wasDirty: boolean, aborted: boolean): void {
    if (this.stopped || aborted) return;
    // The pass did not consume the changes it was started for.
    if (wasDirty) this.dirty = true;
    const isLockBusy = this.options.isLockBusy ?? ((e: unknown) => errorName(e) === 'LockTimeoutError');
    const isFatal = this.options.isFatal ?? ((e: unknown) => FATAL_ERRORS.has(errorName(e)));
    if (isFatal(error)) {
      this.options.hooks?.onError?.(error, { fatal: true, pass });
      this.stopped = true;
      this.clearTimer();
      this.setPhase('stopped');
      this.options.hooks?.onFatal?.(error);
      return;
    }
    this.retryOwed = true;
    if (isLockBusy(error)) {
      this.failures.lock++;
      const delayMs = backoffDelay(this.options.lockBackoff ?? DEFAULT_LOCK_BACKOFF, this.failures.lock, this.random);
      this.setTimer('retry', delayMs);
      this.options.hooks?.onBackoff?.({ reason: 'lock', delayMs, attempt: this.failures.lock, message: messageOf(error) });
      this.setPhase('backoff');
      return;
    }
    this.failures.error++;
    this.options.hooks?.onError?.(error, { fatal: false, pass });
    const delayMs = backoffDelay(this.options.errorBackoff ?? DEFAULT_ERROR_BACKOFF, this.failures.error, this.random);
    this.setTimer('retry', delayMs);
    this.options.hooks?.onBackoff?.({ reason: 'error', delayMs, attempt: this.failures.error, message: messageOf(error) });
    this.setPhase('backoff');
  }
}
