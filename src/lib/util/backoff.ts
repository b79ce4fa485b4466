/** Waiting between attempts: the one backoff formula and the one abortable sleep. */

export interface Backoff {
  initialMs: number;
  maxMs: number;
  /** Multiplier per attempt. Default 2. */
  factor?: number;
  /** The delay is multiplied by a random number from [low, high). */
  low: number;
  high: number;
}

/** Delay before retry `attempt` (1-based): initial × factor^(attempt-1), capped, times the random spread, capped again. */
export function backoffDelay(policy: Backoff, attempt: number, random: () => number = Math.random): number {
  const base = Math.min(policy.maxMs, policy.initialMs * (policy.factor ?? 2) ** Math.max(0, attempt - 1));
  const spread = policy.low + (policy.high - policy.low) * random();
  return Math.max(0, Math.round(Math.min(policy.maxMs, base * spread)));
}

/**
 * The same growth when the delay is carried from run to run (stored) rather than counted:
 * none yet → `initialMs`; else previous × factor, at least `initialMs`, at most `maxMs`.
 */
export function nextBackoff(previousMs: number | undefined, policy: { initialMs: number; maxMs: number; factor?: number }): number {
  if (previousMs === undefined) return policy.initialMs;
  return Math.min(policy.maxMs, Math.max(policy.initialMs, previousMs * (policy.factor ?? 2)));
}

/** setTimeout as a promise; with a signal it rejects with the signal's reason on abort. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted === true) return Promise.reject(signal.reason as unknown);
  return new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason as unknown);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
