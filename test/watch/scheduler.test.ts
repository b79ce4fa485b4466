import { describe, expect, it } from 'vitest';
import type { SyncSummary } from '../../src/lib/sync/sync.js';
import { backoffDelay, PassScheduler, type BackoffInfo, type PassReason, type SchedulerOptions } from '../../src/lib/watch/scheduler.js';
import { FakeClock, flushMicrotasks } from '../support/fake-clock.js';
import { fakeSummary as summary } from './helpers.js';


interface Deferred {
  resolve(s: SyncSummary): void;
  reject(e: unknown): void;
  signal: AbortSignal;
  reason: PassReason;
}

/** A scheduler whose passes are answered by the test (or automatically from `auto`). */
function harness(options: Partial<SchedulerOptions> = {}, auto?: () => SyncSummary | Error) {
  const clock = new FakeClock();
  const calls: Deferred[] = [];
  const backoffs: BackoffInfo[] = [];
  const passes: Array<{ reason: PassReason; summary: SyncSummary }> = [];
  const errors: unknown[] = [];
  let fatal: unknown;
  const scheduler = new PassScheduler({
    debounceMs: 500,
    clock,
    random: () => 0.5, // no jitter
    runPass: (signal, reason) =>
      new Promise<SyncSummary>((resolve, reject) => {
        calls.push({ resolve, reject, signal, reason });
        if (auto !== undefined) {
          const r = auto();
          if (r instanceof Error) reject(r);
          else resolve(r);
        }
      }),
    hooks: {
      onBackoff: (b) => backoffs.push(b),
      onPass: (p) => passes.push({ reason: p.reason, summary: p.summary }),
      onError: (e) => errors.push(e),
      onFatal: (e) => {
        fatal = e;
      },
    },
    ...options,
  });
  return { clock, scheduler, calls, backoffs, passes, errors, fatal: () => fatal };
}

function lockError(): Error {
  const e = new Error('Timed out waiting for lock');
  e.name = 'LockTimeoutError';
  return e;
}

describe('backoffDelay', () => {
  it('doubles from the initial delay up to the cap, with bounded jitter', () => {
    const policy = { initialMs: 1000, maxMs: 60_000 };
    expect([1, 2, 3, 4, 5, 6, 7, 8].map((n) => backoffDelay(policy, n, () => 0.5))).toEqual([1000, 2000, 4000, 8000, 16000, 32000, 60000, 60000]);
    for (let i = 0; i < 200; i++) {
      const d = backoffDelay(policy, 3, Math.random);
      expect(d).toBeGreaterThanOrEqual(3200);
      expect(d).toBeLessThanOrEqual(4800);
    }
    expect(backoffDelay(policy, 20, () => 1)).toBeLessThanOrEqual(60_000);
  });
});

