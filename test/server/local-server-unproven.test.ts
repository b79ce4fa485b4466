/**
 * ONLY_PROVEN_LOCAL (config/server-runtime.ts, graphiti.ts localServerToken): the local server
 * (`server start`) stops or restarts while a sync or a watch's pass runs, and another program (a
 * second local user) binds the port it just released. The token never went there; the notes did:
 * the request was sent without the token, and a listener that answers as Graphiti got the
 * add_memory. Now nothing is sent to the local server's address unless the listener there proves
 * it holds the current token; the note stays pending and the run names the next step.
 *
 * Ours: the real token-checking front (mcp-front.ts) before a Graphiti test server (a Unix socket
 * relayed to it). The other program: another Graphiti test server on the port the front released.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { IDLE_REUSE_MS } from '../../src/lib/util/keep-alive.js';
import { main } from '../../src/cli-main.js';
import { loadConfig } from '../../src/lib/config/config.js';
import { FRONT_PROOF_PATH, frontProof, mcpTokenPath, readRuntime, readSecretFile, writeRuntime, type ServerRuntime } from '../../src/lib/config/server-runtime.js';
import { startMcpFront, type McpFront } from '../../src/lib/server/mcp-front.js';
import { newSecretFile } from '../../src/lib/server/private-files.js';
import { runSync } from '../../src/lib/sync/sync.js';
import { GraphitiClient } from '../../src/lib/graphiti/graphiti.js';
import { startFakeSupervisor, type FakeSupervisor } from '../support/fake-supervisor.js';
import { startGraphitiServer, type GraphitiTestServer } from '../support/graphiti-server.js';
import { learning, makeSandbox, type Sandbox } from '../support/sandbox.js';

let box: Sandbox;
let stateDir: string;
let ours: GraphitiTestServer;
let relay: Server;
let front: McpFront | undefined;
let other: GraphitiTestServer | undefined;
let supervisor: FakeSupervisor;

/** Our server as `server start` leaves it: front on 127.0.0.1, Graphiti behind it on a Unix socket, runtime ready with a fresh token. */
beforeEach(async () => {
  // No URL set: the settings take the live local server's (mcpUrlSource 'local-server').
  box = makeSandbox('', { MADEINOZ_KNOWLEDGE_RETRIES: '0' });
  stateDir = box.env.MADEINOZ_KNOWLEDGE_STATE_DIR as string;
  mkdirSync(join(stateDir, 'server'), { recursive: true, mode: 0o700 });
  ours = await startGraphitiServer({ processingDelayMs: 0 });
  const socketPath = join(stateDir, 'server', 'graphiti.sock');
  relay = createServer((socket) => socket.pipe(connect(ours.port, '127.0.0.1')).pipe(socket));
  await new Promise<void>((r) => relay.listen(socketPath, () => r()));
  const token = newSecretFile(mcpTokenPath(stateDir));
  front = await startMcpFront({ port: 0, socketPath, token });
  supervisor = await startFakeSupervisor();
  writeRuntime(stateDir, {
    state: 'ready',
    pid: supervisor.identity.pid,
    generation: '0.31.2',
    serverVersion: 'test',
    mcp: 'test',
    falkordbBin: 'test',
    url: `http://127.0.0.1:${front.port}/mcp`,
    port: front.port,
    identities: { supervisor: supervisor.identity },
    mcpTokenFile: mcpTokenPath(stateDir),
    dataDir: box.path('data'),
    logDir: box.path('logs'),
    startedAt: new Date().toISOString(),
  });
});

afterEach(async () => {
  supervisor.child.kill('SIGKILL');
  await front?.close();
  await other?.close();
  other = undefined;
  await new Promise<void>((r) => relay.close(() => r()));
  await ours.close();
  box.cleanup();
});

/** Another program binds the port our front released, and answers as Graphiti would. */
async function anotherProgramTakesThePort(): Promise<GraphitiTestServer> {
  const port = (front as McpFront).port;
  await (front as McpFront).close();
  front = undefined;
  other = await startGraphitiServer({ processingDelayMs: 0, port });
  return other;
}

async function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(args, { stdout: (t) => void (out += t), stderr: (t) => void (err += t), isTTY: false, env: box.env, cwd: box.root });
  return { code, out, err };
}

