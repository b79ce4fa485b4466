/**
 * McpClient over Streamable HTTP against scripted node:http servers: handshake,
 * protocol negotiation, headers, sessions, redirects, JSON and SSE replies.
 */
import { describe, expect, it } from 'vitest';
import { McpClient } from '../../src/lib/mcp/client.js';
import { McpHttpError, McpJsonRpcError, McpProtocolError, McpSessionExpiredError } from '../../src/lib/mcp/errors.js';
import { STREAM_END_GRACE_MS } from '../../src/lib/mcp/streamable.js';
import { createLogger } from '../../src/lib/util/log.js';
import {
  accepted,
  deferred,
  fakeScope,
  json,
  mcpHandler,
  result,
  rpcError,
  sse,
  sseHeaders,
  text,
  type FakeServer,
} from './fake-server.js';

const { serve, client } = fakeScope({ transport: 'streamable-http' });

describe('handshake', () => {
  it('initializes, sends initialized, keeps the session id and deletes it on close', async () => {
    const server = await serve(mcpHandler());
    const c = client({ url: `${server.origin}/mcp` });
    await c.connect();
    expect(c.sessionId).toBe('session-1');
    expect(c.protocolVersion).toBe('2025-11-25');
    expect(c.serverInfo).toEqual({ name: 'fake', version: '1.0.0' });
    expect(c.transportKind).toBe('streamable-http');
    await c.connect(); // idempotent
    const out = await c.callTool('echo', { message: 'hi' });
    expect(out.content[0]).toEqual({ type: 'text', text: '{"message":"hi"}' });
    await c.close();

    const kinds = server.requests.map((r) => `${r.method} ${r.json?.method ?? ''}`.trim());
    expect(kinds).toEqual(['POST initialize', 'POST notifications/initialized', 'POST tools/call', 'DELETE']);
    const [init, initialized, call, del] = server.requests;
    expect(init!.json.params.protocolVersion).toBe('2025-11-25');
    expect(init!.json.params.clientInfo.name).toBe('graphiti-memory-sync');
    expect(init!.headers.accept).toBe('application/json, text/event-stream');
    expect(init!.headers['content-type']).toBe('application/json');
    expect(init!.headers['mcp-session-id']).toBeUndefined();
    expect(init!.headers['mcp-protocol-version']).toBeUndefined();
    for (const r of [initialized!, call!, del!]) {
      expect(r.headers['mcp-session-id']).toBe('session-1');
      expect(r.headers['mcp-protocol-version']).toBe('2025-11-25');
    }
    expect(c.sessionId).toBeUndefined();
  });

  it('waits for the 202 of notifications/initialized before the next request', async () => {
    let server!: FakeServer;
    server = await serve(
      mcpHandler({
        on: {
          'notifications/initialized': (_req, res) => {
            server.events.push('initialized received');
            setTimeout(() => {
              server.events.push('initialized answered');
              accepted(res);
            }, 150);
            return true;
          },
          'tools/call': () => {
            server.events.push('tools/call received');
          },
        },
      }),
    );
    const c = client({ url: `${server.origin}/mcp` });
    await c.callTool('echo', { message: 'x' });
    expect(server.events).toEqual(['initialized received', 'initialized answered', 'tools/call received']);
  });

  it('ignores a 405 and any error on DELETE at close', async () => {
    const server = await serve(async (req, res) => {
      if (req.method === 'DELETE') return text(res, 405, 'Method Not Allowed');
      return mcpHandler()(req, res);
    });
    const c = client({ url: `${server.origin}/mcp` });
    await c.connect();
    await expect(c.close()).resolves.toBeUndefined();
    expect(server.requests.at(-1)!.method).toBe('DELETE');
  });

  it('sends no DELETE when the server issued no session', async () => {
    const server = await serve(mcpHandler({ session: null }));
    const c = client({ url: `${server.origin}/mcp` });
    await c.connect();
    expect(c.sessionId).toBeUndefined();
    await c.request('ping');
    await c.close();
    expect(server.requests.some((r) => r.method === 'DELETE')).toBe(false);
    expect(server.requests.every((r) => r.headers['mcp-session-id'] === undefined)).toBe(true);
  });

  it('sends the bearer token and extra headers on every request, never logging them', async () => {
    const server = await serve(mcpHandler());
    const lines: string[] = [];
    const logger = createLogger({ level: 'debug', mirror: (line) => lines.push(line) });
    const c = client({
      url: `${server.origin}/mcp`,
      authToken: 's3cr3t-token',
      headers: { 'X-Api-Key': 'extra-key-value', Authorization: 'Basic overridden' },
      logger,
    });
    await c.callTool('echo', { message: 'x' });
    await c.close();
    expect(server.requests).toHaveLength(4);
    for (const r of server.requests) {
      expect(r.headers.authorization).toBe('Bearer s3cr3t-token');
      expect(r.headers['x-api-key']).toBe('extra-key-value');
    }
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.join('\n')).not.toMatch(/s3cr3t-token|extra-key-value/);
  });

  it('writes nothing to stdout or stderr', async () => {
    const server = await serve(mcpHandler({ reply: 'sse' }));
    const writes: string[] = [];
    const out = process.stdout.write.bind(process.stdout);
    const err = process.stderr.write.bind(process.stderr);
    process.stdout.write = ((chunk: string | Uint8Array) => (writes.push(String(chunk)), true)) as typeof process.stdout.write;
    process.stderr.write = ((chunk: string | Uint8Array) => (writes.push(String(chunk)), true)) as typeof process.stderr.write;
    try {
      const c = client({ url: `${server.origin}/mcp` });
      await c.listTools();
      await c.callTool('echo', { message: 'quiet' });
      await c.close();
    } finally {
      process.stdout.write = out;
      process.stderr.write = err;
    }
    expect(writes).toEqual([]);
  });
});

