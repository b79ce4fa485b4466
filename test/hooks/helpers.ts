/**
 * Helpers only the hook tests use: a server that never answers, waiting on a folder, pids.
 * Running a hook itself is test/support/hook-runner.ts (other folders run hooks too).
 */
import { mkdirSync, watch } from 'node:fs';
import { createServer, type Server } from 'node:net';

/** A server that accepts TCP connections and never answers; counts connections. */
export async function hangingServer(): Promise<{ url: string; connections: () => number; close: () => Promise<void> }> {
  let count = 0;
  const sockets = new Set<import('node:net').Socket>();
  const server: Server = createServer((socket) => {
    count++;
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    connections: () => count,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

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

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