describe('PassScheduler', () => {
  it('runs the initial pass at once and keeps no timer when all is confirmed', async () => {
    const h = harness({}, () => summary({ confirmed: 3 }));
    h.scheduler.start();
    await flushMicrotasks();
    expect(h.calls.map((c) => c.reason)).toEqual(['initial']);
    expect(h.scheduler.phase).toBe('idle');
    expect(h.clock.pending).toBe(0);
    await h.clock.advance(3_600_000);
    expect(h.calls).toHaveLength(1);
  });

  it('coalesces a burst of 50 events inside the window into one pass', async () => {
    const h = harness({}, () => summary({ added: 50, confirmed: 50 }));
    h.scheduler.start();
    await flushMicrotasks();
    for (let i = 0; i < 50; i++) {
      h.scheduler.notify();
      await h.clock.advance(5);
    }
    expect(h.calls).toHaveLength(1); // still inside the window
    await h.clock.advance(500);
    expect(h.calls.map((c) => c.reason)).toEqual(['initial', 'change']);
    await h.clock.advance(60_000);
    expect(h.calls).toHaveLength(2);
    expect(h.clock.pending).toBe(0);
  });

  it('still runs a pass during a steady stream of events (max debounce)', async () => {
    const h = harness({ maxDebounceMs: 2000 }, () => summary());
    h.scheduler.start();
    await flushMicrotasks();
    for (let i = 0; i < 25; i++) {
      h.scheduler.notify();
      await h.clock.advance(100);
    }
    // 2.5 s of events every 100 ms: the trailing debounce alone would never fire.
    expect(h.calls.filter((c) => c.reason === 'change')).toHaveLength(1);
  });

  it('never overlaps passes: events during a pass give one follow-up pass after it', async () => {
    const h = harness();
    h.scheduler.start();
    await flushMicrotasks();
    expect(h.calls).toHaveLength(1);
    h.scheduler.notify();
    h.scheduler.notify();
    await h.clock.advance(10_000);
    expect(h.calls).toHaveLength(1); // initial still running
    h.calls[0]?.resolve(summary());
    await flushMicrotasks();
    expect(h.calls).toHaveLength(1);
    expect(h.clock.dueIn).toEqual([500]);
    await h.clock.advance(500);
    expect(h.calls.map((c) => c.reason)).toEqual(['initial', 'change']);
  });

  it('backs off exponentially while the server is down, without passes in between, then recovers', async () => {
    let down = true;
    const h = harness({}, () => (down ? summary({ serverReachable: false, pending: 2, serverError: 'ECONNREFUSED' }) : summary({ queued: 2 })));
    h.scheduler.start();
    await flushMicrotasks();
    const delays: number[] = [];
    for (let i = 0; i < 8; i++) {
      const due = h.clock.dueIn;
      expect(due).toHaveLength(1);
      delays.push(due[0] as number);
      const before = h.calls.length;
      await h.clock.advance((due[0] as number) - 1);
      expect(h.calls.length).toBe(before); // no pass before the backoff ends
      if (i === 3) {
        // A change during the outage does not shorten the backoff.
        h.scheduler.notify();
        expect(h.clock.dueIn).toEqual([1]);
      }
      await h.clock.advance(1);
      expect(h.calls.length).toBe(before + 1);
    }
    expect(delays).toEqual([1000, 2000, 4000, 8000, 16000, 32000, 60000, 60000]);
    expect(h.calls.slice(1).every((c) => c.reason === 'retry')).toBe(true);
    expect(h.backoffs.filter((b) => b.reason === 'server').map((b) => b.attempt)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    down = false;
    await h.clock.advance(60_000);
    // Recovered: the retry pass sent the outbox; now a confirmation is scheduled (2 s), not a retry.
    expect(h.backoffs.at(-1)?.reason).toBe('confirm');
    expect(h.clock.dueIn).toEqual([2000]);
  });

  it('treats pending work with a server error as an outage', async () => {
    const h = harness({}, () => summary({ serverReachable: true, pending: 1, serverError: 'HTTP 503' }));
    h.scheduler.start();
    await flushMicrotasks();
    expect(h.backoffs[0]?.reason).toBe('server');
  });

  it('confirms queued episodes with growing gaps and stops polling once all are confirmed', async () => {
    let queued = 3;
    const h = harness({}, () => summary({ queued, confirmed: 3 - queued }));
    h.scheduler.start();
    await flushMicrotasks();
    expect(h.clock.dueIn).toEqual([2000]);
    await h.clock.advance(2000);
    expect(h.calls.map((c) => c.reason)).toEqual(['initial', 'confirm']);
    expect(h.clock.dueIn).toEqual([4000]);
    await h.clock.advance(4000);
    expect(h.clock.dueIn).toEqual([8000]);
    queued = 0;
    await h.clock.advance(8000);
    expect(h.calls).toHaveLength(4);
    expect(h.clock.pending).toBe(0);
    expect(h.scheduler.phase).toBe('idle');
    await h.clock.advance(600_000);
    expect(h.calls).toHaveLength(4);
  });

  it('confirms when the engine\'s listing schedule says the answer can have changed, not on its own clock', async () => {
    // A busy group: the engine predicts our 30 parts done in 40 s, then in 12 s (sync/schedule.ts).
    const next = [40_000, 12_000];
    let queued = 30;
    const h = harness({}, () => {
      const inMs = next.shift();
      return summary({ queued, confirmed: 30 - queued, ...(inMs === undefined ? {} : { nextListingInMs: inMs }) });
    });
    h.scheduler.start();
    await flushMicrotasks();
    expect(h.clock.dueIn).toEqual([40_000]);
    await h.clock.advance(40_000);
    expect(h.clock.dueIn).toEqual([12_000]);
    queued = 0;
    await h.clock.advance(12_000);
    expect(h.calls.map((c) => c.reason)).toEqual(['initial', 'confirm', 'confirm']);
    expect(h.clock.pending).toBe(0);
  });

  it('a change replaces a waiting confirmation and resets its backoff', async () => {
    const h = harness({}, () => summary({ queued: 1 }));
    h.scheduler.start();
    await flushMicrotasks();
    await h.clock.advance(2000);
    await h.clock.advance(4000);
    expect(h.clock.dueIn).toEqual([8000]);
    h.scheduler.notify();
    expect(h.clock.dueIn).toEqual([500]);
    await h.clock.advance(500);
    expect(h.calls.at(-1)?.reason).toBe('change');
    expect(h.clock.dueIn).toEqual([2000]);
  });

  it('retries a pass that found the lock busy, keeping the dirty flag', async () => {
    let busy = 2;
    const h = harness({ lockBackoff: { initialMs: 1000, maxMs: 30_000 } }, () => (busy-- > 0 ? lockError() : summary()));
    h.scheduler.start();
    await flushMicrotasks();
    h.scheduler.notify(); // arrives during the lock backoff: must not start a pass early
    expect(h.backoffs.map((b) => [b.reason, b.delayMs])).toEqual([['lock', 1000]]);
    expect(h.scheduler.isDirty).toBe(true);
    await h.clock.advance(1000);
    expect(h.backoffs.map((b) => [b.reason, b.delayMs])).toEqual([
      ['lock', 1000],
      ['lock', 2000],
    ]);
    expect(h.scheduler.isDirty).toBe(true);
    await h.clock.advance(2000);
    expect(h.calls.map((c) => c.reason)).toEqual(['initial', 'retry', 'retry']);
    expect(h.scheduler.isDirty).toBe(false);
    expect(h.clock.pending).toBe(0);
    expect(h.errors).toEqual([]);
  });

  it('waits for files still being written, then starts as soon as they settle', async () => {
    let writing = true;
    const h = harness({ canStart: () => !writing }, () => summary());
    h.scheduler.start();
    await flushMicrotasks();
    h.scheduler.notify();
    await h.clock.advance(10_000);
    expect(h.calls).toHaveLength(1);
    expect(h.scheduler.phase).toBe('settling');
    expect(h.clock.pending).toBe(0);
    writing = false;
    h.scheduler.writesSettled();
    await flushMicrotasks();
    expect(h.calls.map((c) => c.reason)).toEqual(['initial', 'change']);
  });

  it('stop() aborts the running pass, waits for it and leaves no timers', async () => {
    const h = harness();
    h.scheduler.start();
    await flushMicrotasks();
    const pass = h.calls[0] as Deferred;
    h.scheduler.notify();
    let stopped = false;
    const stopping = h.scheduler.stop().then(() => {
      stopped = true;
    });
    await flushMicrotasks();
    expect(pass.signal.aborted).toBe(true);
    expect(stopped).toBe(false); // the engine is still saving its state
    pass.reject(pass.signal.reason);
    await stopping;
    expect(stopped).toBe(true);
    expect(h.clock.pending).toBe(0);
    h.scheduler.notify();
    await h.clock.advance(10_000);
    expect(h.calls).toHaveLength(1);
    expect(h.errors).toEqual([]);
  });

  it('retries other errors with backoff and reports them; fatal errors end the watch', async () => {
    const boom = new Error('disk on fire');
    const h = harness({}, () => boom);
    h.scheduler.start();
    await flushMicrotasks();
    expect(h.errors).toEqual([boom]);
    expect(h.backoffs[0]).toMatchObject({ reason: 'error', delayMs: 2000 });

    const conflict = new Error('state file belongs to another tool');
    conflict.name = 'StateConflictError';
    const f = harness({}, () => conflict);
    f.scheduler.start();
    await flushMicrotasks();
    expect(f.fatal()).toBe(conflict);
    expect(f.scheduler.phase).toBe('stopped');
    expect(f.clock.pending).toBe(0);
  });

  it('the package replaced under the watch (PackageChangedError) ends the watch: it is not retried with a newer engine under the older watch', async () => {
    const replaced = new Error('graphiti-memory-sync was replaced on disk');
    replaced.name = 'PackageChangedError';
    const h = harness({}, () => replaced);
    h.scheduler.start();
    await flushMicrotasks();
    expect(h.fatal()).toBe(replaced);
    expect(h.scheduler.phase).toBe('stopped');
    expect(h.clock.pending).toBe(0);
    expect(h.backoffs).toEqual([]);
  });
});
