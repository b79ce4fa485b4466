/**
 * IDLE_REUSE (util/keep-alive.ts): a kept-alive connection is used again only while its server
 * cannot be closing it. The server here is a plain one on 127.0.0.1 that counts its connections;
 * time is an injected clock, moved by the test, so no timer of either side runs in between (as in
 * a busy event loop), and nothing waits on real time.
 */
import http, { type IncomingMessage } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { IDLE_REUSE_MS, idleLimitedAgent, type IdleLimitedAgent } from '../../src/lib/util/keep-alive.js';

interface Served {
  port: number;
  /** Connections the server accepted. */
  connections: Socket[];
  close(): Promise<void>;
}

async function serve(onRequest: (req: IncomingMessage, res: http.ServerResponse) => void = (_req, res) => res.end('ok')): Promise<Served> {
  const connections: Socket[] = [];
  const server = http.createServer((req, res) => {
    req.resume();
    onRequest(req, res);
  });
  // As uvicorn: no Keep-Alive header, and no idle close of its own during the test.
  server.keepAliveTimeout = 0;
  server.on('connection', (socket: Socket) => void connections.push(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    connections,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

interface Got {
  status: number;
  reused: boolean;
  socket: Socket;
}

function get(port: number, limited: IdleLimitedAgent): Promise<Got> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: '/', agent: limited.take() }, (res) => {
      res.resume();
      res.once('end', () => resolve({ status: res.statusCode ?? 0, reused: req.reusedSocket, socket: req.socket as Socket }));
    });
    req.once('error', reject);
    req.end();
  });
}

/** Resolves once the agent has pooled the connection the last reply freed. */
function pooled(limited: IdleLimitedAgent): Promise<void> {
  return new Promise((resolve) => {
    const check = () => (Object.values(limited.agent.freeSockets).some((s) => (s?.length ?? 0) > 0) ? resolve() : setImmediate(check));
    check();
  });
}

let cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

function setup(served: Served): { limited: IdleLimitedAgent; advance: (ms: number) => void } {
  let now = 1_000_000;
  const limited = idleLimitedAgent(http.Agent, { now: () => now });
  cleanup.push(() => limited.agent.destroy(), () => served.close());
  return { limited, advance: (ms) => void (now += ms) };
}

describe('IDLE_REUSE: kept-alive connections', () => {
  it('are used again within the idle limit', async () => {
    const served = await serve();
    const { limited, advance } = setup(served);
    expect((await get(served.port, limited)).reused).toBe(false);
    await pooled(limited);
    advance(IDLE_REUSE_MS - 1);
    const second = await get(served.port, limited);
    expect(second).toMatchObject({ status: 200, reused: true });
    expect(served.connections).toHaveLength(1);
  });

  it('are not used again once idle for the limit by the clock, though no timer ran: the request opens a new connection', async () => {
    const served = await serve();
    const { limited, advance } = setup(served);
    const first = await get(served.port, limited);
    await pooled(limited);
    advance(IDLE_REUSE_MS);
    const second = await get(served.port, limited);
    expect(second).toMatchObject({ status: 200, reused: false });
    expect(served.connections).toHaveLength(2);
    expect(first.socket.destroyed).toBe(true);
  });

  it('are not used again once the server has closed its side, even before Node has taken them out of its pool', async () => {
    // The server ends the connection right after its reply; the next request is made as soon as
    // the client has seen that end, before the socket's 'close' (a tick later) takes it out of the pool.
    const served = await serve((_req, res) => {
      const socket = res.socket;
      res.end('ok', () => socket?.end());
    });
    const { limited } = setup(served);
    const first = await get(served.port, limited);
    const second = await new Promise<Got>((resolve, reject) => {
      const afterEnd = () => get(served.port, limited).then(resolve, reject);
      if (first.socket.readableEnded) afterEnd();
      else first.socket.once('end', afterEnd);
    });
    expect(second).toMatchObject({ status: 200, reused: false });
    expect(served.connections).toHaveLength(2);
  });

  it('in use are not cut by the idle timer: a reply slower than the limit arrives whole', async () => {
    // A tool call may take long, with nothing on the wire: the timer that ends idle free connections
    // fires on a busy one too (Node only reports it). Here the limit is 20 ms and the reply takes 200.
    const served = await serve((_req, res) => {
      res.writeHead(200);
      res.write('first ');
      setTimeout(() => res.end('last'), 200);
    });
    const limited = idleLimitedAgent(http.Agent, { idleMs: 20 });
    cleanup.push(() => limited.agent.destroy(), () => served.close());
    const body = await new Promise<string>((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port: served.port, path: '/', agent: limited.take() }, (res) => {
        let text = '';
        res.on('data', (d: Buffer) => (text += d.toString()));
        res.once('end', () => resolve(text));
        res.once('error', reject);
      });
      req.once('error', reject);
      req.end();
    });
    expect(body).toBe('first last');
  });

  it('are not kept at all when the server says it keeps them under a second (Keep-Alive: timeout=1)', async () => {
    const served = await serve((_req, res) => {
      res.setHeader('keep-alive', 'timeout=1');
      res.end('ok');
    });
    const { limited } = setup(served);
    await get(served.port, limited);
    const second = await get(served.port, limited);
    expect(second.reused).toBe(false);
    expect(served.connections).toHaveLength(2);
  });
});
