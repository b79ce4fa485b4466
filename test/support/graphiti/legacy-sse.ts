/**
 * The legacy HTTP+SSE transport as FastMCP serves it: `GET /sse` opens the stream (first event:
 * the `/messages/?session_id=<hex>` endpoint), `POST /messages/?session_id=…` carries requests,
 * answered `202 Accepted` with the reply on the stream. Built on the SDK's `SSEServerTransport`,
 * its output re-framed the sse-starlette way, with the periodic `: ping` keep-alive.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import type { HttpLog } from './api.js';
import type { ServerCore } from './core.js';
import { applyFault, gateMessages, hostAllowed } from './faults.js';
import { header, isJsonContentType, pingEvent, readMessages, sendPlain, SseFramer } from './framing.js';
import { hexId, normalizeUuidHex, type Session } from './sessions.js';
import { createMcpServer } from './tools.js';

export async function handleSseConnect(core: ServerCore, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (!hostAllowed(core.opts, req)) return sendPlain(res, 421, 'Invalid Host header');
  const id = hexId();
  const session: Session = { id, kind: 'sse', server: undefined as unknown as Server, sseRes: res, initialized: false, raceArmed: core.faults.armInitRace(core.opts), terminated: false };
  const framer = new SseFramer(() => core.opts);
  const origWrite = res.write.bind(res) as (chunk: unknown, ...rest: unknown[]) => boolean;
  (res as { write: unknown }).write = (chunk: unknown, ...rest: unknown[]) => {
    const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8');
    const out = framer.push(text);
    return out === '' ? true : origWrite(out, ...rest);
  };
  const origWriteHead = res.writeHead.bind(res) as (status: number, headers?: Record<string, string>) => ServerResponse;
  (res as { writeHead: unknown }).writeHead = (status: number, headers?: Record<string, string>) =>
    origWriteHead(status, { ...(headers ?? {}), 'Content-Type': 'text/event-stream; charset=utf-8', 'X-Accel-Buffering': 'no' });
  const transport = new SSEServerTransport('/messages/', res);
  // FastMCP ids are uuid4().hex; the SDK would use a dashed uuid.
  (transport as unknown as { _sessionId: string })._sessionId = id;
  session.server = createMcpServer(core, session);
  core.sessions.sse.set(id, session);
  const ping = setInterval(() => {
    if (core.opts.pingComments && !res.writableEnded) origWrite(pingEvent(core.opts.crlf));
  }, Math.max(10, core.opts.pingIntervalMs));
  ping.unref();
  res.on('close', () => {
    clearInterval(ping);
    if (core.sessions.sse.get(id) === session) core.sessions.sse.delete(id);
    session.terminated = true;
    void session.server.close().catch(() => undefined);
  });
  await session.server.connect(transport);
  gateMessages(core, session, transport);
  core.events.emit('session', { id, kind: 'sse' });
}

export async function handleSsePost(core: ServerCore, req: IncomingMessage, res: ServerResponse, url: URL, entry: HttpLog): Promise<void> {
  if (!isJsonContentType(header(req, 'content-type'))) return sendPlain(res, 400, 'Invalid Content-Type header');
  if (!hostAllowed(core.opts, req)) return sendPlain(res, 421, 'Invalid Host header');
  const param = url.searchParams.get('session_id');
  if (param === null) return sendPlain(res, 400, 'session_id is required');
  const id = normalizeUuidHex(param);
  if (id === undefined) return sendPlain(res, 400, 'Invalid session ID');
  const session = core.sessions.sse.get(id);
  if (!session) return sendPlain(res, 404, 'Could not find session');
  const parsed = await readMessages(req, res, entry, 'sse', core.latency);
  if (!parsed) return;
  const message = parsed.messages[0]!;
  const fault = core.faults.pick(core.opts, entry.rpcMethod);
  if (fault) return applyFault(core, fault, req, res, entry, session, message);
  if (!core.sessions.sse.has(id)) return sendPlain(res, 404, 'Could not find session');
  const transport = (session.server as unknown as { transport?: SSEServerTransport }).transport;
  if (transport) {
    await transport.handleMessage(message, { requestInfo: { headers: req.headers as Record<string, string> } }).catch(() => undefined);
  }
  sendPlain(res, 202, 'Accepted');
}

