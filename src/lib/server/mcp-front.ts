/**
 * The local MCP endpoint, the user's alone: Graphiti's server has no authentication of its own,
 * so it listens on a Unix socket in a 0700 folder (no other user can connect), and this small
 * HTTP front, in the supervisor's own Node process on 127.0.0.1, is the only way in. It requires
 * `Authorization: Bearer <token>` (the 0600 file server/mcp.token) on every request, compares it
 * in constant time, drops the header, and forwards everything else unchanged both ways (bodies
 * streamed, so SSE replies flow as they come; the Host header is kept, which Graphiti checks).
 * Graphiti unreachable gets a 503 (not a gateway's 502, which a client must read as "may have been
 * forwarded"); a connection to it that breaks breaks the client's too, since Graphiti may have
 * read the request (mcp/errors.ts MAY_HAVE_ARRIVED).
 *
 * Two things it answers without the token:
 * - the proof challenge (FRONT_PROOF_PATH): an HMAC of the client's nonce and this front's own
 *   port, keyed with the token (config/server-runtime.ts, frontProof). Our clients send the token
 *   only to a listener that answers it, so a listener that took our old port gets none.
 * - a 401 for everything else.
 *
 * It survives a flood: a connection that has not shown the token is closed after
 * UNAUTHORIZED_IDLE_MS without a request, its headers must come within HEADERS_TIMEOUT_MS, and
 * beyond MAX_CONNECTIONS the oldest such connection is dropped for the new one; connections that
 * showed the token are never dropped for others.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { Agent, createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { FRONT_PROOF_PATH, frontProof } from '../config/server-runtime.js';
import { cli } from '../util/install-route.js';
import { sharedIdleLimitedAgent } from '../util/keep-alive.js';

/** Open connections at most; beyond, the oldest one that has not shown the token is closed. */
export const MAX_CONNECTIONS = 256;
/** A connection that has not shown the token is closed after this long without traffic. */
export const UNAUTHORIZED_IDLE_MS = 10_000;
/** A request's headers must all arrive within this. */
export const HEADERS_TIMEOUT_MS = 10_000;
/** A request (headers and body; not the reply, which may stream for long) must arrive within this. */
export const REQUEST_TIMEOUT_MS = 60_000;

export interface McpFront {
  port: number;
  close(): Promise<void>;
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

/** Whether the request carries the token (both sides hashed first, so the comparison takes the same time for any value). */
export function hasToken(req: IncomingMessage, token: string): boolean {
  const header = req.headers.authorization;
  if (typeof header !== 'string') return false;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match !== null && timingSafeEqual(digest(match[1] as string), digest(token));
}

function refuse(res: ServerResponse, tokenFile: string): void {
  const message = `Unauthorized: this local Graphiti server (graphiti-memory-sync server) requires the token in ${tokenFile} as "Authorization: Bearer <token>". graphiti-memory-sync sends it itself unless MADEINOZ_KNOWLEDGE_AUTH_TOKEN is set; for Claude Code run "${cli()} install --with-mcp"`;
  const body = JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32001, message } });
  // Connection: close: an unauthorized client does not get to keep a connection (or stream a body) open.
  res.writeHead(401, { 'content-type': 'application/json', 'www-authenticate': 'Bearer realm="graphiti-memory-sync"', 'content-length': Buffer.byteLength(body), connection: 'close' });
  res.end(body);
}

function forward(req: IncomingMessage, res: ServerResponse, socketPath: string): void {
  const { authorization: _dropped, ...headers } = req.headers;
  // Graphiti's uvicorn closes an idle connection after 5 s, Node's default agent keeps it as long:
  // a request crossing that close would break, a lost reply for add_memory (util/keep-alive.ts IDLE_REUSE).
  const upstream = request({ socketPath, method: req.method, path: req.url, headers, agent: sharedIdleLimitedAgent(Agent) }, (reply) => {
    res.writeHead(reply.statusCode ?? 502, reply.headers);
    reply.pipe(res);
    reply.once('error', () => res.destroy());
  });
  // Whether the request could have reached Graphiti: once connected, it may have been read.
  let connected = false;
  upstream.once('socket', (socket) => {
    if (!socket.connecting) connected = true;
    else socket.once('connect', () => (connected = true));
  });
  upstream.once('error', () => {
    if (!res.headersSent && !connected) {
      // Nothing listens on the socket (Graphiti stopped or restarting): it cannot have read the
      // request. 503, not 502: a gateway's 502 says it may have been forwarded (mcp/errors.ts
      // GATEWAY_STATUSES), and the client would keep the add_memory in flight instead of re-sending it.
      res.writeHead(503, { 'content-type': 'text/plain' });
      res.end(`The local Graphiti server is not answering: see "${cli()} server logs"\n`);
      return;
    }
    // The connection broke once made: Graphiti may have read the request (and queued an add_memory)
    // before it died. An answer would tell the client it was not taken, and it would send it again
    // (mcp/errors.ts MAY_HAVE_ARRIVED): the client's connection breaks too, as Graphiti's did.
    res.destroy();
  });
  // A client that goes away ends the forwarded request too (an open SSE stream, for one).
  res.once('close', () => upstream.destroy());
  req.pipe(upstream);
}

