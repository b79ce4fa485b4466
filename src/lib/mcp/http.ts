/**
 * Minimal HTTP plumbing for the MCP client, on node:http rather than fetch:
 *
 * - node:http is already loaded by Node; the first global `fetch` call lazily loads
 *   undici (~30–40 ms measured on Node 20), which every hook would pay.
 * - undici silently retries a 421 and on Node 20 sometimes reports it as
 *   `TypeError: fetch failed` (UND_ERR_REQ_CONTENT_LENGTH_MISMATCH). Graphiti's
 *   DNS-rebinding protection answers 421, and the caller must see that status.
 * - undici's default 300 s bodyTimeout would end long tool calls; node:http has no
 *   client-side timeout, so the caller's deadline (an AbortSignal) is the only one.
 *
 * Connections are kept alive for the next request, but not used again once the server may be
 * closing them (util/keep-alive.ts IDLE_REUSE): Node's default agent keeps them exactly as long as
 * uvicorn does, and a request that crosses the server's close is, for add_memory, a lost reply.
 *
 * Redirects are never followed implicitly: `sendFollowingRedirects` follows 307/308
 * within the same origin only (method, body and headers kept), at most 5 hops.
 */
import http, { type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { displayUrl } from '../util/display-url.js';
import { sharedIdleLimitedAgent } from '../util/keep-alive.js';
import { McpHttpError, McpNetworkError } from './errors.js';

type HttpsModule = typeof import('node:https');
let httpsModule: Promise<HttpsModule> | undefined;

export type HttpMethod = 'GET' | 'POST' | 'DELETE';

export interface HttpRequestInit {
  method: HttpMethod;
  /** Header names should be lower-case. */
  headers: Record<string, string>;
  body?: string | undefined;
  /** Ends the request at any stage (connect, headers, body). */
  signal: AbortSignal;
  /** The one connection to send on (an Authorization's), handed back with the exchange (`endConnection`); else the shared kept-alive ones. */
  connection?: ExchangeConnection | undefined;
  /**
   * Headers for this very URL, asked right before each request is sent (each redirect hop too):
   * how a token goes only where its owner has just said it may (the local server's proven front).
   */
  authorize?: Authorize | undefined;
}

/**
 * What a request to `url` is sent with: extra headers (names lower-case; {} for none), and, for the
 * local server's front, the one connection it must go on (the connection that proved itself:
 * config/server-runtime.ts PROOF_ON_THE_CONNECTION), this request's alone, handed back with it.
 */
export interface Authorization {
  headers: Record<string, string>;
  connection?: ExchangeConnection;
}

/**
 * A connection given for one exchange: `keep()`, when it has one, takes it back after an exchange
 * that ended cleanly (its owner decides whether another request may use it: PROVEN_REUSE in
 * config/server-runtime.ts); any other end destroys it, so it never stays open on the server.
 */
export type ExchangeConnection = http.Agent & { keep?: () => void };

/** The end of an exchange on a connection given for it: kept by its owner after a clean one, else ended. */
function endConnection(connection: ExchangeConnection | undefined, clean: boolean): void {
  if (connection === undefined) return;
  if (clean && connection.keep !== undefined) connection.keep();
  else connection.destroy();
}
export type Authorize = (url: URL, signal: AbortSignal) => Promise<Authorization>;

export interface HttpResponse {
  status: number;
  /** The URL that produced this response (after redirects). */
  url: URL;
  headers: IncomingHttpHeaders;
  /** The body as a stream of UTF-8 strings. */
  stream: IncomingMessage;
}

export const MAX_REDIRECTS = 5;

/** Lower-cases header names; later entries win, so callers can override defaults. */
export function normalizeHeaders(...sources: Array<Record<string, string> | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const source of sources) {
    if (!source) continue;
    for (const [name, value] of Object.entries(source)) out[name.toLowerCase()] = value;
  }
  return out;
}

/** First value of a response header (Node lower-cases incoming names). */
export function header(response: HttpResponse, name: string): string | undefined {
  const value = response.headers[name.toLowerCase()];
  if (Array.isArray(value)) return value[0];
  return value;
}

/** The media type of the response, lower-case, without parameters. */
export function mediaType(response: HttpResponse): string {
  return (header(response, 'content-type') ?? '').split(';')[0]!.trim().toLowerCase();
}

const NETWORK_MESSAGES = /^(fetch failed|terminated|socket hang up|aborted|other side closed)$/i;

/** The first string `code` along an error's cause chain (ECONNREFUSED, UND_ERR_SOCKET, ...). */
export function errorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 6 && current instanceof Object; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && code !== '') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** True for errors that mean "the connection failed or broke" (as opposed to a bug). */
export function isNetworkFailure(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error instanceof McpNetworkError) return true;
  if (errorCode(error) !== undefined && !(error.name === 'AbortError')) return true;
  return NETWORK_MESSAGES.test(error.message);
}

// One owner of how a URL is said (credentials and query left out): util/display-url.ts.
export { displayUrl };

/** Wraps a connection-level failure (refused, reset, DNS, socket closed) as a retryable McpNetworkError. */
export function toNetworkError(error: unknown, url: string | URL): McpNetworkError {
  if (error instanceof McpNetworkError) return error;
  const code = errorCode(error);
  const origin = displayUrl(url);
  const detail = error instanceof Error ? error.message : String(error);
  const what = code && !detail.includes(code) ? `${detail} (${code})` : detail;
  return new McpNetworkError(`Network error talking to ${origin}: ${what}`, code, error);
}

