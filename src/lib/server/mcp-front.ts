/**
 * The local MCP endpoint, the user's alone: Graphiti's server has no authentication of its own,
 * so it listens on a Unix socket in a 0700 folder (no other user can connect), and this small
 * HTTP front, in the supervisor's own Node process on 127.0.0.1, is the only way in. It requires
 * `Authorization: Bearer <token>` (the 0600 file server/mcp.token) on every request, compares it
 * in constant time, drops the header, and forwards everything else unchanged both ways (bodies
 * streamed, so SSE replies flow as they come; the Host header is kept, which Graphiti checks).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

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
  const message = `Unauthorized: this local Graphiti server (graphiti-memory-sync server) requires the token in ${tokenFile} as "Authorization: Bearer <token>". graphiti-memory-sync sends it itself unless MADEINOZ_KNOWLEDGE_AUTH_TOKEN is set; for Claude Code run "graphiti-memory-sync install --with-mcp"`;
  const body = JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32001, message } });
  // Connection: close: an unauthorized client does not get to keep a connection (or stream a body) open.
  res.writeHead(401, { 'content-type': 'application/json', 'www-authenticate': 'Bearer realm="graphiti-memory-sync"', 'content-length': Buffer.byteLength(body), connection: 'close' });
  res.end(body);
}

function forward(req: IncomingMessage, res: ServerResponse, socketPath: string): void {
  const { authorization: _dropped, ...headers } = req.headers;
  const upstream = request({ socketPath, method: req.method, path: req.url, headers }, (reply) => {
    res.writeHead(reply.statusCode ?? 502, reply.headers);
    reply.pipe(res);
    reply.once('error', () => res.destroy());
  });
  upstream.once('error', () => {
    if (!res.headersSent) {
      res.writeHead(502, { 'content-type': 'text/plain' });
      res.end('The local Graphiti server is not answering: see "graphiti-memory-sync server logs"\n');
    } else res.destroy();
  });
  // A client that goes away ends the forwarded request too (an open SSE stream, for one).
  res.once('close', () => upstream.destroy());
  req.pipe(upstream);
}

/**
 * Listens on 127.0.0.1:`port` (0 = any free one) and forwards authorized requests to `socketPath`.
 * `tokenFile` is only named in the refusal, so its reader knows where the token is.
 */
export function startMcpFront(options: { port: number; socketPath: string; token: string; tokenFile?: string }): Promise<McpFront> {
  const server: Server = createServer((req, res) => {
    if (!hasToken(req, options.token)) {
      req.resume();
      refuse(res, options.tokenFile ?? 'server/mcp.token in the state folder');
      return;
    }
    forward(req, res, options.socketPath);
  });
  // Tool calls and SSE streams can stay open for long: no request deadline here (the client has its own).
  server.requestTimeout = 0;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => {
      server.off('error', reject);
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : options.port;
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
