/**
 * The MCP front (server/mcp-front.ts) with a stand-in upstream on a Unix socket: the proof
 * challenge it answers without the token, and a flood of idle connections from another local
 * program, which must not keep the owner's requests out. (The token check itself, and a second
 * user's view, are in test/real-graphiti/locked-server.test.ts.) And its own connections to
 * Graphiti, which uvicorn closes after 5 s idle.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, createServer, request, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { FRONT_PROOF_PATH, frontProof, provenConnection, proveFront } from '../../src/lib/config/server-runtime.js';
import { MAX_CONNECTIONS, startMcpFront, type McpFront } from '../../src/lib/server/mcp-front.js';
import { UvicornKeepAlive } from '../support/uvicorn-keep-alive.js';
import { listenAsOtherUser, otherUser } from '../support/other-user.js';

let dir: string;
let upstream: Server;
let front: McpFront;
const token = randomBytes(32).toString('hex');

function get(path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: front.port, path, headers, agent: false }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'gms-front-'));
  upstream = createServer((req, res) => res.end(JSON.stringify({ path: req.url })));
  await new Promise<void>((r) => upstream.listen(join(dir, 'up.sock'), () => r()));
  front = await startMcpFront({ port: 0, socketPath: join(dir, 'up.sock'), token });
});

afterAll(async () => {
  await front.close();
  await new Promise<void>((r) => upstream.close(() => r()));
  rmSync(dir, { recursive: true, force: true });
});

describe('PORT_TAKEN_SINCE: a second local user takes the last port between the check and the listen', () => {
  const user = otherUser();
  it.skipIf('skip' in user)(`a port kept only while free (not one the user set) gives way to any free port; a port the user set still fails; the other user gets nothing${'skip' in user ? ` (skipped: ${user.skip})` : ''}`, async () => {
    const probe = await startMcpFront({ port: 0, socketPath: join(dir, 'up.sock'), token });
    const port = probe.port;
    await probe.close();
    // Found free (server start's check), then taken by the other user before the front listens.
    const stranger = await listenAsOtherUser(user as { uid: number; gid: number }, '127.0.0.1', port);
    try {
      // Before: EADDRINUSE, and a restart left the server down.
      const moved = await startMcpFront({ port, ifTaken: 'any', socketPath: join(dir, 'up.sock'), token });
      try {
        expect(moved.port).not.toBe(port);
        expect(await proveFront(moved.port, token)).toBe(true);
      } finally {
        await moved.close();
      }
      await expect(startMcpFront({ port, socketPath: join(dir, 'up.sock'), token })).rejects.toMatchObject({ code: 'EADDRINUSE' });
      expect(stranger.requests()).toEqual([]);
    } finally {
      await stranger.close();
    }
  });
});

describe('the proof challenge', () => {
  it("answers a nonce with the HMAC over its own port, without the token being sent; the answer is checked by proveFront; a bad nonce gets 400", async () => {
    const nonce = randomBytes(32).toString('hex');
    const answer = await get(`${FRONT_PROOF_PATH}?nonce=${nonce}`);
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ proof: frontProof(token, front.port, nonce) });
    expect(answer.body).not.toContain(token);
    // The answer for another port (what a relay from another port would get) differs.
    expect(frontProof(token, front.port + 1, nonce)).not.toBe(frontProof(token, front.port, nonce));
    expect(await proveFront(front.port, token)).toBe(true);
    expect(await proveFront(front.port, randomBytes(32).toString('hex'))).toBe(false);
    expect((await get(`${FRONT_PROOF_PATH}?nonce=xyz`)).status).toBe(400);
  });
});

describe('PROOF_ON_THE_CONNECTION', () => {
  /** A request on `agent` (the proven connection), as the client sends it; what the upstream saw, or the error's code. */
  function on(agent: Agent, headers: Record<string, string>): Promise<{ status: number; body: string } | { code: string }> {
    return new Promise((resolve) => {
      const req = request({ host: '127.0.0.1', port: front.port, path: '/mcp', headers, agent }, (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', (e: NodeJS.ErrnoException) => resolve({ code: e.code ?? e.message }));
      req.end();
    });
  }

  it('the front keeps the connection that proved itself open for the request; that connection, once closed, is not replaced by another (the request fails, marked never sent)', async () => {
    const seen: Socket[] = [];
    const counting = (s: Socket) => seen.push(s);
    const connection = await provenConnection(front.port, token);
    expect(connection).toBeInstanceOf(Agent);
    const agent = connection as Agent;
    const answer = await on(agent, { authorization: `Bearer ${token}` });
    expect(answer).toEqual({ status: 200, body: JSON.stringify({ path: '/mcp' }) });
    // Its one connection ended: the next request on it opens none.
    for (const sockets of Object.values(agent.freeSockets)) for (const s of sockets ?? []) counting(s as Socket);
    expect(seen).toHaveLength(1);
    const closed = new Promise((r) => seen[0]?.once('close', r));
    seen[0]?.destroy();
    await closed;
    expect(await on(agent, { authorization: `Bearer ${token}` })).toEqual({ code: 'ELOCALUNPROVEN' });
    agent.destroy();
    // Not the token's holder: no connection.
    expect(await provenConnection(front.port, randomBytes(32).toString('hex'))).toBeUndefined();
  });

  it("a front that closes the connection after its proof (started before this rule) is told apart ('closes'): the client falls back to the proof made just before", async () => {
    const old = createServer((req, res) => {
      const nonce = new URL(req.url ?? '/', 'http://x').searchParams.get('nonce') ?? '';
      const body = JSON.stringify({ proof: frontProof(token, (old.address() as { port: number }).port, nonce) });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), connection: 'close' });
      res.end(body);
    });
    await new Promise<void>((r) => old.listen(0, '127.0.0.1', () => r()));
    try {
      expect(await provenConnection((old.address() as { port: number }).port, token)).toBe('closes');
    } finally {
      await new Promise<void>((r) => old.close(() => r()));
    }
  });
});

