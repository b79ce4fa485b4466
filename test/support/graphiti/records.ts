/**
 * The records of the fake graph (episodes, facts, nodes as Graphiti MCP 1.0.2 returns them), the
 * logs of its background worker, and Graphiti's rules that both the tools and the worker apply
 * (group-id validation, FalkorDB's RediSearch error, python's timestamp format).
 * Reference: /work/shared/reference/graphiti-mcp-server.md, sections 2, 4 and 5.
 */
import type { Clock } from '../../../src/lib/watch/scheduler.js';
import type { Extractor } from './options.js';

/** The 7 fields `get_episodes` returns on v1.x. */
export interface StoredEpisode {
  uuid: string;
  name: string;
  content: string;
  created_at: string;
  source: string;
  source_description: string;
  group_id: string;
}

/** A fact (EntityEdge dump) as `search_memory_facts` / `get_entity_edge` return it. */
export interface StoredFact {
  uuid: string;
  group_id: string;
  source_node_uuid: string;
  target_node_uuid: string;
  created_at: string;
  name: string;
  fact: string;
  episodes: string[];
  expired_at: string | null;
  valid_at: string | null;
  invalid_at: string | null;
  attributes: Record<string, unknown>;
}

/** A node as `search_nodes` returns it. */
export interface StoredNode {
  uuid: string;
  name: string;
  labels: string[];
  created_at: string | null;
  summary: string | null;
  group_id: string;
  attributes: Record<string, unknown>;
}

/** One background failure, as the real server would only log it. */
export interface FailureLog {
  at: number;
  groupId: string;
  /** The `name` argument of the add_memory call. */
  name: string;
  /** The `uuid` argument (re-process request), or null (Graphiti logs "None"). */
  episodeUuid: string | null;
  /** The exception text. */
  error: string;
  /** The full log line: `Failed to process episode <uuid|None> for group <g>: <error>`. */
  message: string;
  /** 'drop' when injected by faults.dropRate / failNext('drop'). */
  cause: 'invalid-group' | 'falkordb-hyphen' | 'unknown-uuid' | 'drop';
}

/** One successful worker run. */
export interface ProcessedLog {
  at: number;
  uuid: string;
  groupId: string;
  name: string;
  /** True when the call carried `uuid` of an existing episode (re-extraction, no new episode). */
  reprocessed: boolean;
}

export interface QueueItem {
  name: string;
  body: string;
  groupId: string;
  source: string;
  sourceDescription: string;
  /** `uuid` argument: re-process this existing episode. */
  uuid: string | null;
  /** ISO reference time (main's parameter), used as the facts' valid_at. */
  referenceTime: string | null;
  /** Decided at enqueue time (deterministic): the worker silently drops the item. */
  drop: boolean;
}

export interface StoreConfig {
  db: 'neo4j' | 'falkordb';
  processingDelayMs: number;
  maxFactsPerEpisode: number;
  maxNodesPerEpisode: number;
  /** A replacement for the line-splitting extraction (options.ts `extractor`). */
  extractor?: Extractor | undefined;
  /** The server's time: processing delays and `created_at` (options.ts `clock`). */
  clock: Clock;
  /** A processed episode's uuid (options.ts `episodeUuid`). */
  episodeUuid: () => string;
}

export const GROUP_ID_RE = /^[a-zA-Z0-9_-]+$/;

export function invalidGroupIdMessage(groupId: string): string {
  return `group_id "${groupId}" must contain only alphanumeric characters, dashes, or underscores`;
}

/**
 * The RediSearch error FalkorDB gives for a hyphenated group id in the fulltext
 * filter `(@group_id:"<g>") (...)`, e.g. `acpt-probe` → `Syntax error at offset 16 near acpt`.
 */
export function redisearchSyntaxError(groupIds: string[]): string | undefined {
  const query = `(@group_id:${groupIds.map((g) => `"${g}"`).join(' | ')})`;
  const offset = query.indexOf('-');
  if (offset < 0) return undefined;
  const before = /([A-Za-z0-9_]+)$/.exec(query.slice(0, offset));
  const near = before?.[1] ?? query.slice(offset + 1).split(/[^A-Za-z0-9_]/)[0] ?? '';
  return `RediSearch: Syntax error at offset ${offset} near ${near}`;
}

/** Python's `datetime.now(timezone.utc).isoformat()`: microseconds and `+00:00`. */
export function pyIsoNow(ms: number = Date.now()): string {
  return new Date(ms).toISOString().replace('Z', '000+00:00');
}
