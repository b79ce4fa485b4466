/**
 * A Graphiti-shaped MCP test server (Graphiti MCP 1.0.2 on python mcp 1.26 by
 * default) built on the official SDK server classes:
 *
 * - `Server` (low-level, `@modelcontextprotocol/sdk/server/index.js`) per session,
 *   with `setRequestHandler` for initialize / tools/list / tools/call so the
 *   result shapes are exactly FastMCP's (see graphiti-tools.ts);
 * - `WebStandardStreamableHTTPServerTransport` for Streamable HTTP. It is the
 *   core that the SDK's Node `StreamableHTTPServerTransport` merely wraps with
 *   @hono/node-server; using it directly hands us a `Response` whose SSE body we
 *   re-frame (CRLF, ping comments) before writing it to node:http;
 * - `SSEServerTransport` for the legacy HTTP+SSE transport (`GET /sse`,
 *   `POST /messages/?session_id=…`).
 *
 * Everything FastMCP does differently from the TS SDK (error bodies with
 * `"id":"server-error"`, 404 vs legacy 400 session errors, 307 slash redirects,
 * 421 Host check, session-id format, ...) is done by the node:http router in
 * front of the transports. Each deviation from the default is a switch in
 * `GraphitiServerOptions`. Reference: /work/shared/reference/graphiti-mcp-server.md.
 *
 * Served on 127.0.0.1 only. The library never writes to stdout/stderr.
 */
import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import {
  CallToolRequestSchema,
  InitializeRequestSchema,
  JSONRPCMessageSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  isInitializeRequest,
  isJSONRPCNotification,
  isJSONRPCRequest,
  type JSONRPCMessage,
} from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import {
  GraphitiStore,
  pyIsoNow,
  type FailureLog,
  type ProcessedLog,
  type StoredEpisode,
  type StoredFact,
  type StoredNode,
} from './graphiti-store.js';
import { errorResult, executeTool, findTool, listTools, toCallToolResult, validateArguments, type ToolCallResult, type ToolConfig } from './graphiti-tools.js';

export type { FailureLog, ProcessedLog, StoredEpisode, StoredFact, StoredNode } from './graphiti-store.js';

// ------------------------------------------------------------------ options

/** Kinds of injected faults (also the `outcome` of a faulted call in `calls`). */
/** 'queueError': add_memory answers `{"error":"Error queuing episode: …"}` (a domain error, not a drop). */
/** 'lostReply': the request is processed, then the connection is cut before the reply (the client cannot tell whether it arrived). */
export type FaultKind = 'http503' | 'http429' | 'reset' | 'sessionLoss' | 'hang' | 'drop' | 'queueError' | 'lostReply';

export interface FaultOptions {
  /** Probability that an eligible POST is answered `503 Service Unavailable` (plain text). */
  rate503?: number;
  /** Probability of `429 Too Many Requests` with `Retry-After: <retryAfterSeconds>`. */
  rate429?: number;
  /** Retry-After value sent with injected 429s, in seconds. Default 1. */
  retryAfterSeconds?: number;
  /** Probability that the socket is destroyed after the body was read, with no response at all. */
  rateReset?: number;
  /** Probability that the server forgets the request's session first (→ 404 `Session not found`, or the legacy 400; SSE: 404 `Could not find session`). */
  rateSessionLoss?: number;
  /** Probability that the request is never answered (cleaned up by restart()/stop()/close()). */
  rateHang?: number;
  /** Probability that add_memory says "queued" but the worker silently drops the episode (logged in `failures`). */
  dropRate?: number;
  /** Every search answers `{"error":"Error searching …: <searchError>"}` and every episode is dropped after "queued" (see ExecContext.searchError). */
  searchError?: string;
  /** Delay in ms before handling EVERY POST to an MCP endpoint (/mcp, /messages/), whatever its method. */
  latencyMs?: number;
  /** PRNG seed; the fault sequence is a pure function of (seed, order of eligible requests). Default 1. */
  seed?: number;
  /**
   * JSON-RPC methods the HTTP faults (503/429/reset/sessionLoss/hang) apply to.
   * Default `['tools/call']`; `['*']` = every POSTed message (initialize and notifications too).
   * Faults never apply to GET/DELETE, `/health` or `/__control/*`.
   */
  methods?: string[];
}

export interface GraphitiServerOptions {
  /** Configured default group (`--group-id`); used when group_id is null/"" and by read tools. Default 'main'. */
  groupId?: string;
  /** Database provider: changes get_status text; 'falkordb' makes hyphenated group ids fail (RediSearch). Default 'neo4j'. */
  db?: 'neo4j' | 'falkordb';
  /** Worker delay per episode before it is processed and becomes visible. 0 = next macrotask. Default 5. */
  processingDelayMs?: number;
  /** 'node-only' (v1.0.x: only the Episodic node) or 'cascade' (main: also facts/nodes only it created). Default 'node-only'. */
  deleteMode?: 'node-only' | 'cascade';
  /** Expose main's `reference_time` parameter on add_memory (validated; bad ISO → `Invalid reference_time: …`). Default false (silently ignored). */
  mainParams?: boolean;
  /** The first N tool calls answer `{"error":"Graphiti service not initialized"}` (add_memory: `Services not initialized`). Re-armed by restart(). Default 0. */
  startupErrors?: number;
  /** get_status answers the `status:"error"` variant; a string is used as the exception text. Default false. */
  statusError?: boolean | string;
  /** serverInfo.version (the python mcp version). Default '1.26.0' ('1.9.4' with oldServer). */
  serverVersion?: string;
  /** 'streamable-http' (/mcp only), 'sse' (legacy /sse + /messages/ only; POST /mcp → 404, POST /sse → 405) or 'both'. Default 'streamable-http'. */
  transport?: 'streamable-http' | 'sse' | 'both';
  /** Starlette redirect_slashes: `/mcp/` → 307 to absolute `http://<Host>/mcp` for any method. Default true. */
  redirectSlashes?: boolean;
  /** mcp < 1.12 layout: served at `/mcp/`, and `/mcp` → 307 → `/mcp/`. Default false. */
  reverseRedirect?: boolean;
  /** mcp ≤ 1.25: an unknown session gets 400 plain `Bad Request: No valid session ID provided` instead of 404 JSON. Default false (implied by oldServer). */
  legacySessionErrors?: boolean;
  /** SSE lines end with CRLF like sse-starlette (`event: message\r\ndata: …\r\n\r\n`). false = LF. Default true. */
  crlf?: boolean;
  /** Emit a `: ping - <ts>` comment before every SSE message event, and as the periodic keep-alive. Default true. */
  pingComments?: boolean;
  /** Interval of the periodic `: ping` keep-alive on open SSE streams. Default 15000 (FastMCP). */
  pingIntervalMs?: number;
  /** Answer POSTs with application/json instead of SSE (SDK enableJsonResponse / FastMCP json_response). Default false. */
  jsonResponse?: boolean;
  /** DNS-rebinding protection (mcp ≥ 1.23): 421 plain `Invalid Host header` unless Host matches allowedHosts. Default false. */
  restrictHost?: boolean;
  /** Host allowlist for restrictHost; `name:*` = any port. Default ['127.0.0.1:*', 'localhost:*', '[::1]:*']. */
  allowedHosts?: string[];
  /**
   * python mcp < 1.18 (the 1.9.4 lock): protocol versions 2024-11-05/2025-03-26 only, no structuredContent or
   * outputSchema, requests before `notifications/initialized` was processed get -32602 `Invalid request parameters`,
   * legacy 400 session errors, no protocol-version header check. Default false.
   */
  oldServer?: boolean;
  /**
   * The FIRST request (other than ping) after `initialized` fails with -32602 `Invalid request parameters`,
   * even if the client waited for the 202. `true`: on every session (a client that re-initializes once
   * then fails again, and must give up); a number N: only on the next N sessions created (so a client's
   * re-initialize-and-retry-once path succeeds with `initRace: 1`). Default false.
   */
  initRace?: boolean | number;
  /** mcp ≥ 1.10 shape (`structuredContent` + outputSchema). false = mcp 1.9.4 text-only. Default true. */
  structuredContent?: boolean;
  /** Pre-v1 tool names: add_episode, search_facts, search_memory_nodes. Default false. */
  legacyToolNames?: boolean;
  /** Fault injection (see FaultOptions). setOptions({faults}) replaces the whole object and re-seeds. */
  faults?: FaultOptions;
  /** Serve the JSON control API under `/__control/…` on the same port. Default false. */
  control?: boolean;
  /** `calls` and `http` keep at most this many entries (the oldest 10% are dropped beyond it), for soak runs. Default 100000. */
  logLimit?: number;
  /** Fake extraction: at most this many facts per episode. Default 5. */
  maxFactsPerEpisode?: number;
  /** Fake extraction: at most this many nodes per episode (the name is always one). Default 8. */
  maxNodesPerEpisode?: number;
}

