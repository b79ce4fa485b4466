/**
 * CHOSEN_PORT_RETRIED (server/chosen-port.ts) with the real Graphiti server and FalkorDB: a free port the
 * harness chose is taken by another program (a second CI lane's server) before our process binds
 * it. FalkorDB's start already tried again on another port; Graphiti's did not: on 539ca3f5 its
 * start took the other program's /health answer for our server's (HEALTH_FROM_OUR_CHILD), or
 * failed outright once uvicorn gave up the bind; and FalkorDB's readiness probe sent its password
 * to the other program before redis had found the port taken (falkordb.ts REDIS_BOUND_FIRST). Now
 * both start on another free port, and nothing of ours (MCP calls, FalkorDB's password) goes to the other program.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, describe, expect, it, vi } from 'vitest';
import * as proc from '../../src/lib/server/proc.js';
import { startRealGraphiti, type RealGraphiti } from '../support/real-graphiti.js';
import { McpClient } from '../../src/lib/mcp/client.js';

vi.mock('../../src/lib/server/proc.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/lib/server/proc.js')>();
  return { ...real, freePort: vi.fn(real.freePort) };
});

const GENERATION = process.env.GMS_TAKEN_PORT_GENERATION ?? '0.31.2';

/** Another lane's listener: answers any HTTP request 200 (as a Graphiti's /health would) and keeps every byte it was sent. */
async function otherLane(): Promise<{ server: Server; port: number; received: () => string; close: () => Promise<void> }> {
  let bytes = '';
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('data', (d) => {
      bytes += d.toString('latin1');
      if (/^(GET|POST|DELETE) /m.test(d.toString('latin1'))) socket.end('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 20\r\nconnection: close\r\n\r\n{"status":"healthy"}');
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    server,
    port,
    received: () => bytes,
    close: () => new Promise<void>((r) => {
      for (const s of sockets) s.destroy();
      server.close(() => r());
    }),
  };
}

describe(`a chosen port taken before the bind: real Graphiti ${GENERATION}`, () => {
  let real: RealGraphiti | undefined;
  let other: Awaited<ReturnType<typeof otherLane>> | undefined;
  afterAll(async () => {
    await real?.stop();
    await other?.close();
  }, 60_000);

  it('FalkorDB and Graphiti each start on another free port, and the server the harness hands out is ours', async () => {
    other = await otherLane();
    const taken = other.port;
    const freePort = vi.mocked(proc.freePort);
    // FalkorDB's first choice, then Graphiti's first choice: the port the other lane holds.
    let calls = 0;
    const real0 = freePort.getMockImplementation();
    freePort.mockImplementation(async () => (++calls === 1 || calls === 3 ? taken : (real0 as () => Promise<number>)()));
    real = await startRealGraphiti({ generation: GENERATION, transport: 'http', groupId: 'gms_taken' });
    expect(real.graphiti.server.port).not.toBe(taken);
    expect(calls).toBeGreaterThanOrEqual(4);
    expect(real.graphiti.falkordb.port).not.toBe(taken);
    expect(new URL(real.url).port).toBe(String(real.graphiti.server.port));
    // The server handed out answers MCP as Graphiti, and the other lane got none of it.
    const before = other.received().length;
    const client = new McpClient({ url: real.url, timeoutMs: 30_000 });
    try {
      const tools = await client.listTools();
      expect(tools.map((t) => t.name)).toContain('add_memory');
    } finally {
      await client.close();
    }
    expect(other.received().slice(before)).toBe('');
    expect(other.received()).not.toContain('POST /mcp');
    expect(real.log()).toContain(`127.0.0.1:${real.graphiti.server.port}`);
    // FalkorDB's readiness probe authenticates: its password went to the other lane while redis was still to bind (REDIS_BOUND_FIRST).
    expect(other.received()).not.toContain(real.graphiti.falkordb.password);
  });
});
