/**
 * MCP Streamable HTTP transport (protocol 2025-03-26 and later).
 *
 * One POST per message; replies as application/json or text/event-stream; session id
 * from the initialize response; MCP-Protocol-Version after init; same-origin 307/308
 * redirects (the final URL is kept for the session); SSE resumption with
 * Last-Event-ID after the server's `retry` interval when a response stream ends early.
 */
import { McpNetworkError, McpProtocolError } from './errors.js';
import {
  discard,
  displayUrl,
  isNetworkFailure,
  mediaType,
  header,
  normalizeHeaders,
  readText,
  sendFollowingRedirects,
  toNetworkError,
  type HttpMethod,
  type HttpResponse,
} from './http.js';
import {
  isJsonRpcNotification,
  isJsonRpcRequest,
  isJsonRpcResponse,
  sameId,
  type JsonRpcId,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type JsonRpcResponse,
} from './jsonrpc.js';
import { decodeEvent, readSseEvents, type SseEvent } from './sse.js';
import { sleep } from '../util/backoff.js';
import { answerServerRequest, httpError, protocolHeader, type Transport, type TransportOptions } from './transport.js';

const ACCEPT_BOTH = 'application/json, text/event-stream';
/** Delay before resuming a broken SSE response stream when the server sent no `retry:`. */
export const DEFAULT_RECONNECT_DELAY_MS = 1000;
/** Resumption GETs per request before giving up. */
export const MAX_RECONNECTS = 2;
/** How long a reply stream may stay open after its response arrived before its connection is dropped. */
export const STREAM_END_GRACE_MS = 1000;

interface StreamState {
  lastEventId: string | undefined;
  retryMs: number | undefined;
}

export class StreamableHttpTransport implements Transport {
  readonly kind = 'streamable-http' as const;
  protocolVersion: string | undefined;
  readonly stale = false;
  #sessionId: string | undefined;
  /** Where requests go; updated to the final URL after a redirect. */
  #endpoint: URL;
  readonly #options: TransportOptions;

  constructor(url: URL, options: TransportOptions) {
    this.#endpoint = url;
    this.#options = options;
  }

  get sessionId(): string | undefined {
    return this.#sessionId;
  }

  get endpoint(): URL {
    return this.#endpoint;
  }

  async open(): Promise<void> {
    this.#sessionId = undefined;
    this.protocolVersion = undefined;
  }

  markInitialized(): void {}

  async request(message: JsonRpcRequest, signal: AbortSignal): Promise<JsonRpcResponse> {
    const response = await this.#post(message, signal);
    if (response.status === 202 || response.status === 204) {
      discard(response);
      throw new McpProtocolError(`HTTP ${response.status} without a body in reply to ${message.method} from ${displayUrl(response.url)}`);
    }
    const type = mediaType(response);
    if (type === 'application/json') return this.#fromJson(response, message, signal);
    if (type === 'text/event-stream') return this.#fromSse(response, message, signal);
    discard(response);
    throw new McpProtocolError(
      `Unexpected content type "${type || '(none)'}" in reply to ${message.method} from ${displayUrl(response.url)} ` +
        '(expected application/json or text/event-stream)',
    );
  }

  async notify(message: JsonRpcNotification, signal: AbortSignal): Promise<void> {
    const response = await this.#post(message, signal);
    // 202 Accepted is the norm; tolerate any 2xx (some servers answer 200 with a body).
    await readText(response, signal, 64 * 1024);
  }

  async close(): Promise<void> {
    const sessionId = this.#sessionId;
    this.#sessionId = undefined;
    if (sessionId === undefined) return;
    try {
      const response = await sendFollowingRedirects(this.#endpoint, {
        authorize: this.#options.authorize,
        method: 'DELETE',
        headers: this.#headers({}, sessionId),
        signal: AbortSignal.timeout(this.#options.backgroundTimeoutMs),
      });
      discard(response);
      this.#options.logger.debug('mcp session closed', { status: response.status });
    } catch (error) {
      this.#options.logger.debug('mcp session delete failed (ignored)', { error });
    }
  }

