/**
 * What the client needs from a transport, and helpers shared by the Streamable HTTP
 * and the legacy HTTP+SSE transports.
 */
import type { Logger } from '../util/log.js';
import { McpHttpError, McpSessionExpiredError, parseRetryAfter } from './errors.js';
import { displayUrl, header, readErrorBody, type Authorize, type HttpResponse } from './http.js';
import type { JsonRpcNotification, JsonRpcRequest, JsonRpcResponse } from './jsonrpc.js';

export type TransportKind = 'streamable-http' | 'sse';

export interface Transport {
  readonly kind: TransportKind;
  readonly sessionId: string | undefined;
  /** Set by the client once `initialize` negotiated it; drives MCP-Protocol-Version. */
  protocolVersion: string | undefined;
  /**
   * True when the transport's session changed under the client (legacy SSE: the
   * stream closed or announced a new endpoint), so it must be initialized again.
   */
  readonly stale: boolean;
  /** Prepares a NEW session (no session id); the client then sends `initialize`. */
  open(signal: AbortSignal): Promise<void>;
  /** Called after `notifications/initialized` was accepted. */
  markInitialized(): void;
  /** Sends a request and resolves with the matching response (result or error). */
  request(message: JsonRpcRequest, signal: AbortSignal): Promise<JsonRpcResponse>;
  /** Sends a notification and resolves once the server accepted it (202). */
  notify(message: JsonRpcNotification, signal: AbortSignal): Promise<void>;
  /** Ends the session (DELETE / abort the stream); never throws. */
  close(): Promise<void>;
}

export interface TransportOptions {
  /** Extra headers, names already lower-cased (auth included). */
  headers: Record<string, string>;
  logger: Logger;
  /** Deadline for the transport's own fire-and-forget messages and close(). */
  backgroundTimeoutMs: number;
  /** Headers asked per request for its URL (http.ts, `Authorize`). */
  authorize?: Authorize;
}

export const SUPPORTED_PROTOCOL_VERSIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'] as const;
export const LATEST_PROTOCOL_VERSION = '2025-11-25';
export const LEGACY_PROTOCOL_VERSION = '2024-11-05';

/** MCP-Protocol-Version is sent after init for every negotiated version except 2024-11-05. */
export function protocolHeader(version: string | undefined): Record<string, string> {
  return version !== undefined && version !== LEGACY_PROTOCOL_VERSION ? { 'mcp-protocol-version': version } : {};
}

/**
 * Our answer to a request the server sent us. We declare no client capabilities,
 * so everything except `ping` is "Method not found".
 */
export function answerServerRequest(request: JsonRpcRequest): JsonRpcResponse {
  if (request.method === 'ping') return { jsonrpc: '2.0', id: request.id, result: {} };
  return {
    jsonrpc: '2.0',
    id: request.id,
    error: { code: -32601, message: `Method not found: ${request.method}` },
  };
}

/**
 * Turns a non-2xx response into a typed error. A 404 to a request that carried a
 * session id, or older python servers' `400 No valid session ID provided`, means
 * the session is gone (McpSessionExpiredError).
 */
export async function httpError(
  response: HttpResponse,
  signal: AbortSignal,
  options: { sentSession: boolean; legacySessionPatterns?: boolean },
): Promise<McpHttpError> {
  const body = await readErrorBody(response, signal);
  const url = displayUrl(response.url);
  const status = response.status;
  if (options.sentSession) {
    if (status === 404) return new McpSessionExpiredError(status, body, url);
    if (status === 400 && /No valid session ID provided/i.test(body)) return new McpSessionExpiredError(status, body, url);
    if (options.legacySessionPatterns && status === 400 && /session/i.test(body)) return new McpSessionExpiredError(status, body, url);
  }
  return new McpHttpError(status, body, url, { retryAfterMs: parseRetryAfter(header(response, 'retry-after') ?? null) });
}

/** A promise that rejects with the signal's reason when it aborts. */
export function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    promise.catch(() => {}); // the promise may be shared; its rejection is handled elsewhere
    return Promise.reject(signal.reason as unknown);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as unknown);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
