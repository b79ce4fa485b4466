/**
 * Deadlines, aborts and the typed errors (with their `retryable` verdicts) that the
 * client throws for network failures and HTTP statuses.
 */
import { describe, expect, it } from 'vitest';
import {
  McpAbortError,
  McpHttpError,
  McpNetworkError,
  McpSessionExpiredError,
  McpTimeoutError,
  isRetryable,
  mayHaveArrived,
  parseRetryAfter,
} from '../../src/lib/mcp/errors.js';
import { displayUrl, isNetworkFailure, toNetworkError } from '../../src/lib/mcp/http.js';
import { deferred, fakeScope, json, mcpHandler, sseHeaders, text, type Handler } from './fake-server.js';
import { unusedPort } from '../helpers/ports.js';

const { serve, client } = fakeScope({ transport: 'streamable-http' });

/** An MCP server whose tools/call is handled by `onCall`. */
function callServer(onCall: (req: Parameters<Handler>[0], res: Parameters<Handler>[1]) => void): Handler {
  return mcpHandler({
    on: {
      'tools/call': (req, res) => {
        onCall(req, res);
        return true;
      },
    },
  });
}

describe('deadline', () => {
  it('times out a body that trickles forever (headers, then nothing) and sends notifications/cancelled', async () => {
    const server = await serve(
      callServer((_req, res) => {
        sseHeaders(res);
        res.write(': still here\n\n');
      }),
    );
    const c = client({ url: `${server.origin}/mcp` });
    await c.connect();
    const started = performance.now();
    const error = await c.callTool('echo', {}, { timeoutMs: 300 }).catch((e: unknown) => e);
    const elapsed = performance.now() - started;
    expect(error).toBeInstanceOf(McpTimeoutError);
    expect((error as McpTimeoutError).retryable).toBe(true);
    expect((error as McpTimeoutError).timeoutMs).toBe(300);
    expect(elapsed).toBeGreaterThanOrEqual(290);
    expect(elapsed).toBeLessThan(2000);
    const callId = server.rpc('tools/call')[0]!.json.id;
    const cancel = await server.waitFor((r) => r.json?.method === 'notifications/cancelled');
    expect(cancel.json.params.requestId).toBe(callId);
    expect(cancel.headers['mcp-session-id']).toBe('session-1');
  });

  it('times out a JSON body that stops half-way', async () => {
    const server = await serve(
      callServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
        res.write('{"jsonrpc":"2.0",');
      }),
    );
    const c = client({ url: `${server.origin}/mcp`, timeoutMs: 300 });
    await c.connect();
    await expect(c.callTool('echo', {})).rejects.toBeInstanceOf(McpTimeoutError);
  });

  it('times out when the server never sends headers', async () => {
    const server = await serve(callServer(() => {}));
    const c = client({ url: `${server.origin}/mcp` });
    await c.connect();
    await expect(c.callTool('echo', {}, { timeoutMs: 200 })).rejects.toBeInstanceOf(McpTimeoutError);
  });

  it('covers connecting: a hanging initialize times out', async () => {
    const server = await serve(() => {});
    const c = client({ url: `${server.origin}/mcp`, timeoutMs: 200 });
    await expect(c.connect()).rejects.toBeInstanceOf(McpTimeoutError);
    await expect(c.request('ping')).rejects.toBeInstanceOf(McpTimeoutError);
  });
});

describe('abort', () => {
  it('turns a caller abort into a non-retryable McpAbortError', async () => {
    const server = await serve(callServer(() => {}));
    const c = client({ url: `${server.origin}/mcp` });
    await c.connect();
    const controller = new AbortController();
    const pending = c.callTool('echo', {}, { signal: controller.signal });
    await server.waitFor((r) => r.json?.method === 'tools/call');
    controller.abort(new Error('user cancelled'));
    const error = await pending.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpAbortError);
    expect((error as McpAbortError).retryable).toBe(false);
    // No cancellation notice for a caller abort? We only send one on timeout.
    expect(server.rpc('notifications/cancelled')).toHaveLength(0);
  });

  it('fails at once with an already aborted signal', async () => {
    const server = await serve(mcpHandler());
    const c = client({ url: `${server.origin}/mcp` });
    await expect(c.connect(AbortSignal.abort())).rejects.toBeInstanceOf(McpAbortError);
    expect(server.requests).toHaveLength(0);
  });

  it('close() aborts requests in flight', async () => {
    const server = await serve(callServer(() => {}));
    const c = client({ url: `${server.origin}/mcp` });
    await c.connect();
    const pending = c.callTool('echo', {}).catch((e: unknown) => e);
    await server.waitFor((r) => r.json?.method === 'tools/call');
    await c.close();
    expect(await pending).toBeInstanceOf(McpAbortError);
  });
});