async function transportFor(url: URL): Promise<typeof http | HttpsModule> {
  if (url.protocol === 'http:') return http;
  if (url.protocol === 'https:') {
    httpsModule ??= import('node:https');
    return httpsModule;
  }
  throw new McpNetworkError(`Unsupported URL scheme in ${displayUrl(url)}`, 'ERR_INVALID_PROTOCOL');
}

/**
 * One HTTP exchange. Resolves once the response headers arrived; the body is left
 * unread in `stream`. Rejects with the abort reason when `signal` fires, and with a
 * McpNetworkError for any connection failure.
 */
export async function sendHttp(url: URL, init: HttpRequestInit): Promise<HttpResponse> {
  let mod: typeof http | HttpsModule;
  try {
    init.signal.throwIfAborted();
    mod = await transportFor(url);
    init.signal.throwIfAborted();
  } catch (error) {
    // Never used: a connection given for this exchange alone ends here too (else it stays open on the front until its idle limit).
    endConnection(init.connection, false);
    throw error;
  }
  return new Promise<HttpResponse>((resolve, reject) => {
    const headers: Record<string, string | number> = { ...init.headers };
    if (init.body !== undefined) headers['content-length'] = Buffer.byteLength(init.body);
    // The signal is wired by hand rather than through the `signal` option, so that it
    // is detached once the exchange is over: aborting later must not destroy a
    // keep-alive socket that another request is using by then.
    let req: http.ClientRequest | undefined;
    // destroy() without an error: with one, Node re-emits it on the socket, where
    // nobody listens once the response has started. Readers see the signal instead.
    const onAbort = () => req?.destroy();
    // A connection given for this exchange alone is handed back with it: kept only after a complete reply.
    const detach = (clean: boolean) => {
      init.signal.removeEventListener('abort', onAbort);
      endConnection(init.connection, clean);
    };
    try {
      req = mod.request(url, { method: init.method, headers, agent: init.connection ?? sharedIdleLimitedAgent(mod.Agent) }, (res) => {
        res.setEncoding('utf8');
        // Readers attach their own listeners; this one only keeps an error on a body
        // nobody reads any more from becoming an uncaught exception.
        res.on('error', () => {});
        res.on('close', () => detach(res.complete));
        resolve({ status: res.statusCode ?? 0, url, headers: res.headers, stream: res });
      });
    } catch (error) {
      endConnection(init.connection, false);
      reject(toNetworkError(error, url));
      return;
    }
    init.signal.addEventListener('abort', onAbort, { once: true });
    req.on('error', (error) => {
      detach(false);
      reject(init.signal.aborted ? init.signal.reason : toNetworkError(error, url));
    });
    req.end(init.body);
  });
}

/** Reads the whole body as text, failing with a network error if the connection breaks. */
export async function readText(response: HttpResponse, signal: AbortSignal, limit = 64 * 1024 * 1024): Promise<string> {
  let text = '';
  try {
    for await (const chunk of response.stream) {
      text += chunk as string;
      if (text.length > limit) {
        response.stream.destroy();
        break;
      }
    }
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    throw toNetworkError(error, response.url);
  }
  return text;
}

/** Reads at most `limit` characters of an error body, never failing. */
export async function readErrorBody(response: HttpResponse, signal: AbortSignal, limit = 64 * 1024): Promise<string> {
  try {
    return await readText(response, signal, limit);
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    return '';
  }
}

/** Drops the rest of a body we do not need. */
export function discard(response: HttpResponse): void {
  response.stream.resume();
  response.stream.on('error', () => {});
}

/**
 * sendHttp + same-origin 307/308 redirects (max 5 hops). 301/302/303 and
 * cross-origin redirects are refused with an explanatory McpHttpError, because
 * following them would drop the body (301–303) or leak headers to another origin.
 */
export async function sendFollowingRedirects(url: URL, init: HttpRequestInit, maxHops = MAX_REDIRECTS): Promise<HttpResponse> {
  let current = url;
  for (let hop = 0; ; hop++) {
    const auth: Authorization = init.authorize === undefined ? { headers: {} } : await init.authorize(current, init.signal);
    const response = await sendHttp(current, { ...init, headers: { ...init.headers, ...auth.headers }, connection: auth.connection });
    const status = response.status;
    if (status !== 301 && status !== 302 && status !== 303 && status !== 307 && status !== 308) return response;
    discard(response);
    const location = header(response, 'location');
    if (!location) {
      throw new McpHttpError(status, '', displayUrl(current), {
        message: `HTTP ${status} redirect without a Location header from ${displayUrl(current)}`,
      });
    }
    let next: URL;
    try {
      next = new URL(location, current);
    } catch {
      throw new McpHttpError(status, '', displayUrl(current), {
        message: `HTTP ${status} redirect to an invalid Location from ${displayUrl(current)}`,
      });
    }
    if (status !== 307 && status !== 308) {
      throw new McpHttpError(status, '', displayUrl(current), {
        message:
          `HTTP ${status} redirect from ${displayUrl(current)} to ${displayUrl(next)}: only 307/308 redirects (which keep the ` +
          `method and body) are followed. Configure the final URL (${displayUrl(next)}) instead.`,
      });
    }
    if (next.origin !== current.origin) {
      throw new McpHttpError(status, '', displayUrl(current), {
        message:
          `Refusing to follow a cross-origin redirect from ${displayUrl(current)} to ${next.origin}: redirects are only ` +
          'followed within the same origin. Configure the MCP URL directly if that server is intended.',
      });
    }
    if (hop >= maxHops) {
      throw new McpHttpError(status, '', displayUrl(current), {
        message: `Too many redirects (more than ${maxHops}) starting at ${displayUrl(url)}`,
      });
    }
    current = next;
  }
}
