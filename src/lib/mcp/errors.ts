/**
 * Typed errors for everything that can go wrong talking to an MCP server.
 *
 * Every error carries a `retryable` verdict so that callers (and p-retry) decide
 * from one place whether trying again can help, instead of sniffing message text.
 */

export type McpErrorKind = 'http' | 'jsonrpc' | 'tool' | 'timeout' | 'network' | 'protocol' | 'aborted';

export abstract class McpError extends Error {
  abstract readonly kind: McpErrorKind;
  /** True when the same request may succeed if sent again later. */
  abstract readonly retryable: boolean;
  /** Server-requested delay before the next attempt (from Retry-After), in ms. */
  readonly retryAfterMs: number | undefined;

  constructor(message: string, options?: { cause?: unknown; retryAfterMs?: number | undefined }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.retryAfterMs = options?.retryAfterMs;
  }
}

/** Statuses where a later attempt can succeed (RFC 9110 semantics plus 425 Too Early). */
const RETRYABLE_STATUSES = new Set([408, 425, 429, 500, 502, 503, 504]);

export class McpHttpError extends McpError {
  readonly kind = 'http' as const;
  readonly retryable: boolean;
  constructor(
    readonly status: number,
    readonly body: string,
    readonly url: string,
    options?: { retryAfterMs?: number | undefined; message?: string; retryable?: boolean },
  ) {
    super(options?.message ?? describeHttpStatus(status, body, url), { retryAfterMs: options?.retryAfterMs });
    this.retryable = options?.retryable ?? RETRYABLE_STATUSES.has(status);
  }
}

/**
 * The server no longer knows our session: a 404 to a request that carried an
 * `mcp-session-id`, older python servers' `400 No valid session ID provided`, or a
 * legacy SSE server's unknown `session_id`. The client re-initializes and retries
 * once by itself; when this error reaches a caller that retry failed too, and a
 * later attempt (with yet another new session) may still succeed, so it is retryable.
 */
export class McpSessionExpiredError extends McpHttpError {
  constructor(status: number, body: string, url: string) {
    const snippet = body.trim().slice(0, 200);
    super(status, body, url, {
      retryable: true,
      message: `MCP session expired (HTTP ${status} from ${url}${snippet ? `: ${snippet}` : ''}); a new session is needed`,
    });
  }
}

/**
 * Statuses that refuse the endpoint, not the request: no authorization (401, 403: a token missing,
 * wrong or stale; our local server's front while it stops, when our client no longer sends its
 * token), no MCP server at that path (404 outside a session), a Host the server will not serve
 * (421). Every request gets the same answer until the server or a setting changes.
 */
const ENDPOINT_STATUSES = new Set([401, 403, 404, 421]);

/** The server refused the endpoint, not this request (ENDPOINT_STATUSES): stop, keep the work, and count it against no item. */
export function refusesEndpoint(error: unknown): boolean {
  return error instanceof McpHttpError && !(error instanceof McpSessionExpiredError) && ENDPOINT_STATUSES.has(error.status);
}

/**
 * The server cannot be used for now, whatever the request: down or overloaded (a retryable error,
 * after its retries), or refusing the endpoint (`refusesEndpoint`: our local server stopping or
 * restarting). A phase that meets it stops using the server for the rest of the run.
 */
export function serverUnusable(error: unknown): boolean {
  return (error instanceof McpError && error.retryable) || refusesEndpoint(error);
}

/** A request we held back ourselves: the local server's address did not prove it is ours (config/server-runtime.ts ONLY_PROVEN_LOCAL). */
export const LOCAL_UNPROVEN = 'ELOCALUNPROVEN';

/**
 * Connection failures that happen before a request can leave this machine (nothing listening, no
 * such host, no route, or held back by us): the server cannot have read the request.
 */
const NEVER_CONNECTED_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', LOCAL_UNPROVEN]);

/**
 * A gateway's answer about its upstream (RFC 9110 §15.6.3, §15.6.5): 502 Bad Gateway, 504 Gateway
 * Timeout. A reverse proxy in front of Graphiti gives them when the upstream connection broke or
 * its read timed out after the request was forwarded, as well as when it could not connect at
 * all; the answer does not say which, so the server may have taken the request. (Graphiti's own
 * uvicorn never answers them; our local server's front answers 503 when it could not connect,
 * server/mcp-front.ts.) A 502 from our own proven front is no exception: a server started by an
 * older build runs that build's front until it is restarted, and fronts older than the keep-alive
 * work (util/keep-alive.ts IDLE_REUSE) answered 502 also when the connection to Graphiti broke
 * once made, Graphiti having perhaps read the request. Those close after their proof, as do the
 * later ones answering 502 only when nothing listens, so the client cannot tell which it met (only
 * the few builds that kept the proven connection and still answered 502 could be told apart: too
 * few for a rule of their own). Waiting for proof costs a delay, never a lost or doubled note.
 */
