/**
 * Bounded retries for MCP calls, on p-retry@7.
 *
 * p-retry runs the attempts, counts them (`retries`), stops on AbortError (we wrap
 * every non-retryable error in one, so the ORIGINAL typed error is rethrown) and
 * watches `maxRetryTime`. The delay is decided here, in `shouldRetry`, because it
 * must combine three things p-retry cannot: exponential backoff with jitter
 * (p-retry's `randomize` formula: min × 2^(n-1) × random[1,2), capped at max), the
 * server's Retry-After (`retryAfterMs`, a floor), and the overall deadline: when the
 * next attempt could only start at or after the deadline we stop at once with the
 * last error instead of sleeping towards it.
 */
import pRetry, { AbortError } from 'p-retry';
import { McpAbortError, McpError } from './errors.js';

export interface RetryOptions {
  /** Retries after the first attempt (so at most retries + 1 attempts). */
  retries: number;
  /** Overall budget in ms, measured from the call: no attempt starts after it. */
  deadlineMs: number;
  minDelayMs?: number;
  maxDelayMs?: number;
  signal?: AbortSignal;
  /** Called before sleeping `delayMs` ahead of attempt `attempt + 1`. */
  onRetry?: (error: McpError, attempt: number, delayMs: number) => void;
}

/** p-retry's randomized exponential backoff for the given (1-based) failed attempt. */
export function backoffDelay(attempt: number, minDelayMs: number, maxDelayMs: number, random: () => number = Math.random): number {
  const factor = 1 + random();
  return Math.min(Math.round(factor * minDelayMs * 2 ** Math.max(0, attempt - 1)), maxDelayMs);
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
          if (error instanceof McpError && error.retryable && !signal?.aborted) throw error;
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
          await sleep(delay, signal);
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

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(new McpAbortError(signal.reason));
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new McpAbortError(signal?.reason));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