describe('protocol version negotiation', () => {
  async function negotiate(version: string) {
    const server = await serve(mcpHandler({ version: () => version }));
    const c = client({ url: `${server.origin}/mcp` });
    return { server, c };
  }

  it.each([
    ['2025-11-25', '2025-11-25'],
    ['2025-06-18', '2025-06-18'],
    ['2025-03-26', '2025-03-26'],
    ['2024-11-05', undefined],
  ])('server picks %s → MCP-Protocol-Version %s after init', async (version, expected) => {
    const { server, c } = await negotiate(version);
    await c.callTool('echo', { message: 'x' });
    expect(c.protocolVersion).toBe(version);
    const after = server.requests.slice(1);
    expect(after.length).toBe(2);
    for (const r of after) expect(r.headers['mcp-protocol-version']).toBe(expected);
    expect(server.requests[0]!.headers['mcp-protocol-version']).toBeUndefined();
  });

  it('rejects a version it does not support with a clear protocol error', async () => {
    const { server, c } = await negotiate('1999-01-01');
    const error = await c.connect().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpProtocolError);
    expect((error as Error).message).toMatch(/1999-01-01.*not support/);
    expect(server.rpc('notifications/initialized')).toHaveLength(0);
  });

  it('offers the configured version', async () => {
    const server = await serve(mcpHandler());
    const c = client({ url: `${server.origin}/mcp`, protocolVersion: '2025-06-18' });
    await c.connect();
    expect(server.requests[0]!.json.params.protocolVersion).toBe('2025-06-18');
    expect(c.protocolVersion).toBe('2025-06-18');
  });
});