  #headers(extra: Record<string, string>, sessionId = this.#sessionId): Record<string, string> {
    return normalizeHeaders(
      this.#options.headers,
      sessionId !== undefined ? { 'mcp-session-id': sessionId } : undefined,
      protocolHeader(this.protocolVersion),
      extra,
    );
  }

  /** Sends a request (following redirects), captures the session id, maps non-2xx to typed errors. */
  async #send(method: HttpMethod, extra: Record<string, string>, body: string | undefined, signal: AbortSignal): Promise<HttpResponse> {
    const headers = this.#headers(extra);
    const sentSession = headers['mcp-session-id'] !== undefined;
    const response = await sendFollowingRedirects(this.#endpoint, { authorize: this.#options.authorize, method, headers, body, signal });
    if (response.url.href !== this.#endpoint.href) {
      this.#options.logger.info('mcp endpoint redirected', { from: displayUrl(this.#endpoint), to: displayUrl(response.url) });
      this.#endpoint = response.url;
    }
    const sessionId = header(response, 'mcp-session-id');
    if (sessionId && sessionId !== this.#sessionId) this.#sessionId = sessionId;
    if (response.status < 200 || response.status > 299) throw await httpError(response, signal, { sentSession });
    return response;
  }

  #post(message: JsonRpcRequest | JsonRpcNotification | JsonRpcResponse, signal: AbortSignal): Promise<HttpResponse> {
    return this.#send('POST', { accept: ACCEPT_BOTH, 'content-type': 'application/json' }, JSON.stringify(message), signal);
  }

  async #fromJson(response: HttpResponse, message: JsonRpcRequest, signal: AbortSignal): Promise<JsonRpcResponse> {
    const text = await readText(response, signal);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      throw new McpProtocolError(`Invalid JSON in reply to ${message.method} from ${displayUrl(response.url)}`, { cause: error });
    }
    const messages = Array.isArray(parsed) ? parsed : [parsed];
    let match: JsonRpcResponse | undefined;
    for (const item of messages) match = this.#dispatch(item, message.id) ?? match;
    if (match) return match;
    // A lone error without our id (e.g. id null) is still the answer to our single request.
    const lone = messages.length === 1 ? messages[0] : undefined;
    if (isJsonRpcResponse(lone) && lone.error !== undefined && (lone.id === null || lone.id === undefined)) return lone;
    throw new McpProtocolError(`No response with id ${String(message.id)} in the JSON reply to ${message.method} from ${displayUrl(response.url)}`);
  }

  async #fromSse(first: HttpResponse, message: JsonRpcRequest, signal: AbortSignal): Promise<JsonRpcResponse> {
    const state: StreamState = { lastEventId: undefined, retryMs: undefined };
    let response = first;
    for (let reconnects = 0; ; reconnects++) {
      let failure: unknown;
      try {
        const match = await this.#readStream(response, message.id, state);
        if (match) return match;
      } catch (error) {
        if (signal.aborted) throw signal.reason;
        if (!isNetworkFailure(error)) throw error;
        failure = error;
      }
      if (state.lastEventId === undefined) {
        const why = `The SSE stream for ${message.method} ended before the response arrived, and it carried no event id to resume from`;
        if (failure !== undefined) {
          const network = toNetworkError(failure, response.url);
          throw new McpNetworkError(`${why}: ${network.message}`, network.code, failure);
        }
        throw new McpProtocolError(why, { retryable: true });
      }
      if (reconnects >= MAX_RECONNECTS) {
        throw new McpProtocolError(`The SSE stream for ${message.method} ended before the response arrived ${reconnects + 1} times; giving up`, {
          retryable: true,
          cause: failure,
        });
      }
      const delay = state.retryMs ?? DEFAULT_RECONNECT_DELAY_MS;
      this.#options.logger.debug('mcp sse stream ended early; resuming', { method: message.method, delayMs: delay, attempt: reconnects + 1 });
      await sleep(delay, signal);
      response = await this.#send('GET', { accept: 'text/event-stream', 'last-event-id': state.lastEventId }, undefined, signal);
      if (mediaType(response) !== 'text/event-stream') {
        discard(response);
        throw new McpProtocolError(`Resuming the SSE stream at ${displayUrl(response.url)} returned "${mediaType(response) || '(none)'}" instead of text/event-stream`);
      }
    }
  }

  /**
   * Reads events until the response for `id` arrives (resolves it) or the stream ends (undefined).
   * The rest of the stream is read after the response (see #finishInBackground), not cut off.
   */
  async #readStream(response: HttpResponse, id: JsonRpcId, state: StreamState): Promise<JsonRpcResponse | undefined> {
    const events = readSseEvents(response.stream, {
      onRetry: (ms) => {
        state.retryMs = ms;
      },
    });
    for (;;) {
      const next = await events.next();
      if (next.done) return undefined;
      const match = this.#handleEvent(next.value, id, state);
      if (match) {
        this.#finishInBackground(response, events, id, state);
        return match;
      }
    }
  }

  /**
   * The server ends a reply stream right after its response (MCP: it SHOULD), but that end often
   * arrives a moment after the response's own event. Reading it, instead of destroying the stream
   * as soon as the response is in, hands the keep-alive connection back to the pool: cut off, every
   * SSE reply cost a new TCP connection (and a TLS handshake on https), about 2 ms a request on
   * 127.0.0.1. Events still coming are handled as before; a stream left open longer than
   * STREAM_END_GRACE_MS is destroyed, and the request's own signal (its deadline, client close)
   * still destroys it at once.
   */
  #finishInBackground(response: HttpResponse, events: AsyncGenerator<SseEvent>, id: JsonRpcId, state: StreamState): void {
    const timer = setTimeout(() => response.stream.destroy(), STREAM_END_GRACE_MS);
    timer.unref();
    void (async () => {
      try {
        for (;;) {
          const next = await events.next();
          if (next.done) break;
          this.#handleEvent(next.value, id, state);
        }
      } catch {
        // destroyed (grace over, deadline, close) or broken after the response: nothing is lost
      } finally {
        clearTimeout(timer);
      }
    })();
  }

  /** One SSE event: notes its id, answers server requests, returns the response for `id` if it is that. */
  #handleEvent(event: SseEvent, id: JsonRpcId, state: StreamState): JsonRpcResponse | undefined {
    if (event.id !== undefined) state.lastEventId = event.id === '' ? undefined : event.id;
    const decoded = decodeEvent(event);
    if (decoded.kind === 'invalid') {
      this.#options.logger.warn('mcp sse event with invalid JSON ignored', { error: decoded.error });
      return undefined;
    }
    if (decoded.kind !== 'message') return undefined;
    const items: unknown[] = Array.isArray(decoded.message) ? decoded.message : [decoded.message];
    let match: JsonRpcResponse | undefined;
    for (const item of items) match = this.#dispatch(item, id) ?? match;
    return match;
  }

  /** Returns the response if it is the one we wait for; answers server requests; ignores the rest. */
  #dispatch(item: unknown, id: JsonRpcId): JsonRpcResponse | undefined {
    if (isJsonRpcResponse(item)) {
      if (sameId(item.id, id)) return item;
      this.#options.logger.debug('mcp response for another request ignored', { id: item.id });
      return undefined;
    }
    if (isJsonRpcRequest(item)) {
      this.#answer(item);
      return undefined;
    }
    if (isJsonRpcNotification(item)) {
      this.#options.logger.debug('mcp notification', { method: item.method });
      return undefined;
    }
    this.#options.logger.debug('mcp message of unknown shape ignored');
    return undefined;
  }

  /** Answers a server-to-client request with a new POST (fire-and-forget). */
  #answer(request: JsonRpcRequest): void {
    const reply = answerServerRequest(request);
    this.#options.logger.debug('mcp server request answered', { method: request.method, ok: reply.error === undefined });
    this.#post(reply, AbortSignal.timeout(this.#options.backgroundTimeoutMs)).then(
      (response) => discard(response),
      (error: unknown) => this.#options.logger.warn('mcp reply to server request failed', { method: request.method, error }),
    );
  }
}