describe("a request meant for the local server goes only to a listener that proves it is ours", () => {
  it('first, our proven front gets the note (with the token)', async () => {
    box.pai('LEARNING/SYSTEM/a.md', learning('Alpha', 'Alpha note body.'));
    const sync = await cli(['sync']);
    expect(sync.code, sync.out + sync.err).toBe(0);
    expect(ours.calls.filter((c) => c.tool === 'add_memory')).toHaveLength(1);
  });

  it('killed hard (kill -9: no stop notice, runtime still "ready") and another program takes its port within a second of our last proof: nothing is sent there, the note stays pending, the next step is named', async () => {
    box.pai('LEARNING/SYSTEM/a.md', learning('Alpha', 'Alpha note body.'));
    expect((await cli(['sync'])).code).toBe(0);
    supervisor.child.kill('SIGKILL');
    await new Promise((r) => supervisor.child.once('exit', r));
    const stranger = await anotherProgramTakesThePort();
    box.pai('LEARNING/SYSTEM/b.md', learning('Beta', 'Beta note, private.'));
    const sync = await cli(['sync']);
    // Before: the request went without the token and the other program took the note.
    expect(stranger.calls.map((c) => c.tool)).toEqual([]);
    expect(stranger.http.filter((h) => h.method === 'POST')).toEqual([]);
    expect(stranger.http.every((h) => !h.hasAuthorization)).toBe(true);
    expect(sync.code).toBe(1);
    expect(sync.out).toMatch(/pending 1/);
    expect(sync.out).toContain('could not prove it is ours, so nothing was sent');
    expect(sync.out).toMatch(/next step: .*server (start|restart)/);
  });

  it('PROOF_ON_THE_CONNECTION: killed hard right after its front proved itself, and another program binds the port before the request is sent: the request does not go to it (before, it went on a new connection, with the token and the note)', async () => {
    box.pai('LEARNING/SYSTEM/a.md', learning('Alpha', 'Alpha note, private.'));
    const token = readSecretFile(mcpTokenPath(stateDir)) as string;
    // Our front at its last moment: it answers the proof (it holds the token), but before the answer
    // is out its supervisor is killed hard and another program takes the port; then its own
    // connections close, as a killed process's do. Everything happens inside the proof, so the
    // client's next step is certain to come after it (no timing involved).
    let stranger: GraphitiTestServer | undefined;
    let killedAndTaken: Promise<void> | undefined;
    let supervisorExited: Promise<unknown> | undefined;
    let answered = 0;
    const proofs: string[] = [];
    const last = createServer((socket: Socket) => {
      let head = '';
      socket.on('data', (d: Buffer) => {
        head += d.toString('latin1');
        if (!head.includes('\r\n\r\n')) return;
        const path = head.split(' ')[1] ?? '';
        proofs.push(path);
        if (!path.startsWith(FRONT_PROOF_PATH)) return void socket.destroy();
        const nonce = new URL(path, 'http://front').searchParams.get('nonce') ?? '';
        const body = JSON.stringify({ proof: frontProof(token, port, nonce) });
        // Once, for every proof asked meanwhile (a run may open more than one connection at once).
        // The kill is sent at once, but its exit is awaited only after the sync: waiting for a killed
        // process to be reaped can take longer than the client's proof timeout on a loaded machine,
        // and the client would then give up before the answer (the timeout path, not this one).
        killedAndTaken ??= (async () => {
          supervisorExited = new Promise((r) => supervisor.child.once('exit', r));
          supervisor.child.kill('SIGKILL');
          last.close();
          stranger = await startGraphitiServer({ processingDelayMs: 0, port });
          other = stranger;
        })();
        void killedAndTaken.then(() => {
          if (socket.destroyed || socket.writableEnded) return;
          socket.end(`HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
          answered += 1;
        });
      });
    });
    await new Promise<void>((r) => last.listen(0, '127.0.0.1', () => r()));
    const port = (last.address() as { port: number }).port;
    writeRuntime(stateDir, { ...(readRuntime(stateDir) as ServerRuntime), url: `http://127.0.0.1:${port}/mcp`, port });
    const sync = await cli(['sync']);
    await supervisorExited;
    // The premise: the proof was asked, answered (on a connection the client still held open), and
    // the other program had the port by then.
    expect(proofs.length).toBeGreaterThan(0);
    expect(proofs.every((p) => p.startsWith(FRONT_PROOF_PATH))).toBe(true);
    expect(stranger).toBeDefined();
    expect(answered).toBeGreaterThan(0);
    // Before: the initialize (and the note after it) went to the other program on a new connection.
    expect(stranger?.http.filter((h) => h.method === 'POST')).toEqual([]);
    expect(stranger?.http.every((h) => !h.hasAuthorization)).toBe(true);
    expect(stranger?.calls.map((c) => c.tool)).toEqual([]);
    expect(sync.code).toBe(1);
    expect(sync.out).toMatch(/pending 1/);
  });

  it('the runtime names a port another program holds while our supervisor lives (record and listener disagree): nothing is sent there, and the next step says so', async () => {
    box.pai('LEARNING/SYSTEM/a.md', learning('Alpha', 'Alpha note body.'));
    const stranger = await startGraphitiServer({ processingDelayMs: 0 });
    try {
      writeRuntime(stateDir, { ...(readRuntime(stateDir) as ServerRuntime), url: stranger.url, port: stranger.port });
      const sync = await cli(['sync']);
      expect(sync.code).toBe(1);
      expect(stranger.http.filter((h) => h.method === 'POST')).toEqual([]);
      expect(sync.out).toMatch(/the local Graphiti server's address did not prove it is ours \(it restarted, or another program listens there\), so nothing was sent; next step: run the command again; if it says so again, .*server restart/);
    } finally {
      await stranger.close();
    }
  });

  it('LOCAL_SERVER_KEPT: stopped cleanly (server stop), with no URL set the local server is still the one in use: not the default localhost:8000, and its old port gets nothing', async () => {
    box.pai('LEARNING/SYSTEM/a.md', learning('Alpha', 'Alpha note body.'));
    const recorded = (readRuntime(stateDir) as ServerRuntime).url;
    writeRuntime(stateDir, { ...(readRuntime(stateDir) as ServerRuntime), state: 'stopped' });
    supervisor.child.kill('SIGKILL');
    const stranger = await anotherProgramTakesThePort();
    const config = await loadConfig({ env: box.env });
    // Before: http://localhost:8000/mcp, from the default, whoever listens there.
    expect([config.mcpUrl, config.mcpUrlSource]).toEqual([recorded, 'local-server']);
    const sync = await cli(['sync']);
    expect(sync.code).toBe(1);
    expect(stranger.http.filter((h) => h.method === 'POST')).toEqual([]);
    expect(sync.out).toMatch(/the local Graphiti server is stopped; next step: .*server start/);
    // A URL that is set still wins.
    expect((await loadConfig({ env: { ...box.env, MADEINOZ_KNOWLEDGE_MCP_URL: ours.url } })).mcpUrl).toBe(ours.url);
  });

  it('install --with-mcp while the local server is down writes no MCP entry for its address, and says to start it first', async () => {
    writeRuntime(stateDir, { ...(readRuntime(stateDir) as ServerRuntime), state: 'stopped' });
    const install = await cli(['install', '--with-mcp', '--scope', 'user']);
    expect(install.code).toBe(0);
    expect(install.out + install.err).toMatch(/the local Graphiti server \(server start\) is not running, so Claude Code's MCP entry was not written.*server start", then this install --with-mcp again/);
    const claudeJson = join(box.root, 'claude', '.claude.json');
    expect(existsSync(claudeJson) ? readFileSync(claudeJson, 'utf8') : '').not.toContain('127.0.0.1');
  });

  it('stopped while a run holds its settings (a watch pass, a long sync): the rest of the run sends nothing to the released port', async () => {
    box.pai('LEARNING/SYSTEM/a.md', learning('Alpha', 'Alpha note body.'));
    const config = await loadConfig({ env: box.env });
    expect(config.mcpUrlSource).toBe('local-server');
    writeRuntime(stateDir, { ...(readRuntime(stateDir) as ServerRuntime), state: 'stopped' });
    const stranger = await anotherProgramTakesThePort();
    const summary = await runSync(config);
    expect(stranger.calls.map((c) => c.tool)).toEqual([]);
    expect(stranger.http.filter((h) => h.method === 'POST')).toEqual([]);
    expect(summary.pending).toBe(1);
  });
});

/** TCP connections this process opens to 127.0.0.1:`port` while `during` runs (node:net's own channel of client sockets). */
async function connectionsTo<T>(port: number, during: () => Promise<T>): Promise<{ result: T; connections: number }> {
  let connections = 0;
  const onSocket = (message: unknown) => {
    const socket = (message as { socket: Socket }).socket;
    socket.once('connect', () => void (socket.remotePort === port && connections++));
  };
  subscribe('net.client.socket', onSocket);
  try {
    return { result: await during(), connections };
  } finally {
    unsubscribe('net.client.socket', onSocket);
  }
}

describe('PROVEN_REUSE (config/server-runtime.ts): a connection that proved itself carries the next request of a burst, and nothing else changes', () => {
  it('a burst of requests goes on the connections that proved themselves (before: a new connection and a proof for each request)', async () => {
    const graphiti = new GraphitiClient(await loadConfig({ env: box.env }));
    try {
      const { connections } = await connectionsTo((front as McpFront).port, async () => {
        for (let i = 0; i < 20; i++) await graphiti.getStatus();
      });
      // The session's initialize and tools/list, then 20 calls: each reply's stream ends a moment
      // after its answer (streamable.ts finishInBackground), so the next request may find its
      // connection still busy and prove a second one (two here; a third under heavy load), never one per request.
      expect(connections).toBeLessThanOrEqual(3);
      expect(ours.http.filter((h) => h.method === 'POST').length).toBeGreaterThanOrEqual(20);
    } finally {
      await graphiti.close();
    }
  });

  it('a kept connection unused for IDLE_REUSE_MS is ended by its own timer, not by the next request (which proves a new one and is answered)', async () => {
    const graphiti = new GraphitiClient(await loadConfig({ env: box.env }));
    const sockets: Socket[] = [];
    const onSocket = (message: unknown) => void sockets.push((message as { socket: Socket }).socket);
    subscribe('net.client.socket', onSocket);
    // Only setTimeout is faked, and it keeps pace with real time: the client's and servers' own waits run as ever.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'], shouldAdvanceTime: true });
    try {
      await graphiti.getStatus();
      await graphiti.getStatus();
      const toFront = sockets.filter((socket) => socket.remotePort === (front as McpFront).port);
      expect(toFront.length).toBeGreaterThan(0);
      vi.advanceTimersByTime(IDLE_REUSE_MS);
      // Ended now, with no request made (before: ended by the next request, inside it).
      expect(toFront.map((socket) => socket.destroyed)).toEqual(toFront.map(() => true));
      await graphiti.getStatus();
    } finally {
      vi.useRealTimers();
      unsubscribe('net.client.socket', onSocket);
      await graphiti.close();
    }
  });

  it('a kept connection is not used once the runtime says stopping (no token from then on), nor after its front closed it: the other program on the port gets no request and no token', async () => {
    const graphiti = new GraphitiClient(await loadConfig({ env: box.env }));
    try {
      await graphiti.getStatus();
      await graphiti.getStatus();
      const posts = () => ours.http.filter((h) => h.method === 'POST').length;
      const before = posts();
      // Stopping: the front is still open, and the kept connection too, but nothing goes to it.
      writeRuntime(stateDir, { ...(readRuntime(stateDir) as ServerRuntime), state: 'stopping' });
      await expect(graphiti.getStatus()).rejects.toThrow(/could not prove it is ours, so nothing was sent/);
      expect(posts()).toBe(before);
      // Ready again (the record and the supervisor say so), but the front is gone and another program
      // has its port: the kept connections closed with it, and nothing reaches the other program.
      writeRuntime(stateDir, { ...(readRuntime(stateDir) as ServerRuntime), state: 'ready' });
      await graphiti.getStatus();
      const stranger = await anotherProgramTakesThePort();
      await expect(graphiti.getStatus()).rejects.toThrow();
      expect(stranger.http.filter((h) => h.method === 'POST')).toEqual([]);
      expect(stranger.http.every((h) => !h.hasAuthorization)).toBe(true);
      expect(stranger.calls).toEqual([]);
    } finally {
      await graphiti.close();
    }
  });

  it('killed hard between two requests of a burst, another program on the port at once: the note goes nowhere but stays pending (the kept connection closed with the front)', async () => {
    box.pai('LEARNING/SYSTEM/a.md', learning('Alpha', 'Alpha note body.'));
    const config = await loadConfig({ env: box.env });
    const graphiti = new GraphitiClient(config);
    try {
      expect((await runSync(config, { graphiti })).added).toBe(1);
      // The front dies with its connections (as a killed supervisor's do), the record still says ready
      // and names a live supervisor (it is checked before each request: the worst case is a record
      // that still looks right), and another program takes the port before the next request.
      const stranger = await anotherProgramTakesThePort();
      box.pai('LEARNING/SYSTEM/b.md', learning('Beta', 'Beta note, private.'));
      const summary = await runSync(config, { graphiti });
      expect(stranger.http.filter((h) => h.method === 'POST')).toEqual([]);
      expect(stranger.http.every((h) => !h.hasAuthorization)).toBe(true);
      expect(stranger.calls).toEqual([]);
      expect(summary.pending).toBe(1);
    } finally {
      await graphiti.close();
    }
  });
});
