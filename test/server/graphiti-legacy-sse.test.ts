/**
 * Legacy HTTP+SSE transport of the test server (FastMCP `--transport sse`):
 * `GET /sse` → `endpoint` event, `POST /messages/?session_id=…` → 202, replies
 * on the stream, FastMCP's error strings, and the 404/405 that trigger a
 * client's fallback on an SSE-only server (reference §6 "Legacy SSE").
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { GraphitiTestServer } from '../support/graphiti-server.js';
import { rawPost, rawRequest, SseStream, type SseEvent } from '../helpers/raw-mcp.js';
import { useGraphitiServer } from '../helpers/use-graphiti-server.js';

const start = useGraphitiServer({ transport: 'sse' });
const streams: SseStream[] = [];
// Runs before the servers are closed (after-hooks run in reverse order of registration).
afterEach(() => {
  for (const s of streams.splice(0)) s.close();
});

async function connect(srv: GraphitiTestServer): Promise<{ stream: SseStream; endpoint: string; post: (body: unknown) => Promise<number> }> {
  const stream = await SseStream.open(srv.sseUrl);
  streams.push(stream);
  const ev = await stream.next();
  expect(ev?.event).toBe('endpoint');
  const endpoint = `http://127.0.0.1:${srv.port}${ev!.data}`;
  return { stream, endpoint, post: async (body) => (await rawPost(endpoint, body)).status };
}

const isMessage = (id: number) => (e: SseEvent) => e.event === 'message' && (JSON.parse(e.data) as { id?: number }).id === id;

describe('legacy SSE', () => {
  it('endpoint event with a 32-hex session_id, CRLF framing, charset content type', async () => {
    const srv = await start();
    const { stream } = await connect(srv);
    expect(stream.response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(stream.raw.join('')).toMatch(/^event: endpoint\r\ndata: \/messages\/\?session_id=[0-9a-f]{32}\r\n\r\n/);
  });

  it('initialize + tools/call: POST answers 202 Accepted, results arrive on the stream', async () => {
    const srv = await start();
    const { stream, endpoint } = await connect(srv);
    const initRes = await rawPost(endpoint, { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 't', version: '0' } } });
    expect(initRes.status).toBe(202);
    expect(initRes.text).toBe('Accepted');
    const init = await stream.nextMatching(isMessage(1));
    expect(JSON.parse(init!.data).result.serverInfo).toEqual({ name: 'Graphiti Agent Memory', version: '1.26.0' });
    expect(init!.comments.some((c) => c.startsWith(' ping - '))).toBe(true);
    expect((await rawPost(endpoint, { jsonrpc: '2.0', method: 'notifications/initialized' })).status).toBe(202);
    await rawPost(endpoint, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'add_memory', arguments: { name: 'S', episode_body: 'Over sse.' } } });
    const call = await stream.nextMatching(isMessage(2));
    expect(JSON.parse(call!.data).result.structuredContent).toEqual({ result: { message: "Episode 'S' queued for processing in group 'main'" } });
    expect(srv.calls.at(-1)).toMatchObject({ tool: 'add_memory', outcome: 'ok' });
  });

  it("FastMCP's POST errors", async () => {
    const srv = await start();
    const { endpoint } = await connect(srv);
    const base = `http://127.0.0.1:${srv.port}/messages/`;
    const body = { jsonrpc: '2.0', method: 'notifications/initialized' };
    expect(await rawPost(base, body)).toMatchObject({ status: 400, text: 'session_id is required' });
    expect(await rawPost(`${base}?session_id=zzz`, body)).toMatchObject({ status: 400, text: 'Invalid session ID' });
    expect(await rawPost(`${base}?session_id=${'c'.repeat(32)}`, body)).toMatchObject({ status: 404, text: 'Could not find session' });
    expect(await rawPost(endpoint, '{not json')).toMatchObject({ status: 400, text: 'Could not parse message' });
  });

  it('SSE-only server: POST /mcp → 404, POST /sse → 405 (the fallback triggers)', async () => {
    const srv = await start();
    expect((await rawPost(`http://127.0.0.1:${srv.port}/mcp`, {})).status).toBe(404);
    expect((await rawPost(srv.sseUrl, {})).status).toBe(405);
    expect((await rawRequest(`http://127.0.0.1:${srv.port}/mcp`, 'GET', { accept: 'text/event-stream' })).status).toBe(404);
  });

  it("dropSseStreams ends the streams and forgets their sessions; reconnecting yields a new session", async () => {
    const srv = await start();
    const first = await connect(srv);
    expect(srv.dropSseStreams()).toBe(1);
    expect(await first.stream.next()).toBeUndefined();
    expect(await first.post({ jsonrpc: '2.0', method: 'notifications/initialized' })).toBe(404);
    const second = await connect(srv);
    expect(second.endpoint).not.toBe(first.endpoint);
  });

  it("oldServer over SSE: a request before initialized gets -32602 on the stream", async () => {
    const srv = await start({ oldServer: true });
    const { stream, post } = await connect(srv);
    await post({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 't', version: '0' } } });
    await stream.nextMatching(isMessage(1));
    await post({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    const early = await stream.nextMatching(isMessage(2));
    expect(JSON.parse(early!.data).error).toEqual({ code: -32602, message: 'Invalid request parameters', data: '' });
  });

  it("transport 'both' serves /mcp and /sse", async () => {
    const srv = await start({ transport: 'both' });
    const { endpoint } = await connect(srv);
    expect(endpoint).toContain('/messages/?session_id=');
    const res = await rawPost(srv.url, { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '0' } } });
    expect(res.status).toBe(200);
  });

  it('faults apply to legacy POSTs too (503, session loss)', async () => {
    const srv = await start();
    const { stream, post } = await connect(srv);
    await post({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 't', version: '0' } } });
    await stream.nextMatching(isMessage(1));
    await post({ jsonrpc: '2.0', method: 'notifications/initialized' });
    srv.failNext('http503');
    srv.failNext('sessionLoss');
    const call = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'get_status', arguments: {} } };
    expect(await post(call)).toBe(503);
    expect(await post(call)).toBe(404);
    expect(await stream.next()).toBeUndefined();
    expect(srv.calls.map((c) => c.outcome)).toEqual(['http503', 'sessionLoss']);
  });
});
