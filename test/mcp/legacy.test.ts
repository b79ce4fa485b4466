/**
 * The 2024-11-05 HTTP+SSE fallback: detection, the endpoint event, responses on the
 * GET stream, and re-initialization when the stream reconnects or a new endpoint
 * (= a new session) is announced.
 */
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { McpHttpError, McpProtocolError, McpTimeoutError } from '../../src/lib/mcp/errors.js';
import { deferred, fakeScope, result, sse, sseHeaders, startServer, text, TOOLS, type FakeServer, type Recorded } from './fake-server.js';

const { cleanups, client } = fakeScope();

interface LegacySession {
  id: string;
  stream: ServerResponse;
  alive: boolean;
  closed: Promise<void>;
}

interface LegacyOptions {
  /** Status for POST /mcp (Streamable HTTP probe); default 405. */
  mcpStatus?: number;
  /** Where the SSE stream lives; default '/sse'. */
  ssePath?: string;
  /** Also serve the SSE stream on GET /mcp (some servers use one path). */
  sseOnMcpPath?: boolean;
  /** The endpoint URI announced (relative by default). */
  endpoint?: (sessionId: string, origin: string) => string;
  /** Called after a tools/call response was written on the stream. */
  afterCall?: (session: LegacySession, server: LegacyServer) => void;
  /** Do not answer tools/call at all. */
  silentCalls?: boolean;
  /** Messages to push on the stream before answering tools/call. */
  beforeCall?: (session: LegacySession) => void;
  eol?: string;
}

interface LegacyServer extends FakeServer {
  sessions: LegacySession[];
  newSession(stream: ServerResponse): LegacySession;
}

async function legacyServer(options: LegacyOptions = {}): Promise<LegacyServer> {
  const ssePath = options.ssePath ?? '/sse';
  const eol = options.eol ?? '\r\n';
  const sessions: LegacySession[] = [];
  let server!: LegacyServer;
  const endpointFor = (id: string) => (options.endpoint ? options.endpoint(id, server.origin) : `/messages/?session_id=${id}`);
  const newSession = (stream: ServerResponse): LegacySession => {
    const id = `s${sessions.length + 1}`;
    const closed = deferred();
    const session: LegacySession = { id, stream, alive: true, closed: closed.promise };
    stream.on('close', () => {
      session.alive = false;
      closed.resolve();
    });
    sessions.push(session);
    return session;
  };
  const write = (session: LegacySession, message: unknown) => session.stream.write(sse(message, { event: 'message', eol }));

  const base = await startServer((req: Recorded, res) => {
    if (req.method === 'GET' && (req.path === ssePath || (options.sseOnMcpPath && req.path === '/mcp'))) {
      sseHeaders(res);
      const session = newSession(res);
      res.write(`: hello${eol}${eol}`);
      res.write(sse(endpointFor(session.id), { event: 'endpoint', eol }));
      return;
    }
    if (req.method === 'POST' && req.path === '/mcp') return text(res, options.mcpStatus ?? 405, 'Method Not Allowed');
    if (req.method === 'POST' && req.path === '/messages/') {
      const sid = new URL(req.url, 'http://x').searchParams.get('session_id');
      const session = sessions.find((s) => s.id === sid && s.alive);
      if (!session) return text(res, 404, 'Could not find session');
      text(res, 202, 'Accepted');
      const msg = req.json;
      if (msg?.method === undefined || msg.id === undefined) return; // notification or a client reply
      switch (msg.method) {
        case 'initialize':
          write(session, result(msg.id, { protocolVersion: msg.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'legacy', version: '0.9' } }));
          return;
        case 'tools/list':
          write(session, result(msg.id, { tools: TOOLS }));
          return;
        case 'tools/call':
          if (options.silentCalls) return;
          options.beforeCall?.(session);
          write(session, result(msg.id, { content: [{ type: 'text', text: `${session.id}:${JSON.stringify(msg.params.arguments)}` }] }));
          options.afterCall?.(session, server);
          return;
        default:
          write(session, result(msg.id, {}));
      }
      return;
    }
    text(res, 404, 'Not Found');
  });
  server = Object.assign(base, { sessions, newSession });
  cleanups.push(() => base.close());
  return server;
}

