/**
 * Streamable HTTP behaviour of the test server, checked with raw fetch and
 * node:http: FastMCP's status codes, literal error bodies, session ids,
 * redirects, Host check and sse-starlette framing (reference §6).
 */
import { describe, expect, it } from 'vitest';
import { ACCEPT_BOTH, RawSession, messagesOf, nodeRequest, parseSse, rawPost, rawRequest, SseStream } from '../helpers/raw-mcp.js';
import { useGraphitiServer } from '../helpers/use-graphiti-server.js';

const start = useGraphitiServer();

const init = (protocolVersion = '2025-11-25', id = 1) => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params: { protocolVersion, capabilities: {}, clientInfo: { name: 't', version: '0' } },
});

describe('initialize and sessions', () => {
  it('initialize: 32-hex session id, serverInfo, capabilities, instructions, CRLF SSE with a ping', async () => {
    const srv = await start();
    const res = await rawPost(srv.url, init('2025-06-18'));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    expect(res.headers.get('mcp-session-id')).toMatch(/^[0-9a-f]{32}$/);
    expect(res.text).toMatch(/^: ping - \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{6}\+00:00\r\n\r\nevent: message\r\ndata: \{.*\}\r\n\r\n$/s);
    expect(res.text.replace(/\r\n/g, '')).not.toContain('\n');
    const msg = messagesOf(res)[0]!;
    expect(msg).toMatchObject({ jsonrpc: '2.0', id: 1 });
    const result = msg.result as Record<string, unknown>;
    expect(result.protocolVersion).toBe('2025-06-18');
    expect(result.serverInfo).toEqual({ name: 'Graphiti Agent Memory', version: '1.26.0' });
    expect(result.capabilities).toEqual({
      experimental: {},
      prompts: { listChanged: false },
      resources: { subscribe: false, listChanged: false },
      tools: { listChanged: false },
    });
    expect(result.instructions).toContain('search_facts');
    expect(srv.http.at(-1)).toMatchObject({ method: 'POST', path: '/mcp', status: 200, rpcMethod: 'initialize', responseSessionId: res.headers.get('mcp-session-id') });
  });

  it('unsupported protocolVersion → the latest supported', async () => {
    const srv = await start();
    const res = await rawPost(srv.url, init('1999-01-01'));
    expect((messagesOf(res)[0]!.result as { protocolVersion: string }).protocolVersion).toBe('2025-11-25');
  });

  it('notifications → 202 with an empty body', async () => {
    const srv = await start();
    const s = await RawSession.open(srv.url, { skipInitialized: true });
    const res = await s.initialized();
    expect(res.status).toBe(202);
    expect(res.text).toBe('');
  });

  it('unknown session → 404 JSON Session not found', async () => {
    const srv = await start();
    const res = await rawPost(srv.url, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, { sessionId: 'a'.repeat(32) });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.text).toBe('{"jsonrpc":"2.0","id":"server-error","error":{"code":-32600,"message":"Session not found"}}');
  });

  it('legacySessionErrors → 400 plain No valid session ID provided', async () => {
    const srv = await start({ legacySessionErrors: true });
    const res = await rawPost(srv.url, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, { sessionId: 'a'.repeat(32) });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(res.text).toBe('Bad Request: No valid session ID provided');
  });

  it('missing session id → 400 Missing session ID', async () => {
    const srv = await start();
    const res = await rawPost(srv.url, { jsonrpc: '2.0', id: 2, method: 'tools/list' });
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text)).toEqual({ jsonrpc: '2.0', id: 'server-error', error: { code: -32600, message: 'Bad Request: Missing session ID' } });
  });

  it('python mcp 2.x (errorId: null): transport errors carry "id": null, as the real server 1.1.0 does', async () => {
    const srv = await start({ errorId: null });
    const res = await rawPost(srv.url, { jsonrpc: '2.0', id: 2, method: 'tools/list' });
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text)).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Bad Request: Missing session ID' } });
  });

  it('DELETE → 200, then 404 Session has been terminated', async () => {
    const srv = await start();
    const s = await RawSession.open(srv.url);
    const del = await rawRequest(srv.url, 'DELETE', { 'mcp-session-id': s.sessionId, 'mcp-protocol-version': s.protocolVersion });
    expect(del.status).toBe(200);
    const after = await s.rpc('tools/list');
    expect(after.res.status).toBe(404);
    expect(JSON.parse(after.res.text)).toEqual({ jsonrpc: '2.0', id: 'server-error', error: { code: -32600, message: 'Not Found: Session has been terminated' } });
    expect(srv.sessionIds()).not.toContain(s.sessionId);
  });

  it('bad Accept → 406 with the literal message (*/* does not count)', async () => {
    const srv = await start();
    const res = await rawPost(srv.url, init(), { accept: '*/*' });
    expect(res.status).toBe(406);
    expect(JSON.parse(res.text)).toEqual({
      jsonrpc: '2.0',
      id: 'server-error',
      error: { code: -32600, message: 'Not Acceptable: Client must accept both application/json and text/event-stream' },
    });
    const s = await RawSession.open(srv.url);
    const get = await rawRequest(srv.url, 'GET', { accept: 'application/json', 'mcp-session-id': s.sessionId });
    expect(get.status).toBe(406);
    expect(JSON.parse(get.text).error.message).toBe('Not Acceptable: Client must accept text/event-stream');
    // The session's own transport answers: its error carries the session id (python mcp
    // `_create_error_response`); the reply to a request without a session carries none.
    expect(get.headers.get('mcp-session-id')).toBe(s.sessionId);
    expect(res.headers.get('mcp-session-id')).toBeNull();
  });

  it('non-JSON Content-Type → 400 plain Invalid Content-Type header', async () => {
    const srv = await start();
    const res = await rawPost(srv.url, init(), { contentType: 'text/plain' });
    expect(res.status).toBe(400);
    expect(res.text).toBe('Invalid Content-Type header');
    // The security check runs before the session's transport: no session id on its reply.
    const s = await RawSession.open(srv.url);
    const withSession = await rawPost(srv.url, init(), { contentType: 'text/plain', headers: { 'mcp-session-id': s.sessionId } });
    expect(withSession.status).toBe(400);
    expect(withSession.headers.get('mcp-session-id')).toBeNull();
  });

  it('unsupported mcp-protocol-version header → 400', async () => {
    const srv = await start();
    const s = await RawSession.open(srv.url);
    const { res } = await s.rpc('tools/list', undefined, { protocolVersion: '1999-01-01' });
    expect(res.status).toBe(400);
    expect(res.headers.get('mcp-session-id')).toBe(s.sessionId);
    expect(JSON.parse(res.text).error.message).toBe(
      'Bad Request: Unsupported protocol version: 1999-01-01. Supported versions: 2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25',
    );
  });

  it('GET stream: opens with the session; a second one → 409', async () => {
    const srv = await start();
    const s = await RawSession.open(srv.url);
    const first = await SseStream.open(srv.url, { accept: 'text/event-stream', 'mcp-session-id': s.sessionId });
    expect(first.response.status).toBe(200);
    const second = await rawRequest(srv.url, 'GET', { accept: 'text/event-stream', 'mcp-session-id': s.sessionId });
    expect(second.status).toBe(409);
    expect(JSON.parse(second.text).error.message).toBe('Conflict: Only one SSE stream is allowed per session');
    first.close();
  });

  it('periodic keep-alive on an open stream is a ping comment', async () => {
    const srv = await start({ pingIntervalMs: 20 });
    const s = await RawSession.open(srv.url);
    const stream = await SseStream.open(srv.url, { accept: 'text/event-stream', 'mcp-session-id': s.sessionId });
    expect(await stream.waitForText(': ping - ')).toBe(true);
    expect(stream.raw.join('')).toMatch(/^: ping - [^\r\n]+\r\n\r\n/);
    stream.close();
  });
});

