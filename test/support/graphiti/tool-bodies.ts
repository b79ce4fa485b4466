/**
 * The tool bodies with Graphiti's literal result strings and error texts, run on the fake graph
 * (store.ts), and their wrapping as a tools/call result (text, plus `structuredContent` on
 * mcp ≥ 1.10) (reference: graphiti-mcp-server.md §3).
 */
import { randomUUID } from 'node:crypto';
import { GROUP_ID_RE, invalidGroupIdMessage, redisearchSyntaxError, type StoredEpisode, type StoredFact, type StoredNode } from './records.js';
import type { DeleteMode } from './options.js';
import type { GraphitiStore } from './store.js';
import { pyRepr, type ValidatedArgs } from './tool-arguments.js';
import type { CanonicalTool } from './tool-catalog.js';

export interface ExecContext {
  store: GraphitiStore;
  groupId: string;
  db: 'neo4j' | 'falkordb';
  deleteMode: DeleteMode;
  mainParams: boolean;
  /** Each group in its own graph (0.31+): uuid lookups see only `group_id`'s (else the configured) group. */
  graphPerGroup: boolean;
  /** Lists and uuid lookups see only the group last processed (options.ts `lastWrittenGroup`). */
  lastWrittenGroup: boolean;
  statusError: boolean | string;
  /** Consumes one "not initialized" answer if any are left. */
  takeStartupError: () => boolean;
  /** Decides (deterministically) whether the worker will silently drop this episode. */
  decideDrop: (episodeName: string) => boolean;
  /**
   * Every fulltext search fails inside the server with this exception text (the madeinoz
   * FalkorDB patch: `'FalkorDriver' object has no attribute 'STOPWORDS'`). add_episode runs
   * the same search to deduplicate, so every episode is dropped after "queued" too.
   */
  searchError?: string | undefined;
}

export type ToolPayload = Record<string, unknown>;

const EPISODE_TYPES = new Set(['text', 'json', 'message', 'fact_triple']);

/** `datetime.fromisoformat(value.replace('Z', '+00:00'))` acceptance (Python 3.11+, common forms). */
export function parsePyIso(value: string): string | undefined {
  const v = value.replace('Z', '+00:00');
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2})(?::(\d{2})(?::(\d{2})(?:[.,](\d{1,6}))?)?)?([+-]\d{2}:?\d{2}(?::?\d{2})?)?)?$/.exec(v);
  if (!m) return undefined;
  const [, y, mo, d, h = '00', mi = '00', s = '00', frac = '', off] = m;
  const month = Number(mo);
  const day = Number(d);
  if (month < 1 || month > 12 || day < 1 || day > 31 || Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return undefined;
  const offset = off ? (off.includes(':') ? off.slice(0, 6) : `${off.slice(0, 3)}:${off.slice(3, 5)}`) : '+00:00';
  const iso = `${y}-${mo}-${d}T${h}:${mi}:${s}.${frac.padEnd(6, '0')}${offset}`;
  return Number.isNaN(Date.parse(iso.replace(/(\.\d{3})\d{3}/, '$1'))) ? undefined : iso;
}

/** `group_ids or [configured]`; main's servers also take one string (a blank one means omitted). */
function effectiveGroups(groupIds: unknown, configured: string): string[] {
  if (typeof groupIds === 'string' && groupIds !== '') return [groupIds];
  return Array.isArray(groupIds) ? (groupIds as string[]) : configured ? [configured] : [];
}

function searchGroupError(groups: string[], db: 'neo4j' | 'falkordb'): string | undefined {
  const bad = groups.find((g) => !GROUP_ID_RE.test(g));
  if (bad !== undefined) return invalidGroupIdMessage(bad);
  return db === 'falkordb' ? redisearchSyntaxError(groups) : undefined;
}

function nodeResult(n: StoredNode): ToolPayload {
  return { uuid: n.uuid, name: n.name, labels: n.labels, created_at: n.created_at, summary: n.summary, group_id: n.group_id, attributes: n.attributes };
}

/** `newerCore`: graphiti-core after 0.28.2 (servers with main's parameters) adds `reference_time`. */
function factResult(f: StoredFact, newerCore: boolean): ToolPayload {
  return {
    uuid: f.uuid,
    group_id: f.group_id,
    source_node_uuid: f.source_node_uuid,
    target_node_uuid: f.target_node_uuid,
    created_at: f.created_at,
    name: f.name,
    fact: f.fact,
    episodes: f.episodes,
    expired_at: f.expired_at,
    valid_at: f.valid_at,
    invalid_at: f.invalid_at,
    ...(newerCore ? { reference_time: f.valid_at } : {}),
    attributes: f.attributes,
  };
}