type Resolved = Required<Omit<GraphitiServerOptions, 'serverVersion' | 'faults'>> & { serverVersion: string | undefined; faults: FaultOptions };

const DEFAULTS: Resolved = {
  groupId: 'main',
  db: 'neo4j',
  processingDelayMs: 5,
  deleteMode: 'node-only',
  mainParams: false,
  startupErrors: 0,
  statusError: false,
  serverVersion: undefined,
  transport: 'streamable-http',
  redirectSlashes: true,
  reverseRedirect: false,
  legacySessionErrors: false,
  crlf: true,
  pingComments: true,
  pingIntervalMs: 15_000,
  jsonResponse: false,
  restrictHost: false,
  allowedHosts: ['127.0.0.1:*', 'localhost:*', '[::1]:*'],
  oldServer: false,
  initRace: false,
  structuredContent: true,
  legacyToolNames: false,
  faults: {},
  control: false,
  logLimit: 100_000,
  maxFactsPerEpisode: 5,
  maxNodesPerEpisode: 8,
};

// -------------------------------------------------------------------- logs

export interface ToolCallLog {
  at: number;
  tool: string;
  args: Record<string, unknown>;
  sessionId: string | undefined;
  rpcId: string | number | undefined;
  /** 'ok' | 'error' (domain `{error}`, isError, or a -32602 rejection) | the injected fault. 'pending' while running. */
  outcome: 'pending' | 'ok' | 'error' | FaultKind;
  /** The unwrapped payload (or error text) the client got, when it got one. */
  result?: unknown;
}

export interface HttpLog {
  at: number;
  method: string;
  /** Pathname, e.g. `/mcp`, `/messages/`. */
  path: string;
  /** Query string including `?`, or ''. */
  search: string;
  /** Response status; 0 while unanswered, and forever for reset/hang faults. */
  status: number;
  /** Selected request headers: accept, content-type, host, origin, mcp-session-id, mcp-protocol-version, last-event-id; authorization as `<scheme> ***`. */
  headers: Record<string, string>;
  hasAuthorization: boolean;
  /** JSON-RPC method of a POSTed message (first of a batch). */
  rpcMethod?: string;
  rpcId?: string | number;
  /** `mcp-session-id` the response carried (e.g. the one assigned by initialize). */
  responseSessionId?: string;
  /** `Location` of a redirect. */
  location?: string;
  fault?: FaultKind;
}

export interface GraphitiTestServer {
  /** http://127.0.0.1:<port>/mcp (…/mcp/ with reverseRedirect). */
  readonly url: string;
  /** http://127.0.0.1:<port>/sse */
  readonly sseUrl: string;
  readonly port: number;
  /** The effective options (defaults applied). */
  readonly options: Readonly<Resolved>;
  setOptions(patch: Partial<GraphitiServerOptions>): void;
  /** Visible (processed) episodes in processing order, optionally of one group. */
  episodes(groupId?: string): StoredEpisode[];
  facts(groupId?: string): StoredFact[];
  nodes(groupId?: string): StoredNode[];
  seedEpisode(partial: Partial<StoredEpisode> & { name: string; content: string }, options?: { extract?: boolean }): StoredEpisode;
  seedFact(partial: Partial<StoredFact> & { fact: string }): StoredFact;
  seedNode(partial: Partial<StoredNode> & { name: string }): StoredNode;
  /** Every tools/call received (live array). */
  readonly calls: ToolCallLog[];
  /** Every HTTP request except /__control (live array). */
  readonly http: HttpLog[];
  /** Background failures the real server would only log (live array). */
  readonly failures: FailureLog[];
  /** Successful worker runs (live array). */
  readonly processed: ProcessedLog[];
  /** Events: 'http' (HttpLog, at arrival), 'call' (ToolCallLog, when final), 'processed', 'failure', 'session' ({id, kind}). */
  readonly events: EventEmitter;
  /** Episodes queued and not yet processed. */
  readonly pendingEpisodes: number;
  /** Live session ids (streamable + legacy SSE). */
  sessionIds(): string[];
  /** One-shot faults, consumed (in order) before the random ones by the next eligible requests ('drop': next add_memory). */
  failNext(kind: FaultKind, count?: number): void;
  /** Close every legacy SSE stream (their sessions are forgotten, as FastMCP does on disconnect). */
  dropSseStreams(): number;
  clearLogs(): void;
  /** Resolves once every group queue is drained (event-driven; waits while processing is paused). */
  whenIdle(): Promise<void>;
  /** Hold the ingestion workers: add_memory still answers "queued", nothing becomes visible until resumeProcessing(). */
  pauseProcessing(): void;
  resumeProcessing(): void;
  /** Simulated restart: sessions, open streams and queues forgotten (queued episodes LOST), data kept, startupErrors re-armed. */
  restart(): Promise<void>;
  /** Server down: close the listener and destroy open sockets. Data kept; sessions and queues are lost unless keepState. */
  stop(options?: { keepState?: boolean }): Promise<void>;
  /** Listen again on the same port. */
  start(): Promise<void>;
  close(): Promise<void>;
}

// ----------------------------------------------------------------- helpers