describe('framing switches', () => {
  it('crlf:false and pingComments:false → plain LF events', async () => {
    const srv = await start({ crlf: false, pingComments: false });
    const res = await rawPost(srv.url, init());
    expect(res.text).toMatch(/^event: message\ndata: \{.*\}\n\n$/s);
    expect(res.text).not.toContain('\r');
  });

  it('jsonResponse → application/json bodies', async () => {
    const srv = await start({ jsonResponse: true });
    const res = await rawPost(srv.url, init());
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(JSON.parse(res.text)).toMatchObject({ jsonrpc: '2.0', id: 1, result: { serverInfo: { name: 'Graphiti Agent Memory' } } });
    const s = new RawSession(srv.url);
    s.sessionId = res.headers.get('mcp-session-id')!;
    await s.initialized();
    expect(await s.payload('get_status')).toMatchObject({ status: 'ok' });
  });

  it('parseSse sees exactly one message and a ping comment', async () => {
    const srv = await start();
    const res = await rawPost(srv.url, init());
    const events = parseSse(res.text);
    expect(events).toHaveLength(1);
    expect(events[0]!.event).toBe('message');
    expect(events[0]!.comments[0]).toMatch(/^ ping - /);
  });
});

describe('redirects and Host', () => {
  it('/mcp/ → 307 to the absolute /mcp for POST, GET and DELETE; fetch following it works', async () => {
    const srv = await start();
    const base = `http://127.0.0.1:${srv.port}`;
    for (const method of ['POST', 'GET', 'DELETE']) {
      const res = await fetch(`${base}/mcp/`, { method, redirect: 'manual', ...(method === 'POST' ? { body: '{}', headers: { 'content-type': 'application/json' } } : {}) });
      expect(res.status).toBe(307);
      expect(res.headers.get('location')).toBe(`${base}/mcp`);
    }
    const followed = await rawPost(`${base}/mcp/`, init(), { redirect: 'follow' });
    expect(followed.status).toBe(200);
    expect(srv.http.filter((h) => h.status === 307 && h.path === '/mcp/').length).toBe(4);
  });

  it('reverseRedirect: /mcp → 307 → /mcp/, served at /mcp/', async () => {
    const srv = await start({ reverseRedirect: true });
    expect(srv.url).toBe(`http://127.0.0.1:${srv.port}/mcp/`);
    const res = await rawPost(`http://127.0.0.1:${srv.port}/mcp`, init());
    expect(res.status).toBe(307);
    expect(res.headers.get('location')).toBe(`http://127.0.0.1:${srv.port}/mcp/`);
    expect((await rawPost(srv.url, init())).status).toBe(200);
  });

  it('restrictHost → 421 plain for a non-localhost Host; localhost:<port> and 127.0.0.1 pass', async () => {
    const srv = await start({ restrictHost: true });
    const body = JSON.stringify(init());
    const headers = { 'content-type': 'application/json', accept: ACCEPT_BOTH };
    const bad = await nodeRequest(srv.url, { method: 'POST', headers: { ...headers, host: `graphiti:${srv.port}` }, body });
    expect(bad.status).toBe(421);
    expect(bad.text).toBe('Invalid Host header');
    const noPort = await nodeRequest(srv.url, { method: 'POST', headers: { ...headers, host: 'localhost' }, body });
    expect(noPort.status).toBe(421);
    const ok = await nodeRequest(srv.url, { method: 'POST', headers: { ...headers, host: `localhost:${srv.port}` }, body });
    expect(ok.status).toBe(200);
    expect((await rawPost(srv.url, init())).status).toBe(200);
  });

  it('allowedHosts can exclude 127.0.0.1 so fetch-based clients get 421', async () => {
    const srv = await start({ restrictHost: true, allowedHosts: ['localhost:*'] });
    const res = await rawPost(srv.url, init());
    expect(res.status).toBe(421);
  });

  it('GET /health', async () => {
    const srv = await start({ restrictHost: true, allowedHosts: [] });
    const res = await rawRequest(`http://127.0.0.1:${srv.port}/health`, 'GET');
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text)).toEqual({ status: 'healthy', service: 'graphiti-mcp' });
  });

  it('unknown paths → 404; GET /sse on an HTTP-only server → 404', async () => {
    const srv = await start();
    expect((await rawRequest(`http://127.0.0.1:${srv.port}/nope`, 'GET')).status).toBe(404);
    expect((await rawRequest(`http://127.0.0.1:${srv.port}/sse`, 'GET')).status).toBe(404);
  });
});

