/**
 * withRetry: randomized exponential backoff, Retry-After, the overall deadline,
 * non-retryable errors (rethrown as is) and aborts.
 */
import { describe, expect, it } from 'vitest';
import {
  McpAbortError,
  McpError,
  McpHttpError,
  McpJsonRpcError,
  McpNetworkError,
  McpTimeoutError,
} from '../../src/lib/mcp/errors.js';
import { backoffDelay, withRetry } from '../../src/lib/mcp/retry.js';

const network = () => new McpNetworkError('connection refused', 'ECONNREFUSED');

describe('backoffDelay', () => {
  it('is min × 2^(n-1) × [1, 2), capped at max', () => {
    expect(backoffDelay(1, 100, 10_000, () => 0)).toBe(100);
    expect(backoffDelay(1, 100, 10_000, () => 0.999)).toBe(200);
    expect(backoffDelay(3, 100, 10_000, () => 0)).toBe(400);
    expect(backoffDelay(3, 100, 10_000, () => 0.5)).toBe(600);
    expect(backoffDelay(10, 100, 1000, () => 0.5)).toBe(1000);
  });
});

describe('withRetry', () => {
  it('retries retryable errors with growing, jittered delays and returns the result', async () => {
    const delays: Array<[number, number]> = [];
    const attempts: number[] = [];
    const value = await withRetry(
      async (attempt) => {
        attempts.push(attempt);
        if (attempt < 4) throw network();
        return 'ok';
      },
      { retries: 5, deadlineMs: 10_000, minDelayMs: 10, maxDelayMs: 1000, onRetry: (_e, attempt, delay) => delays.push([attempt, delay]) },
    );
    expect(value).toBe('ok');
    expect(attempts).toEqual([1, 2, 3, 4]);
    expect(delays.map(([a]) => a)).toEqual([1, 2, 3]);
    const [d1, d2, d3] = delays.map(([, d]) => d);
    expect(d1).toBeGreaterThanOrEqual(10);
    expect(d1).toBeLessThanOrEqual(20);
    expect(d2).toBeGreaterThanOrEqual(20);
    expect(d2).toBeLessThanOrEqual(40);
    expect(d3).toBeGreaterThanOrEqual(40);
    expect(d3).toBeLessThanOrEqual(80);
  });

  it('caps each delay at maxDelayMs', async () => {
    const delays: number[] = [];
    await expect(
      withRetry(
        async () => {
          throw network();
        },
        { retries: 4, deadlineMs: 10_000, minDelayMs: 20, maxDelayMs: 30, onRetry: (_e, _a, d) => delays.push(d) },
      ),
    ).rejects.toBeInstanceOf(McpNetworkError);
    expect(delays).toHaveLength(4);
    for (const d of delays) expect(d).toBeLessThanOrEqual(30);
  });

  it('rethrows the original error once the retries are used up', async () => {
    const errors: McpError[] = [];
    let calls = 0;
    const error = await withRetry(
      async () => {
        calls++;
        const e = new McpTimeoutError(5, 'x');
        errors.push(e);
        throw e;
      },
      { retries: 2, deadlineMs: 10_000, minDelayMs: 1, maxDelayMs: 2 },
    ).catch((e: unknown) => e);
    expect(calls).toBe(3);
    expect(error).toBe(errors[2]);
  });

  it('stops at once on a non-retryable error and rethrows that very error', async () => {
    const original = new McpJsonRpcError(-32602, 'Invalid params');
    let calls = 0;
    const error = await withRetry(
      async () => {
        calls++;
        throw original;
      },
      { retries: 5, deadlineMs: 10_000 },
    ).catch((e: unknown) => e);
    expect(error).toBe(original);
    expect(calls).toBe(1);
  });

  it('does not retry errors that are not McpErrors (bugs), and rethrows them as is', async () => {
    const bug = new TypeError('x is not a function');
    let calls = 0;
    const error = await withRetry(
      async () => {
        calls++;
        throw bug;
      },
      { retries: 5, deadlineMs: 10_000 },
    ).catch((e: unknown) => e);
    expect(error).toBe(bug);
    expect(calls).toBe(1);
  });

  it('waits at least Retry-After', async () => {
    const delays: number[] = [];
    let calls = 0;
    const started = performance.now();
    await withRetry(
      async () => {
        if (calls++ === 0) throw new McpHttpError(503, 'busy', 'http://x', { retryAfterMs: 200 });
        return 1;
      },
      { retries: 3, deadlineMs: 5000, minDelayMs: 5, onRetry: (_e, _a, d) => delays.push(d) },
    );
    expect(delays).toEqual([200]);
    expect(performance.now() - started).toBeGreaterThanOrEqual(195);
  });

  it('gives up at once when Retry-After reaches past the deadline', async () => {
    const original = new McpHttpError(429, 'slow down', 'http://x', { retryAfterMs: 60_000 });
    let calls = 0;
    const started = performance.now();
    const error = await withRetry(
      async () => {
        calls++;
        throw original;
      },
      { retries: 5, deadlineMs: 1000 },
    ).catch((e: unknown) => e);
    expect(error).toBe(original);
    expect(calls).toBe(1);
    expect(performance.now() - started).toBeLessThan(200);
  });

  it('starts no attempt after the deadline and never sleeps past it', async () => {
    const starts: number[] = [];
    const started = performance.now();
    const deadlineMs = 300;
    const error = await withRetry(
      async () => {
        starts.push(performance.now() - started);
        throw network();
      },
      { retries: 100, deadlineMs, minDelayMs: 40, maxDelayMs: 80 },
    ).catch((e: unknown) => e);
    const total = performance.now() - started;
    expect(error).toBeInstanceOf(McpNetworkError);
    expect(starts.length).toBeGreaterThan(1);
    for (const s of starts) expect(s).toBeLessThan(deadlineMs + 5);
    expect(total).toBeLessThan(deadlineMs + 150);
  });

  it('stops sleeping and throws McpAbortError when the signal aborts', async () => {
    const controller = new AbortController();
    const started = performance.now();
    const pending = withRetry(
      async () => {
        throw network();
      },
      {
        retries: 5,
        deadlineMs: 60_000,
        minDelayMs: 5000,
        signal: controller.signal,
        onRetry: () => queueMicrotask(() => controller.abort(new Error('stop'))),
      },
    );
    const error = await pending.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpAbortError);
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('does not start when the signal is already aborted', async () => {
    let calls = 0;
    const error = await withRetry(
      async () => {
        calls++;
        return 1;
      },
      { retries: 1, deadlineMs: 1000, signal: AbortSignal.abort() },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpAbortError);
    expect(calls).toBe(0);
  });

  it('does not retry after the attempt itself was aborted', async () => {
    const controller = new AbortController();
    let calls = 0;
    const error = await withRetry(
      async () => {
        calls++;
        controller.abort();
        throw network(); // a retryable error, but the caller gave up
      },
      { retries: 5, deadlineMs: 10_000, minDelayMs: 1, signal: controller.signal },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpAbortError);
    expect(calls).toBe(1);
  });
});
