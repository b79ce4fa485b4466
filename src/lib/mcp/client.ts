/**
 * Our own lightweight MCP client (the official SDK costs ~200 ms of import, and the
 * hooks load this on every session).
 *
 * - Streamable HTTP first; with `transport: 'auto'` an initialize POST answered 400,
 *   404 or 405 falls back to the 2024-11-05 HTTP+SSE transport (`sseUrl`, default
 *   `<origin>/sse`; if that is not found either, the configured URL itself is tried).
 * - Every request has one deadline (`timeoutMs`) covering connecting, headers and the
 *   whole body; the caller's AbortSignal is honoured (McpAbortError). On timeout the
 *   server gets a best-effort `notifications/cancelled`.
 * - Protocol-mandated recovery only: a lost session (404 with a session id, or old
 *   servers' `400 No valid session ID provided`) and old python servers' -32602 right
 *   after initialize each cause ONE re-initialize + retry. Everything else is for
 *   the caller (see retry.ts), because tool calls such as add_memory are not idempotent.
 * - Never writes to stdout/stderr; diagnostics go to the optional logger, without
 *   header values.
 *
 * Size: McpClient is one class because the session's lifecycle (initialize, negotiated version,
 * re-initialisation after a lost session, deadlines, close) is one state machine; transports, SSE,
 * JSON-RPC shapes and errors are already modules of their own.
 */
import { nullLogger, type Logger } from '../util/log.js';
import { McpAbortError, McpHttpError, McpJsonRpcError, McpProtocolError, McpSessionExpiredError, McpTimeoutError } from './errors.js';
import type { Agent } from 'node:http';
import { displayUrl, normalizeHeaders, type Authorization, type Authorize } from './http.js';
import { isRecord as isObject } from '../util/json.js';
import { errorObject, type JsonRpcId } from './jsonrpc.js';
import { LegacySseTransport } from './legacy-sse.js';
import { StreamableHttpTransport } from './streamable.js';
import {
  abortable,
  LATEST_PROTOCOL_VERSION,
  LEGACY_PROTOCOL_VERSION,
  SUPPORTED_PROTOCOL_VERSIONS,
  type Transport,
  type TransportKind,
  type TransportOptions,
} from './transport.js';

export { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from './transport.js';

export interface McpClientOptions {
  /** Streamable HTTP endpoint, e.g. http://127.0.0.1:8000/mcp */
  url: string;
  /** Legacy (2024-11-05) SSE endpoint; default `<origin>/sse`, then `url` itself. */
  sseUrl?: string;
  /** Default 'auto': Streamable HTTP, falling back to legacy SSE on 400/404/405. */
  transport?: 'auto' | 'streamable-http' | 'sse';
  /** Extra headers sent with every request. */
  headers?: Record<string, string>;
  /** Sent as `Authorization: Bearer <authToken>`. */
  authToken?: string;
  /**
   * The bearer token for a request to `url`, asked right before each one is sent (undefined: send
   * none), and the connection it must go on when there is one. For a token that may go only to a
   * listener proven right then, on that connection (the local server's: PROOF_ON_THE_CONNECTION).
   */
  tokenFor?: (url: URL) => Promise<{ token: string; connection?: Agent } | undefined>;
  /** Per-request deadline including the body; default 30000. */
  timeoutMs?: number;
  clientInfo?: { name: string; version: string };
  /** The version offered in `initialize`; default '2025-11-25'. */
  protocolVersion?: string;
  logger?: Logger;
}

export interface ToolInfo {
  name: string;
  description?: string;
  inputSchema: { type?: string; properties?: Record<string, unknown>; required?: string[] };
  outputSchema?: Record<string, unknown>;
}

export interface CallToolResult {
  content: Array<{ type: string; text?: string; [k: string]: unknown }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

export interface RequestOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  /**
   * Called as the request is handed to the transport, once per attempt (a re-initialize's retry
   * calls it again): the last step before the wire whose order we control (sync/send-order.ts).
   */
  onDispatch?: () => void;
}

export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_CLIENT_INFO = { name: 'graphiti-memory-sync', version: '0.1.0' } as const;
/** Upper bound for close()'s DELETE and other fire-and-forget messages. */
const BACKGROUND_TIMEOUT_MS = 5_000;
const MAX_TOOL_PAGES = 1000;

interface Deadline {
  signal: AbortSignal;
  timedOut(): boolean;
  /** Maps whatever an aborted operation threw to McpAbortError / McpTimeoutError. */
  convert(error: unknown): unknown;
  dispose(): void;
}

/** Answers to the legacy SSE probe that only say "there is no legacy endpoint here". */
const NOT_A_LEGACY_ENDPOINT = new Set([400, 404, 405, 406, 409]);

/** `tokenFor` as per-request authorization: the Authorization header when it gives a token, on its connection when it names one. */
function bearerFor(tokenFor: NonNullable<McpClientOptions['tokenFor']>): Authorize {
  return async (url): Promise<Authorization> => {
    const given = await tokenFor(url);
    if (given === undefined) return { headers: {} };
    return { headers: { authorization: `Bearer ${given.token}` }, ...(given.connection === undefined ? {} : { connection: given.connection }) };
  };
}

export class McpClient {
  readonly #options: McpClientOptions;
  readonly #url: URL;
  readonly #logger: Logger;
  readonly #timeoutMs: number;
  readonly #headers: Record<string, string>;
  #transport: Transport | undefined;
  #connecting: Promise<void> | undefined;
  #reinitializing: Promise<void> | undefined;
  /** Increments with every successful initialize (a new session). */
  #generation = 0;
  /** The next request is the first one after initialize (old servers' -32602 race). */
  #firstAfterInit = false;
  /**
   * A re-initialize has started and not succeeded yet: the transport has dropped its old session
   * (the new initialize must go without it), so a request sent now would carry no session id and
   * be refused for good (FastMCP: 400 "Missing session ID"). Requests wait for, or redo, the re-initialize.
   */
  #needsSession = false;
  #nextId = 1;
  #protocolVersion: string | undefined;
  #serverInfo: { name: string; version: string } | undefined;
  #closeController = new AbortController();

  constructor(options: McpClientOptions) {
    this.#options = options;
    try {
      this.#url = new URL(options.url);
    } catch {
      throw new TypeError(`Invalid MCP server URL: ${options.url}`);
    }
    this.#logger = (options.logger ?? nullLogger).child({ component: 'mcp' });
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.#headers = normalizeHeaders(options.headers, options.authToken ? { authorization: `Bearer ${options.authToken}` } : undefined);
  }

  get sessionId(): string | undefined {
    return this.#transport?.sessionId;
  }

  /** Sessions this client has opened (each initialize): one more mid-run means the server forgot ours, perhaps by restarting. */
  get sessionsOpened(): number {
    return this.#generation;
  }

  get protocolVersion(): string | undefined {
    return this.#protocolVersion;
  }

  get serverInfo(): { name: string; version: string } | undefined {
    return this.#serverInfo;
  }

  get transportKind(): TransportKind | undefined {
    return this.#transport?.kind;
  }

  /** Idempotent: initializes a session (and waits for the `initialized` 202) if needed. */
  async connect(signal?: AbortSignal): Promise<void> {
    if (this.#transport !== undefined && !this.#transport.stale) return;
    const deadline = this.#deadline(this.#timeoutMs, signal, 'initialize');
    try {
      await this.#ensureSession(deadline.signal);
    } catch (error) {
      throw deadline.convert(error);
    } finally {
      deadline.dispose();
    }
  }

  /** All tools, following `nextCursor` pagination. */
  async listTools(options?: { signal?: AbortSignal }): Promise<ToolInfo[]> {
    const tools: ToolInfo[] = [];
    const seen = new Set<string>();
    let cursor: string | undefined;
    for (let page = 0; page < MAX_TOOL_PAGES; page++) {
      const result = await this.request('tools/list', cursor === undefined ? {} : { cursor }, { signal: options?.signal });
      if (!isObject(result) || !Array.isArray(result.tools)) throw new McpProtocolError('tools/list returned no tools array');
      for (const raw of result.tools) {
        const tool = toToolInfo(raw);
        if (tool) tools.push(tool);
      }
      const next = result.nextCursor;
      if (typeof next !== 'string' || next === '' || seen.has(next)) return tools;
      seen.add(next);
      cursor = next;
    }
    return tools;
  }

  async callTool(name: string, args: Record<string, unknown>, options?: RequestOptions): Promise<CallToolResult> {
    const result = await this.request('tools/call', { name, arguments: args }, options);
    if (!isObject(result)) throw new McpProtocolError(`tools/call ${name} returned a result that is not an object`);
    const content = Array.isArray(result.content)
      ? result.content.filter((item): item is CallToolResult['content'][number] => isObject(item) && typeof item.type === 'string')
      : [];
    const out: CallToolResult = { content };
    if (isObject(result.structuredContent)) out.structuredContent = result.structuredContent;
    if (result.isError === true) out.isError = true;
    return out;
  }

  /** A raw JSON-RPC request; resolves with `result`, rejects with a typed McpError. */
  async request(method: string, params?: Record<string, unknown>, options?: RequestOptions): Promise<unknown> {
    const timeoutMs = options?.timeoutMs ?? this.#timeoutMs;
    const deadline = this.#deadline(timeoutMs, options?.signal, `the ${method} response from ${displayUrl(this.#url)}`);
    try {
      return await this.#requestWithRecovery(method, params, deadline, options?.onDispatch);
    } catch (error) {
      throw deadline.convert(error);
    } finally {
      deadline.dispose();
    }
  }

  /** Ends the session (DELETE on Streamable HTTP, stream abort on legacy SSE). Never throws. */
  async close(): Promise<void> {
    const transport = this.#transport;
    this.#transport = undefined;
    this.#connecting = undefined;
    this.#reinitializing = undefined;
    this.#needsSession = false;
    this.#closeController.abort(new McpAbortError(undefined, 'MCP client closed'));
    this.#closeController = new AbortController();
    this.#protocolVersion = undefined;
    if (transport) await transport.close();
  }

  async #requestWithRecovery(method: string, params: Record<string, unknown> | undefined, deadline: Deadline, onDispatch: (() => void) | undefined): Promise<unknown> {
    const signal = deadline.signal;
    await this.#ensureSession(signal);
    let recovered = false;
    for (;;) {
      if (this.#needsSession) await this.#reinitialize(this.#generation, signal);
      const transport = this.#transport;
      if (transport === undefined) throw new McpAbortError(undefined, 'MCP client closed');
      const generation = this.#generation;
      const first = this.#firstAfterInit;
      this.#firstAfterInit = false;
      const id = this.#nextId++;
      try {
        onDispatch?.();
        const response = await transport.request({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) }, signal);
        const error = response.error === undefined ? undefined : errorObject(response);
        if (error) throw new McpJsonRpcError(error.code, error.message, error.data);
        return response.result;
      } catch (error) {
        if (signal.aborted) {
          if (deadline.timedOut()) this.#sendCancelled(transport, id, method);
          throw error;
        }
        if (recovered) throw error;
        const reason =
          error instanceof McpSessionExpiredError
            ? 'session expired'
            : first && error instanceof McpJsonRpcError && error.code === -32602 && /Invalid request parameters/i.test(error.message)
              ? 'request rejected right after initialize (-32602)'
              : undefined;
        if (reason === undefined) throw error;
        recovered = true;
        this.#logger.info('mcp re-initializing and retrying once', { method, reason });
        await this.#reinitialize(generation, signal);
      }
    }
  }

  async #ensureSession(signal: AbortSignal): Promise<void> {
    signal.throwIfAborted();
    if (this.#transport === undefined) {
      if (this.#connecting === undefined) {
        // Shared by concurrent callers, so it runs under its own deadline rather than
        // the first caller's signal; each caller still waits only as long as its own.
        const shared = this.#sharedDeadline();
        const connecting = this.#establish(shared.signal).finally(() => {
          shared.dispose();
          if (this.#connecting === connecting) this.#connecting = undefined;
        });
        connecting.catch(() => {}); // shared: every waiter handles the rejection itself
        this.#connecting = connecting;
      }
      await abortable(this.#connecting, signal);
    } else if (this.#transport.stale) {
      this.#logger.info('mcp transport session changed; initializing again');
      await this.#reinitialize(this.#generation, signal);
    } else if (this.#needsSession) {
      // Another caller's re-initialize is running, or it failed: wait for it, or try again.
      await this.#reinitialize(this.#generation, signal);
    }
  }

  /** Picks the transport: Streamable HTTP, or legacy SSE (forced, or as the 'auto' fallback). */
  async #establish(signal: AbortSignal): Promise<void> {
    const mode = this.#options.transport ?? 'auto';
    const closeSignal = this.#closeController.signal;
    let transport: Transport;
    if (mode === 'sse') {
      transport = this.#legacy();
      await this.#initializeOrClose(transport, signal);
    } else {
      transport = new StreamableHttpTransport(this.#url, this.#transportOptions());
      try {
        await this.#initialize(transport, signal);
      } catch (error) {
        const fallback =
          mode === 'auto' &&
          !signal.aborted &&
          error instanceof McpHttpError &&
          !(error instanceof McpSessionExpiredError) &&
          (error.status === 400 || error.status === 404 || error.status === 405);
        if (!fallback) {
          void transport.close(); // a session the server may have created (fire-and-forget DELETE)
          throw error;
        }
        this.#logger.info('mcp streamable http initialize failed; trying legacy sse', { status: error.status });
        transport = this.#legacy();
        try {
          await this.#initializeOrClose(transport, signal);
        } catch (legacyError) {
          this.#logger.info('mcp legacy sse failed too', { error: legacyError });
          // No legacy endpoint either (not found, not allowed, or the probe hit a Streamable HTTP
          // endpoint that refuses a bare GET): the Streamable HTTP error is the informative one.
          // Auth, Host and server errors from the probe are news and are reported as they are.
          if (!signal.aborted && legacyError instanceof McpHttpError && NOT_A_LEGACY_ENDPOINT.has(legacyError.status)) throw error;
          throw legacyError;
        }
      }
    }
    if (closeSignal.aborted) {
      await transport.close();
      throw new McpAbortError(undefined, 'MCP client closed');
    }
    this.#transport = transport;
  }

  async #initializeOrClose(transport: Transport, signal: AbortSignal): Promise<void> {
    try {
      await this.#initialize(transport, signal);
    } catch (error) {
      await transport.close();
      throw error;
    }
  }

  #legacy(): LegacySseTransport {
    const candidates: URL[] = [];
    if (this.#options.sseUrl) {
      candidates.push(new URL(this.#options.sseUrl, this.#url));
    } else {
      const conventional = new URL('/sse', this.#url);
      candidates.push(conventional);
      if (conventional.href !== this.#url.href) candidates.push(this.#url);
    }
    return new LegacySseTransport({ ...this.#transportOptions(), candidates });
  }

  #transportOptions(): TransportOptions {
    return {
      headers: this.#headers,
      logger: this.#logger,
      backgroundTimeoutMs: Math.min(this.#timeoutMs, BACKGROUND_TIMEOUT_MS),
      ...(this.#options.tokenFor === undefined ? {} : { authorize: bearerFor(this.#options.tokenFor) }),
    };
  }

  /** Re-initializes unless another caller already replaced the session `generation`. */
  async #reinitialize(generation: number, signal: AbortSignal): Promise<void> {
    const transport = this.#transport;
    if (transport === undefined) throw new McpAbortError(undefined, 'MCP client closed');
    if (generation !== this.#generation && !transport.stale) return;
    if (this.#reinitializing === undefined) {
      this.#needsSession = true;
      const shared = this.#sharedDeadline();
      const reinitializing = this.#initialize(transport, shared.signal).finally(() => {
        shared.dispose();
        if (this.#reinitializing === reinitializing) this.#reinitializing = undefined;
      });
      reinitializing.catch(() => {});
      this.#reinitializing = reinitializing;
    }
    await abortable(this.#reinitializing, signal);
  }

  /** initialize → check the negotiated version → notifications/initialized (202 awaited). */
  async #initialize(transport: Transport, signal: AbortSignal): Promise<void> {
    await transport.open(signal);
    const offered = transport.kind === 'sse' ? LEGACY_PROTOCOL_VERSION : (this.#options.protocolVersion ?? LATEST_PROTOCOL_VERSION);
    const id: JsonRpcId = this.#nextId++;
    const response = await transport.request(
      {
        jsonrpc: '2.0',
        id,
        method: 'initialize',
        params: { protocolVersion: offered, capabilities: {}, clientInfo: this.#options.clientInfo ?? { ...DEFAULT_CLIENT_INFO } },
      },
      signal,
    );
    const error = response.error === undefined ? undefined : errorObject(response);
    if (error) throw new McpJsonRpcError(error.code, error.message, error.data);
    const result = response.result;
    if (!isObject(result) || typeof result.protocolVersion !== 'string') {
      throw new McpProtocolError('The initialize result has no protocolVersion');
    }
    const version = result.protocolVersion;
    if (!(SUPPORTED_PROTOCOL_VERSIONS as readonly string[]).includes(version)) {
      throw new McpProtocolError(
        `The server chose MCP protocol version "${version}", which this client does not support ` +
          `(supported: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')})`,
      );
    }
    transport.protocolVersion = version;
    await transport.notify({ jsonrpc: '2.0', method: 'notifications/initialized' }, signal);
    transport.markInitialized();
    const info = result.serverInfo;
    this.#serverInfo =
      isObject(info) && typeof info.name === 'string'
        ? { name: info.name, version: typeof info.version === 'string' ? info.version : '' }
        : undefined;
    this.#protocolVersion = version;
    this.#generation++;
    this.#firstAfterInit = true;
    this.#needsSession = false;
    this.#logger.debug('mcp initialized', { transport: transport.kind, protocolVersion: version, server: this.#serverInfo?.name });
  }

  #sendCancelled(transport: Transport, id: JsonRpcId, method: string): void {
    if (method === 'initialize' || transport.stale) return;
    transport
      .notify(
        { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: 'Request timed out' } },
        AbortSignal.timeout(Math.min(this.#timeoutMs, BACKGROUND_TIMEOUT_MS)),
      )
      .catch((error: unknown) => this.#logger.debug('mcp cancel notification failed', { error }));
  }

  /** A deadline for work shared by several callers: aborts with typed reasons (timeout, close). */
  #sharedDeadline(): { signal: AbortSignal; dispose(): void } {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new McpTimeoutError(this.#timeoutMs, 'the initialize handshake')), this.#timeoutMs);
    const closeSignal = this.#closeController.signal;
    const onClose = () => controller.abort(new McpAbortError(closeSignal.reason, 'MCP client closed while connecting'));
    if (closeSignal.aborted) onClose();
    else closeSignal.addEventListener('abort', onClose, { once: true });
    return {
      signal: controller.signal,
      dispose: () => {
        clearTimeout(timer);
        closeSignal.removeEventListener('abort', onClose);
      },
    };
  }

  #deadline(timeoutMs: number, callerSignal: AbortSignal | undefined, what: string): Deadline {
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(new McpTimeoutError(timeoutMs, what)), timeoutMs);
    const closeSignal = this.#closeController.signal;
    const signal = AbortSignal.any(callerSignal ? [timeout.signal, closeSignal, callerSignal] : [timeout.signal, closeSignal]);
    return {
      signal,
      timedOut: () => timeout.signal.aborted && !(callerSignal?.aborted ?? false),
      convert: (error) => {
        if (!signal.aborted) return error;
        if (callerSignal?.aborted) return error instanceof McpAbortError ? error : new McpAbortError(callerSignal.reason);
        if (timeout.signal.aborted) return error instanceof McpTimeoutError ? error : new McpTimeoutError(timeoutMs, what);
        return error instanceof McpAbortError ? error : new McpAbortError(closeSignal.reason, 'MCP client closed while the request was in flight');
      },
      dispose: () => clearTimeout(timer),
    };
  }
}

function toToolInfo(raw: unknown): ToolInfo | undefined {
  if (!isObject(raw) || typeof raw.name !== 'string') return undefined;
  const tool: ToolInfo = {
    name: raw.name,
    inputSchema: (isObject(raw.inputSchema) ? raw.inputSchema : { type: 'object' }) as ToolInfo['inputSchema'],
  };
  if (typeof raw.description === 'string') tool.description = raw.description;
  if (isObject(raw.outputSchema)) tool.outputSchema = raw.outputSchema;
  return tool;
}