const summary = (server: FakeServer) =>
  server.requests.map((r) => `${r.method} ${r.path}${r.json?.method ? ` ${r.json.method}` : ''}${r.url.includes('session_id') ? ` ${new URL(r.url, 'http://x').searchParams.get('session_id')}` : ''}`);

describe('legacy HTTP+SSE fallback', () => {
  it.each([400, 404, 405])('falls back when the initialize POST gets %i', async (status) => {
    const server = await legacyServer({ mcpStatus: status });
    const c = client({ url: `${server.origin}/mcp`, authToken: 'tok' });
    const out = await c.callTool('echo', { message: 'hi' });
    expect(out.content[0]!.text).toBe('s1:{"message":"hi"}');
    expect(c.transportKind).toBe('sse');
    expect(c.protocolVersion).toBe('2024-11-05');
    expect(c.serverInfo).toEqual({ name: 'legacy', version: '0.9' });
    expect(summary(server)).toEqual([
      'POST /mcp initialize',
      'GET /sse',
      'POST /messages/ initialize s1',
      'POST /messages/ notifications/initialized s1',
      'POST /messages/ tools/call s1',
    ]);
    expect(server.requests[2]!.json.params.protocolVersion).toBe('2024-11-05');
    for (const r of server.requests) expect(r.headers.authorization).toBe('Bearer tok');
    expect(server.requests[1]!.headers.accept).toBe('text/event-stream');
    for (const r of server.requests.slice(2)) expect(r.headers['mcp-protocol-version']).toBeUndefined();
  });

  it('uses the sseUrl option and an absolute same-origin endpoint', async () => {
    const server = await legacyServer({ ssePath: '/events', endpoint: (id, origin) => `${origin}/messages/?session_id=${id}` });
    const c = client({ url: `${server.origin}/mcp`, sseUrl: `${server.origin}/events` });
    await c.callTool('echo', {});
    expect(summary(server).slice(0, 2)).toEqual(['POST /mcp initialize', 'GET /events']);
  });

  it('tries the configured URL itself when <origin>/sse is not found', async () => {
    const server = await legacyServer({ ssePath: '/nowhere', sseOnMcpPath: true });
    const c = client({ url: `${server.origin}/mcp` });
    await c.callTool('echo', {});
    expect(summary(server).slice(0, 4)).toEqual(['POST /mcp initialize', 'GET /sse', 'GET /mcp', 'POST /messages/ initialize s1']);
  });

  it('throws the Streamable HTTP error when there is no legacy endpoint either', async () => {
    const server = await legacyServer({ mcpStatus: 404, ssePath: '/nowhere' });
    const c = client({ url: `${server.origin}/mcp` });
    const error = (await c.connect().catch((e: unknown) => e)) as McpHttpError;
    expect(error).toBeInstanceOf(McpHttpError);
    expect(error.status).toBe(404);
    expect(error.url).toBe(`${server.origin}/mcp`);
  });

  it('keeps the Streamable HTTP error when the legacy probe only finds a Streamable HTTP endpoint (GET → 400)', async () => {
    const server = await startServer((req, res) => {
      if (req.method === 'POST') return text(res, 404, '{"jsonrpc":"2.0","id":"server-error","error":{"code":-32600,"message":"Session not found"}}');
      if (req.path === '/mcp') return text(res, 400, 'Bad Request: Missing session ID');
      return text(res, 404, 'Not Found');
    });
    cleanups.push(() => server.close());
    const c = client({ url: `${server.origin}/mcp` });
    const error = (await c.connect().catch((e: unknown) => e)) as McpHttpError;
    expect(error).toBeInstanceOf(McpHttpError);
    expect(error.status).toBe(404);
    expect(error.message).toContain('Session not found');
  });

  it("never falls back with transport 'streamable-http'", async () => {
    const server = await legacyServer({ mcpStatus: 404 });
    const c = client({ url: `${server.origin}/mcp`, transport: 'streamable-http' });
    await expect(c.connect()).rejects.toBeInstanceOf(McpHttpError);
    expect(server.requests.some((r) => r.method === 'GET')).toBe(false);
  });

  it("goes straight to legacy with transport 'sse'", async () => {
    const server = await legacyServer();
    const c = client({ url: `${server.origin}/sse`, transport: 'sse' });
    await c.listTools();
    expect(summary(server)).toEqual([
      'GET /sse',
      'POST /messages/ initialize s1',
      'POST /messages/ notifications/initialized s1',
      'POST /messages/ tools/list s1',
    ]);
  });

  it('refuses an endpoint on another origin', async () => {
    const server = await legacyServer({ endpoint: (id) => `http://localhost:1/messages/?session_id=${id}` });
    const c = client({ url: `${server.origin}/sse`, transport: 'sse' });
    const error = await c.connect().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpProtocolError);
    expect((error as Error).message).toMatch(/origin/);
  });

  it('re-initializes after the stream closed (a reconnect is a new session)', async () => {
    const server = await legacyServer({ afterCall: (session) => session.stream.end() });
    const c = client({ url: `${server.origin}/mcp` });
    expect((await c.callTool('echo', { n: 1 })).content[0]!.text).toBe('s1:{"n":1}');
    await server.sessions[0]!.closed;
    expect((await c.callTool('echo', { n: 2 })).content[0]!.text).toBe('s2:{"n":2}');
    const s2 = summary(server).filter((line) => line.endsWith(' s2'));
    expect(s2).toEqual(['POST /messages/ initialize s2', 'POST /messages/ notifications/initialized s2', 'POST /messages/ tools/call s2']);
    expect(server.requests.filter((r) => r.method === 'GET')).toHaveLength(2);
    expect(c.transportKind).toBe('sse');
  });

  it('re-initializes when the POST endpoint says the session is gone', async () => {
    const server = await legacyServer();
    const c = client({ url: `${server.origin}/mcp` });
    await c.callTool('echo', { n: 1 });
    server.sessions[0]!.alive = false; // the server forgot the session but the stream is still open
    expect((await c.callTool('echo', { n: 2 })).content[0]!.text).toBe('s2:{"n":2}');
    expect(summary(server).filter((l) => l.includes('tools/call'))).toEqual([
      'POST /messages/ tools/call s1',
      'POST /messages/ tools/call s1',
      'POST /messages/ tools/call s2',
    ]);
  });

  it('re-initializes on a new endpoint event before the next request', async () => {
    let announced = false;
    const server = await legacyServer({
      beforeCall: (session) => {
        if (announced) return;
        announced = true;
        // Same stream, new session id: send the endpoint before the pending response.
        const next = `s${server.sessions.length + 1}`;
        server.sessions.push({ ...session, id: next });
        session.stream.write(sse(`/messages/?session_id=${next}`, { event: 'endpoint' }));
      },
    });
    const c = client({ url: `${server.origin}/mcp` });
    expect((await c.callTool('echo', { n: 1 })).content[0]!.text).toBe('s1:{"n":1}');
    expect((await c.callTool('echo', { n: 2 })).content[0]!.text).toBe('s2:{"n":2}');
    expect(summary(server).slice(-3)).toEqual([
      'POST /messages/ initialize s2',
      'POST /messages/ notifications/initialized s2',
      'POST /messages/ tools/call s2',
    ]);
    expect(server.requests.filter((r) => r.method === 'GET')).toHaveLength(1);
  });

  it('answers server requests on the stream with a POST to the endpoint', async () => {
    const server = await legacyServer({
      beforeCall: (session) => {
        session.stream.write(sse({ jsonrpc: '2.0', id: 77, method: 'ping' }, { event: 'message' }));
        session.stream.write(sse({ jsonrpc: '2.0', id: 78, method: 'roots/list' }, { event: 'message' }));
      },
    });
    const c = client({ url: `${server.origin}/mcp` });
    await c.callTool('echo', {});
    const ping = await server.waitFor((r) => r.json?.id === 77);
    const roots = await server.waitFor((r) => r.json?.id === 78);
    expect(ping.json.result).toEqual({});
    expect(roots.json.error.code).toBe(-32601);
    expect(ping.path).toBe('/messages/');
  });

  it('times out when the response never arrives on the stream', async () => {
    const server = await legacyServer({ silentCalls: true });
    const c = client({ url: `${server.origin}/mcp` });
    await c.connect();
    await expect(c.callTool('echo', {}, { timeoutMs: 200 })).rejects.toBeInstanceOf(McpTimeoutError);
  });

  it('close() aborts the stream', async () => {
    const server = await legacyServer();
    const c = client({ url: `${server.origin}/mcp` });
    await c.connect();
    await c.close();
    await server.sessions[0]!.closed;
    expect(server.sessions[0]!.alive).toBe(false);
  });
});