const INSTRUCTIONS = `Graphiti is a memory service for AI agents built on a knowledge graph. Graphiti performs well
with dynamic data such as user interactions, changing enterprise data, and external information.

Graphiti transforms information into a richly connected knowledge network, allowing you to
capture relationships between concepts, entities, and information. The system organizes data as episodes
(content snippets), nodes (entities), and facts (relationships between entities), creating a dynamic,
queryable memory store that evolves with new information. Graphiti supports multiple data formats, including
structured JSON data, enabling seamless integration with existing data pipelines and systems.

Facts contain temporal metadata, allowing you to track the time of creation and whether a fact is invalid
(superseded by new information).

Key capabilities:
1. Add episodes (text, messages, or JSON) to the knowledge graph with the add_memory tool
2. Search for nodes (entities) in the graph using natural language queries with search_nodes
3. Find relevant facts (relationships between entities) with search_facts
4. Retrieve specific entity edges or episodes by UUID
5. Manage the knowledge graph with tools like delete_episode, delete_entity_edge, and clear_graph

The server connects to a database for persistent storage and uses language models for certain operations.
Each piece of information is organized by group_id, allowing you to maintain separate knowledge domains.

When adding information, provide descriptive names and detailed content to improve search quality.
When searching, use specific queries and consider filtering by group_id for more relevant results.

For optimal performance, ensure the database is properly configured and accessible, and valid
API keys are provided for any language model operations.`;

const CAPABILITIES = {
  experimental: {},
  prompts: { listChanged: false },
  resources: { subscribe: false, listChanged: false },
  tools: { listChanged: false },
};

const VERSIONS_NEW = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'];
const VERSIONS_OLD = ['2024-11-05', '2025-03-26'];

/** One shared validator: building Ajv per session would cost milliseconds per initialize. */
const SHARED_VALIDATOR = new AjvJsonSchemaValidator();

function hexId(): string {
  return randomUUID().replace(/-/g, '');
}

/** Python `str(datetime.now(timezone.utc))`, as sse-starlette prints pings. */
function pyTimestamp(): string {
  return pyIsoNow().replace('T', ' ');
}

/** Python `UUID(hex=…)` acceptance → 32 lower-case hex, or undefined. */
function normalizeUuidHex(value: string): string | undefined {
  const hex = value.replace(/^urn:uuid:/i, '').replace(/[{}]/g, '').replace(/-/g, '');
  return /^[0-9a-fA-F]{32}$/.test(hex) ? hex.toLowerCase() : undefined;
}

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v.join(', ') : v;
}

function isJsonContentType(value: string | undefined): boolean {
  return value !== undefined && value.split(';')[0]!.trim().toLowerCase() === 'application/json';
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function sendPlain(res: ServerResponse, status: number, text: string, extra: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'content-length': String(Buffer.byteLength(text)), ...extra });
  res.end(text);
}

function sendJson(res: ServerResponse, status: number, body: unknown, extra: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)), ...extra });
  res.end(text);
}

/** FastMCP's transport error body: `{"jsonrpc":"2.0","id":"server-error","error":{"code":c,"message":m}}`. */
function sendRpcError(res: ServerResponse, status: number, code: number, message: string, extra: Record<string, string> = {}): void {
  sendJson(res, status, { jsonrpc: '2.0', id: 'server-error', error: { code, message } }, extra);
}

/**
 * Rewrites the SDK's LF-framed SSE into sse-starlette framing: CRLF line ends,
 * `: ping - <ts>` comments (before each message and instead of the SDK's
 * `: keepalive`), and FastMCP's `/messages/?session_id=` endpoint spelling.
 */
class SseFramer {
  private buf = '';
  constructor(private readonly opts: () => { crlf: boolean; pingComments: boolean }) {}

  push(text: string): string {
    this.buf += text;
    let out = '';
    for (let idx = this.buf.indexOf('\n\n'); idx >= 0; idx = this.buf.indexOf('\n\n')) {
      out += this.frame(this.buf.slice(0, idx));
      this.buf = this.buf.slice(idx + 2);
    }
    return out;
  }

  flush(): string {
    const rest = this.buf;
    this.buf = '';
    return rest === '' ? '' : this.frame(rest);
  }

  private frame(block: string): string {
    const { crlf, pingComments } = this.opts();
    const eol = crlf ? '\r\n' : '\n';
    const ping = `: ping - ${pyTimestamp()}${eol}${eol}`;
    let lines = block.split('\n');
    if (lines.every((l) => l.startsWith(':'))) return pingComments ? ping : '';
    const endpoint = lines[0] === 'event: endpoint';
    if (endpoint) lines = lines.map((l) => l.replace('?sessionId=', '?session_id='));
    else lines = lines.map((l) => (l.startsWith('data: {') ? `data: ${pydanticOrder(l.slice(6))}` : l));
    return (pingComments && !endpoint ? ping : '') + lines.join(eol) + eol + eol;
  }
}

/** Re-serializes a JSON-RPC message with python's key order (`jsonrpc`, `id`, then the rest). */
function pydanticOrder(json: string): string {
  try {
    const m = JSON.parse(json) as Record<string, unknown>;
    if (m === null || typeof m !== 'object' || Array.isArray(m)) return json;
    const { jsonrpc, id, ...rest } = m;
    return JSON.stringify({ ...(jsonrpc !== undefined ? { jsonrpc } : {}), ...(id !== undefined ? { id } : {}), ...rest });
  } catch {
    return json;
  }
}

interface Session {
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

// ------------------------------------------------------------------ server

class GraphitiServerImpl implements GraphitiTestServer {
  readonly calls: ToolCallLog[] = [];
  readonly http: HttpLog[] = [];
  readonly events = new EventEmitter();
  private opts: Resolved;
  private readonly store: GraphitiStore;
  private readonly sessions = new Map<string, Session>();
  private readonly sseSessions = new Map<string, Session>();
  /** Streamable session ids ended by DELETE (FastMCP keeps them: 404 `Session has been terminated`). */
  private readonly terminatedIds = new Set<string>();
  private readonly hung = new Set<ServerResponse>();
  private readonly sockets = new Set<Socket>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private httpServer: HttpServer | undefined;
  private portNumber: number;
  private startupRemaining: number;
  private faultRng: () => number;
  private dropRng: () => number;
  private oneShot: Array<{ kind: FaultKind; count: number }> = [];
  /** Sessions still to be hit by a numeric initRace. */
  private initRaceRemaining = 0;
  private closed = false;

  constructor(options: GraphitiServerOptions, port: number) {
    this.events.setMaxListeners(0);
    this.opts = { ...DEFAULTS, ...stripUndefined(options), faults: { ...(options.faults ?? {}) } };
    this.portNumber = port;
    this.startupRemaining = this.opts.startupErrors;
    this.initRaceRemaining = typeof this.opts.initRace === 'number' ? this.opts.initRace : 0;
    this.faultRng = mulberry32(this.opts.faults.seed ?? 1);
    this.dropRng = mulberry32((this.opts.faults.seed ?? 1) ^ 0x5bd1e995);
    this.store = new GraphitiStore(
      () => ({
        db: this.opts.db,
        processingDelayMs: this.opts.processingDelayMs,
        maxFactsPerEpisode: this.opts.maxFactsPerEpisode,
        maxNodesPerEpisode: this.opts.maxNodesPerEpisode,
      }),
      {
        onProcessed: (p) => this.events.emit('processed', p),
        onFailure: (f) => this.events.emit('failure', f),
      },
    );
  }

