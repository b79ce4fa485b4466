/**
 * What a test sees of the server: the `GraphitiTestServer` handle and the logs it keeps
 * (every tools/call, every HTTP request), which tests assert on.
 */
import type { EventEmitter } from 'node:events';
import type { FailureLog, ProcessedLog, StoredEpisode, StoredFact, StoredNode } from './records.js';
import type { FaultKind, GraphitiServerOptions, Resolved } from './options.js';

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
  /** Events: 'http' (HttpLog, at arrival), 'call' (ToolCallLog, when final), 'processed', 'failure', 'session' ({id, kind}), 'fault-schedule' (the schedule's new position). */
  readonly events: EventEmitter;
  /** Episodes queued and not yet processed. */
  readonly pendingEpisodes: number;
  /** Requests reset unread because they came on a connection idle past `keepAlive.idleMs` (options.ts). */
  readonly keepAliveResets: number;
  /** Live session ids (streamable + legacy SSE). */
  sessionIds(): string[];
  /**
   * Eligible requests (`faults.methods`) the fault schedule has met since the faults were last set:
   * how far the seeded sequence got, which the run's work decides, not the machine's speed.
   */
  readonly faultScheduleMet: number;
  /** Resolves once the fault schedule has met `requests` eligible requests (event-driven: the 'fault-schedule' event). */
  whenFaultScheduleMet(requests: number): Promise<void>;
  /** One-shot faults, consumed (in order) before the random ones by the next eligible requests ('drop': next add_memory). */
  failNext(kind: FaultKind, count?: number): void;
  /**
   * The next `count` add_memory calls are taken in groups of `every`: each group held until complete,
   * then queued and answered last-arrived first (requests in flight together reach the queue in
   * another order than sent: in-flight-order.ts).
   */
  reorderInFlight(every: number, count: number): void;
  /** Close every legacy SSE stream (their sessions are forgotten, as FastMCP does on disconnect). */
  dropSseStreams(): number;
  /** Every Streamable HTTP session closed as python mcp 2.x closes one idle for 30 minutes (the process, its queue and data stay); how many. */
  expireIdleSessions(): number;
  clearLogs(): void;
  /**
   * A server 1.0.x on FalkorDB (options.ts `lastWrittenGroup`) moved to `group`, as if it had just
   * taken up an episode there (undefined: none, as after a restart): to put a move between two calls.
   */
  moveToGroup(group: string | undefined): void;
  /** Resolves once every group queue is drained (event-driven; waits while processing is paused). */
  whenIdle(): Promise<void>;
  /** Hold the ingestion workers: add_memory still answers "queued", nothing becomes visible until resumeProcessing(). */
  pauseProcessing(): void;
  resumeProcessing(): void;
  /**
   * Simulated restart: sessions, open streams and queues forgotten (queued episodes LOST), data kept, startupErrors re-armed.
   * `{ data: 'lost' }`: started again without its data (a removed volume, a database that does not persist): every group
   * empty, as the real server lists it then (test/real-graphiti/wiped-server.test.ts).
   */
  restart(options?: { data?: 'kept' | 'lost' }): Promise<void>;
  /** Server down: close the listener and destroy open sockets. Data kept; sessions and queues are lost unless keepState. */
  stop(options?: { keepState?: boolean }): Promise<void>;
  /** Listen again on the same port. */
  start(): Promise<void>;
  close(): Promise<void>;
}