describe('a flood of idle connections', () => {
  it(`1,000 idle connections from someone without the token do not keep the owner out: at most ${MAX_CONNECTIONS} stay open, the owner's request is answered`, async () => {
    const idle: Socket[] = [];
    let closed = 0;
    for (let i = 0; i < 1000; i++) {
      const s = connect(front.port, '127.0.0.1');
      s.on('error', () => undefined);
      s.on('close', () => closed++);
      idle.push(s);
      await new Promise<void>((r) => s.once('connect', () => r()));
    }
    try {
      const owner = await get('/mcp', { authorization: `Bearer ${token}` });
      expect(owner).toEqual({ status: 200, body: JSON.stringify({ path: '/mcp' }) });
      // The oldest idle ones were dropped for the newer: no more than the limit are kept.
      await expect.poll(() => 1000 - closed, { timeout: 5000 }).toBeLessThanOrEqual(MAX_CONNECTIONS);
    } finally {
      for (const s of idle) s.destroy();
    }
  });
});

describe("the front's connections to Graphiti (util/keep-alive.ts IDLE_REUSE)", () => {
  it('a request after 5 s with the event loop busy (no idle timer ran) is forwarded on a new connection, not answered 502', async () => {
    const real = performance.now.bind(performance);
    let busy = 0;
    vi.spyOn(performance, 'now').mockImplementation(() => real() + busy);
    const seen: string[] = [];
    const graphiti = createServer((req, res) => {
      if (!keepAlive.admit(req, res)) return;
      seen.push(req.url ?? '');
      res.end(JSON.stringify({ path: req.url }));
    });
    const keepAlive = new UvicornKeepAlive(graphiti, () => ({ idleMs: 5000 }));
    const socketPath = join(dir, 'uvicorn.sock');
    await new Promise<void>((r) => graphiti.listen(socketPath, () => r()));
    const its = await startMcpFront({ port: 0, socketPath, token });
    // Kept alive as our client's are: with `Connection: close` forwarded, the front would not keep its own.
    const client = new Agent({ keepAlive: true });
    const call = (path: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port: its.port, path, headers: { authorization: `Bearer ${token}` }, agent: client }, (res) => {
          let body = '';
          res.on('data', (d: Buffer) => (body += d.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        });
        req.on('error', reject);
        req.end();
      });
    try {
      expect((await call('/first')).status).toBe(200);
      busy += 5_000;
      // Before: the front used its connection to Graphiti again, Graphiti's close crossed it, and the
      // client got a 502 for a request Graphiti never read (now it would get a broken connection; the
      // front's answer for a connection never made is 503 now).
      expect(await call('/second')).toEqual({ status: 200, body: JSON.stringify({ path: '/second' }) });
      expect(keepAlive.resets).toBe(0);
      expect(seen).toEqual(['/first', '/second']);
    } finally {
      vi.restoreAllMocks();
      client.destroy();
      await its.close();
      await new Promise<void>((r) => graphiti.close(() => r()));
    }
  });
});

describe('when the connection to Graphiti fails', () => {
  /** A request through a front to `socketPath`: its status, or the client's network error. */
  async function through(socketPath: string): Promise<number | string> {
    const its = await startMcpFront({ port: 0, socketPath, token });
    try {
      return await new Promise<number | string>((resolve) => {
        const req = request({ host: '127.0.0.1', port: its.port, path: '/mcp', method: 'POST', headers: { authorization: `Bearer ${token}` }, agent: false }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
        req.end('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add_memory"}}');
      });
    } finally {
      await its.close();
    }
  }

  it('nothing listening (Graphiti stopped or restarting): 503, which says the request was not taken (a 502 may have been forwarded: mcp/errors.ts GATEWAY_STATUSES)', async () => {
    expect(await through(join(dir, 'nobody.sock'))).toBe(503);
  });

  it('Graphiti read the request and its connection broke before a reply: the client connection breaks too, not a 502 (the request may have been taken)', async () => {
    const read: string[] = [];
    const dying = createServer((req) => {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => {
        read.push(body);
        req.socket.destroy();
      });
    });
    const socketPath = join(dir, 'dying.sock');
    await new Promise<void>((r) => dying.listen(socketPath, () => r()));
    try {
      expect(await through(socketPath)).toBe('ECONNRESET');
      expect(read).toHaveLength(1);
    } finally {
      await new Promise<void>((r) => dying.close(() => r()));
    }
  });
});