  // ------------------------------------------------------------ public API

  get port(): number {
    return this.portNumber;
  }
  get url(): string {
    return `http://127.0.0.1:${this.portNumber}${this.opts.reverseRedirect ? '/mcp/' : '/mcp'}`;
  }
  get sseUrl(): string {
    return `http://127.0.0.1:${this.portNumber}/sse`;
  }
  get options(): Readonly<Resolved> {
    return this.opts;
  }
  get failures(): FailureLog[] {
    return this.store.failures;
  }
  get processed(): ProcessedLog[] {
    return this.store.processed;
  }
  get pendingEpisodes(): number {
    return this.store.pendingCount;
  }

  setOptions(patch: Partial<GraphitiServerOptions>): void {
    const clean = stripUndefined(patch);
    this.opts = { ...this.opts, ...clean, faults: patch.faults ? { ...patch.faults } : this.opts.faults };
    if (patch.faults) {
      this.faultRng = mulberry32(this.opts.faults.seed ?? 1);
      this.dropRng = mulberry32((this.opts.faults.seed ?? 1) ^ 0x5bd1e995);
    }
    if (patch.startupErrors !== undefined) this.startupRemaining = patch.startupErrors;
    if (typeof patch.initRace === 'number') this.initRaceRemaining = patch.initRace;
  }

  episodes(groupId?: string): StoredEpisode[] {
    return [...this.store.episodes.values()].filter((e) => groupId === undefined || e.group_id === groupId).map((e) => ({ ...e }));
  }
  facts(groupId?: string): StoredFact[] {
    return [...this.store.facts.values()].filter((f) => groupId === undefined || f.group_id === groupId).map((f) => ({ ...f, episodes: [...f.episodes] }));
  }
  nodes(groupId?: string): StoredNode[] {
    return [...this.store.nodes.values()].filter((n) => groupId === undefined || n.group_id === groupId).map((n) => ({ ...n, labels: [...n.labels] }));
  }
  seedEpisode(partial: Partial<StoredEpisode> & { name: string; content: string }, options?: { extract?: boolean }): StoredEpisode {
    return this.store.seedEpisode({ group_id: this.opts.groupId, ...partial }, options);
  }
  seedFact(partial: Partial<StoredFact> & { fact: string }): StoredFact {
    return this.store.seedFact({ group_id: this.opts.groupId, ...partial });
  }
  seedNode(partial: Partial<StoredNode> & { name: string }): StoredNode {
    return this.store.seedNode({ group_id: this.opts.groupId, ...partial });
  }

  sessionIds(): string[] {
    return [...this.sessions.keys(), ...this.sseSessions.keys()];
  }

  failNext(kind: FaultKind, count = 1): void {
    if (count > 0) this.oneShot.push({ kind, count });
  }

  dropSseStreams(): number {
    const all = [...this.sseSessions.values()];
    this.sseSessions.clear();
    for (const s of all) this.endSession(s);
    return all.length;
  }

  clearLogs(): void {
    this.calls.length = 0;
    this.http.length = 0;
    this.store.failures.length = 0;
    this.store.processed.length = 0;
  }

  whenIdle(): Promise<void> {
    return this.store.whenIdle();
  }

  pauseProcessing(): void {
    this.store.pause();
  }

  resumeProcessing(): void {
    this.store.resume();
  }

  async restart(): Promise<void> {
    this.forgetState();
    this.startupRemaining = this.opts.startupErrors;
  }

  async stop(options: { keepState?: boolean } = {}): Promise<void> {
    if (!options.keepState) this.forgetState();
    for (const res of this.hung) res.destroy();
    this.hung.clear();
    const srv = this.httpServer;
    this.httpServer = undefined;
    if (!srv) return;
    await new Promise<void>((resolve) => {
      srv.close(() => resolve());
      for (const s of this.sockets) s.destroy();
      this.sockets.clear();
    });
  }

  async start(): Promise<void> {
    if (this.closed) throw new Error('server closed');
    if (this.httpServer) return;
    const srv = createServer((req, res) => {
      void this.handle(req, res).catch(() => {
        if (!res.headersSent) sendPlain(res, 500, 'Internal Server Error');
        else res.destroy();
      });
    });
    srv.keepAliveTimeout = 5_000;
    srv.on('connection', (socket: Socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve, reject) => {
      srv.once('error', reject);
      srv.listen(this.portNumber, '127.0.0.1', () => {
        srv.off('error', reject);
        resolve();
      });
    });
    const addr = srv.address();
    if (addr && typeof addr === 'object') this.portNumber = addr.port;
    this.httpServer = srv;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    await this.stop();
    this.closed = true;
    this.store.dropQueues();
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    this.events.removeAllListeners();
  }

  // ------------------------------------------------------------- internals

  /** Sessions, streams, hung requests and queued episodes are gone; stored data stays. */
  private forgetState(): void {
    const all = [...this.sessions.values(), ...this.sseSessions.values()];
    this.sessions.clear();
    this.sseSessions.clear();
    this.terminatedIds.clear();
    for (const s of all) this.endSession(s);
    for (const res of this.hung) res.destroy();
    this.hung.clear();
    this.store.dropQueues();
  }

  private endSession(s: Session): void {
    s.terminated = true;
    s.getStream = undefined;
    if (s.sseRes && !s.sseRes.writableEnded) s.sseRes.end();
    void s.server.close().catch(() => undefined);
  }

  private supportedVersions(): string[] {
    return this.opts.oldServer ? VERSIONS_OLD : VERSIONS_NEW;
  }

  private legacySessionErrors(): boolean {
    return this.opts.legacySessionErrors || this.opts.oldServer;
  }

  private toolConfig(): ToolConfig {
    return {
      legacyToolNames: this.opts.legacyToolNames,
      structuredContent: this.opts.structuredContent && !this.opts.oldServer,
      mainParams: this.opts.mainParams,
    };
  }

  private hostAllowed(req: IncomingMessage): boolean {
    if (!this.opts.restrictHost) return true;
    const host = req.headers.host;
    if (!host) return false;
    return this.opts.allowedHosts.some((p) => {
      if (p.endsWith(':*')) {
        const base = p.slice(0, -1);
        return host.startsWith(base) && /^\d+$/.test(host.slice(base.length));
      }
      return host === p;
    });
  }

