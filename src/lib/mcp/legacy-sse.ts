/**
 * The 2024-11-05 HTTP+SSE transport, used as a fallback for old servers.
 *
 * GET the SSE URL; the first `endpoint` event names the URI to POST messages to;
 * responses arrive as `message` events on the GET stream, matched by id.
 * A new stream (reconnect) or a new `endpoint` event is a NEW, uninitialized
 * session: the transport reports itself `stale` and the client initializes again.
 * We never reconnect in the background; the next request reconnects.
 *
 * Size: one transport class; the legacy SSE session (a GET stream plus a POST endpoint it names)
 * is one lifecycle.
 */
import { McpAbortError, McpHttpError, McpNetworkError, McpProtocolError } from './errors.js';
import {
  displayUrl,
  mediaType,
  normalizeHeaders,
  readErrorBody,
  readText,
  sendFollowingRedirects,
  toNetworkError,
  type HttpResponse,
} from './http.js';
import {
  isJsonRpcNotification,
  isJsonRpcRequest,
  isJsonRpcResponse,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type JsonRpcResponse,
} from './jsonrpc.js';
import { decodeEvent, readSseEvents } from './sse.js';
import { abortable, answerServerRequest, httpError, protocolHeader, type Transport, type TransportOptions } from './transport.js';

interface Connection {
  controller: AbortController;
  /** The SSE URL after redirects: endpoint URIs resolve against it. */
  url: URL;
  endpoint: URL | undefined;
  /** The transport-wide generation of the current endpoint. */
  endpointGen: number;
  closed: boolean;
  ready: Promise<void>;
  resolveReady: () => void;
  rejectReady: (error: unknown) => void;
}

interface Pending {
  resolve: (response: JsonRpcResponse) => void;
  reject: (error: unknown) => void;
  connection: Connection;
}

export interface LegacySseOptions extends TransportOptions {
  /** SSE URLs to try in order; a 404/405 moves on to the next one. */
  candidates: URL[];
}

export class LegacySseTransport implements Transport {
  readonly kind = 'sse' as const;
  protocolVersion: string | undefined;
  readonly #options: LegacySseOptions;
  #connection: Connection | undefined;
  /** Increments for every `endpoint` event: each one is a new session. */
  #gen = 0;
  #openedGen = -1;
  #initializedGen = -1;
  readonly #pending = new Map<string, Pending>();

  constructor(options: LegacySseOptions) {
    this.#options = options;
  }

  /** The legacy transport has no session header; the endpoint URI carries it. */
  get sessionId(): string | undefined {
    return undefined;
  }

  get endpoint(): URL | undefined {
    return this.#connection?.endpoint;
  }

  get stale(): boolean {
    const c = this.#connection;
    return c === undefined || c.closed || this.#gen !== this.#initializedGen;
  }

  async open(signal: AbortSignal): Promise<void> {
    this.protocolVersion = undefined;
    const current = this.#connection;
    // Reuse a live stream only when it announced an endpoint we never initialized.
    const reusable = current !== undefined && !current.closed && (current.endpoint === undefined || this.#gen !== this.#initializedGen);
    if (!reusable) {
      if (current && !current.closed) this.#closeConnection(current, new McpNetworkError('Legacy SSE session replaced', undefined));
      this.#connection = await this.#connect(signal);
    }
    const connection = this.#connection!;
    await abortable(connection.ready, signal);
    this.#openedGen = connection.endpointGen;
  }

  markInitialized(): void {
    this.#initializedGen = this.#openedGen;
  }

  async request(message: JsonRpcRequest, signal: AbortSignal): Promise<JsonRpcResponse> {
    const connection = this.#live();
    const key = String(message.id);
    const response = new Promise<JsonRpcResponse>((resolve, reject) => {
      this.#pending.set(key, { resolve, reject, connection });
    });
    response.catch(() => {}); // may reject before we await it
    try {
      await this.#post(connection, message, signal);
      return await abortable(response, signal);
    } finally {
      this.#pending.delete(key);
    }
  }

  async notify(message: JsonRpcNotification, signal: AbortSignal): Promise<void> {
    await this.#post(this.#live(), message, signal);
  }

  async close(): Promise<void> {
    const connection = this.#connection;
    this.#connection = undefined;
    if (connection) this.#closeConnection(connection, new McpAbortError(undefined, 'MCP client closed'));
  }

  #live(): Connection {
    const connection = this.#connection;
    if (!connection || connection.closed || connection.endpoint === undefined) {
      throw new McpNetworkError('The legacy SSE stream is not connected', undefined);
    }
    return connection;
  }

  #headers(extra: Record<string, string>): Record<string, string> {
    return normalizeHeaders(this.#options.headers, protocolHeader(this.protocolVersion), extra);
  }

