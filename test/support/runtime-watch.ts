/**
 * Waiting for the local server's runtime.json to say something, without sleeping: every writer
 * renames a complete file into the server's state folder (config/server-runtime.ts writeRuntime,
 * util/fs-atomic.ts), so a watch on that folder sees each new record as it lands. The record is
 * read once after the watch is set up too, so nothing written before it is missed.
 */
import { watch } from 'node:fs';
import { readRuntime, serverStateDir, type ServerRuntime } from '../../src/lib/config/server-runtime.js';

/** The first runtime record for which `wanted` holds; rejects after `timeoutMs` naming the last state seen. */
export function runtimeReaches(stateDir: string, wanted: (runtime: ServerRuntime) => boolean, timeoutMs = 60_000): Promise<ServerRuntime> {
  return new Promise((resolve, reject) => {
    let last: ServerRuntime | undefined;
    const watcher = watch(serverStateDir(stateDir));
    const end = (outcome: () => void) => {
      clearTimeout(timer);
      watcher.close();
      outcome();
    };
    const look = () => {
      last = readRuntime(stateDir) ?? last;
      if (last !== undefined && wanted(last)) {
        const reached = last;
        end(() => resolve(reached));
      }
    };
    const timer = setTimeout(() => end(() => reject(new Error(`runtime.json did not reach the wanted record within ${timeoutMs} ms (last state: ${last?.state ?? 'none'})`))), timeoutMs);
    watcher.on('change', look);
    watcher.on('error', (error) => end(() => reject(error)));
    look();
  });
}