describe('replies', () => {
  it('reads SSE replies with CRLF, comments, priming events, notifications and server requests first', async () => {
    const server = await serve(
      mcpHandler({
        on: {
          'tools/call': (req, res) => {
            const id = req.json.id;
            const eol = '\r\n';
            sseHeaders(res);
            res.write(`: ping - 2026-01-01 00:00:00${eol}${eol}`);
            res.write(sse('', { id: 'prime-1', eol, retry: 3000 })); // priming: id + empty data
            res.write(sse({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'x' } }, { event: 'message', eol }));
            res.write(sse({ jsonrpc: '2.0', method: 'notifications/progress', params: { progress: 1 } }, { eol }));
            res.write(sse({ jsonrpc: '2.0', id: 'srv-1', method: 'roots/list' }, { event: 'message', eol }));
            res.write(sse({ jsonrpc: '2.0', id: 'srv-2', method: 'ping' }, { eol }));
            res.write(sse({ jsonrpc: '2.0', id: 'srv-3', method: 'sampling/createMessage', params: {} }, { eol }));
            // A response with our id but on a non-message event type must be ignored.
            res.write(sse(result(id, { content: [{ type: 'text', text: 'WRONG' }] }), { event: 'custom', eol }));
            // Another request's response is ignored too.
            res.write(sse(result(9999, { content: [] }), { eol }));
            // Multi-line data: the JSON spans two data: lines.
            res.write(`event: message${eol}data: {"jsonrpc":"2.0",${eol}data: "id":${JSON.stringify(id)},"result":{"content":[{"type":"text","text":"right"}]}}${eol}${eol}`);
            res.end();
            return true;
          },
        },
      }),
    );
    const c = client({ url: `${server.origin}/mcp` });
    const out = await c.callTool('echo', { message: 'x' });
    expect(out.content).toEqual([{ type: 'text', text: 'right' }]);

    const replies = await Promise.all(
      ['srv-1', 'srv-2', 'srv-3'].map((id) => server.waitFor((r) => r.json?.id === id && r.json?.method === undefined)),
    );
    expect(replies[0]!.json.error.code).toBe(-32601);
    expect(replies[1]!.json).toEqual({ jsonrpc: '2.0', id: 'srv-2', result: {} });
    expect(replies[2]!.json.error.code).toBe(-32601);
    for (const r of replies) expect(r.headers['mcp-session-id']).toBe('session-1');
  });

  it('reads SSE replies written in many small chunks (LF and lone CR line ends)', async () => {
    const server = await serve(
      mcpHandler({
        on: {
          'tools/list': async (req, res) => {
            sseHeaders(res);
            const body =
              sse({ jsonrpc: '2.0', method: 'notifications/message', params: {} }, { eol: '\r' }) +
              sse(result(req.json.id, { tools: [{ name: 'a', inputSchema: { type: 'object' } }] }), { eol: '\n' });
            for (let i = 0; i < body.length; i += 3) {
              res.write(body.slice(i, i + 3));
              await new Promise((r) => setImmediate(r));
            }
            res.end();
            return true;
          },
        },
      }),
    );
    const c = client({ url: `${server.origin}/mcp` });
    expect((await c.listTools()).map((t) => t.name)).toEqual(['a']);
  });

  /** tools/call answered by one SSE response event; the stream then ends on the next turn, or never. */
  const replyThen = (end: 'soon' | 'never', onClose?: () => void) =>
    mcpHandler({
      on: {
        'tools/call': (req, res) => {
          sseHeaders(res);
          res.write(sse(result(req.json.id, { content: [{ type: 'text', text: 'ok' }] })));
          if (onClose) res.on('close', onClose);
          if (end === 'soon') setImmediate(() => res.end());
          return true;
        },
      },
    });

  it('reads an SSE reply to its end, so the next requests reuse the keep-alive connection', async () => {
    // The server ends the stream a moment after the response event, as FastMCP does. Cutting the
    // stream off at the response would cost every request a new connection.
    const server = await serve(replyThen('soon'));
    const c = client({ url: `${server.origin}/mcp` });
    await c.connect();
    for (let i = 0; i < 10; i++) await c.callTool('echo', { message: String(i) });
    const ports = new Set(server.rpc('tools/call').map((r) => r.remotePort));
    // The end of one reply may still be on its way when the next request leaves (that one opens a
    // second connection); after that the two take turns. Before: 10 connections for 10 calls.
    expect(ports.size).toBeLessThanOrEqual(2);
  });

  it('does not wait for a reply stream the server leaves open: the call returns, the stream is dropped', async () => {
    const dropped = deferred();
    const server = await serve(replyThen('never', () => dropped.resolve()));
    const c = client({ url: `${server.origin}/mcp` });
    const out = await c.callTool('echo', { message: 'x' });
    expect(out.content).toEqual([{ type: 'text', text: 'ok' }]);
    await dropped.promise; // within STREAM_END_GRACE_MS, without close()
    expect((await c.callTool('echo', { message: 'y' })).content).toEqual([{ type: 'text', text: 'ok' }]);
  });

  it('drops a reply stream still open after its response when the client closes', async () => {
    const dropped = deferred();
    const server = await serve(replyThen('never', () => dropped.resolve()));
    const c = client({ url: `${server.origin}/mcp`, timeoutMs: 60_000 });
    await c.callTool('echo', { message: 'x' });
    const closedAt = performance.now();
    await c.close();
    await dropped.promise;
    expect(server.rpc('tools/call')).toHaveLength(1);
    // Well before the grace: close() itself dropped it (the grace is 1 s).
    expect(performance.now() - closedAt).toBeLessThan(STREAM_END_GRACE_MS);
  });

  it('accepts a JSON batch array and picks the response by id', async () => {
    const server = await serve(
      mcpHandler({
        on: {
          ping: (req, res) => {
            json(res, [{ jsonrpc: '2.0', method: 'notifications/message', params: {} }, result(12345, {}), result(req.json.id, { ok: 1 })]);
            return true;
          },
        },
      }),
    );
    const c = client({ url: `${server.origin}/mcp` });
    expect(await c.request('ping')).toEqual({ ok: 1 });
  });

  it('throws McpProtocolError on an unexpected content type', async () => {
    const server = await serve(
      mcpHandler({
        on: {
          ping: (_req, res) => {
            res.writeHead(200, { 'content-type': 'text/html' });
            res.end('<html></html>');
            return true;
          },
        },
      }),
    );
    const c = client({ url: `${server.origin}/mcp` });
    const error = await c.request('ping').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpProtocolError);
    expect((error as Error).message).toMatch(/text\/html/);
  });

  it('turns a JSON-RPC error into a non-retryable McpJsonRpcError', async () => {
    const server = await serve(
      mcpHandler({
        on: {
          'tools/call': (req, res) => {
            // Not the first request after init, so no -32602 recovery either.
            json(res, rpcError(req.json.id, -32602, 'Invalid request parameters'));
            return true;
          },
        },
      }),
    );
    const c = client({ url: `${server.origin}/mcp` });
    await c.listTools();
    const error = await c.callTool('echo', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpJsonRpcError);
    expect((error as McpJsonRpcError).code).toBe(-32602);
    expect((error as McpJsonRpcError).retryable).toBe(false);
    expect(server.rpc('initialize')).toHaveLength(1);
    expect(server.rpc('tools/call')).toHaveLength(1);
  });

  it('follows nextCursor pagination in listTools', async () => {
    const server = await serve(
      mcpHandler({
        on: {
          'tools/list': (req, res) => {
            const cursor = req.json.params?.cursor;
            const page =
              cursor === undefined
                ? { tools: [{ name: 'one', inputSchema: { type: 'object' } }], nextCursor: 'p2' }
                : cursor === 'p2'
                  ? { tools: [{ name: 'two', inputSchema: { type: 'object' } }], nextCursor: 'p3' }
                  : { tools: [{ name: 'three' }] };
            json(res, result(req.json.id, page));
            return true;
          },
        },
      }),
    );
    const c = client({ url: `${server.origin}/mcp` });
    const tools = await c.listTools();
    expect(tools.map((t) => t.name)).toEqual(['one', 'two', 'three']);
    expect(tools[2]!.inputSchema).toEqual({ type: 'object' });
    expect(server.rpc('tools/list').map((r) => r.json.params?.cursor)).toEqual([undefined, 'p2', 'p3']);
  });
});