describe('network errors', () => {
  it('connection refused → retryable McpNetworkError with code ECONNREFUSED', async () => {
    const port = await unusedPort();
    const c = client({ url: `http://127.0.0.1:${port}/mcp` });
    const error = await c.connect().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpNetworkError);
    expect((error as McpNetworkError).code).toBe('ECONNREFUSED');
    expect((error as McpNetworkError).retryable).toBe(true);
  });

  it('connection reset mid-body → retryable McpNetworkError', async () => {
    const server = await serve(
      callServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"jsonrpc":', () => res.destroy());
      }),
    );
    const c = client({ url: `${server.origin}/mcp` });
    await c.connect();
    const error = await c.callTool('echo', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpNetworkError);
    expect((error as McpNetworkError).retryable).toBe(true);
  });

  it('connection closed before any response → retryable McpNetworkError (ECONNRESET)', async () => {
    const server = await serve(callServer((_req, res) => res.socket?.destroy()));
    const c = client({ url: `${server.origin}/mcp` });
    await c.connect();
    const error = await c.callTool('echo', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpNetworkError);
    expect((error as McpNetworkError).code).toBe('ECONNRESET');
  });

  it('keeps URL credentials out of messages', async () => {
    expect(displayUrl('http://user:pw@127.0.0.1:1/mcp')).toBe('http://127.0.0.1:1/mcp');
    const c = client({ url: 'http://user:pw@127.0.0.1:1/mcp' });
    const error = (await c.connect().catch((e: unknown) => e)) as Error;
    expect(error).toBeInstanceOf(McpNetworkError);
    expect(error.message).not.toMatch(/pw/);
  });

  it('maps fetch-style failures along the cause chain', () => {
    const fetchFailed = new TypeError('fetch failed', { cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }) });
    expect(isNetworkFailure(fetchFailed)).toBe(true);
    expect(toNetworkError(fetchFailed, 'http://x/mcp').code).toBe('UND_ERR_SOCKET');
    expect(isNetworkFailure(new TypeError('terminated'))).toBe(true);
    expect(toNetworkError(new TypeError('terminated'), 'http://x/mcp').retryable).toBe(true);
    expect(isNetworkFailure(new TypeError('x is not a function'))).toBe(false);
  });
});

