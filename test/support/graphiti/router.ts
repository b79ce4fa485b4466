/**
 * The node:http front of the test server: routes `/mcp`, `/sse`, `/messages/`, `/health` and the
 * control API, logs every request, and answers everything FastMCP answers differently from the TS
 * SDK (307 slash redirects, 404 vs legacy 400 session errors, 421 Host check, `"id":"server-error"`
 * bodies, protocol-version check) before a Streamable HTTP request reaches the SDK's transport.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { HttpLog } from './api.js';
import type { ServerCore } from './core.js';
import { afterProcessingAnswer, applyFault, gateMessages, hostAllowed } from './faults.js';
import { header, isJsonContentType, readMessages, sendJson, sendPlain, sendRpcError, sendSessionNotFound, setErrorId, toWebRequest, writeWebResponse } from './framing.js';
import { handleSseConnect, handleSsePost } from './legacy-sse.js';
import { hexId, type Session } from './sessions.js';
import { createMcpServer } from './tools.js';

export type ControlHandler = (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<void>;

export class Router {
  constructor(
    private readonly core: ServerCore,
    private readonly control: ControlHandler,
  ) {}

  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const path = url.pathname;
    const o = this.core.opts;
    if (o.control && path.startsWith('/__control/')) return this.control(req, res, url);

    const entry = this.logHttp(req, url);
    const origWriteHead = res.writeHead.bind(res) as (status: number, ...rest: unknown[]) => ServerResponse;
    (res as { writeHead: unknown }).writeHead = (status: number, ...rest: unknown[]) => {
      entry.status = status;
      const hdrs = rest.find((r) => r !== null && typeof r === 'object' && !Array.isArray(r)) as Record<string, unknown> | undefined;
      const sid = hdrs?.['mcp-session-id'] ?? res.getHeader('mcp-session-id');
      if (typeof sid === 'string') entry.responseSessionId = sid;
      const loc = hdrs?.location;
      if (typeof loc === 'string') entry.location = loc;
      return origWriteHead(status, ...rest);
    };

    setErrorId(res, o.errorId);
    if (path === '/health') {
      if (req.method !== 'GET' && req.method !== 'HEAD') return sendPlain(res, 405, 'Method Not Allowed', { allow: 'GET, HEAD' });
      return sendJson(res, 200, { status: 'healthy', service: 'graphiti-mcp' });
    }
    const httpOn = o.transport !== 'sse';
    const sseOn = o.transport !== 'streamable-http';
    const endpoint = o.reverseRedirect ? '/mcp/' : '/mcp';
    const other = o.reverseRedirect ? '/mcp' : '/mcp/';
    if (httpOn && path === endpoint) return this.handleStreamable(req, res, entry);
    if (httpOn && path === other && o.redirectSlashes) return this.redirect(req, res, endpoint + url.search);
    if (sseOn && path === '/sse') {
      if (req.method !== 'GET') return sendPlain(res, 405, 'Method Not Allowed', { allow: 'GET' });
      return handleSseConnect(this.core, req, res);
    }
    if (sseOn && path === '/messages/') {
      if (req.method !== 'POST') return sendPlain(res, 405, 'Method Not Allowed', { allow: 'POST' });
      return handleSsePost(this.core, req, res, url, entry);
    }
    if (sseOn && path === '/messages' && o.redirectSlashes) return this.redirect(req, res, `/messages/${url.search}`);
    return sendPlain(res, 404, 'Not Found');
  }

  private logHttp(req: IncomingMessage, url: URL): HttpLog {
    const headers: Record<string, string> = {};
    for (const name of ['accept', 'content-type', 'host', 'origin', 'mcp-session-id', 'mcp-protocol-version', 'last-event-id']) {
      const v = header(req, name);
      if (v !== undefined) headers[name] = v;
    }
    const auth = header(req, 'authorization');
    if (auth !== undefined) headers.authorization = `${auth.split(' ')[0] ?? ''} ***`;
    const entry: HttpLog = {
      at: Date.now(),
      method: req.method ?? 'GET',
      path: url.pathname,
      search: url.search,
      status: 0,
      headers,
      hasAuthorization: auth !== undefined,
    };
    this.core.http.push(entry);
    this.core.trim(this.core.http);
    this.core.events.emit('http', entry);
    return entry;
  }

  /** Starlette redirect_slashes: 307 to an absolute URL built from the Host header. */
  private redirect(req: IncomingMessage, res: ServerResponse, target: string): void {
    const host = req.headers.host ?? `127.0.0.1:${this.core.port}`;
    res.writeHead(307, { location: `http://${host}${target}`, 'content-length': '0' });
    res.end();
  }

  private async handleStreamable(req: IncomingMessage, res: ServerResponse, entry: HttpLog): Promise<void> {
    const core = this.core;
    const method = req.method ?? 'GET';
    // 1. Session manager: an id that is not (or no longer) known.
    const sid = header(req, 'mcp-session-id');
    let session: Session | undefined;
    const terminated = sid !== undefined && core.sessions.terminatedIds.has(sid);
    if (sid !== undefined && !terminated) {
      session = core.sessions.streamable.get(sid);
      if (!session) return sendSessionNotFound(res, core.legacySessionErrors());
    }
    // 2. Transport security middleware: Content-Type (POST), then Host.
    if (method === 'POST' && !isJsonContentType(header(req, 'content-type'))) return sendPlain(res, 400, 'Invalid Content-Type header');
    if (!hostAllowed(core.opts, req)) return sendPlain(res, 421, 'Invalid Host header');
    // From here on the session's own transport answers: python mcp's error replies then carry the
    // session's id (`_create_error_response`), the security checks above do not.
    if (sid !== undefined) res.setHeader('mcp-session-id', sid);
    // 3. Terminated by DELETE.
    if (terminated || session?.terminated) return sendRpcError(res, 404, -32600, 'Not Found: Session has been terminated');

    if (method === 'POST') return this.handleStreamablePost(req, res, entry, session);
    if (method === 'GET') {
      if (!(header(req, 'accept') ?? '').includes('text/event-stream')) {
        return sendRpcError(res, 406, -32600, 'Not Acceptable: Client must accept text/event-stream');
      }
      if (!session) return sendRpcError(res, 400, -32600, 'Bad Request: Missing session ID');
      if (this.badProtocolVersion(req, res)) return;
      if (session.getStream) return sendRpcError(res, 409, -32600, 'Conflict: Only one SSE stream is allowed per session');
      const s = session;
      s.getStream = res;
      res.on('close', () => {
        if (s.getStream === res) s.getStream = undefined;
      });
      const response = await s.http!.handleRequest(toWebRequest(req, core.port));
      return writeWebResponse(res, response, () => core.opts);
    }
    if (method === 'DELETE') {
      if (!session) return sendRpcError(res, 400, -32600, 'Bad Request: Missing session ID');
      if (this.badProtocolVersion(req, res)) return;
      const response = await session.http!.handleRequest(toWebRequest(req, core.port));
      if (response.status === 200) core.sessions.terminate(session);
      return writeWebResponse(res, response, () => core.opts);
    }
    return sendRpcError(res, 405, -32600, 'Method Not Allowed', { allow: 'GET, POST, DELETE' });
  }

  /** mcp ≥ 1.10 rejects an unsupported `mcp-protocol-version` (absent = 2025-03-26). */
  private badProtocolVersion(req: IncomingMessage, res: ServerResponse): boolean {
    if (this.core.opts.oldServer) return false;
    const v = header(req, 'mcp-protocol-version');
    const supported = this.core.supportedVersions();
    if (v === undefined || supported.includes(v)) return false;
    sendRpcError(res, 400, -32600, `Bad Request: Unsupported protocol version: ${v}. Supported versions: ${supported.join(', ')}`);
    return true;
  }

  private async handleStreamablePost(req: IncomingMessage, res: ServerResponse, entry: HttpLog, existing: Session | undefined): Promise<void> {
    const core = this.core;
    const accept = header(req, 'accept') ?? '';
    if (!accept.includes('application/json') || (!core.opts.jsonResponse && !accept.includes('text/event-stream'))) {
      return sendRpcError(res, 406, -32600, 'Not Acceptable: Client must accept both application/json and text/event-stream');
    }
    const parsed = await readMessages(req, res, entry, 'streamable', core.latency);
    if (!parsed) return;
    const { body, messages } = parsed;
    let session = existing;
    const first = messages[0]!;
    const picked = core.faults.pick(core.opts, entry.rpcMethod, existing !== undefined) ?? core.faults.takeBeforeAddMemory(first);
    if (picked) return applyFault(core, picked, req, res, entry, session, first);
    const afterProcessing = core.faults.takeAfterProcessing(first);

    const isInit = messages.some((m) => isInitializeRequest(m));
    if (!session) {
      if (!isInit) return sendRpcError(res, 400, -32600, 'Bad Request: Missing session ID');
      session = await this.createStreamableSession();
    } else if (!isInit && this.badProtocolVersion(req, res)) return;
    const response = await session.http!.handleRequest(toWebRequest(req, core.port), { parsedBody: body });
    if (afterProcessing !== undefined) {
      // Let the handler finish its work (the reply is produced), then cut the connection unread, or
      // answer as a proxy whose upstream's reply never reached it.
      await response.text().catch(() => undefined);
      entry.fault = afterProcessing;
      const answer = afterProcessingAnswer(afterProcessing);
      if (answer === undefined) req.socket.destroy();
      else sendPlain(res, answer.status, answer.text, { 'content-type': 'text/html' });
      return;
    }
    return writeWebResponse(res, response, () => core.opts);
  }

  private async createStreamableSession(): Promise<Session> {
    const core = this.core;
    const session: Session = { id: '', kind: 'streamable-http', server: undefined as unknown as Server, initialized: false, raceArmed: core.faults.armInitRace(core.opts), terminated: false };
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: hexId,
      onsessioninitialized: (id) => {
        session.id = id;
        core.sessions.streamable.set(id, session);
        core.events.emit('session', { id, kind: 'streamable-http' });
      },
      enableJsonResponse: core.opts.jsonResponse,
      keepAliveMs: core.opts.pingIntervalMs,
    });
    session.http = transport;
    session.server = createMcpServer(core, session);
    await session.server.connect(transport);
    gateMessages(core, session, transport);
    return session;
  }
}