describe('redirects', () => {
  it.each([
    ['absolute', 307, (origin: string) => `${origin}/mcp`],
    ['relative', 308, () => '/mcp'],
  ])('follows a same-origin %s %i from /mcp/ to /mcp and keeps the final URL', async (_kind, status, location) => {
    let server!: FakeServer;
    const inner = mcpHandler();
    server = await serve(async (req, res) => {
      if (req.path === '/mcp/') {
        res.writeHead(status, { location: location(server.origin) });
        return void res.end();
      }
      return inner(req, res);
    });
    const c = client({ url: `${server.origin}/mcp/`, authToken: 'tok' });
    const out = await c.callTool('echo', { message: 'kept' });
    expect(out.content[0]!.text).toBe('{"message":"kept"}');
    await c.close();
    const paths = server.requests.map((r) => `${r.method} ${r.path}`);
    expect(paths).toEqual(['POST /mcp/', 'POST /mcp', 'POST /mcp', 'POST /mcp', 'DELETE /mcp']);
    // The redirected POST kept its body and headers.
    expect(server.requests[1]!.json.method).toBe('initialize');
    expect(server.requests[1]!.headers.authorization).toBe('Bearer tok');
  });

  it('refuses a cross-origin redirect', async () => {
    const other = await serve(mcpHandler());
    const server = await serve((_req, res) => {
      res.writeHead(307, { location: `${other.origin}/mcp` });
      res.end();
    });
    const c = client({ url: `${server.origin}/mcp`, authToken: 'tok' });
    const error = await c.connect().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpHttpError);
    expect((error as McpHttpError).status).toBe(307);
    expect((error as Error).message).toMatch(/cross-origin/);
    expect(other.requests).toHaveLength(0);
  });

  it('refuses a 302 (it would turn the POST into a GET)', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(302, { location: '/elsewhere' });
      res.end();
    });
    const c = client({ url: `${server.origin}/mcp` });
    const error = await c.connect().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpHttpError);
    expect((error as Error).message).toMatch(/only 307\/308/);
    expect(server.requests).toHaveLength(1);
  });

  it('gives up after 5 redirects', async () => {
    const server = await serve((req, res) => {
      const n = Number(req.path.slice(1)) || 0;
      res.writeHead(307, { location: `/${n + 1}` });
      res.end();
    });
    const c = client({ url: `${server.origin}/0` });
    const error = await c.connect().catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/Too many redirects/);
    expect(server.requests).toHaveLength(6);
  });
});

