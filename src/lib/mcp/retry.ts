/**
 * Bounded retries for MCP calls, on p-retry@7.
 *
 * p-retry runs the attempts, counts them (`retries`), stops on AbortError (we wrap
 * every non-retryable error in one, so the ORIGINAL typed error is rethrown) and
 * watches `maxRetryTime`. Its own delay is set to zero because the delay must be known
 * BEFORE sleeping, which p-retry's is not: it combines the exponential backoff with
 * jitter (p-retry's `randomize` shape, min × 2^(n-1) × random[1,2), capped, from
 * util/backoff.ts), the server's Retry-After (`retryAfterMs`, a floor), and the overall
 * deadline: when the next attempt could only start at or after the deadline we stop at
 * once with the last error, where p-retry would sleep towards it and try once more.
 */
import pRetry, { AbortError } from 'p-retry';
import { backoffDelay as spreadDelay, sleep } from '../util/backoff.js';
import { McpAbortError, McpError } from './errors.js';

export interface RetryOptions {
  /** Retries after the first attempt (so at most retries + 1 attempts). */
  retries: number;
  /** Overall budget in ms, measured from the call: no attempt starts after it. */
  deadlineMs: number;
  minDelayMs?: number;
  maxDelayMs?: number;
  signal?: AbortSignal;
  /**
   * Narrows which retryable errors are tried again (default: all): a request that is not
   * idempotent retries only those that say it was not taken (mcp/errors.ts MAY_HAVE_ARRIVED).
   */
  retryIf?: (error: McpError) => boolean;
  /** Called before sleeping `delayMs` ahead of attempt `attempt + 1`. */
  onRetry?: (error: McpError, attempt: number, delayMs: number) => void;
}

/** p-retry's randomized exponential backoff for the given (1-based) failed attempt. */
export function backoffDelay(attempt: number, minDelayMs: number, maxDelayMs: number, random: () => number = Math.random): number {
  return spreadDelay({ initialMs: minDelayMs, maxMs: maxDelayMs, low: 1, high: 2 }, attempt, random);
}

export async function withRetry<T>(fn: (attempt: number) => Promise<T>, options: RetryOptions): Promise<T> {
  const minDelayMs = options.minDelayMs ?? 250;
  const maxDelayMs = options.maxDelayMs ?? 8000;
  const signal = options.signal;
  const start = performance.now();
  const deadline = start + options.deadlineMs;
  if (signal?.aborted) throw new McpAbortError(signal.reason);

  try {
    return await pRetry(
      async (attempt) => {
        try {
          return await fn(attempt);
        } catch (error) {
          if (error instanceof McpError && error.retryable && !signal?.aborted && (options.retryIf?.(error) ?? true)) throw error;
          // Non-retryable (or not ours, or the caller gave up): stop and rethrow it as is.
          throw new AbortError(error instanceof Error ? error : new Error(String(error)));
        }
      },
      {
        retries: options.retries,
        minTimeout: 0, // our delay is slept in shouldRetry
        maxTimeout: 0,
        factor: 1,
        randomize: false,
        maxRetryTime: Math.max(0, options.deadlineMs),
        signal,
        shouldRetry: async ({ error, attemptNumber }) => {
          const typed = error as McpError;
          const backoff = backoffDelay(attemptNumber, minDelayMs, maxDelayMs);
          const delay = Math.max(backoff, typed.retryAfterMs ?? 0);
          if (performance.now() + delay >= deadline) return false;
          options.onRetry?.(typed, attemptNumber, delay);
          await sleep(delay, signal).catch(() => {
            throw new McpAbortError(signal?.reason);
          });
          // A timer that fired late (busy event loop) must not start an attempt past the deadline.
          return performance.now() < deadline;
        },
      },
    );
  } catch (error) {
    if (signal?.aborted && !(error instanceof McpAbortError)) throw new McpAbortError(signal.reason);
    throw error;
  }
}
