/**
 * The test server's switches: every way it can behave like one real Graphiti MCP server version or
 * another, or fail (`faults`), with the defaults (Graphiti MCP 1.0.2 on python mcp 1.26).
 * Reference: /work/shared/reference/graphiti-mcp-server.md.
 */
import { randomUUID } from 'node:crypto';
import { systemClock, type Clock } from '../../../src/lib/watch/scheduler.js';

/** See GraphitiServerOptions.deleteMode. */
export type DeleteMode = 'node-only' | 'cascade' | 'detach';

/** Kinds of injected faults (also the `outcome` of a faulted call in `calls`). */
/** 'queueError': add_memory answers `{"error":"Error queuing episode: …"}` (a domain error, not a drop). */
/** 'lostReply': the request is processed, then the connection is cut before the reply (the client cannot tell whether it arrived). */
/** 'http502': a reverse proxy in front answers `502 Bad Gateway` without forwarding (its upstream refused the connection): nothing was processed. 'unforwarded502': the same, for the next add_memory only. */
/** 'forwarded502' / 'forwarded504': a reverse proxy forwarded the request, the server processed it, and the proxy answers 502 / 504 instead of the reply (upstream connection broken, or its read timeout). */
export type FaultKind = 'http503' | 'http429' | 'http502' | 'unforwarded502' | 'reset' | 'sessionLoss' | 'hang' | 'drop' | 'queueError' | 'lostReply' | 'forwarded502' | 'forwarded504';

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
  /** The first episode whose name contains one of these is silently dropped after "queued", once per entry (a chosen tail lost, its re-send kept). */
  dropNames?: string[];
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
  /**
   * What delete_episode removes (store.ts `deleteEpisode`): 'node-only' (graphiti-core 0.28.2),
   * 'cascade' (0.29.3, 0.31.1: also the facts it created first, even if others support them),
   * 'detach' (0.31.2: only facts left with no episode; summaries rebuilt). Default 'node-only'.
   */
  deleteMode?: DeleteMode;
  /**
   * main's tool set (servers 1.0.2 at HEAD and 1.1.0): add_memory declares its seven newer parameters
   * (`reference_time` validated: bad ISO → `Invalid reference_time: …`), and tools/list adds
   * summarize_saga, build_communities, add_triplet and get_episode_entities (tool-catalog-main.ts).
   * Default false (the 1.0.2 image: nine tools, `reference_time` silently ignored).
   */
  mainParams?: boolean;
  /**
   * Each group in its own graph (server 1.1.0 = graphiti-core 0.31+): delete_episode,
   * delete_entity_edge, get_entity_edge and get_episode_entities take `group_id` and find only
   * what lives in that group (else the configured group); get_episodes sorts what it lists by
   * created_at, newest first. Default false.
   */
  graphPerGroup?: boolean;
  /**
   * Servers 1.0.x on FalkorDB (graphiti-core 0.28.2, 0.29.3): one graph per group, and one driver
   * that add_episode moves to the group of the episode it processes. get_episodes, delete_episode,
   * delete_entity_edge, get_entity_edge and get_episode_entities then see only the group last
   * processed (none after a restart); search is not affected. Default true, as the real servers do
   * (test/real-graphiti/old-groups.test.ts); it applies only with `db: 'falkordb'` and no
   * `graphPerGroup`. Episodes seeded with `seedEpisode` are not processed: they are out of view until one is.
   */
  lastWrittenGroup?: boolean;
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
  /** The `id` of transport-level JSON-RPC error bodies: "server-error" (python mcp 1.x), null (python mcp 2.x). Default "server-error". */
  errorId?: string | null;
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
  /**
   * clear_graph takes no `group_ids` (a build whose clear_graph clears its default group, or
   * everything): a client must then never call it for a scratch group. Default false.
   */
  clearGraphTakesNoGroups?: boolean;
  /** Fake extraction: at most this many facts per episode. Default 5. */
  maxFactsPerEpisode?: number;
  /** Fake extraction: at most this many nodes per episode (the name is always one). Default 8. */
  maxNodesPerEpisode?: number;
  /**
   * Replaces the line-splitting fake extraction (in-process servers only): `npm run demo` passes
   * one that reads subject, relation and object out of a sentence, like an LLM would.
   */
  extractor?: Extractor;
  /**
   * Where the server's time comes from (in-process servers only): the worker's processing delay
   * and every `created_at` it writes. A test's fake clock (fake-clock.ts), shared with the sync
   * engine's `now` and `sleep`, runs a `sync --wait` against this queue in simulated time, the
   * same however busy the machine is; on it even a 0 delay waits for the clock to move. Default:
   * the system's.
   */
  clock?: Clock;
  /**
   * Where a processed episode's uuid comes from (in-process servers only). get_episodes lists by
   * uuid, so where ours land among the group's (what a pace sample, the top of that order, shows)
   * is a draw: a test that needs the same draw every run passes a seeded source (busy-group.ts
   * `seededUuids`). Default: random, as Graphiti's uuid4.
   */
  episodeUuid?: () => string;
  /**
   * Kept-alive connections as uvicorn (every real generation) keeps them: no `Keep-Alive` header,
   * closed after `idleMs` without a request; a request on one idle that long by `now` is reset
   * unread (uvicorn-keep-alive.ts; counted in `keepAliveResets`). Default `{ idleMs: 5000 }`,
   * uvicorn's `timeout_keep_alive`.
   */
  keepAlive?: { idleMs: number; now?: () => number };
}

/** What an extraction derives from one episode: entities (with summaries) and facts between them. */
export interface Extracted {
  entities: Array<{ name: string; summary: string }>;
  /**
   * `about`: words a search for the fact also matches (a real Graphiti's embedding knows what the
   * fact is about; the fake's term search knows only its words), e.g. the episode's name and source.
   */
  facts: Array<{ fact: string; source: string; target: string; relation: string; about?: string }>;
}
export type Extractor = (episode: { name: string; content: string; sourceDescription: string }) => Extracted;

export type Resolved = Required<Omit<GraphitiServerOptions, 'serverVersion' | 'faults' | 'extractor'>> & { serverVersion: string | undefined; faults: FaultOptions; extractor: Extractor | undefined };

const DEFAULTS: Resolved = {
  groupId: 'main',
  db: 'neo4j',
  processingDelayMs: 5,
  deleteMode: 'node-only',
  mainParams: false,
  graphPerGroup: false,
  lastWrittenGroup: true,
  startupErrors: 0,
  statusError: false,
  serverVersion: undefined,
  transport: 'streamable-http',
  redirectSlashes: true,
  reverseRedirect: false,
  legacySessionErrors: false,
  crlf: true,
  pingComments: true,
  errorId: 'server-error',
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
  clearGraphTakesNoGroups: false,
  maxFactsPerEpisode: 5,
  maxNodesPerEpisode: 8,
  extractor: undefined,
  clock: systemClock,
  keepAlive: { idleMs: 5000 },
  episodeUuid: randomUUID,
};

/** Options with every default applied (`faults` copied, so the caller's object is never shared). */
export function resolveOptions(options: GraphitiServerOptions): Resolved {
  return { ...DEFAULTS, ...stripUndefined(options), faults: { ...(options.faults ?? {}) } };
}

/** `setOptions`: a patch over the current options; `faults` replaces the whole object. */
export function patchOptions(current: Resolved, patch: Partial<GraphitiServerOptions>): Resolved {
  return { ...current, ...stripUndefined(patch), faults: patch.faults ? { ...patch.faults } : current.faults };
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
