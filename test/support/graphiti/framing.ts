/**
 * What goes on the wire, FastMCP's way: POSTed JSON-RPC bodies read and validated with FastMCP's
 * error replies; plain-text and JSON bodies, FastMCP's transport error body, and SSE re-framed as
 * sse-starlette frames it (CRLF, `: ping` comments, python key order). Also the node:http ⇄ web
 * `Request`/`Response` bridge to the SDK's web-standard transport.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { HttpLog } from './api.js';
import { pyIsoNow } from './records.js';

export function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v.join(', ') : v;
}

export function isJsonContentType(value: string | undefined): boolean {
  return value !== undefined && value.split(';')[0]!.trim().toLowerCase() === 'application/json';
}

export function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

export function sendPlain(res: ServerResponse, status: number, text: string, extra: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'content-length': String(Buffer.byteLength(text)), ...extra });
  res.end(text);
}

export function sendJson(res: ServerResponse, status: number, body: unknown, extra: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)), ...extra });
  res.end(text);
}

/** The `id` of transport error bodies per response, set by the router from `errorId` (default "server-error"). */
const errorIds = new WeakMap<ServerResponse, string | null>();

export function setErrorId(res: ServerResponse, id: string | null): void {
  errorIds.set(res, id);
}

/** FastMCP's transport error body: `{"jsonrpc":"2.0","id":"server-error","error":{"code":c,"message":m}}` (python mcp 2.x: `"id":null`). */
export function sendRpcError(res: ServerResponse, status: number, code: number, message: string, extra: Record<string, string> = {}): void {
  const id = errorIds.has(res) ? (errorIds.get(res) ?? null) : 'server-error';
  sendJson(res, status, { jsonrpc: '2.0', id, error: { code, message } }, extra);
}

export interface SseStyle {
  crlf: boolean;
  pingComments: boolean;
}

/** Python `str(datetime.now(timezone.utc))`, as sse-starlette prints pings. */
function pyTimestamp(): string {
  return pyIsoNow().replace('T', ' ');
}

/** sse-starlette's keep-alive comment event. */
export function pingEvent(crlf: boolean): string {
  const eol = crlf ? '\r\n' : '\n';
  return `: ping - ${pyTimestamp()}${eol}${eol}`;
}

/**
 * Rewrites the SDK's LF-framed SSE into sse-starlette framing: CRLF line ends,
 * `: ping - <ts>` comments (before each message and instead of the SDK's
 * `: keepalive`), and FastMCP's `/messages/?session_id=` endpoint spelling.
 */
export class SseFramer {
  private buf = '';
  constructor(private readonly opts: () => SseStyle) {}

  push(text: string): string {
    this.buf += text;
    let out = '';
    for (let idx = this.buf.indexOf('\n\n'); idx >= 0; idx = this.buf.indexOf('\n\n')) {
      out += this.frame(this.buf.slice(0, idx));
      this.buf = this.buf.slice(idx + 2);
    }
    return out;
  }

  flush(): string {
    const rest = this.buf;
    this.buf = '';
    return rest === '' ? '' : this.frame(rest);
  }

  private frame(block: string): string {
    const { crlf, pingComments } = this.opts();
    const eol = crlf ? '\r\n' : '\n';
    const ping = pingEvent(crlf);
    let lines = block.split('\n');
    if (lines.every((l) => l.startsWith(':'))) return pingComments ? ping : '';
    const endpoint = lines[0] === 'event: endpoint';
    if (endpoint) lines = lines.map((l) => l.replace('?sessionId=', '?session_id='));
    else lines = lines.map((l) => (l.startsWith('data: {') ? `data: ${pydanticOrder(l.slice(6))}` : l));
    return (pingComments && !endpoint ? ping : '') + lines.join(eol) + eol + eol;
  }
}

/** Re-serializes a JSON-RPC message with python's key order (`jsonrpc`, `id`, then the rest). */
function pydanticOrder(json: string): string {
  try {
    const m = JSON.parse(json) as Record<string, unknown>;
    if (m === null || typeof m !== 'object' || Array.isArray(m)) return json;
    const { jsonrpc, id, ...rest } = m;
    return JSON.stringify({ ...(jsonrpc !== undefined ? { jsonrpc } : {}), ...(id !== undefined ? { id } : {}), ...rest });
  } catch {
    return json;
  }
}

