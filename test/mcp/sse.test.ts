/**
 * SSE framing (readSseEvents + decodeEvent) with the stream split at every possible
 * chunk boundary, and SSE resumption (Last-Event-ID after the retry interval).
 */
import { describe, expect, it } from 'vitest';
import { McpClient } from '../../src/lib/mcp/client.js';
import { McpNetworkError, McpProtocolError } from '../../src/lib/mcp/errors.js';
import { decodeEvent, readSseEvents, type SseEvent } from '../../src/lib/mcp/sse.js';
import { fakeScope, mcpHandler, result, sse, sseHeaders, type Handler } from './fake-server.js';

async function* chunks(parts: string[]): AsyncGenerator<string> {
  for (const part of parts) yield part;
}

async function collect(parts: string[]): Promise<{ events: SseEvent[]; retries: number[]; comments: string[] }> {
  const retries: number[] = [];
  const comments: string[] = [];
  const events: SseEvent[] = [];
  for await (const event of readSseEvents(chunks(parts), { onRetry: (ms) => retries.push(ms), onComment: (c) => comments.push(c) })) {
    events.push(event);
  }
  return { events, retries, comments };
}

// FastMCP-style CRLF framing, a ping comment, a priming event, multi-line data, a
// lone-CR event, a custom event type and a BOM.
const STREAM =
  '\uFEFF: ping - 2026-01-01 00:00:00.000000+00:00\r\n\r\n' +
  'id: p1\r\nretry: 1500\r\ndata: \r\n\r\n' +
  'event: message\r\ndata: {"jsonrpc":"2.0","method":"notifications/message","params":{}}\r\n\r\n' +
  'event: message\r\nid: e2\r\ndata: {"jsonrpc":"2.0",\r\ndata: "id":1,"result":{}}\r\n\r\n' +
  'data: {"a":1}\r\r' +
  'event: endpoint\ndata: /messages/?session_id=abc\n\n';

const EXPECTED: SseEvent[] = [
  { event: undefined, id: 'p1', data: '' },
  { event: 'message', id: undefined, data: '{"jsonrpc":"2.0","method":"notifications/message","params":{}}' },
  { event: 'message', id: 'e2', data: '{"jsonrpc":"2.0",\n"id":1,"result":{}}' },
  { event: undefined, id: undefined, data: '{"a":1}' },
  { event: 'endpoint', id: undefined, data: '/messages/?session_id=abc' },
];

describe('readSseEvents', () => {
  it('parses a whole stream', async () => {
    const { events, retries, comments } = await collect([STREAM]);
    expect(events).toEqual(EXPECTED);
    expect(retries).toEqual([1500]);
    expect(comments).toEqual(['ping - 2026-01-01 00:00:00.000000+00:00']);
  });

  it('gives the same events for every two-chunk split (incl. a CRLF split across chunks)', async () => {
    for (let i = 1; i < STREAM.length; i++) {
      const { events } = await collect([STREAM.slice(0, i), STREAM.slice(i)]);
      expect(events, `split at ${i}`).toEqual(EXPECTED);
    }
    const crlf = STREAM.indexOf('\r\n');
    expect((await collect([STREAM.slice(0, crlf + 1), STREAM.slice(crlf + 1)])).events).toEqual(EXPECTED);
  });

  it('gives the same events when fed one character at a time', async () => {
    expect((await collect([...STREAM])).events).toEqual(EXPECTED);
  });

  it('reads Uint8Array chunks with a multi-byte character split across them', async () => {
    const bytes = new TextEncoder().encode('data: {"t":"héllo €"}\n\n');
    const parts: Uint8Array[] = [];
    for (let i = 0; i < bytes.length; i++) parts.push(bytes.slice(i, i + 1));
    const events: SseEvent[] = [];
    for await (const e of readSseEvents((async function* () { yield* parts; })())) events.push(e);
    expect(events).toEqual([{ event: undefined, id: undefined, data: '{"t":"héllo €"}' }]);
  });

  it('strips a decoded BOM in front of the first field', async () => {
    expect((await collect(['\uFEFF', 'data: {"a":1}\n\n'])).events).toEqual([{ event: undefined, id: undefined, data: '{"a":1}' }]);
  });

  it('drops an unterminated final event', async () => {
    expect((await collect(['data: {"a":1}\n\ndata: {"b":2}'])).events).toHaveLength(1);
  });
});

describe('decodeEvent', () => {
  it('dispatches only message/untyped events with data', () => {
    expect(decodeEvent({ event: undefined, id: 'x', data: '' })).toEqual({ kind: 'empty' });
    expect(decodeEvent({ event: 'message', id: undefined, data: '  ' })).toEqual({ kind: 'empty' });
    expect(decodeEvent({ event: 'endpoint', id: undefined, data: '/m' })).toEqual({ kind: 'other', event: 'endpoint', data: '/m' });
    expect(decodeEvent({ event: undefined, id: undefined, data: '{"a":1}' })).toEqual({ kind: 'message', message: { a: 1 } });
    expect(decodeEvent({ event: 'message', id: undefined, data: '{oops' }).kind).toBe('invalid');
  });
});

