/**
 * Tiny scriptable HTTP servers on 127.0.0.1:0 for the MCP client tests. Every request
 * is recorded (method, path, headers, body, parsed JSON) before the handler runs, and
 * tests wait on recorded requests through promises, never through sleeps.
 */
import http, { type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';
import { McpClient, type McpClientOptions } from '../../src/lib/mcp/client.js';

export interface Recorded {
  seq: number;
  method: string;
  /** Path + query, as sent. */
  url: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** Parsed JSON body, if any. */
  json: any;
  at: number;
  /** The client's port: requests with the same one came over the same connection. */
  remotePort: number | undefined;
}

export type Handler = (req: Recorded, res: ServerResponse) => void | Promise<void>;

export interface FakeServer {
  /** http://127.0.0.1:<port> */
  origin: string;
  port: number;
  requests: Recorded[];
  /** Named points in time, in order (for ordering assertions). */
  events: string[];
  /** Resolves with the first recorded request (past or future) matching `predicate`. */
  waitFor(predicate: (req: Recorded) => boolean): Promise<Recorded>;
  /** Requests whose JSON-RPC method is `method`. */
  rpc(method: string): Recorded[];
  close(): Promise<void>;
}

export async function startServer(handler: Handler): Promise<FakeServer> {
  const requests: Recorded[] = [];
  const events: string[] = [];
  const waiters: Array<{ predicate: (req: Recorded) => boolean; resolve: (req: Recorded) => void }> = [];
  let seq = 0;
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      let json: unknown;
      try {
        json = body ? JSON.parse(body) : undefined;
      } catch {
        json = undefined;
      }
      const url = req.url ?? '/';
      const recorded: Recorded = {
        seq: seq++,
        method: req.method ?? '',
        url,
        path: url.split('?')[0]!,
        headers: req.headers,
        body,
        json,
        at: performance.now(),
        remotePort: req.socket.remotePort,
      };
      requests.push(recorded);
      for (const waiter of [...waiters]) {
        if (waiter.predicate(recorded)) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(recorded);
        }
      }
      Promise.resolve(handler(recorded, res)).catch((error: unknown) => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(String(error));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    requests,
    events,
    waitFor(predicate) {
      const found = requests.find(predicate);
      if (found) return Promise.resolve(found);
      return new Promise((resolve) => waiters.push({ predicate, resolve }));
    },
    rpc(method) {
      return requests.filter((r) => r.json?.method === method);
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

// ---------------------------------------------------------------- replies

export function json(res: ServerResponse, body: unknown, headers: Record<string, string> = {}, status = 200): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

export function text(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'text/plain', ...headers });
  res.end(body);
}

export function accepted(res: ServerResponse): void {
  res.writeHead(202);
  res.end();
}

export function result(id: unknown, value: unknown): Record<string, unknown> {
  return { jsonrpc: '2.0', id, result: value };
}

export function rpcError(id: unknown, code: number, message: string): Record<string, unknown> {
  return { jsonrpc: '2.0', id, error: { code, message } };
}

/** One SSE event; `eol` picks the line ending (FastMCP uses CRLF). */
export function sse(data: unknown, options: { id?: string; event?: string; eol?: string; retry?: number } = {}): string {
  const eol = options.eol ?? '\n';
  let out = '';
  if (options.event !== undefined) out += `event: ${options.event}${eol}`;
  if (options.id !== undefined) out += `id: ${options.id}${eol}`;
  if (options.retry !== undefined) out += `retry: ${options.retry}${eol}`;
  const payload = typeof data === 'string' ? data : JSON.stringify(data);
  for (const line of payload.split('\n')) out += `data: ${line}${eol}`;
  return out + eol;
}

export function sseHeaders(res: ServerResponse, headers: Record<string, string> = {}): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...headers });
  res.flushHeaders();
}

// ---------------------------------------------------------------- a default MCP server

export interface McpFakeOptions {
  /** Path of the endpoint; default '/mcp'. */
  path?: string;
  /** Session id for each initialize (called per initialize); null = no sessions. */
  session?: (() => string) | null;
  /** The version the server picks; default: echo the offered one. */
  version?: (offered: string) => string;
  /** Reply format for requests; default 'json'. */
  reply?: 'json' | 'sse';
  /** Per-method overrides: return true when the reply was sent. */
  on?: Record<string, (req: Recorded, res: ServerResponse) => boolean | void | Promise<boolean | void>>;
}

export const TOOLS = [
  { name: 'echo', description: 'Echoes', inputSchema: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] } },
];

/** A well-behaved Streamable HTTP MCP server, with hooks to misbehave. */
export function mcpHandler(options: McpFakeOptions = {}): Handler {
  const path = options.path ?? '/mcp';
  let counter = 0;
  const session = options.session === undefined ? () => `session-${++counter}` : options.session;
  return async (req, res) => {
    if (req.path !== path) return text(res, 404, 'Not Found');
    if (req.method === 'DELETE') return text(res, 200, '');
    if (req.method === 'GET') return text(res, 405, 'Method Not Allowed');
    const msg = req.json;
    const method: string | undefined = msg?.method;
    const override = method !== undefined ? options.on?.[method] : undefined;
    if (override && (await override(req, res)) === true) return;
    if (method === undefined) return accepted(res); // a response from the client
    if (msg.id === undefined) return accepted(res); // notifications
    const reply = (value: unknown, headers: Record<string, string> = {}) => {
      if (options.reply === 'sse') {
        sseHeaders(res, headers);
        res.end(sse(result(msg.id, value)));
      } else json(res, result(msg.id, value), headers);
    };
    switch (method) {
      case 'initialize': {
        const offered = msg.params?.protocolVersion as string;
        const headers: Record<string, string> = {};
        const sid = session?.();
        if (sid !== undefined) headers['Mcp-Session-Id'] = sid;
        return reply(
          {
            protocolVersion: options.version ? options.version(offered) : offered,
            capabilities: { tools: {} },
            serverInfo: { name: 'fake', version: '1.0.0' },
          },
          headers,
        );
      }
      case 'tools/list':
        return reply({ tools: TOOLS });
      case 'tools/call':
        return reply({ content: [{ type: 'text', text: JSON.stringify(msg.params?.arguments ?? {}) }] });
      default:
        return reply({});
    }
  };
}

/** A promise plus its resolver, for server-side holds. */
export function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/**
 * Fake servers and clients that are closed after each test of the calling file (registers an
 * afterEach). `cleanups` takes anything else a test opens.
 */
export function fakeScope(clientDefaults: Partial<McpClientOptions> = {}): {
  cleanups: Array<() => Promise<void>>;
  serve(handler: Handler): Promise<FakeServer>;
  client(options: Partial<McpClientOptions> & { url: string }): McpClient;
} {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    while (cleanups.length > 0) await cleanups.pop()!();
  });
  return {
    cleanups,
    async serve(handler) {
      const server = await startServer(handler);
      cleanups.push(() => server.close());
      return server;
    },
    client(options) {
      const c = new McpClient({ timeoutMs: 5000, ...clientDefaults, ...options });
      cleanups.push(() => c.close());
      return c;
    },
  };
}
