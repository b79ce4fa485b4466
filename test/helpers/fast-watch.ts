/**
 * Watcher timings for tests: short debounce, write-stable wait and back-offs, so a pass follows a
 * change within a few hundred milliseconds (the defaults are for people typing).
 */
import type { WatcherOptions } from '../../src/lib/watch/watch.js';

export const FAST_WATCH: Partial<WatcherOptions> = {
  debounceMs: 150,
  writeStableMs: 30,
  serverBackoff: { initialMs: 100, maxMs: 400 },
  confirmBackoff: { initialMs: 50, maxMs: 300 },
  lockBackoff: { initialMs: 100, maxMs: 300 },
  lockTimeoutMs: 200,
};
