/** Waiting: the one abortable sleep. */

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
