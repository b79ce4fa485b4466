/**
 * Helpers only the hook tests use: a server that never answers, waiting on a folder, pids.
 * Running a hook itself is test/helpers/hook-runner.ts (other folders run hooks too).
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

export { waitForCondition } from '../helpers/wait-for-condition.js';

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
