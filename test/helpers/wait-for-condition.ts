import { mkdirSync, watch } from 'node:fs';

/** Resolves when `check()` is true, re-checking on every change in `dir` (fs.watch), failing after `timeoutMs`. */
export function waitForCondition(dir: string, check: () => boolean, timeoutMs = 10_000, what = 'condition'): Promise<void> {
  mkdirSync(dir, { recursive: true });
  return new Promise((resolvePromise, reject) => {
    if (check()) {
      resolvePromise();
      return;
    }
    const watcher = watch(dir, () => {
      if (check()) done();
    });
    // fs.watch can coalesce events: re-check on a slow tick too (a safety net, not the mechanism).
    const tick = setInterval(() => {
      if (check()) done();
    }, 100);
    const timer = setTimeout(() => {
      cleanup();
      reject(new Error(`timed out waiting for ${what}`));
    }, timeoutMs);
    const cleanup = () => {
      watcher.close();
      clearInterval(tick);
      clearTimeout(timer);
    };
    const done = () => {
      cleanup();
      resolvePromise();
    };
  });
}