/** The node:http request as a web `Request` for the SDK transport (the body is passed parsed, separately). */
export function toWebRequest(req: IncomingMessage, port: number): Request {
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) {
    if (v === undefined || k === 'content-length' || k === 'transfer-encoding' || k === 'connection') continue;
    if (Array.isArray(v)) for (const x of v) headers.append(k, x);
    else headers.set(k, v);
  }
  return new Request(new URL(req.url ?? '/', `http://127.0.0.1:${port}`), { method: req.method ?? 'GET', headers });
}

/** Writes the SDK transport's Response to node:http, re-framing SSE bodies. */
export async function writeWebResponse(res: ServerResponse, response: Response, style: () => SseStyle): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((v, k) => {
    headers[k] = v;
  });
  const isSse = (headers['content-type'] ?? '').startsWith('text/event-stream');
  if (isSse) delete headers['content-length'];
  if (res.destroyed) {
    void response.body?.cancel().catch(() => undefined);
    return;
  }
  res.writeHead(response.status, headers);
  if (!response.body) {
    res.end();
    return;
  }
  if (isSse) res.flushHeaders();
  const reader = response.body.getReader();
  const framer = isSse ? new SseFramer(style) : undefined;
  const decoder = new TextDecoder();
  let closed = false;
  res.on('close', () => {
    closed = true;
    reader.cancel().catch(() => undefined);
  });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || closed) break;
      if (framer) {
        const out = framer.push(decoder.decode(value, { stream: true }));
        if (out !== '') res.write(out);
      } else res.write(value);
    }
    if (framer && !closed) {
      const rest = framer.flush();
      if (rest !== '') res.write(rest);
    }
  } catch {
    // stream cancelled or errored: just end
  }
  if (!closed && !res.writableEnded) res.end();
}

/** An unknown session id: 404 JSON on mcp ≥ 1.26, 400 plain text on older servers (`legacy`). */
export function sendSessionNotFound(res: ServerResponse, legacy: boolean): void {
  if (legacy) return sendPlain(res, 400, 'Bad Request: No valid session ID provided');
  return sendRpcError(res, 404, -32600, 'Session not found');
}

/** `faults.latencyMs`, read once the body has been read, and the delay that waits it. */
export interface Latency {
  ms(): number;
  delay(ms: number): Promise<void>;
}

/**
 * Reads and validates a POSTed JSON-RPC body (a message or a batch), answering FastMCP's errors
 * itself: JSON-RPC errors on Streamable HTTP, plain `Could not parse message` on legacy SSE.
 * Notes the first message's method and id in the HTTP log. `latencyMs` is waited after reading.
 */
export async function readMessages(
  req: IncomingMessage,
  res: ServerResponse,
  entry: HttpLog,
  channel: 'streamable' | 'sse',
  latency: Latency,
): Promise<{ body: unknown; messages: JSONRPCMessage[] } | undefined> {
  const raw = await readBody(req);
  const ms = latency.ms();
  if (ms > 0) await latency.delay(ms);
  let body: unknown;
  try {
    body = JSON.parse(raw.toString('utf8'));
  } catch (e) {
    if (channel === 'sse') sendPlain(res, 400, 'Could not parse message');
    else sendRpcError(res, 400, -32700, `Parse error: ${(e as Error).message}`);
    return undefined;
  }
  const list = Array.isArray(body) ? body : [body];
  const messages: JSONRPCMessage[] = [];
  for (const m of list) {
    const r = JSONRPCMessageSchema.safeParse(m);
    if (!r.success || list.length === 0) {
      if (channel === 'sse') sendPlain(res, 400, 'Could not parse message');
      else sendRpcError(res, 400, -32602, `Validation error: ${r.success ? 'empty batch' : r.error.message}`);
      return undefined;
    }
    messages.push(r.data);
  }
  if (messages.length === 0) {
    if (channel === 'sse') sendPlain(res, 400, 'Could not parse message');
    else sendRpcError(res, 400, -32602, 'Validation error: empty batch');
    return undefined;
  }
  const first = messages[0]!;
  if ('method' in first) entry.rpcMethod = first.method;
  if ('id' in first && (typeof first.id === 'string' || typeof first.id === 'number')) entry.rpcId = first.id;
  return { body, messages };
}