  private delay(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const t = setTimeout(() => {
        this.timers.delete(t);
        resolve();
      }, ms);
      this.timers.add(t);
    });
  }

  private trim(log: unknown[]): void {
    const limit = Math.max(1, this.opts.logLimit);
    if (log.length > limit) log.splice(0, log.length - limit + Math.ceil(limit / 10));
  }

  private logCall(entry: ToolCallLog): ToolCallLog {
    this.calls.push(entry);
    this.trim(this.calls);
    if (entry.outcome !== 'pending') this.events.emit('call', entry);
    return entry;
  }

  /** `hasSession: false` (an initialize): a session cannot be lost before it exists, as on a real server. */
  private pickFault(rpcMethod: string | undefined, hasSession = true): FaultKind | undefined {
    const f = this.opts.faults;
    const methods = f.methods ?? ['tools/call'];
    if (rpcMethod === undefined || !(methods.includes('*') || methods.includes(rpcMethod))) return undefined;
    const shot = this.oneShot.find(
      (s) => s.kind !== 'drop' && s.kind !== 'queueError' && s.kind !== 'lostReply' && (hasSession || s.kind !== 'sessionLoss') && s.count > 0,
    );
    if (shot) {
      shot.count -= 1;
      this.oneShot = this.oneShot.filter((s) => s.count > 0);
      return shot.kind;
    }
    const rates: Array<[FaultKind, number]> = [
      ['http503', f.rate503 ?? 0],
      ['http429', f.rate429 ?? 0],
      ['reset', f.rateReset ?? 0],
      ['sessionLoss', f.rateSessionLoss ?? 0],
      ['hang', f.rateHang ?? 0],
    ];
    if (rates.every(([, r]) => r <= 0)) return undefined;
    const r = this.faultRng();
    let acc = 0;
    for (const [kind, rate] of rates) {
      acc += rate;
      if (r < acc) return kind === 'sessionLoss' && !hasSession ? undefined : kind;
    }
    return undefined;
  }

  /** Whether a new session gets the initRace -32602 on its first request. */
  private armInitRace(): boolean {
    if (this.opts.initRace === true) return true;
    if (typeof this.opts.initRace === 'number' && this.initRaceRemaining > 0) {
      this.initRaceRemaining -= 1;
      return true;
    }
    return false;
  }

  /** A one-shot 'lostReply' applies to the next add_memory call (like 'drop' and 'queueError'). */
  private takeLostReply(message: JSONRPCMessage): FaultKind | undefined {
    const m = message as { method?: string; params?: { name?: string } };
    if (m.method !== 'tools/call' || !['add_memory', 'add_episode'].includes(m.params?.name ?? '')) return undefined;
    const shot = this.oneShot.find((s) => s.kind === 'lostReply' && s.count > 0);
    if (!shot) return undefined;
    shot.count -= 1;
    this.oneShot = this.oneShot.filter((s) => s.count > 0);
    return 'lostReply';
  }

  private decideDrop(): boolean {
    const shot = this.oneShot.find((s) => s.kind === 'drop' && s.count > 0);
    if (shot) {
      shot.count -= 1;
      this.oneShot = this.oneShot.filter((s) => s.count > 0);
      return true;
    }
    const rate = this.opts.faults.dropRate ?? 0;
    return rate > 0 && this.dropRng() < rate;
  }

  // ------------------------------------------------------------- routing

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const path = url.pathname;
    if (this.opts.control && path.startsWith('/__control/')) return this.handleControl(req, res, url);

    const entry = this.logHttp(req, url);
    const origWriteHead = res.writeHead.bind(res) as (status: number, ...rest: unknown[]) => ServerResponse;
    (res as { writeHead: unknown }).writeHead = (status: number, ...rest: unknown[]) => {
      entry.status = status;
      const hdrs = rest.find((r) => r !== null && typeof r === 'object' && !Array.isArray(r)) as Record<string, unknown> | undefined;
      const sid = hdrs?.['mcp-session-id'] ?? res.getHeader('mcp-session-id');
      if (typeof sid === 'string') entry.responseSessionId = sid;
      const loc = hdrs?.location;
      if (typeof loc === 'string') entry.location = loc;
      return origWriteHead(status, ...rest);
    };

    if (path === '/health') {
      if (req.method !== 'GET' && req.method !== 'HEAD') return sendPlain(res, 405, 'Method Not Allowed', { allow: 'GET, HEAD' });
      return sendJson(res, 200, { status: 'healthy', service: 'graphiti-mcp' });
    }
    const o = this.opts;
    const httpOn = o.transport !== 'sse';
    const sseOn = o.transport !== 'streamable-http';
    const endpoint = o.reverseRedirect ? '/mcp/' : '/mcp';
    const other = o.reverseRedirect ? '/mcp' : '/mcp/';
    if (httpOn && path === endpoint) return this.handleStreamable(req, res, entry);
    if (httpOn && path === other && o.redirectSlashes) return this.redirect(req, res, endpoint + url.search);
    if (sseOn && path === '/sse') {
      if (req.method !== 'GET') return sendPlain(res, 405, 'Method Not Allowed', { allow: 'GET' });
      return this.handleSseConnect(req, res);
    }
    if (sseOn && path === '/messages/') {
      if (req.method !== 'POST') return sendPlain(res, 405, 'Method Not Allowed', { allow: 'POST' });
      return this.handleSsePost(req, res, url, entry);
    }
    if (sseOn && path === '/messages' && o.redirectSlashes) return this.redirect(req, res, `/messages/${url.search}`);
    return sendPlain(res, 404, 'Not Found');
  }

  private logHttp(req: IncomingMessage, url: URL): HttpLog {
    const headers: Record<string, string> = {};
    for (const name of ['accept', 'content-type', 'host', 'origin', 'mcp-session-id', 'mcp-protocol-version', 'last-event-id']) {
      const v = header(req, name);
      if (v !== undefined) headers[name] = v;
    }
    const auth = header(req, 'authorization');
    if (auth !== undefined) headers.authorization = `${auth.split(' ')[0] ?? ''} ***`;
    const entry: HttpLog = {
      at: Date.now(),
      method: req.method ?? 'GET',
      path: url.pathname,
      search: url.search,
      status: 0,
      headers,
      hasAuthorization: auth !== undefined,
    };
    this.http.push(entry);
    this.trim(this.http);
    this.events.emit('http', entry);
    return entry;
  }

  /** Starlette redirect_slashes: 307 to an absolute URL built from the Host header. */
  private redirect(req: IncomingMessage, res: ServerResponse, target: string): void {
    const host = req.headers.host ?? `127.0.0.1:${this.portNumber}`;
    res.writeHead(307, { location: `http://${host}${target}`, 'content-length': '0' });
    res.end();
  }

  private sessionNotFound(res: ServerResponse): void {
    if (this.legacySessionErrors()) return sendPlain(res, 400, 'Bad Request: No valid session ID provided');
    return sendRpcError(res, 404, -32600, 'Session not found');
  }

  // ---------------------------------------------------- streamable HTTP

  private async handleStreamable(req: IncomingMessage, res: ServerResponse, entry: HttpLog): Promise<void> {
    const method = req.method ?? 'GET';
    // 1. Session manager: an id that is not (or no longer) known.
    const sid = header(req, 'mcp-session-id');
    let session: Session | undefined;
    const terminated = sid !== undefined && this.terminatedIds.has(sid);
    if (sid !== undefined && !terminated) {
      session = this.sessions.get(sid);
      if (!session) return this.sessionNotFound(res);
    }
    // 2. Transport security middleware: Content-Type (POST), then Host.
    if (method === 'POST' && !isJsonContentType(header(req, 'content-type'))) return sendPlain(res, 400, 'Invalid Content-Type header');
    if (!this.hostAllowed(req)) return sendPlain(res, 421, 'Invalid Host header');
    // 3. Terminated by DELETE.
    if (terminated || session?.terminated) return sendRpcError(res, 404, -32600, 'Not Found: Session has been terminated');

    if (method === 'POST') return this.handleStreamablePost(req, res, entry, session);
    if (method === 'GET') {
      if (!(header(req, 'accept') ?? '').includes('text/event-stream')) {
        return sendRpcError(res, 406, -32600, 'Not Acceptable: Client must accept text/event-stream');
      }
      if (!session) return sendRpcError(res, 400, -32600, 'Bad Request: Missing session ID');
      if (this.badProtocolVersion(req, res)) return;
      if (session.getStream) return sendRpcError(res, 409, -32600, 'Conflict: Only one SSE stream is allowed per session');
      const s = session;
      s.getStream = res;
      res.on('close', () => {
        if (s.getStream === res) s.getStream = undefined;
      });
      const response = await s.http!.handleRequest(toWebRequest(req, this.portNumber));
      return this.writeWebResponse(res, response);
    }
    if (method === 'DELETE') {
      if (!session) return sendRpcError(res, 400, -32600, 'Bad Request: Missing session ID');
      if (this.badProtocolVersion(req, res)) return;
      const response = await session.http!.handleRequest(toWebRequest(req, this.portNumber));
      if (response.status === 200) {
        this.sessions.delete(session.id);
        this.terminatedIds.add(session.id);
        this.endSession(session);
      }
      return this.writeWebResponse(res, response);
    }
    return sendRpcError(res, 405, -32600, 'Method Not Allowed', { allow: 'GET, POST, DELETE' });
  }

  /** mcp ≥ 1.10 rejects an unsupported `mcp-protocol-version` (absent = 2025-03-26). */
  private badProtocolVersion(req: IncomingMessage, res: ServerResponse): boolean {
    if (this.opts.oldServer) return false;
    const v = header(req, 'mcp-protocol-version');
    if (v === undefined || this.supportedVersions().includes(v)) return false;
    sendRpcError(res, 400, -32600, `Bad Request: Unsupported protocol version: ${v}. Supported versions: ${this.supportedVersions().join(', ')}`);
    return true;
  }

  private async handleStreamablePost(req: IncomingMessage, res: ServerResponse, entry: HttpLog, existing: Session | undefined): Promise<void> {
    const o = this.opts;
    const accept = header(req, 'accept') ?? '';
    if (!accept.includes('application/json') || (!o.jsonResponse && !accept.includes('text/event-stream'))) {
      return sendRpcError(res, 406, -32600, 'Not Acceptable: Client must accept both application/json and text/event-stream');
    }
    const parsed = await this.readMessages(req, res, entry, 'streamable');
    if (!parsed) return;
    const { body, messages } = parsed;
    let session = existing;
    const first = messages[0]!;
    const fault = this.pickFault(entry.rpcMethod, existing !== undefined) ?? this.takeLostReply(first);
    if (fault && fault !== 'lostReply') return this.applyFault(fault, req, res, entry, session, first);

    const isInit = messages.some((m) => isInitializeRequest(m));
    if (!session) {
      if (!isInit) return sendRpcError(res, 400, -32600, 'Bad Request: Missing session ID');
      session = await this.createStreamableSession();
    } else if (!isInit && this.badProtocolVersion(req, res)) return;
    const response = await session.http!.handleRequest(toWebRequest(req, this.portNumber), { parsedBody: body });
    if (fault === 'lostReply') {
      // Let the handler finish its work (the reply is produced), then cut the connection unread.
      await response.text().catch(() => undefined);
      req.socket.destroy();
      return;
    }
    return this.writeWebResponse(res, response);
  }

  /** Reads and validates a POSTed JSON-RPC body, answering FastMCP's errors itself. */
  private async readMessages(
    req: IncomingMessage,
    res: ServerResponse,
    entry: HttpLog,
    channel: 'streamable' | 'sse',
  ): Promise<{ body: unknown; messages: JSONRPCMessage[] } | undefined> {
    const raw = await readBody(req);
    const latency = this.opts.faults.latencyMs ?? 0;
    if (latency > 0) await this.delay(latency);
    let body: unknown;
    try {
      body = JSON.parse(raw.toString('utf8'));
    } catch (e) {
      if (channel === 'sse') sendPlain(res, 400, 'Could not parse message');
      else sendRpcError(res, 400, -32700, `Parse error: ${(e as Error).message}`);
      return undefined;
    }
    const list = Array.isArray(body) ? body : [body];
    const messages: JSONRPCMessage[] = [];
    for (const m of list) {
      const r = JSONRPCMessageSchema.safeParse(m);
      if (!r.success || list.length === 0) {
        if (channel === 'sse') sendPlain(res, 400, 'Could not parse message');
        else sendRpcError(res, 400, -32602, `Validation error: ${r.success ? 'empty batch' : r.error.message}`);
        return undefined;
      }
      messages.push(r.data);
    }
    if (messages.length === 0) {
      if (channel === 'sse') sendPlain(res, 400, 'Could not parse message');
      else sendRpcError(res, 400, -32602, 'Validation error: empty batch');
      return undefined;
    }
    const first = messages[0]!;
    if ('method' in first) entry.rpcMethod = first.method;
    if ('id' in first && (typeof first.id === 'string' || typeof first.id === 'number')) entry.rpcId = first.id;
    return { body, messages };
  }

  private applyFault(kind: FaultKind, req: IncomingMessage, res: ServerResponse, entry: HttpLog, session: Session | undefined, message: JSONRPCMessage): void {
    entry.fault = kind;
    if (isJSONRPCRequest(message) && message.method === 'tools/call') {
      const params = (message.params ?? {}) as { name?: unknown; arguments?: unknown };
      this.logCall({
        at: Date.now(),
        tool: typeof params.name === 'string' ? params.name : '',
        args: (params.arguments ?? {}) as Record<string, unknown>,
        sessionId: session?.id,
        rpcId: message.id,
        outcome: kind,
      });
    }
    switch (kind) {
      case 'http503':
        return sendPlain(res, 503, 'Service Unavailable');
      case 'http429':
        return sendPlain(res, 429, 'Too Many Requests', { 'retry-after': String(this.opts.faults.retryAfterSeconds ?? 1) });
      case 'reset':
        req.socket.destroy();
        return;
      case 'sessionLoss':
        if (session) {
          if (session.kind === 'sse') this.sseSessions.delete(session.id);
          else this.sessions.delete(session.id);
          this.endSession(session);
        }
        if (session?.kind === 'sse') return sendPlain(res, 404, 'Could not find session');
        return this.sessionNotFound(res);
      case 'hang':
        this.hung.add(res);
        res.on('close', () => this.hung.delete(res));
        return;
      case 'drop':
      case 'queueError':
      case 'lostReply':
        // Applied while handling the request (decideDrop, callTool, handleStreamablePost), never here.
        return;
    }
  }

  private async createStreamableSession(): Promise<Session> {
    const session: Session = { id: '', kind: 'streamable-http', server: undefined as unknown as Server, initialized: false, raceArmed: this.armInitRace(), terminated: false };
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: hexId,
      onsessioninitialized: (id) => {
        session.id = id;
        this.sessions.set(id, session);
        this.events.emit('session', { id, kind: 'streamable-http' });
      },
      enableJsonResponse: this.opts.jsonResponse,
      keepAliveMs: this.opts.pingIntervalMs,
    });
    session.http = transport;
    session.server = this.createMcpServer(session);
    await session.server.connect(transport);
    this.gateMessages(session, transport);
    return session;
  }

  /** Writes the SDK transport's Response to node:http, re-framing SSE bodies. */
  private async writeWebResponse(res: ServerResponse, response: Response): Promise<void> {
    const headers: Record<string, string> = {};
    response.headers.forEach((v, k) => {
      headers[k] = v;
    });
    const isSse = (headers['content-type'] ?? '').startsWith('text/event-stream');
    if (isSse) delete headers['content-length'];
    if (res.destroyed) {
      void response.body?.cancel().catch(() => undefined);
      return;
    }
    res.writeHead(response.status, headers);
    if (!response.body) {
      res.end();
      return;
    }
    if (isSse) res.flushHeaders();
    const reader = response.body.getReader();
    const framer = isSse ? new SseFramer(() => this.opts) : undefined;
    const decoder = new TextDecoder();
    let closed = false;
    res.on('close', () => {
      closed = true;
      reader.cancel().catch(() => undefined);
    });
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done || closed) break;
        if (framer) {
          const out = framer.push(decoder.decode(value, { stream: true }));
          if (out !== '') res.write(out);
        } else res.write(value);
      }
      if (framer && !closed) {
        const rest = framer.flush();
        if (rest !== '') res.write(rest);
      }
    } catch {
      // stream cancelled or errored: just end
    }
    if (!closed && !res.writableEnded) res.end();
  }

  // ------------------------------------------------------------ legacy SSE

  private async handleSseConnect(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!this.hostAllowed(req)) return sendPlain(res, 421, 'Invalid Host header');
    const id = hexId();
    const session: Session = { id, kind: 'sse', server: undefined as unknown as Server, sseRes: res, initialized: false, raceArmed: this.armInitRace(), terminated: false };
    const framer = new SseFramer(() => this.opts);
    const origWrite = res.write.bind(res) as (chunk: unknown, ...rest: unknown[]) => boolean;
    (res as { write: unknown }).write = (chunk: unknown, ...rest: unknown[]) => {
      const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8');
      const out = framer.push(text);
      return out === '' ? true : origWrite(out, ...rest);
    };
    const origWriteHead = res.writeHead.bind(res) as (status: number, headers?: Record<string, string>) => ServerResponse;
    (res as { writeHead: unknown }).writeHead = (status: number, headers?: Record<string, string>) =>
      origWriteHead(status, { ...(headers ?? {}), 'Content-Type': 'text/event-stream; charset=utf-8', 'X-Accel-Buffering': 'no' });
    const transport = new SSEServerTransport('/messages/', res);
    // FastMCP ids are uuid4().hex; the SDK would use a dashed uuid.
    (transport as unknown as { _sessionId: string })._sessionId = id;
    session.server = this.createMcpServer(session);
    this.sseSessions.set(id, session);
    const ping = setInterval(() => {
      if (this.opts.pingComments && !res.writableEnded) {
        const eol = this.opts.crlf ? '\r\n' : '\n';
        origWrite(`: ping - ${pyTimestamp()}${eol}${eol}`);
      }
    }, Math.max(10, this.opts.pingIntervalMs));
    ping.unref();
    res.on('close', () => {
      clearInterval(ping);
      if (this.sseSessions.get(id) === session) this.sseSessions.delete(id);
      session.terminated = true;
      void session.server.close().catch(() => undefined);
    });
    await session.server.connect(transport);
    this.gateMessages(session, transport);
    this.events.emit('session', { id, kind: 'sse' });
  }

  private async handleSsePost(req: IncomingMessage, res: ServerResponse, url: URL, entry: HttpLog): Promise<void> {
    if (!isJsonContentType(header(req, 'content-type'))) return sendPlain(res, 400, 'Invalid Content-Type header');
    if (!this.hostAllowed(req)) return sendPlain(res, 421, 'Invalid Host header');
    const param = url.searchParams.get('session_id');
    if (param === null) return sendPlain(res, 400, 'session_id is required');
    const id = normalizeUuidHex(param);
    if (id === undefined) return sendPlain(res, 400, 'Invalid session ID');
    const session = this.sseSessions.get(id);
    if (!session) return sendPlain(res, 404, 'Could not find session');
    const parsed = await this.readMessages(req, res, entry, 'sse');
    if (!parsed) return;
    const message = parsed.messages[0]!;
    const fault = this.pickFault(entry.rpcMethod);
    if (fault) return this.applyFault(fault, req, res, entry, session, message);
    if (!this.sseSessions.has(id)) return sendPlain(res, 404, 'Could not find session');
    const transport = (session.server as unknown as { transport?: SSEServerTransport }).transport;
    if (transport) {
      await transport.handleMessage(message, { requestInfo: { headers: req.headers as Record<string, string> } }).catch(() => undefined);
    }
    sendPlain(res, 202, 'Accepted');
  }

  // ------------------------------------------------------------ MCP server

  /**
   * old-server gating and initRace, in front of the SDK Server: a request
   * (other than initialize/ping) before `notifications/initialized` (oldServer),
   * or the first one after it (initRace), gets -32602 `Invalid request parameters`.
   */
  private gateMessages(session: Session, transport: { onmessage?: ((m: JSONRPCMessage, extra?: never) => void) | undefined; send(m: JSONRPCMessage): Promise<void> }): void {
    const inner = transport.onmessage;
    transport.onmessage = ((message: JSONRPCMessage, extra?: never) => {
      if (isJSONRPCNotification(message) && message.method === 'notifications/initialized') session.initialized = true;
      if (isJSONRPCRequest(message) && message.method !== 'initialize' && message.method !== 'ping') {
        let reject = this.opts.oldServer && !session.initialized;
        if (!reject && session.initialized && session.raceArmed) {
          session.raceArmed = false;
          reject = true;
        }
        if (reject) {
          if (message.method === 'tools/call') {
            const params = (message.params ?? {}) as { name?: unknown; arguments?: unknown };
            this.logCall({
              at: Date.now(),
              tool: typeof params.name === 'string' ? params.name : '',
              args: (params.arguments ?? {}) as Record<string, unknown>,
              sessionId: session.id,
              rpcId: message.id,
              outcome: 'error',
              result: 'Invalid request parameters',
            });
          }
          void transport.send({ jsonrpc: '2.0', id: message.id, error: { code: -32602, message: 'Invalid request parameters', data: '' } }).catch(() => undefined);
          return;
        }
      }
      inner?.(message, extra);
    }) as typeof transport.onmessage;
  }

  private createMcpServer(session: Session): Server {
    const version = this.opts.serverVersion ?? (this.opts.oldServer ? '1.9.4' : '1.26.0');
    const server = new Server(
      { name: 'Graphiti Agent Memory', version },
      { capabilities: CAPABILITIES, instructions: INSTRUCTIONS, jsonSchemaValidator: SHARED_VALIDATOR },
    );
    server.setRequestHandler(InitializeRequestSchema, (request) => {
      const supported = this.supportedVersions();
      const requested = request.params.protocolVersion;
      return {
        protocolVersion: supported.includes(requested) ? requested : supported[supported.length - 1]!,
        capabilities: CAPABILITIES,
        serverInfo: { name: 'Graphiti Agent Memory', version },
        instructions: INSTRUCTIONS,
      };
    });
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listTools(this.toolConfig()) }));
    server.setRequestHandler(CallToolRequestSchema, (request, extra) =>
      this.callTool(session, request.params.name, (request.params.arguments ?? {}) as Record<string, unknown>, extra.requestId),
    );
    server.setRequestHandler(ListResourcesRequestSchema, () => ({ resources: [] }));
    server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({ resourceTemplates: [] }));
    server.setRequestHandler(ListPromptsRequestSchema, () => ({ prompts: [] }));
    return server;
  }

  private callTool(session: Session, name: string, args: Record<string, unknown>, rpcId: string | number): ToolCallResult {
    const entry = this.logCall({ at: Date.now(), tool: name, args, sessionId: session.id, rpcId, outcome: 'pending' });
    const finish = (result: ToolCallResult, outcome: ToolCallLog['outcome'], payload: unknown): ToolCallResult => {
      entry.outcome = outcome;
      entry.result = payload;
      this.events.emit('call', entry);
      return result;
    };
    const cfg = this.toolConfig();
    const tool = findTool(name, cfg);
    if (!tool) return finish(errorResult(`Unknown tool: ${name}`), 'error', `Unknown tool: ${name}`);
    const v = validateArguments(tool, args);
    if (!v.ok) return finish(errorResult(v.message), 'error', v.message);
    if (tool.spec.name === 'add_memory') {
      const shot = this.oneShot.find((s) => s.kind === 'queueError' && s.count > 0);
      if (shot) {
        shot.count -= 1;
        this.oneShot = this.oneShot.filter((s) => s.count > 0);
        const payload = { error: 'Error queuing episode: injected failure' };
        return finish(toCallToolResult(tool.spec.name, payload, cfg.structuredContent), 'error', payload);
      }
    }
    let dropped = false;
    const payload = executeTool(tool.spec.name, v.args, {
      store: this.store,
      groupId: this.opts.groupId,
      db: this.opts.db,
      deleteMode: this.opts.deleteMode,
      mainParams: this.opts.mainParams,
      statusError: this.opts.statusError,
      takeStartupError: () => {
        if (this.startupRemaining <= 0) return false;
        this.startupRemaining -= 1;
        return true;
      },
      decideDrop: () => (dropped = this.decideDrop()),
      searchError: this.opts.faults.searchError,
    });
    const isDomainError = 'error' in payload || (tool.spec.name === 'get_status' && payload.status === 'error');
    return finish(toCallToolResult(tool.spec.name, payload, cfg.structuredContent), dropped ? 'drop' : isDomainError ? 'error' : 'ok', payload);
  }

  // --------------------------------------------------------- control API

  private async handleControl(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const route = `${req.method ?? 'GET'} ${url.pathname.slice('/__control'.length)}`;
    const group = url.searchParams.get('group') ?? undefined;
    const readJson = async (): Promise<Record<string, unknown>> => {
      const raw = (await readBody(req)).toString('utf8').trim();
      return raw === '' ? {} : (JSON.parse(raw) as Record<string, unknown>);
    };
    try {
      switch (route) {
        case 'GET /episodes':
          return sendJson(res, 200, this.episodes(group));
        case 'GET /facts':
          return sendJson(res, 200, this.facts(group));
        case 'GET /nodes':
          return sendJson(res, 200, this.nodes(group));
        case 'GET /calls':
          return sendJson(res, 200, this.calls);
        case 'GET /http':
          return sendJson(res, 200, this.http);
        case 'GET /failures':
          return sendJson(res, 200, this.failures);
        case 'GET /processed':
          return sendJson(res, 200, this.processed);
        case 'GET /idle':
          await this.whenIdle();
          return sendJson(res, 200, { idle: true });
        case 'GET /state':
          return sendJson(res, 200, { options: this.opts, sessions: this.sessionIds(), pendingEpisodes: this.pendingEpisodes, port: this.portNumber });
        case 'POST /options':
          this.setOptions((await readJson()) as Partial<GraphitiServerOptions>);
          return sendJson(res, 200, { ok: true, options: this.opts });
        case 'POST /pause':
          this.pauseProcessing();
          return sendJson(res, 200, { ok: true });
        case 'POST /resume':
          this.resumeProcessing();
          return sendJson(res, 200, { ok: true });
        case 'POST /restart':
          await this.restart();
          return sendJson(res, 200, { ok: true });
        case 'POST /fail-next': {
          const b = await readJson();
          this.failNext(b.kind as FaultKind, typeof b.count === 'number' ? b.count : 1);
          return sendJson(res, 200, { ok: true });
        }
        case 'POST /seed-fact':
          return sendJson(res, 200, this.seedFact((await readJson()) as Partial<StoredFact> & { fact: string }));
        case 'POST /seed-node':
          return sendJson(res, 200, this.seedNode((await readJson()) as Partial<StoredNode> & { name: string }));
        case 'POST /seed-episode':
          return sendJson(res, 200, this.seedEpisode((await readJson()) as Partial<StoredEpisode> & { name: string; content: string }));
        case 'POST /drop-sse-streams':
          return sendJson(res, 200, { dropped: this.dropSseStreams() });
        case 'POST /clear-logs':
          this.clearLogs();
          return sendJson(res, 200, { ok: true });
        default:
          return sendJson(res, 404, { error: `unknown control route: ${route}` });
      }
    } catch (e) {
      return sendJson(res, 400, { error: (e as Error).message });
    }
  }
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

function toWebRequest(req: IncomingMessage, port: number): Request {
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) {
    if (v === undefined || k === 'content-length' || k === 'transfer-encoding' || k === 'connection') continue;
    if (Array.isArray(v)) for (const x of v) headers.append(k, x);
    else headers.set(k, v);
  }
  return new Request(new URL(req.url ?? '/', `http://127.0.0.1:${port}`), { method: req.method ?? 'GET', headers });
}

/** Starts the server on 127.0.0.1 (`port` 0 or absent = random free port). */
export async function startGraphitiServer(options: GraphitiServerOptions & { port?: number } = {}): Promise<GraphitiTestServer> {
  const { port = 0, ...rest } = options;
  const server = new GraphitiServerImpl(rest, port);
  await server.start();
  return server;
}