describe('old servers', () => {
  it('oldServer: 2025-03-26 at most, version 1.9.4, no structuredContent, legacy 400', async () => {
    const srv = await start({ oldServer: true });
    const s = await RawSession.open(srv.url, { protocolVersion: '2025-11-25' });
    expect(s.protocolVersion).toBe('2025-03-26');
    const r = await s.call('get_status');
    expect(r.structuredContent).toBeUndefined();
    expect(JSON.parse(r.content[0]!.text)).toMatchObject({ status: 'ok' });
    const lost = await rawPost(srv.url, { jsonrpc: '2.0', id: 9, method: 'tools/list' }, { sessionId: 'b'.repeat(32) });
    expect(lost.status).toBe(400);
    expect(lost.text).toBe('Bad Request: No valid session ID provided');
  });

  it('oldServer: a request before notifications/initialized → -32602 Invalid request parameters', async () => {
    const srv = await start({ oldServer: true });
    const s = await RawSession.open(srv.url, { skipInitialized: true });
    const early = await s.rpc('tools/list');
    expect(early.res.status).toBe(200);
    expect(early.msg).toEqual({ jsonrpc: '2.0', id: 2, error: { code: -32602, message: 'Invalid request parameters', data: '' } });
    const ping = await s.rpc('ping');
    expect(ping.msg!.result).toEqual({});
    await s.initialized();
    const late = await s.rpc('tools/list');
    expect(late.msg!.result).toBeDefined();
  });

  it('initRace: the first request after initialized fails once per session', async () => {
    const srv = await start({ oldServer: true, initRace: true });
    const s = await RawSession.open(srv.url);
    const first = await s.rpc('tools/call', { name: 'get_status', arguments: {} });
    expect((first.msg!.error as { code: number }).code).toBe(-32602);
    expect(srv.calls.at(-1)).toMatchObject({ tool: 'get_status', outcome: 'error' });
    expect(await s.payload('get_status')).toMatchObject({ status: 'ok' });
    const s2 = await RawSession.open(srv.url);
    expect((await s2.rpc('tools/list')).msg!.error).toBeDefined();
  });

  it('initRace: N only hits the next N sessions', async () => {
    const srv = await start({ initRace: 1 });
    const s1 = await RawSession.open(srv.url);
    expect((await s1.rpc('tools/list')).msg!.error).toEqual({ code: -32602, message: 'Invalid request parameters', data: '' });
    const s2 = await RawSession.open(srv.url);
    expect((await s2.rpc('tools/list')).msg!.result).toBeDefined();
  });
});