describe('session loss', () => {
  function expiringServer(options: { status: number; body: string; times: number }) {
    let expired = 0;
    const dead = new Set<string>();
    return mcpHandler({
      on: {
        'tools/call': (req, res) => {
          const sid = req.headers['mcp-session-id'] as string;
          if (dead.has(sid) || expired < options.times) {
            expired++;
            dead.add(sid);
            text(res, options.status, options.body);
            return true;
          }
          return false;
        },
      },
    });
  }

  it('re-initializes without a session id on 404 and retries once', async () => {
    const server = await serve(expiringServer({ status: 404, body: '{"error":{"code":-32600,"message":"Session not found"}}', times: 1 }));
    const c = client({ url: `${server.origin}/mcp` });
    await c.connect();
    expect(c.sessionId).toBe('session-1');
    const out = await c.callTool('echo', { message: 'again' });
    expect(out.content[0]!.text).toBe('{"message":"again"}');
    expect(c.sessionId).toBe('session-2');
    const seq = server.requests.map((r) => `${r.json?.method}:${r.headers['mcp-session-id'] ?? '-'}`);
    expect(seq).toEqual([
      'initialize:-',
      'notifications/initialized:session-1',
      'tools/call:session-1',
      'initialize:-',
      'notifications/initialized:session-2',
      'tools/call:session-2',
    ]);
  });

  it('retries only once: a second 404 reaches the caller as a retryable session error', async () => {
    const server = await serve(expiringServer({ status: 404, body: 'Not Found: Session has been terminated', times: 99 }));
    const c = client({ url: `${server.origin}/mcp` });
    const error = await c.callTool('echo', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpSessionExpiredError);
    expect((error as McpHttpError).status).toBe(404);
    expect((error as McpHttpError).retryable).toBe(true);
    expect(server.rpc('tools/call')).toHaveLength(2);
    expect(server.rpc('initialize')).toHaveLength(2);
  });

  it('treats old servers\' 400 "No valid session ID provided" as session loss', async () => {
    const server = await serve(expiringServer({ status: 400, body: 'Bad Request: No valid session ID provided', times: 1 }));
    const c = client({ url: `${server.origin}/mcp` });
    await c.listTools();
    await c.callTool('echo', { message: 'x' });
    expect(server.rpc('initialize')).toHaveLength(2);
    expect(server.rpc('tools/call').map((r) => r.headers['mcp-session-id'])).toEqual(['session-1', 'session-2']);
  });

  it('does not re-initialize on a 404 to a request without a session id', async () => {
    const server = await serve(
      mcpHandler({
        session: null,
        on: {
          'tools/call': (_req, res) => {
            text(res, 404, 'Not Found');
            return true;
          },
        },
      }),
    );
    const c = client({ url: `${server.origin}/mcp` });
    const error = await c.callTool('echo', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpHttpError);
    expect(error).not.toBeInstanceOf(McpSessionExpiredError);
    expect((error as McpHttpError).retryable).toBe(false);
    expect(server.rpc('initialize')).toHaveLength(1);
    expect(server.rpc('tools/call')).toHaveLength(1);
  });

  it('re-initializes and retries once on -32602 "Invalid request parameters" right after initialize', async () => {
    let rejected = 0;
    const server = await serve(
      mcpHandler({
        reply: 'sse',
        on: {
          'tools/call': (req, res) => {
            if (rejected++ > 0) return false;
            sseHeaders(res);
            res.end(sse(rpcError(req.json.id, -32602, 'Invalid request parameters'), { event: 'message', eol: '\r\n' }));
            return true;
          },
        },
      }),
    );
    const c = client({ url: `${server.origin}/mcp` });
    const out = await c.callTool('echo', { message: 'race' });
    expect(out.content[0]!.text).toBe('{"message":"race"}');
    expect(server.rpc('initialize')).toHaveLength(2);
    expect(server.rpc('tools/call')).toHaveLength(2);
  });
});
