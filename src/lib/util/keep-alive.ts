/**
 * Kept-alive HTTP connections that are never used again once their server may be closing them.
 *
 * IDLE_REUSE (the rule): a free kept-alive connection is used again only within IDLE_REUSE_MS of
 * the reply that freed it; an older one, or one its server has visibly closed, is destroyed as a
 * request looks for a connection, and the request opens a new one. Why:
 *
 * - A server closes a kept-alive connection it has not heard from for its own idle time: uvicorn,
 *   which runs every Graphiti MCP server generation (0.28.2 to 0.31.2: uvicorn 0.34.3 with its
 *   default `timeout_keep_alive` of 5 s), and says so in no `Keep-Alive` header; gunicorn 2 s (its
 *   uvicorn workers too); Node, Apache and hypercorn 5 s; nginx 75 s; a proxy in between, its own.
 *   A request written while that close is on its way is reset, and the client cannot tell whether
 *   the server read it first (a server that died mid-request on a reused connection looks the
 *   same). For `add_memory` that is a lost reply (mcp/errors.ts MAY_HAVE_ARRIVED): the part waits
 *   in flight for reconcile, and a second one stops the run's sending (sync/send.ts ONE_LOST_REPLY).
 * - Node's own agent keeps a free connection for 5 s, uvicorn's very time, and ends it by a timer
 *   only. Measured against the real server: a request 4.996 to 4.999 s after the last reply was
 *   reset 2 times in 32, and every request made after 5 s with the event loop busy (the timer had
 *   not run yet) was reset. So the age is judged by the clock as a request takes a connection, not
 *   only by the timer (which still closes idle connections so that a process can exit).
 * - 1 s: below gunicorn's 2 s and far below uvicorn's 5 s, with room for the reply's way back to
 *   us (the server's idle time starts when it has written the reply, ours once we have read it).
 *   A server that says less in `Keep-Alive: timeout=N` gets less: Node keeps N - 1 s then.
 *
 * The cost is a new connection for a request after a pause of 1 s or more: about 0.1 ms on
 * 127.0.0.1; one round trip to a remote server over plain HTTP, two over TLS 1.3 (Node's agent
 * reuses TLS sessions, which saves the handshake's work but not its round trip). Requests in a
 * burst (a hook's searches, a sync's sends) keep their connections.
 */
import type { Agent, AgentOptions } from 'node:http';
import type { Duplex } from 'node:stream';

/** How long a free kept-alive connection may be used again after the reply that freed it (IDLE_REUSE). */
export const IDLE_REUSE_MS = 1000;

export interface IdleLimits {
  /** Default IDLE_REUSE_MS. */
  idleMs?: number;
  /** A monotonic clock in ms; default performance.now. */
  now?: () => number;
}

type AgentClass = new (options: AgentOptions) => Agent;

/** An agent that keeps connections alive under IDLE_REUSE; `take()` is what each request passes as its `agent`. */
export interface IdleLimitedAgent {
  readonly agent: Agent;
  /** Destroys the free connections IDLE_REUSE forbids, then returns the agent. */
  take(): Agent;
}

/** A connection whose server has closed it, or that we closed: never to be written to again. */
export function closedByEitherSide(socket: Duplex): boolean {
  return socket.destroyed || socket.readableEnded || socket.writableEnded;
}

/** A keep-alive agent of `Base` (node:http's or node:https's Agent) under IDLE_REUSE. */
export function idleLimitedAgent(Base: AgentClass, limits: IdleLimits = {}): IdleLimitedAgent {
  const idleMs = limits.idleMs ?? IDLE_REUSE_MS;
  const now = limits.now ?? (() => performance.now());
  const freeSince = new WeakMap<Duplex, number>();
  class IdleLimited extends Base {
    // Node calls this as a reply frees the connection, and pools it only when it returns true.
    override keepSocketAlive(socket: Duplex): boolean {
      // (@types/node says void; Node returns false when the server's Keep-Alive hint is under 1 s.)
      const keep = (super.keepSocketAlive(socket) as unknown) !== false;
      if (keep) freeSince.set(socket, now());
      return keep;
    }
  }
  // `timeout` is the idle timer on free connections (Node destroys a free one when it fires; a
  // connection in use only gets a 'timeout' event nobody listens to).
  const agent = new IdleLimited({ keepAlive: true, timeout: idleMs });
  return {
    agent,
    take() {
      const at = now();
      for (const sockets of Object.values(agent.freeSockets) as Duplex[][]) {
        // Taken out of the pool here, not only destroyed: Node removes a destroyed connection from
        // it on its 'close' event, a tick later, and would hand it to the request being made now.
        // (Its own removal finds it gone and carries on.)
        for (let i = sockets.length - 1; i >= 0; i--) {
          const socket = sockets[i]!;
          const since = freeSince.get(socket);
          if (!closedByEitherSide(socket) && since !== undefined && at - since < idleMs) continue;
          sockets.splice(i, 1);
          socket.destroy();
        }
      }
      return agent;
    },
  };
}

const shared = new Map<AgentClass, IdleLimitedAgent>();

/** The process's one IDLE_REUSE agent for `Base` (node:http's or node:https's Agent). */
export function sharedIdleLimitedAgent(Base: AgentClass): Agent {
  let limited = shared.get(Base);
  if (limited === undefined) {
    limited = idleLimitedAgent(Base);
    shared.set(Base, limited);
  }
  return limited.take();
}