// ---------------------------------------------------------------- resumption

const scope = fakeScope({ transport: 'streamable-http' });
const serve = scope.serve;

function client(url: string, timeoutMs = 5000): McpClient {
  return scope.client({ url, timeoutMs });
}

/** tools/call answers with a priming event and closes; the GET resumes with the result. */
function resumableServer(options: { retry?: number; getEndsEmpty?: boolean; primingId?: boolean; reset?: boolean }): {
  handler: Handler;
  marks: { closedAt?: number; callId?: unknown };
} {
  const marks: { closedAt?: number; callId?: unknown } = {};
  const inner = mcpHandler({
    on: {
      'tools/call': (req, res) => {
        marks.callId = req.json.id;
        sseHeaders(res);
        const priming = options.primingId === false ? sse('') : sse('', { id: 'evt-1', ...(options.retry !== undefined ? { retry: options.retry } : {}) });
        res.write(sse({ jsonrpc: '2.0', method: 'notifications/progress', params: {} }), () => {
          res.write(priming, () => {
            marks.closedAt = performance.now();
            if (options.reset) res.destroy();
            else res.end();
          });
        });
        return true;
      },
    },
  });
  const handler: Handler = (req, res) => {
    if (req.method === 'GET') {
      sseHeaders(res);
      if (options.getEndsEmpty) {
        res.end(sse('', { id: `evt-get-${req.seq}`, retry: 20 }));
        return;
      }
      res.write(sse('', { id: 'evt-2' }));
      res.write(sse(result(marks.callId, { content: [{ type: 'text', text: 'resumed' }] }), { id: 'evt-3', event: 'message' }));
      return; // the GET stream stays open: the client must stop reading once it has its answer
    }
    return inner(req, res);
  };
  return { handler, marks };
}

describe('SSE resumption', () => {
  it('waits the retry interval, then GETs with Last-Event-ID and session headers', async () => {
    const { handler, marks } = resumableServer({ retry: 200 });
    const server = await serve(handler);
    const c = client(`${server.origin}/mcp`);
    const out = await c.callTool('echo', {});
    expect(out.content[0]!.text).toBe('resumed');
    const gets = server.requests.filter((r) => r.method === 'GET');
    expect(gets).toHaveLength(1);
    const get = gets[0]!;
    expect(get.headers['last-event-id']).toBe('evt-1');
    expect(get.headers.accept).toBe('text/event-stream');
    expect(get.headers['mcp-session-id']).toBe('session-1');
    expect(get.headers['mcp-protocol-version']).toBe('2025-11-25');
    const waited = get.at - marks.closedAt!;
    expect(waited).toBeGreaterThanOrEqual(190);
    expect(waited).toBeLessThan(1000);
  });

  it('waits 1000 ms when the server sent no retry field', async () => {
    const { handler, marks } = resumableServer({});
    const server = await serve(handler);
    const c = client(`${server.origin}/mcp`);
    await c.callTool('echo', {});
    const get = server.requests.find((r) => r.method === 'GET')!;
    expect(get.at - marks.closedAt!).toBeGreaterThanOrEqual(990);
  });

  it('also resumes when the connection is reset after an event id', async () => {
    const { handler } = resumableServer({ retry: 10, reset: true });
    const server = await serve(handler);
    const c = client(`${server.origin}/mcp`);
    expect((await c.callTool('echo', {})).content[0]!.text).toBe('resumed');
  });

  it('fails retryably without reconnecting when the stream died before any event id', async () => {
    const { handler } = resumableServer({ primingId: false });
    const server = await serve(handler);
    const c = client(`${server.origin}/mcp`);
    const error = await c.callTool('echo', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpProtocolError);
    expect((error as McpProtocolError).retryable).toBe(true);
    expect(server.requests.some((r) => r.method === 'GET')).toBe(false);
  });

  it('fails retryably with a network error when the connection is reset before any event id', async () => {
    const { handler } = resumableServer({ primingId: false, reset: true });
    const server = await serve(handler);
    const c = client(`${server.origin}/mcp`);
    const error = await c.callTool('echo', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpNetworkError);
    expect((error as McpNetworkError).retryable).toBe(true);
    expect(server.requests.some((r) => r.method === 'GET')).toBe(false);
  });

  it('gives up after 2 reconnects', async () => {
    const { handler } = resumableServer({ retry: 20, getEndsEmpty: true });
    const server = await serve(handler);
    const c = client(`${server.origin}/mcp`);
    const error = await c.callTool('echo', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpProtocolError);
    expect((error as McpProtocolError).retryable).toBe(true);
    const gets = server.requests.filter((r) => r.method === 'GET');
    expect(gets.map((g) => g.headers['last-event-id'])).toEqual(['evt-1', `evt-get-${gets[0]!.seq}`]);
  });
});