/** The proof challenge's answer (GET FRONT_PROOF_PATH?nonce=<64 hex>); true when the request was one. */
function answerProof(req: IncomingMessage, res: ServerResponse, token: string, port: number): boolean {
  const url = new URL(req.url ?? '/', 'http://front');
  if (url.pathname !== FRONT_PROOF_PATH) return false;
  req.resume();
  const nonce = url.searchParams.get('nonce') ?? '';
  const ok = req.method === 'GET' && /^[0-9a-f]{64}$/.test(nonce);
  const body = JSON.stringify(ok ? { proof: frontProof(token, port, nonce) } : { error: 'GET with a nonce of 64 hex digits' });
  // Kept open after a proof (not after a refusal): our client sends its request on the connection
  // that proved itself (config/server-runtime.ts PROOF_ON_THE_CONNECTION). A connection that never
  // shows the token is still closed after UNAUTHORIZED_IDLE_MS, and the oldest first past MAX_CONNECTIONS.
  res.writeHead(ok ? 200 : 400, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...(ok ? {} : { connection: 'close' }) });
  res.end(body);
  return true;
}

/**
 * Listens on 127.0.0.1:`port` (0 = any free one) and forwards authorized requests to `socketPath`.
 * `tokenFile` is only named in the refusal, so its reader knows where the token is.
 *
 * PORT_TAKEN_SINCE: `ifTaken: 'any'` (the port is the last one used, not one the user set) takes any
 * free port when another program bound that one after it was found free (`server start` checks it
 * first, then starts FalkorDB, and only then listens here: a second local user waiting for the port
 * can take it in between). Before, the start failed with EADDRINUSE, and a restart left the server
 * down; now it runs on another port, which `server start` reports as changed.
 */
export async function startMcpFront(options: { port: number; socketPath: string; token: string; tokenFile?: string; maxConnections?: number; ifTaken?: 'fail' | 'any' }): Promise<McpFront> {
  try {
    return await listenFront(options);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || options.ifTaken !== 'any' || options.port === 0) throw error;
    return listenFront({ ...options, port: 0 });
  }
}

function listenFront(options: { port: number; socketPath: string; token: string; tokenFile?: string; maxConnections?: number }): Promise<McpFront> {
  let boundPort = options.port;
  // Open connections, oldest first (a Set keeps insertion order), and those that showed the token.
  const sockets = new Set<Socket>();
  const authorized = new WeakSet<Socket>();
  const server: Server = createServer((req, res) => {
    if (answerProof(req, res, options.token, boundPort)) return;
    if (!hasToken(req, options.token)) {
      req.resume();
      refuse(res, options.tokenFile ?? 'server/mcp.token in the state folder');
      return;
    }
    authorized.add(req.socket);
    // The owner's connection may carry a long, quiet SSE stream: no idle limit for it.
    req.socket.setTimeout(0);
    forward(req, res, options.socketPath);
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.setTimeout(UNAUTHORIZED_IDLE_MS, () => {
      if (!authorized.has(socket)) socket.destroy();
    });
    if (sockets.size <= (options.maxConnections ?? MAX_CONNECTIONS)) return;
    for (const old of sockets) {
      if (old === socket || authorized.has(old)) continue;
      old.destroy();
      sockets.delete(old);
      break;
    }
  });
  server.headersTimeout = HEADERS_TIMEOUT_MS;
  // Receiving the request only: replies (tool calls, SSE streams) may take as long as they take.
  server.requestTimeout = REQUEST_TIMEOUT_MS;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => {
      server.off('error', reject);
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : options.port;
      boundPort = port;
      resolve({
        port,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}