describe('HTTP statuses', () => {
  it.each([408, 425, 429, 500, 502, 503, 504])('%i is retryable', async (status) => {
    const server = await serve(callServer((_req, res) => text(res, status, 'busy')));
    const c = client({ url: `${server.origin}/mcp` });
    const error = await c.callTool('echo', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpHttpError);
    expect((error as McpHttpError).status).toBe(status);
    expect(isRetryable(error)).toBe(true);
  });

  it.each([
    [502, true],
    [504, true],
    [408, false],
    [425, false],
    [429, false],
    [500, false],
    [503, false],
  ])('%i: may the request have arrived (MAY_HAVE_ARRIVED: a gateway may have forwarded it)? %s', async (status, arrived) => {
    const server = await serve(callServer((_req, res) => text(res, status, 'answer')));
    const c = client({ url: `${server.origin}/mcp` });
    const error = await c.callTool('echo', {}).catch((e: unknown) => e);
    expect((error as McpHttpError).status).toBe(status);
    expect(mayHaveArrived(error)).toBe(arrived);
  });

  it('a lost session is never taken for a gateway answer', () => {
    expect(mayHaveArrived(new McpSessionExpiredError(404, 'Session not found', 'http://x/mcp'))).toBe(false);
  });

  it.each([400, 401, 403, 406])('%i is not retryable', async (status) => {
    const server = await serve(callServer((_req, res) => text(res, status, 'no')));
    const c = client({ url: `${server.origin}/mcp` });
    const error = await c.callTool('echo', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpHttpError);
    expect((error as McpHttpError).status).toBe(status);
    expect(isRetryable(error)).toBe(false);
  });

  it('parses Retry-After seconds on a 503', async () => {
    const server = await serve(callServer((_req, res) => text(res, 503, 'Service Unavailable', { 'Retry-After': '7' })));
    const c = client({ url: `${server.origin}/mcp` });
    const error = (await c.callTool('echo', {}).catch((e: unknown) => e)) as McpHttpError;
    expect(error.status).toBe(503);
    expect(error.retryAfterMs).toBe(7000);
    expect(error.body).toBe('Service Unavailable');
  });

  it('parses an HTTP-date Retry-After on a 429', async () => {
    const when = new Date(Date.now() + 60_000).toUTCString();
    const server = await serve(callServer((_req, res) => text(res, 429, 'slow down', { 'Retry-After': when })));
    const c = client({ url: `${server.origin}/mcp` });
    const error = (await c.callTool('echo', {}).catch((e: unknown) => e)) as McpHttpError;
    expect(error.retryAfterMs).toBeGreaterThan(55_000);
    expect(error.retryAfterMs).toBeLessThanOrEqual(60_000);
    expect(parseRetryAfter('1.5')).toBe(1500);
  });

  it('421 reaches the caller as McpHttpError(421) explaining Host/DNS rebinding, sent exactly once', async () => {
    const server = await serve((_req, res) => text(res, 421, 'Invalid Host header'));
    const c = client({ url: `${server.origin}/mcp` });
    const error = (await c.connect().catch((e: unknown) => e)) as McpHttpError;
    expect(error).toBeInstanceOf(McpHttpError);
    expect(error.status).toBe(421);
    expect(error.message).toMatch(/Host/);
    expect(error.message).toMatch(/DNS-rebinding/);
    expect(error.retryable).toBe(false);
    expect(server.requests).toHaveLength(1);
  });

  it('an error status on notifications/initialized fails connect()', async () => {
    const server = await serve(
      mcpHandler({
        on: {
          'notifications/initialized': (_req, res) => {
            text(res, 500, 'boom');
            return true;
          },
        },
      }),
    );
    const c = client({ url: `${server.origin}/mcp` });
    const error = (await c.connect().catch((e: unknown) => e)) as McpHttpError;
    expect(error.status).toBe(500);
  });
});

describe('concurrency', () => {
  it('shares one initialize between concurrent first requests', async () => {
    const hold = deferred();
    const server = await serve(
      mcpHandler({
        on: {
          initialize: async () => {
            await hold.promise;
            return false;
          },
        },
      }),
    );
    const c = client({ url: `${server.origin}/mcp` });
    const calls = [c.callTool('echo', { n: 1 }), c.callTool('echo', { n: 2 }), c.listTools()];
    await server.waitFor((r) => r.json?.method === 'initialize');
    hold.resolve();
    await Promise.all(calls);
    expect(server.rpc('initialize')).toHaveLength(1);
    expect(server.rpc('tools/call')).toHaveLength(2);
  });

  it("one caller aborting does not fail another caller waiting for the same initialize", async () => {
    const hold = deferred();
    const server = await serve(
      mcpHandler({
        on: {
          initialize: async () => {
            await hold.promise;
            return false;
          },
        },
      }),
    );
    const c = client({ url: `${server.origin}/mcp` });
    const controller = new AbortController();
    const first = c.callTool('echo', { n: 1 }, { signal: controller.signal }).catch((e: unknown) => e);
    const second = c.callTool('echo', { n: 2 });
    await server.waitFor((r) => r.json?.method === 'initialize');
    controller.abort();
    expect(await first).toBeInstanceOf(McpAbortError);
    hold.resolve();
    expect((await second).content[0]!.text).toBe('{"n":2}');
    expect(server.rpc('initialize')).toHaveLength(1);
  });

  it('re-initializes once when concurrent requests all hit a lost session', async () => {
    const dead = new Set<string>(['session-1']);
    const server = await serve(
      mcpHandler({
        on: {
          'tools/call': (req, res) => {
            if (dead.has(req.headers['mcp-session-id'] as string)) {
              json(res, { jsonrpc: '2.0', id: 'server-error', error: { code: -32600, message: 'Session not found' } }, {}, 404);
              return true;
            }
            return false;
          },
        },
      }),
    );
    const c = client({ url: `${server.origin}/mcp` });
    await c.connect();
    await Promise.all([c.callTool('echo', { n: 1 }), c.callTool('echo', { n: 2 }), c.callTool('echo', { n: 3 })]);
    expect(server.rpc('initialize')).toHaveLength(2);
    expect(server.rpc('tools/call').filter((r) => r.headers['mcp-session-id'] === 'session-2')).toHaveLength(3);
  });
});