/** An EdgeResult (main's add_triplet / get_episode_entities): no episodes, no attributes. */
function edgeResult(f: StoredFact): ToolPayload {
  return { uuid: f.uuid, name: f.name, fact: f.fact, source_node_uuid: f.source_node_uuid, target_node_uuid: f.target_node_uuid, group_id: f.group_id, created_at: f.created_at, valid_at: f.valid_at, invalid_at: f.invalid_at };
}

function episodeResult(e: StoredEpisode): ToolPayload {
  return { uuid: e.uuid, name: e.name, content: e.content, created_at: e.created_at, source: e.source, source_description: e.source_description, group_id: e.group_id };
}

/** Runs a validated tool call and returns the unwrapped payload dict. */
export function executeTool(tool: CanonicalTool, a: ValidatedArgs, ctx: ExecContext): ToolPayload {
  if (ctx.takeStartupError()) {
    if (tool === 'add_memory') return { error: 'Services not initialized' };
    if (tool === 'get_status') return { status: 'error', message: 'Graphiti service not initialized' };
    return { error: 'Graphiti service not initialized' };
  }
  const store = ctx.store;
  /** Whether a uuid lookup can see this uuid: on 0.31+ only in the named (else the configured) group's graph. */
  const visible = (uuid: string): boolean =>
    ctx.lastWrittenGroup ? store.groupOf(uuid) === store.lastWrittenGroup : !ctx.graphPerGroup || store.groupOf(uuid) === ((a.group_id as string | null | undefined) || ctx.groupId);
  /** The groups a list can see: on a server that lists where it last wrote, that group only. */
  const listable = (groups: string[]): string[] => (ctx.lastWrittenGroup ? groups.filter((g) => g === store.lastWrittenGroup) : groups);
  switch (tool) {
    case 'add_memory': {
      let referenceTime: string | null = null;
      if (ctx.mainParams && typeof a.reference_time === 'string') {
        const parsed = parsePyIso(a.reference_time);
        if (!parsed) return { error: `Invalid reference_time: Invalid isoformat string: ${pyRepr(a.reference_time)}` };
        referenceTime = parsed;
      }
      const groupId = (a.group_id as string | null) || ctx.groupId;
      const source = String(a.source ?? 'text').toLowerCase();
      const uuid = (a.uuid as string | null) || null;
      store.queue.enqueue({
        name: a.name as string,
        body: a.episode_body as string,
        groupId,
        source: EPISODE_TYPES.has(source) ? source : 'text',
        sourceDescription: (a.source_description as string) ?? '',
        uuid,
        referenceTime,
        drop: ctx.decideDrop(a.name as string) || ctx.searchError !== undefined,
      });
      return { message: `Episode '${a.name as string}' queued for processing in group '${groupId}'` };
    }
    case 'search_nodes': {
      const groups = effectiveGroups(a.group_ids, ctx.groupId);
      const err = ctx.searchError ?? searchGroupError(groups, ctx.db);
      if (err) return { error: `Error searching nodes: ${err}` };
      const nodes = store.searchNodes(a.query as string, groups, a.max_nodes as number, (a.entity_types as string[] | null) ?? null);
      if (nodes.length === 0) return { message: 'No relevant nodes found', nodes: [] };
      return { message: 'Nodes retrieved successfully', nodes: nodes.map(nodeResult) };
    }
    case 'search_memory_facts': {
      if ((a.max_facts as number) <= 0) return { error: 'max_facts must be a positive integer' };
      const groups = effectiveGroups(a.group_ids, ctx.groupId);
      const err = ctx.searchError ?? searchGroupError(groups, ctx.db);
      if (err) return { error: `Error searching facts: ${err}` };
      const facts = store.searchFacts(a.query as string, groups, a.max_facts as number);
      if (facts.length === 0) return { message: 'No relevant facts found', facts: [] };
      return { message: 'Facts retrieved successfully', facts: facts.map((f) => factResult(f, ctx.mainParams)) };
    }
    case 'delete_entity_edge': {
      const uuid = a.uuid as string;
      if (!visible(uuid) || !store.facts.delete(uuid)) return { error: `Error deleting entity edge: edge ${uuid} not found` };
      return { message: `Entity edge with UUID ${uuid} deleted successfully` };
    }
    case 'delete_episode': {
      const uuid = a.uuid as string;
      if (!visible(uuid) || !store.deleteEpisode(uuid, ctx.deleteMode)) return { error: `Error deleting episode: node ${uuid} not found` };
      return { message: `Episode with UUID ${uuid} deleted successfully` };
    }
    case 'get_entity_edge': {
      const uuid = a.uuid as string;
      const fact = visible(uuid) ? store.facts.get(uuid) : undefined;
      if (!fact) return { error: `Error getting entity edge: edge ${uuid} not found` };
      return factResult({ ...fact, episodes: [...fact.episodes] }, ctx.mainParams);
    }
    case 'get_episodes': {
      const groups = effectiveGroups(a.group_ids, ctx.groupId);
      const max = a.max_episodes as number;
      // 0.31+ lists each group's graph on its own (uuid order, `max` each), then sorts the whole
      // by created_at, newest first, and keeps `max`.
      const episodes =
        groups.length === 0
          ? []
          : ctx.graphPerGroup
            ? groups
                .flatMap((g) => store.getEpisodes([g], max))
                .sort((x, y) => (x.created_at < y.created_at ? 1 : x.created_at > y.created_at ? -1 : 0))
                .slice(0, Math.max(0, max))
            : store.getEpisodes(listable(groups), max);
      if (episodes.length === 0) return { message: 'No episodes found', episodes: [] };
      return { message: 'Episodes retrieved successfully', episodes: episodes.map(episodeResult) };
    }
    case 'summarize_saga': {
      const group = (a.group_id as string | null) || ctx.groupId;
      if (!group) return { error: 'No group_id provided and no default group_id is configured' };
      // The fake keeps no sagas (tool-catalog-main.ts).
      return { error: `No saga named '${a.saga_name as string}' found in group '${group}'` };
    }
    case 'build_communities': {
      const groups = effectiveGroups(a.group_ids, ctx.groupId);
      const clusters = store.entityClusters(groups);
      const communities = clusters.map((members) => ({ uuid: randomUUID(), name: members[0]?.name ?? '', group_id: members[0]?.group_id ?? '', summary: '' }));
      // One HAS_MEMBER edge per member, as graphiti-core counts them.
      const edges = clusters.reduce((n, members) => n + members.length, 0);
      return { message: `Built ${communities.length} communities`, community_count: communities.length, edge_count: edges, communities };
    }
    case 'add_triplet': {
      const group = (a.group_id as string | null) || ctx.groupId;
      if (!group) return { error: 'No group_id provided and no default group_id is configured' };
      const { nodes, fact } = store.addTriplet({
        groupId: group,
        source: a.source_node_name as string,
        edgeName: a.edge_name as string,
        fact: a.fact as string,
        target: a.target_node_name as string,
        sourceUuid: a.source_node_uuid as string | null,
        targetUuid: a.target_node_uuid as string | null,
      });
      return { message: `Triplet '${a.source_node_name as string} -[${a.edge_name as string}]-> ${a.target_node_name as string}' added`, nodes: nodes.map(nodeResult), edges: [edgeResult(fact)] };
    }
    case 'get_episode_entities': {
      const uuids = a.episode_uuids as string[];
      if (uuids.length === 0) return { error: 'episode_uuids must contain at least one UUID' };
      const seen = ctx.lastWrittenGroup ? uuids.filter(visible) : uuids;
      const { nodes, facts } = store.episodeEntities(seen, ctx.graphPerGroup ? (a.group_id as string | null) || ctx.groupId : null);
      return { message: `Retrieved provenance for ${uuids.length} episode(s)`, nodes: nodes.map(nodeResult), edges: facts.map(edgeResult) };
    }
    case 'clear_graph': {
      // `group_ids or [configured]`: an empty list (or, on main, a blank string) also falls back.
      const given = typeof a.group_ids === 'string' ? (a.group_ids === '' ? null : [a.group_ids]) : (a.group_ids as string[] | null);
      const groups = given && given.length > 0 ? given : ctx.groupId ? [ctx.groupId] : [];
      if (groups.length === 0) return { error: 'No group IDs specified for clearing' };
      store.clearGroups(groups);
      return { message: `Graph data cleared successfully for group IDs: ${groups.join(', ')}` };
    }
    case 'get_status': {
      if (ctx.statusError !== false) {
        const detail = typeof ctx.statusError === 'string' ? ctx.statusError : `Failed to connect to ${ctx.db} database`;
        return { status: 'error', message: `Graphiti MCP server is running but database connection failed: ${detail}` };
      }
      return { status: 'ok', message: `Graphiti MCP server is running and connected to ${ctx.db} database` };
    }
  }
}

export interface ToolCallResult {
  [key: string]: unknown;
  content: Array<{ type: 'text'; text: string }>;
  structuredContent?: Record<string, unknown>;
  isError: boolean;
}

/** FastMCP's conversion: 2-space JSON text + `{"result": …}` (bare for get_status). */
export function toCallToolResult(tool: CanonicalTool, payload: ToolPayload, structured: boolean): ToolCallResult {
  const content: ToolCallResult['content'] = [{ type: 'text', text: JSON.stringify(payload, null, 2) }];
  if (!structured) return { content, isError: false };
  return { content, structuredContent: tool === 'get_status' ? payload : { result: payload }, isError: false };
}

export function errorResult(text: string): ToolCallResult {
  return { content: [{ type: 'text', text }], isError: true };
}
