/**
 * The server's MCP sessions: Streamable HTTP sessions by `mcp-session-id`, legacy SSE sessions by
 * `session_id`, and the ids ended by DELETE, which FastMCP keeps answering 404
 * `Session has been terminated`. Ids are `uuid4().hex`, as FastMCP makes them.
 */
import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';

export interface Session {
  id: string;
  kind: 'streamable-http' | 'sse';
  server: Server;
  http?: WebStandardStreamableHTTPServerTransport;
  sseRes?: ServerResponse;
  /** `notifications/initialized` has been processed. */
  initialized: boolean;
  /** initRace: the first request after initialized fails with -32602 (cleared once it did). */
  raceArmed: boolean;
  /** DELETEd: later requests get 404 `Not Found: Session has been terminated`. */
  terminated: boolean;
  getStream?: ServerResponse;
}

export function hexId(): string {
  return randomUUID().replace(/-/g, '');
}

/** Python `UUID(hex=…)` acceptance → 32 lower-case hex, or undefined. */
export function normalizeUuidHex(value: string): string | undefined {
  const hex = value.replace(/^urn:uuid:/i, '').replace(/[{}]/g, '').replace(/-/g, '');
  return /^[0-9a-fA-F]{32}$/.test(hex) ? hex.toLowerCase() : undefined;
}

export class SessionTable {
  readonly streamable = new Map<string, Session>();
  readonly sse = new Map<string, Session>();
  /** Streamable session ids ended by DELETE (FastMCP keeps them: 404 `Session has been terminated`). */
  readonly terminatedIds = new Set<string>();

  ids(): string[] {
    return [...this.streamable.keys(), ...this.sse.keys()];
  }

  /** The session is gone from the table and closed (a lost session, as after a server-side expiry). */
  lose(session: Session): void {
    if (session.kind === 'sse') this.sse.delete(session.id);
    else this.streamable.delete(session.id);
    endSession(session);
  }

  /**
   * Every Streamable HTTP session closed for idleness, the process and its queue kept: python mcp
   * 2.x (the servers of graphiti-core 0.31.x) closes a session that had no request for 30 minutes
   * (DEFAULT_SESSION_IDLE_TIMEOUT), and later requests with its id get 404, as after a restart.
   */
  expireStreamable(): number {
    const all = [...this.streamable.values()];
    for (const s of all) this.lose(s);
    return all.length;
  }

  /** DELETE: later requests with this id are told it was terminated. */
  terminate(session: Session): void {
    this.streamable.delete(session.id);
    this.terminatedIds.add(session.id);
    endSession(session);
  }

  /** Closes every legacy SSE stream (FastMCP forgets their sessions on disconnect). */
  dropSseStreams(): number {
    const all = [...this.sse.values()];
    this.sse.clear();
    for (const s of all) endSession(s);
    return all.length;
  }

  /** A restart: every session and terminated id is forgotten. */
  forgetAll(): void {
    const all = [...this.streamable.values(), ...this.sse.values()];
    this.streamable.clear();
    this.sse.clear();
    this.terminatedIds.clear();
    for (const s of all) endSession(s);
  }
}

function endSession(s: Session): void {
  s.terminated = true;
  s.getStream = undefined;
  if (s.sseRes && !s.sseRes.writableEnded) s.sseRes.end();
  void s.server.close().catch(() => undefined);
}
