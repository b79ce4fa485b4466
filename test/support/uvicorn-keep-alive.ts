/**
 * A Node HTTP server's kept-alive connections as uvicorn keeps them (every real Graphiti
 * generation runs uvicorn 0.34.3, measured in util/keep-alive.ts): no `Keep-Alive` header says how
 * long, and a connection without a request for `idleMs` after its last reply is closed (a FIN, by
 * a real timer). `now` (a monotonic ms clock, default performance.now, read at each use) judges a
 * request that arrives on a kept connection: idle `idleMs` or longer, it is reset unread, as a
 * request crossing the server's close is. A test moves `now` on to stand for a wait in which
 * neither side's timer ran (a busy event loop), so nothing waits on real time.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

export interface KeepAliveLimits {
  idleMs: number;
  now?: () => number;
}

export class UvicornKeepAlive {
  /** Requests reset unread because they came on a connection idle past `idleMs`. */
  resets = 0;
  private readonly lastReply = new WeakMap<Socket, { at: number; timer: NodeJS.Timeout }>();

  /** `limits` is read at each request, so a test may change them on a running server. */
  constructor(
    server: Server,
    private readonly limits: () => KeepAliveLimits,
  ) {
    // Node's own keep-alive timer would send `Keep-Alive: timeout=5`, which uvicorn never does (and
    // which makes Node's client agent stop at 4 s): the idle close is this class's instead.
    server.keepAliveTimeout = 0;
  }

  /** First thing in the request handler: false when the request was reset unread (handle nothing more). */
  admit(req: IncomingMessage, res: ServerResponse): boolean {
    const socket = req.socket;
    const last = this.lastReply.get(socket);
    if (last !== undefined) {
      clearTimeout(last.timer);
      this.lastReply.delete(socket);
      if (this.now() - last.at >= this.limits().idleMs) {
        this.resets++;
        // A TCP reset; a Unix socket (Graphiti behind our front) has none and is simply closed.
        if (socket.remoteAddress !== undefined) socket.resetAndDestroy();
        else socket.destroy();
        return false;
      }
    }
    res.once('finish', () => this.keptAlive(socket));
    return true;
  }

  private now(): number {
    return (this.limits().now ?? (() => performance.now()))();
  }

  /** A reply was written on `socket`: the idle timer starts. */
  private keptAlive(socket: Socket): void {
    if (socket.destroyed) return;
    const timer = setTimeout(() => socket.end(), this.limits().idleMs);
    timer.unref();
    this.lastReply.set(socket, { at: this.now(), timer });
  }
}
