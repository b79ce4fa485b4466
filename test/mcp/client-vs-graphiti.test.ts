/**
 * OUR MCP client (src/lib/mcp/client.ts) against the Graphiti-shaped test
 * server in every quirk mode: what the caller sees, and what the server saw.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { McpClient } from '../../src/lib/mcp/client.js';
import { McpHttpError, McpJsonRpcError, McpNetworkError, McpTimeoutError } from '../../src/lib/mcp/errors.js';
import { startGraphitiServer, type GraphitiServerOptions, type GraphitiTestServer } from '../support/graphiti-server.js';

let server: GraphitiTestServer | undefined;
let client: McpClient | undefined;

async function setup(options: GraphitiServerOptions = {}, clientOptions: Partial<ConstructorParameters<typeof McpClient>[0]> = {}) {
  server = await startGraphitiServer({ processingDelayMs: 0, ...options });
  client = new McpClient({ url: server.url, timeoutMs: 5_000, ...clientOptions });
  return { srv: server, c: client };
}

afterEach(async () => {
  await client?.close();
  await server?.close();
  client = undefined;
  server = undefined;
});

const initializes = (srv: GraphitiTestServer) => srv.http.filter((h) => h.rpcMethod === 'initialize' && h.status === 200).length;
const textOf = (r: { content: Array<{ text?: string }> }) => JSON.parse(r.content[0]!.text ?? '') as Record<string, unknown>;
const STATUS_OK = { status: 'ok', message: 'Graphiti MCP server is running and connected to neo4j database' };

describe('McpClient vs the Graphiti test server', () => {
  it('default (SSE, CRLF, ping comments): callTool returns the exact FastMCP result', async () => {
    const { srv, c } = await setup();
    const r = await c.callTool('add_memory', { name: 'Doc', episode_body: 'Client body text.' });
    expect(r).toEqual({
      content: [{ type: 'text', text: "{\n  \"message\": \"Episode 'Doc' queued for processing in group 'main'\"\n}" }],
      structuredContent: { result: { message: "Episode 'Doc' queued for processing in group 'main'" } },
    });
    expect(c.transportKind).toBe('streamable-http');
    expect(c.sessionId).toMatch(/^[0-9a-f]{32}$/);
    expect(c.protocolVersion).toBe('2025-11-25');
    expect(c.serverInfo).toEqual({ name: 'Graphiti Agent Memory', version: '1.26.0' });
    await srv.whenIdle();
    expect(srv.episodes().map((e) => e.name)).toEqual(['Doc']);
    // initialize, initialized (202) and the call, all on /mcp with the negotiated version header.
    const call = srv.http.find((h) => h.rpcMethod === 'tools/call')!;
    expect(call.headers['mcp-protocol-version']).toBe('2025-11-25');
    expect(call.headers['mcp-session-id']).toBe(c.sessionId);
    expect(call.headers.accept).toContain('text/event-stream');
  });

  it('LF framing without pings and JSON responses work too', async () => {
    const { c, srv } = await setup({ crlf: false, pingComments: false });
    expect(textOf(await c.callTool('get_status', {}))).toEqual(STATUS_OK);
    srv.setOptions({ jsonResponse: true });
    const c2 = new McpClient({ url: srv.url, timeoutMs: 5_000 });
    try {
      expect(textOf(await c2.callTool('get_status', {}))).toEqual(STATUS_OK);
    } finally {
      await c2.close();
    }
  });

  it('given the /mcp/ URL: follows the 307 and works; the server log shows the redirect', async () => {
    const { srv } = await setup();
    client = new McpClient({ url: `http://127.0.0.1:${srv.port}/mcp/`, timeoutMs: 5_000 });
    expect(textOf(await client.callTool('get_status', {}))).toEqual(STATUS_OK);
    expect(srv.http.some((h) => h.path === '/mcp/' && h.status === 307 && h.location === `http://127.0.0.1:${srv.port}/mcp`)).toBe(true);
    expect(srv.http.some((h) => h.path === '/mcp' && h.rpcMethod === 'tools/call' && h.status === 200)).toBe(true);
  });

  it('reverseRedirect (mcp < 1.12): given /mcp, follows 307 to /mcp/', async () => {
    const { srv } = await setup({ reverseRedirect: true });
    client = new McpClient({ url: `http://127.0.0.1:${srv.port}/mcp`, timeoutMs: 5_000 });
    expect(textOf(await client.callTool('get_status', {}))).toEqual(STATUS_OK);
    expect(srv.http.some((h) => h.path === '/mcp' && h.status === 307)).toBe(true);
  });

  it('404 session loss mid-run: re-initializes transparently and the call succeeds once', async () => {
    const { srv, c } = await setup();
    await c.callTool('get_status', {});
    const firstSession = c.sessionId;
    srv.failNext('sessionLoss');
    expect(textOf(await c.callTool('add_memory', { name: 'After loss', episode_body: 'Body.' }))).toEqual({
      message: "Episode 'After loss' queued for processing in group 'main'",
    });
    expect(initializes(srv)).toBe(2);
    expect(c.sessionId).not.toBe(firstSession);
    expect(srv.calls.map((x) => `${x.tool}:${x.outcome}`)).toEqual(['get_status:ok', 'add_memory:sessionLoss', 'add_memory:ok']);
  });

  it('legacySessionErrors (400 No valid session ID provided): same recovery', async () => {
    const { srv, c } = await setup({ legacySessionErrors: true });
    await c.callTool('get_status', {});
    srv.failNext('sessionLoss');
    expect(textOf(await c.callTool('get_status', {}))).toEqual(STATUS_OK);
    expect(srv.http.some((h) => h.status === 400 && h.fault === 'sessionLoss')).toBe(true);
    expect(initializes(srv)).toBe(2);
  });

  it('simulated restart: the next call re-initializes and succeeds', async () => {
    const { srv, c } = await setup();
    await c.callTool('get_status', {});
    await srv.restart();
    expect(textOf(await c.callTool('get_status', {}))).toEqual(STATUS_OK);
    expect(initializes(srv)).toBe(2);
  });

  it('a session lost twice in a row is not retried forever', async () => {
    const { srv, c } = await setup();
    await c.callTool('get_status', {});
    srv.failNext('sessionLoss', 2);
    await expect(c.callTool('get_status', {})).rejects.toBeInstanceOf(McpHttpError);
    expect(srv.calls.filter((x) => x.outcome === 'sessionLoss')).toHaveLength(2);
  });

  it('421 (restrictHost, 127.0.0.1 not allowed): non-retryable McpHttpError that explains the fix', async () => {
    const { srv, c } = await setup({ restrictHost: true, allowedHosts: ['localhost:*'] });
    const error = await c.callTool('get_status', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpHttpError);
    const e = error as McpHttpError;
    expect(e.status).toBe(421);
    expect(e.retryable).toBe(false);
    expect(e.message).toContain('Invalid Host header');
    expect(e.message).toMatch(/localhost/);
    expect(srv.http.filter((h) => h.status === 421).length).toBeGreaterThanOrEqual(1);
    // With 127.0.0.1 allowed (the real default) the same client works.
    srv.setOptions({ allowedHosts: ['127.0.0.1:*', 'localhost:*', '[::1]:*'] });
    expect(textOf(await c.callTool('get_status', {}))).toEqual(STATUS_OK);
  });

  it('oldServer: waits for the initialized 202, so the first call succeeds without a retry', async () => {
    const { srv, c } = await setup({ oldServer: true });
    const r = await c.callTool('get_status', {});
    expect(r.structuredContent).toBeUndefined();
    expect(c.protocolVersion).toBe('2025-03-26');
    expect(initializes(srv)).toBe(1);
    expect(srv.calls.map((x) => x.outcome)).toEqual(['ok']);
  });

  it('oldServer + initRace: -32602 right after initialize → one re-initialize, then success', async () => {
    const { srv, c } = await setup({ oldServer: true, initRace: 1 });
    expect(textOf(await c.callTool('get_status', {}))).toMatchObject({ status: 'ok' });
    expect(initializes(srv)).toBe(2);
    expect(srv.calls.map((x) => x.outcome)).toEqual(['error', 'ok']);
  });

  it('initRace on every session: the client retries once, then surfaces the -32602', async () => {
    const { srv, c } = await setup({ oldServer: true, initRace: true });
    const error = await c.callTool('get_status', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpJsonRpcError);
    expect((error as McpJsonRpcError).code).toBe(-32602);
    expect(initializes(srv)).toBe(2);
    expect(srv.calls.map((x) => x.outcome)).toEqual(['error', 'error']);
  });

  it('legacy SSE server: auto fallback; after dropSseStreams the next call re-initializes', async () => {
    const { srv, c } = await setup({ transport: 'sse' });
    expect(textOf(await c.callTool('get_status', {}))).toEqual(STATUS_OK);
    expect(c.transportKind).toBe('sse');
    expect(srv.http.some((h) => h.path === '/mcp' && h.method === 'POST' && h.status === 404)).toBe(true);
    expect(srv.http.some((h) => h.path === '/sse' && h.method === 'GET' && h.status === 200)).toBe(true);
    const sessionsBefore = srv.sessionIds();
    expect(sessionsBefore).toHaveLength(1);

    expect(srv.dropSseStreams()).toBe(1);
    expect(textOf(await c.callTool('add_memory', { name: 'Via SSE', episode_body: 'Legacy transport body.' }))).toEqual({
      message: "Episode 'Via SSE' queued for processing in group 'main'",
    });
    expect(initializes(srv)).toBe(0); // legacy initialize POSTs answer 202, not 200
    expect(srv.http.filter((h) => h.path === '/messages/' && h.rpcMethod === 'initialize' && h.status === 202)).toHaveLength(2);
    expect(srv.sessionIds()).toHaveLength(1);
    expect(srv.sessionIds()).not.toEqual(sessionsBefore);
    await srv.whenIdle();
    expect(srv.episodes().map((e) => e.name)).toEqual(['Via SSE']);
  });

  it("forced transport 'sse' with sseUrl", async () => {
    const { srv } = await setup({ transport: 'both' });
    client = new McpClient({ url: srv.url, sseUrl: srv.sseUrl, transport: 'sse', timeoutMs: 5_000 });
    expect(textOf(await client.callTool('get_status', {}))).toEqual(STATUS_OK);
    expect(client.transportKind).toBe('sse');
    expect(srv.http.some((h) => h.path === '/mcp')).toBe(false);
  });

  it('legacyToolNames: tools/list shows the pre-v1 names', async () => {
    const { c } = await setup({ legacyToolNames: true });
    const names = (await c.listTools()).map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['add_episode', 'search_facts', 'search_memory_nodes']));
    expect(names).not.toContain('add_memory');
    const add = (await c.listTools()).find((t) => t.name === 'add_episode')!;
    expect(add.inputSchema.required).toEqual(['name', 'episode_body']);
  });

  it('structuredContent:false (mcp 1.9.4): text-only result', async () => {
    const { c } = await setup({ structuredContent: false });
    const r = await c.callTool('get_status', {});
    expect(r).toEqual({ content: [{ type: 'text', text: JSON.stringify(STATUS_OK, null, 2) }] });
  });

  it('tool errors come back as results, not exceptions (isError for validation, {error} for domain)', async () => {
    const { c } = await setup();
    const invalid = await c.callTool('add_memory', { name: 'x' });
    expect(invalid.isError).toBe(true);
    expect(invalid.content[0]!.text).toContain('Field required [type=missing');
    const domain = await c.callTool('delete_episode', { uuid: 'nope' });
    expect(domain.isError).toBeUndefined();
    expect(textOf(domain)).toEqual({ error: 'Error deleting episode: node nope not found' });
  });

  it('authToken is sent as a Bearer header', async () => {
    const { srv, c } = await setup({}, { authToken: 'secret-token' });
    await c.callTool('get_status', {});
    expect(srv.http.every((h) => h.headers.authorization === 'Bearer ***')).toBe(true);
  });
});

describe('McpClient vs injected faults', () => {
  it('503: retryable McpHttpError, and the client does not retry add_memory itself', async () => {
    const { srv, c } = await setup();
    await c.connect();
    srv.failNext('http503');
    const error = await c.callTool('add_memory', { name: 'x', episode_body: 'y' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpHttpError);
    expect((error as McpHttpError).status).toBe(503);
    expect((error as McpHttpError).retryable).toBe(true);
    expect(srv.calls).toHaveLength(1);
    expect(srv.pendingEpisodes + srv.episodes().length).toBe(0);
  });

  it('429: retryAfterMs from Retry-After', async () => {
    const { srv, c } = await setup({ faults: { retryAfterSeconds: 2 } });
    await c.connect();
    srv.failNext('http429');
    const error = (await c.callTool('get_status', {}).catch((e: unknown) => e)) as McpHttpError;
    expect(error).toBeInstanceOf(McpHttpError);
    expect(error.status).toBe(429);
    expect(error.retryable).toBe(true);
    expect(error.retryAfterMs).toBe(2000);
  });

  it('reset: retryable McpNetworkError; the next call works', async () => {
    const { srv, c } = await setup();
    await c.connect();
    srv.failNext('reset');
    const error = await c.callTool('get_status', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpNetworkError);
    expect((error as McpNetworkError).retryable).toBe(true);
    expect(textOf(await c.callTool('get_status', {}))).toEqual(STATUS_OK);
  });

  it('hang: McpTimeoutError within the client timeout', async () => {
    const { srv, c } = await setup({}, { timeoutMs: 400 });
    await c.connect();
    srv.failNext('hang');
    const t0 = performance.now();
    const error = await c.callTool('get_status', {}).catch((e: unknown) => e);
    const elapsed = performance.now() - t0;
    expect(error).toBeInstanceOf(McpTimeoutError);
    expect((error as McpTimeoutError).retryable).toBe(true);
    expect(elapsed).toBeGreaterThanOrEqual(350);
    expect(elapsed).toBeLessThan(3_000);
    expect(srv.calls.at(-1)?.outcome).toBe('hang');
  });

  it('per-call timeoutMs overrides the client default', async () => {
    const { srv, c } = await setup({}, { timeoutMs: 10_000 });
    await c.connect();
    srv.failNext('hang');
    const t0 = performance.now();
    await expect(c.callTool('get_status', {}, { timeoutMs: 200 })).rejects.toBeInstanceOf(McpTimeoutError);
    expect(performance.now() - t0).toBeLessThan(3_000);
  });

  it('seeded mixed faults: every call either succeeds or fails with a retryable typed error', async () => {
    const { srv, c } = await setup({ faults: { rate503: 0.15, rate429: 0.1, rateReset: 0.1, rateSessionLoss: 0.1, seed: 3 } });
    let ok = 0;
    for (let i = 0; i < 40; i += 1) {
      try {
        await c.callTool('get_status', {});
        ok += 1;
      } catch (e) {
        expect(e instanceof McpHttpError || e instanceof McpNetworkError).toBe(true);
        expect((e as McpHttpError).retryable).toBe(true);
      }
    }
    expect(ok).toBeGreaterThan(10);
    expect(srv.calls.filter((x) => x.outcome === 'ok')).toHaveLength(ok);
  });
});
