import { mkdirSync, watch, type FSWatcher } from 'node:fs';

/** Resolves when `check()` is true, re-checking on every change in `dir` (fs.watch), failing after `timeoutMs`. */
export function waitForCondition(dir: string, check: () => boolean, timeoutMs = 10_000, what = 'condition'): Promise<void> {
  mkdirSync(dir, { recursive: true });
  return new Promise((resolvePromise, reject) => {
    let watcher: FSWatcher | undefined;
    let tick: NodeJS.Timeout | undefined;
    let timer: NodeJS.Timeout | undefined;
    let failed = false;
    const cleanup = () => {
      watcher?.close();
      clearInterval(tick);
      clearTimeout(timer);
    };
    // A check that throws (a file read half-written) fails the wait; thrown from a watcher's callback it
    // would be an uncaught exception that fails the whole run.
    const holds = (): boolean => {
      try {
        return check();
      } catch (error) {
        failed = true;
        cleanup();
        reject(error instanceof Error ? error : new Error(String(error)));
        return false;
      }
    };
    const done = () => {
      cleanup();
      resolvePromise();
    };
    if (holds() || failed) {
      if (!failed) resolvePromise();
      return;
    }
    watcher = watch(dir, () => {
      if (holds()) done();
    });
    // fs.watch can coalesce events: re-check on a slow tick too (a safety net, not the mechanism).
    tick = setInterval(() => {
      if (holds()) done();
    }, 100);
    timer = setTimeout(() => {
      cleanup();
      reject(new Error(`timed out waiting for ${what}`));
    }, timeoutMs);
  });
}