  async #post(connection: Connection, message: unknown, signal: AbortSignal): Promise<void> {
    const endpoint = connection.endpoint!;
    const response = await sendFollowingRedirects(endpoint, {
        authorize: this.#options.authorize,
      method: 'POST',
      headers: this.#headers({ accept: 'application/json, text/event-stream', 'content-type': 'application/json' }),
      body: JSON.stringify(message),
      signal,
    });
    if (response.status < 200 || response.status > 299) {
      // The endpoint URI carries the session: 404 / "Invalid session ID" mean it is gone.
      throw await httpError(response, signal, { sentSession: true, legacySessionPatterns: true });
    }
    await readText(response, signal, 64 * 1024);
  }

  /** Opens the GET stream on the first candidate URL that serves one. */
  async #connect(signal: AbortSignal): Promise<Connection> {
    let lastError: unknown;
    for (const candidate of this.#options.candidates) {
      try {
        return await this.#connectTo(candidate, signal);
      } catch (error) {
        lastError = error;
        if (signal.aborted) throw error;
        if (!(error instanceof McpHttpError && (error.status === 404 || error.status === 405))) throw error;
        this.#options.logger.debug('mcp legacy sse url not found', { url: displayUrl(candidate), status: error.status });
      }
    }
    throw lastError;
  }

  async #connectTo(url: URL, signal: AbortSignal): Promise<Connection> {
    const controller = new AbortController();
    // Until the stream is established, the caller's deadline applies to it too.
    const onAbort = () => controller.abort(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      if (signal.aborted) throw signal.reason;
      const response = await sendFollowingRedirects(url, {
        authorize: this.#options.authorize,
        method: 'GET',
        headers: this.#headers({ accept: 'text/event-stream', 'cache-control': 'no-cache' }),
        signal: controller.signal,
      });
      if (response.status < 200 || response.status > 299) {
        const body = await readErrorBody(response, controller.signal);
        controller.abort();
        throw new McpHttpError(response.status, body, displayUrl(response.url));
      }
      if (mediaType(response) !== 'text/event-stream') {
        controller.abort();
        throw new McpProtocolError(
          `Legacy SSE endpoint ${displayUrl(response.url)} answered with "${mediaType(response) || '(none)'}" instead of text/event-stream`,
        );
      }
      let resolveReady!: () => void;
      let rejectReady!: (error: unknown) => void;
      const ready = new Promise<void>((resolve, reject) => {
        resolveReady = resolve;
        rejectReady = reject;
      });
      ready.catch(() => {});
      const connection: Connection = {
        controller,
        url: response.url,
        endpoint: undefined,
        endpointGen: -1,
        closed: false,
        ready,
        resolveReady,
        rejectReady,
      };
      this.#options.logger.debug('mcp legacy sse stream open', { url: displayUrl(response.url) });
      void this.#pump(connection, response);
      return connection;
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
  }

  async #pump(connection: Connection, response: HttpResponse): Promise<void> {
    let reason: unknown;
    try {
      for await (const event of readSseEvents(response.stream)) {
        const decoded = decodeEvent(event);
        if (decoded.kind === 'other') {
          if (decoded.event === 'endpoint') this.#onEndpoint(connection, decoded.data);
          continue;
        }
        if (decoded.kind === 'invalid') {
          this.#options.logger.warn('mcp legacy sse event with invalid JSON ignored', { error: decoded.error });
          continue;
        }
        if (decoded.kind !== 'message') continue;
        const items: unknown[] = Array.isArray(decoded.message) ? decoded.message : [decoded.message];
        for (const item of items) this.#dispatch(connection, item);
      }
    } catch (error) {
      reason = error;
    }
    if (!connection.closed) {
      this.#options.logger.info('mcp legacy sse stream closed', { error: reason });
      const error =
        reason === undefined
          ? new McpNetworkError(`The legacy SSE stream ${displayUrl(connection.url)} was closed by the server`, undefined)
          : toNetworkError(reason, connection.url);
      this.#closeConnection(connection, error);
    }
  }

  #onEndpoint(connection: Connection, data: string): void {
    let endpoint: URL;
    try {
      endpoint = new URL(data.trim(), connection.url);
    } catch (error) {
      this.#closeConnection(connection, new McpProtocolError(`Invalid legacy SSE endpoint "${data}"`, { cause: error }));
      return;
    }
    if (endpoint.origin !== connection.url.origin) {
      this.#closeConnection(
        connection,
        new McpProtocolError(`Refusing the legacy SSE endpoint ${endpoint.origin}: it is not on the SSE stream's origin ${connection.url.origin}`),
      );
      return;
    }
    const first = connection.endpoint === undefined;
    connection.endpoint = endpoint;
    connection.endpointGen = ++this.#gen;
    if (first) {
      this.#options.logger.debug('mcp legacy sse endpoint', { path: endpoint.pathname });
      connection.resolveReady();
      return;
    }
    // A new endpoint is a new session: the transport is now stale and the client
    // initializes it before its next request. Requests already sent keep waiting
    // (their answers may still arrive on this stream) until their own deadline.
    this.#options.logger.info('mcp legacy sse announced a new endpoint: new session');
  }

  #dispatch(connection: Connection, item: unknown): void {
    if (isJsonRpcResponse(item)) {
      const pending = item.id === null ? undefined : this.#pending.get(String(item.id));
      if (pending && pending.connection === connection) pending.resolve(item);
      else this.#options.logger.debug('mcp response for another request ignored', { id: item.id });
      return;
    }
    if (isJsonRpcRequest(item)) {
      const reply = answerServerRequest(item);
      if (connection.endpoint === undefined) return;
      this.#post(connection, reply, AbortSignal.timeout(this.#options.backgroundTimeoutMs)).catch((error: unknown) =>
        this.#options.logger.warn('mcp reply to server request failed', { method: item.method, error }),
      );
      return;
    }
    if (isJsonRpcNotification(item)) this.#options.logger.debug('mcp notification', { method: item.method });
  }

  #closeConnection(connection: Connection, error: unknown): void {
    if (connection.closed) return;
    connection.closed = true;
    connection.rejectReady(error);
    connection.controller.abort(error);
    this.#rejectPending((p) => p.connection === connection, error);
  }

  #rejectPending(predicate: (pending: Pending) => boolean, error: unknown): void {
    for (const [key, pending] of this.#pending) {
      if (!predicate(pending)) continue;
      this.#pending.delete(key);
      pending.reject(error);
    }
  }
}