const GATEWAY_STATUSES = new Set([502, 504]);

/**
 * MAY_HAVE_ARRIVED: whether a request that failed may still have been taken by the server. A
 * timeout or an abort mid-flight, a connection broken once it was made (a reset, a hang-up: the
 * server may have read the request and died or been restarted before its reply), a reply stream
 * that ended before its response (the server answered 200 and began its reply: it had the
 * request), or a gateway's 502/504 (GATEWAY_STATUSES: a proxy may have forwarded it) all leave it
 * open. A refused connection (NEVER_CONNECTED_CODES) or any other HTTP answer (503, 429, a lost
 * session's 404) says the request was not taken. The owner of the rule for a request that is not
 * idempotent (add_memory: each call queues one more episode): such a request is never sent again
 * blindly after these errors (graphiti/graphiti.ts addMemory), and the sync records it in flight
 * for reconciliation to confirm, or re-send on drop evidence (sync/send.ts, sync/reconcile.ts).
 */
export function mayHaveArrived(error: unknown): boolean {
  if (!(error instanceof McpError)) return false;
  if (error.kind === 'timeout' || error.kind === 'aborted') return true;
  if (error instanceof McpNetworkError) return !NEVER_CONNECTED_CODES.has(error.code ?? '');
  if (error instanceof McpHttpError) return !(error instanceof McpSessionExpiredError) && GATEWAY_STATUSES.has(error.status);
  // The only retryable protocol errors are a reply stream that ended before its response (mcp/streamable.ts).
  return error instanceof McpProtocolError && error.retryable;
}

function describeHttpStatus(status: number, body: string, url: string): string {
  const snippet = body.trim().slice(0, 300);
  if (status === 421) {
    return (
      `HTTP 421 from ${url}: ${snippet || 'Invalid Host header'}. ` +
      'The Graphiti MCP server (python mcp >= 1.23) only accepts Host headers for localhost, 127.0.0.1 or [::1] ' +
      '(DNS-rebinding protection). Connect through http://localhost:<port>/mcp or http://127.0.0.1:<port>/mcp ' +
      '(for example via a port mapping or an SSH tunnel), or put a proxy in front that rewrites the Host header.'
    );
  }
  return `HTTP ${status} from ${url}${snippet ? `: ${snippet}` : ''}`;
}

/** A JSON-RPC error response. Protocol-level: sending the same request again will not help. */
export class McpJsonRpcError extends McpError {
  readonly kind = 'jsonrpc' as const;
  readonly retryable = false;
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(`JSON-RPC error ${code}: ${message}`);
  }
}

/**
 * A tool call that the server answered but that failed: `isError: true`, or a
 * Graphiti `{"error": "..."}` payload. Graphiti's "not initialized" errors happen
 * while the server starts up, so those are retryable; the rest are not.
 */
export class McpToolError extends McpError {
  readonly kind = 'tool' as const;
  readonly retryable: boolean;
  constructor(
    readonly tool: string,
    readonly detail: string,
  ) {
    super(`Tool ${tool} failed: ${detail}`);
    this.retryable = /not initialized/i.test(detail);
  }
}

export class McpTimeoutError extends McpError {
  readonly kind = 'timeout' as const;
  readonly retryable = true;
  constructor(
    readonly timeoutMs: number,
    what: string,
  ) {
    super(`Timed out after ${timeoutMs} ms waiting for ${what}`);
  }
}

/** Connection refused, reset, DNS failure, socket closed mid-body, ... */
export class McpNetworkError extends McpError {
  readonly kind = 'network' as const;
  readonly retryable = true;
  constructor(
    message: string,
    readonly code: string | undefined,
    cause?: unknown,
  ) {
    super(message, { cause });
  }
}

/** The server broke the protocol (unexpected content type, missing response, bad JSON). */
export class McpProtocolError extends McpError {
  readonly kind = 'protocol' as const;
  readonly retryable: boolean;
  constructor(message: string, options?: { retryable?: boolean; cause?: unknown }) {
    super(message, { cause: options?.cause });
    this.retryable = options?.retryable ?? false;
  }
}

/** A server whose tools are not Graphiti's (graphiti.ts GRAPHITI_SURFACE): never retried, never taken for a Graphiti generation. */
export class NotGraphitiError extends McpProtocolError {}

/** The caller cancelled through its AbortSignal. Never retried. */
export class McpAbortError extends McpError {
  readonly kind = 'aborted' as const;
  readonly retryable = false;
  constructor(reason?: unknown, message = 'Request aborted by caller') {
    super(message, { cause: reason });
  }
}

export function isRetryable(error: unknown): boolean {
  return error instanceof McpError && error.retryable;
}

/** Parses a Retry-After header (delta-seconds or HTTP-date) into milliseconds. */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}
