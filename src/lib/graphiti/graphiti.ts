/**
 * Typed Graphiti calls over our MCP client.
 *
 * Graphiti's MCP server has moved between releases (tool names, parameters, result
 * encodings), reports domain errors as successful `{"error": …}` payloads, and answers
 * `add_memory` before anything is stored. This module hides all of that: it discovers
 * the server's tools once per session, maps older names to current ones, sends optional
 * parameters only to servers that declare them, validates every result with zod and
 * turns every failure into a typed error. Retries (p-retry, via withRetry) live here,
 * not in the transport, because only here do we know which calls are safe to repeat.
 *
 * Size: GraphitiClient (~220 lines) is one class because it is one server's tool surface: the
 * discovered names and parameters, the retry policy and the result parsing are shared by every call.
 */
import { z } from 'zod/v3';
import type { Config } from '../config/config.js';
import { localServerAccess, type LocalServerAccess } from '../config/server-runtime.js';
import { escapeSearchQuery, normalizeGroupId } from './escape.js';
import { nullLogger, type Logger } from '../util/log.js';
import { McpClient, type CallToolResult, type ToolInfo } from '../mcp/client.js';
import { LOCAL_UNPROVEN, mayHaveArrived, McpNetworkError, McpProtocolError, McpToolError, NotGraphitiError } from '../mcp/errors.js';

export { NotGraphitiError };
import { displayUrl } from '../mcp/http.js';
import { withRetry, type RetryOptions } from '../mcp/retry.js';
import { isRecord } from '../util/json.js';

export interface Episode {
  uuid: string;
  name: string;
  content: string;
  created_at: string | null;
  source: string;
  source_description: string;
  group_id: string;
}

export interface Fact {
  uuid: string;
  name: string;
  fact: string;
  group_id?: string | undefined;
  created_at?: string | null | undefined;
  valid_at?: string | null | undefined;
  invalid_at?: string | null | undefined;
  expired_at?: string | null | undefined;
  episodes?: string[] | undefined;
  source_node_uuid?: string | undefined;
  target_node_uuid?: string | undefined;
}

/**
 * Whether a fact rests only on the given episodes: every episode it names is one of them. Such a
 * fact says nothing any remaining episode supports once those are gone; a fact that names no
 * episode is not judged (its provenance is unknown).
 */
export function factRestsOnlyOn(fact: Pick<Fact, 'episodes'>, episodes: ReadonlySet<string>): boolean {
  const on = fact.episodes ?? [];
  return on.length > 0 && on.every((uuid) => episodes.has(uuid));
}

export interface EntityNode {
  uuid: string;
  name: string;
  summary?: string | null | undefined;
  labels?: string[] | undefined;
  created_at?: string | null | undefined;
  group_id?: string | undefined;
}

export interface AddMemoryInput {
  name: string;
  episodeBody: string;
  groupId: string;
  source?: 'text' | 'json' | 'message';
  sourceDescription: string;
  /** ISO-8601; sent only to servers whose add_memory schema declares `reference_time`. */
  referenceTime?: string | undefined;
}

/** What identifies a server build from the outside (graphiti/server-rules.ts). */
export interface ServerProfile {
  name: string;
  version: string;
  /** Tool names as listed. */
  tools: string[];
  /** Every tool's input schema, as one string (a build that changes any parameter changes it). */
  schemas?: string;
  /** `delete_episode` takes `group_id` (graphiti-core 0.31+: each group in its own graph). */
  deleteEpisodeTakesGroup: boolean;
}

export interface ServerStatus {
  status: 'ok' | 'error';
  message: string;
}

/** Logical operations and the tool names different Graphiti releases use for them. */
const TOOL_NAMES = {
  addMemory: ['add_memory', 'add_episode'],
  searchFacts: ['search_memory_facts', 'search_facts'],
  searchNodes: ['search_nodes', 'search_memory_nodes'],
  getEpisodes: ['get_episodes'],
  deleteEpisode: ['delete_episode'],
  deleteEntityEdge: ['delete_entity_edge'],
  getStatus: ['get_status'],
  episodeEntities: ['get_episode_entities'],
  getEntityEdge: ['get_entity_edge'],
  clearGraph: ['clear_graph'],
} as const;

type Operation = keyof typeof TOOL_NAMES;

/**
 * GRAPHITI_SURFACE: what every Graphiti MCP server generation offers (0.28.2 to 0.31.2) and the
 * sync cannot work without: to add, list, delete and search. A server offering none of the names
 * for one of them is another program at Graphiti's address, not an older Graphiti: FastMCP servers
 * listen on port 8000 and /mcp by default, as Graphiti's does, so another project's MCP server
 * started there looks like a server that answers. Before this rule its tool list (no
 * `get_episode_entities`) named it graphiti-core 0.28.2, `status` said "Server: ok", and every sync
 * ended with exit 1 and "a send that failed", saying neither what failed nor what to do.
 */
const GRAPHITI_CORE: readonly Operation[] = ['addMemory', 'getEpisodes', 'deleteEpisode', 'searchFacts'];

/** The message for a server that is not Graphiti (GRAPHITI_SURFACE), or undefined when `tools` are Graphiti's. */
export function notGraphitiMessage(url: string, tools: readonly string[]): string | undefined {
  const missing = GRAPHITI_CORE.filter((op) => !TOOL_NAMES[op].some((name) => tools.includes(name)));
  if (missing.length === 0) return undefined;
  const shown = tools.length === 0 ? 'none' : `${tools.slice(0, 8).join(', ')}${tools.length > 8 ? ', …' : ''}`;
  return `The MCP server at ${displayUrl(url)} is not a Graphiti MCP server: it offers none of ${missing.map((op) => TOOL_NAMES[op][0]).join(', ')} (its tools: ${shown}). Another program may be listening at Graphiti's address (FastMCP servers use port 8000 and /mcp by default, as Graphiti's does). Nothing was sent or deleted: start Graphiti there, or set MADEINOZ_KNOWLEDGE_MCP_URL to where it runs.`;
}


const nullableString = z.string().nullable().optional();

const episodeSchema = z
  .object({
    uuid: z.string(),
    name: z.string().default(''),
    content: z.string().default(''),
    created_at: z.string().nullable().default(null),
    source: z.string().default('text'),
    source_description: z.string().default(''),
    group_id: z.string().default(''),
  })
  .passthrough();

const factSchema = z
  .object({
    uuid: z.string(),
    name: z.string().default(''),
    fact: z.string(),
    group_id: z.string().optional(),
    created_at: nullableString,
    valid_at: nullableString,
    invalid_at: nullableString,
    expired_at: nullableString,
    episodes: z.array(z.string()).optional(),
    source_node_uuid: z.string().optional(),
    target_node_uuid: z.string().optional(),
  })
  .passthrough();

const nodeSchema = z
  .object({
    uuid: z.string(),
    name: z.string(),
    summary: nullableString,
    labels: z.array(z.string()).optional(),
    created_at: nullableString,
    group_id: z.string().optional(),
  })
  .passthrough();

const messageSchema = z.object({ message: z.string() }).passthrough();
const statusSchema = z.object({ status: z.enum(['ok', 'error']), message: z.string() }).passthrough();

/**
 * The local server's token for a request to `url`, undefined for any other server, or, where `url`
 * is our local server's and no listener there proves itself, an error before anything is sent
 * (config/server-runtime.ts ONLY_PROVEN_LOCAL). The error says the request never left (LOCAL_UNPROVEN),
 * so an add_memory held back here stays pending and is sent once the server is back.
 */
async function localServerToken(config: Pick<Config, 'stateDir' | 'mcpUrlSource'>, url: URL): Promise<Exclude<LocalServerAccess, 'unproven' | 'other'> | undefined> {
  const access = await localServerAccess(config.stateDir, url, config.mcpUrlSource === 'local-server');
  if (access === 'other') return undefined;
  if (access === 'unproven') {
    throw new McpNetworkError(`Network error talking to ${displayUrl(url)}: the local Graphiti server (server start) is not there any more, or not yet: whatever listens there could not prove it is ours, so nothing was sent to it`, LOCAL_UNPROVEN);
  }
  // The token, and the connection that proved itself, which the request goes on (PROOF_ON_THE_CONNECTION).
  return access;
}

export class GraphitiClient {
  private readonly config: Config;
  private readonly logger: Logger;
  private readonly mcp: McpClient;
  private tools: Map<string, ToolInfo> | undefined;
  private toolsSession: string | undefined;

  constructor(config: Config, options: { logger?: Logger; client?: McpClient } = {}) {
    this.config = config;
    this.logger = options.logger ?? nullLogger;
    this.mcp =
      options.client ??
      new McpClient({
        url: config.mcpUrl,
        ...(config.sseUrl === undefined ? {} : { sseUrl: config.sseUrl }),
        transport: config.transport,
        headers: config.headers,
        // A token the user set goes as set; else the local server's, to its proven front only, and
        // nothing at all to its address while no front there proves itself (ONLY_PROVEN_LOCAL).
        ...(config.authToken === undefined ? { tokenFor: (url: URL) => localServerToken(config, url) } : { authToken: config.authToken }),
        timeoutMs: config.timeoutMs,
        logger: this.logger.child({ component: 'mcp' }),
      });
  }

  /** Group ids made safe for the database (escape.ts); every call that names groups goes through here. */
  private safeGroups(groupIds: string[]): string[] {
    return groupIds.map((g) => normalizeGroupId(this.config.db, g));
  }

  /** The underlying MCP client (for diagnostics such as the negotiated protocol). */
  get client(): McpClient {
    return this.mcp;
  }

  async getStatus(signal?: AbortSignal): Promise<ServerStatus> {
    return this.retrying('get_status', signal, async () => {
      const tool = await this.resolveTool('getStatus', signal);
      this.requireGraphiti();
      if (tool === undefined) {
        // Pre-v1 servers expose status only as a resource; a working tools/list is the best we know.
        return { status: 'ok', message: 'Server answered tools/list (this Graphiti release has no get_status tool)' };
      }
      const payload = await this.call(tool.name, {}, signal);
      return statusSchema.parse(payload);
    });
  }

  /** The server's name, version and tool surface (one tools/list per session). */
  async serverProfile(signal?: AbortSignal): Promise<ServerProfile> {
    return this.retrying('tools/list', signal, async () => {
      const deleteTool = await this.resolveTool('deleteEpisode', signal);
      this.requireGraphiti();
      const info = this.mcp.serverInfo;
      return {
        name: info?.name ?? '',
        version: info?.version ?? '',
        tools: [...(this.tools?.keys() ?? [])],
        schemas: JSON.stringify([...(this.tools?.values() ?? [])].map((t) => [t.name, t.inputSchema]).sort((a, b) => String(a[0]).localeCompare(String(b[0])))),
        deleteEpisodeTakesGroup: deleteTool !== undefined && declares(deleteTool, 'group_id'),
      };
    });
  }

  /** Whether `delete_episode` takes `group_id` (servers 1.1+), from the tools listed once per session. */
  async deleteEpisodeTakesGroup(signal?: AbortSignal): Promise<boolean> {
    return this.retrying('tools/list', signal, async () => {
      const tool = await this.resolveTool('deleteEpisode', signal);
      return tool !== undefined && declares(tool, 'group_id');
    });
  }

  /**
   * The facts resting on an episode, each with the episodes it names: get_episode_entities lists
   * them (servers on graphiti-core 0.29+; its edges carry no `episodes`), get_entity_edge reads
   * each. Undefined when the server has no get_episode_entities.
   */
  async episodeFacts(uuid: string, groupId: string, signal?: AbortSignal): Promise<Fact[] | undefined> {
    const edges = await this.episodeFactUuids(uuid, groupId, signal);
    if (edges === undefined) return undefined;
    const facts: Fact[] = [];
    for (const edge of edges) {
      const fact = await this.getEntityEdge(edge, groupId, signal);
      if (fact !== undefined) facts.push(fact);
    }
    return facts;
  }

  /**
   * The uuids of the facts an episode that EXISTS rests on (get_episode_entities reads the
   * episode node, so a deleted episode has none, though 0.29.3 and 0.31.1 keep its uuid in the
   * facts' `episodes`). Undefined when the server has no get_episode_entities.
   */
  async episodeFactUuids(uuid: string, groupId: string, signal?: AbortSignal): Promise<string[] | undefined> {
    const [group] = this.safeGroups([groupId]) as [string];
    const edges = await this.retrying('get_episode_entities', signal, async () => {
      const tool = await this.resolveTool('episodeEntities', signal);
      if (tool === undefined) return undefined;
      const payload = await this.call(tool.name, declares(tool, 'group_id') ? { episode_uuids: [uuid], group_id: group } : { episode_uuids: [uuid] }, signal);
      return z.object({ edges: z.array(z.object({ uuid: z.string() }).passthrough()).default([]) }).passthrough().parse(payload).edges;
    });
    return edges?.map((edge) => edge.uuid);
  }

  /**
   * Removes everything of one group (the semantics probe's scratch group, never a user's), where
   * the server's `clear_graph` takes `group_ids`. False, with nothing called, where it does not:
   * such a `clear_graph` would clear whatever it clears by default, which may be everything.
   */
  async clearGroup(groupId: string, signal?: AbortSignal): Promise<boolean> {
    const [group] = this.safeGroups([groupId]) as [string];
    return this.retrying('clear_graph', signal, async () => {
      const tool = await this.resolveTool('clearGraph', signal);
      if (tool === undefined || !declares(tool, 'group_ids')) return false;
      await this.call(tool.name, { group_ids: [group] }, signal);
      return true;
    });
  }

  /** One fact read again by its uuid (the group named where the tool takes it); undefined when the server says it is not found. */
  async getEntityEdge(uuid: string, groupId: string, signal?: AbortSignal): Promise<Fact | undefined> {
    const [group] = this.safeGroups([groupId]) as [string];
    return this.retrying('get_entity_edge', signal, async () => {
      const tool = await this.requireTool('getEntityEdge', signal);
      try {
        return factSchema.parse(await this.call(tool.name, declares(tool, 'group_id') ? { uuid, group_id: group } : { uuid }, signal));
      } catch (error) {
        if (error instanceof McpToolError && /not found/i.test(error.detail)) return undefined;
        throw error;
      }
    });
  }

  /** `onDispatch`: called as each attempt's request is handed to the transport (sync/send-order.ts: the order the queue takes parts in). */
  async addMemory(input: AddMemoryInput, signal?: AbortSignal, onDispatch?: () => void): Promise<{ queued: true; message: string }> {
    const [groupId] = this.safeGroups([input.groupId]) as [string];
    // ADD_ONCE: each add_memory call queues one more episode, so an attempt whose request was
    // handed over and may have been taken (mcp/errors.ts MAY_HAVE_ARRIVED: a reply lost to a
    // reset, a timeout, a reply stream cut short, a proxy's 502/504) is never sent again here: a second copy would
    // be processed too (its facts extracted twice) and stay in the graph until a later sync
    // retires it. The error goes to the caller, and the sync records the part in flight for
    // reconcile to confirm or re-send. Failures before the hand-over (connecting, tools/list)
    // and answers that say it was not taken (503, 429, a lost session) are retried as before.
    let handedOver = false;
    return this.retrying('add_memory', signal, async () => {
      handedOver = false;
      const tool = await this.requireTool('addMemory', signal);
      const args: Record<string, unknown> = {
        name: input.name,
        episode_body: input.episodeBody,
        group_id: groupId,
        source: input.source ?? 'text',
        source_description: input.sourceDescription,
      };
      if (input.referenceTime !== undefined && declares(tool, 'reference_time')) args.reference_time = input.referenceTime;
      const payload = await this.call(tool.name, args, signal, () => {
        handedOver = true;
        onDispatch?.();
      });
      const { message } = messageSchema.parse(payload);
      // "queued" means accepted, not stored: the sync engine confirms through get_episodes.
      if (!/queued|added successfully/i.test(message)) {
        throw new McpProtocolError(`Unexpected add_memory reply: ${message.slice(0, 200)}`);
      }
      return { queued: true, message };
    }, (error) => !(handedOver && mayHaveArrived(error)));
  }

  async getEpisodes(groupIds: string[], maxEpisodes: number, signal?: AbortSignal): Promise<Episode[]> {
    const groups = this.safeGroups(groupIds);
    return this.retrying('get_episodes', signal, async () => {
      const tool = await this.requireTool('getEpisodes', signal);
      const results: Episode[] = [];
      if (declares(tool, 'group_ids') || !declares(tool, 'group_id')) {
        const payload = await this.call(tool.name, { group_ids: groups, max_episodes: maxEpisodes }, signal);
        results.push(...parseEpisodes(payload));
      } else {
        // Pre-v1 servers: get_episodes(group_id, last_n), one group per call, raw list result.
        for (const group of groups) {
          const payload = await this.call(tool.name, { group_id: group, last_n: maxEpisodes }, signal);
          results.push(...parseEpisodes(payload));
        }
      }
      return results;
    });
  }

  /**
   * Deletes one episode of `groupId`. Servers 1.1+ keep each group in its own FalkorDB graph and
   * look the uuid up in their default group's graph unless the call names the group: there, a
   * delete without `group_id` answers "not found" and the episode stays. So the group is always
   * named where the tool declares it.
   */
  async deleteEpisode(uuid: string, groupId: string, signal?: AbortSignal): Promise<{ deleted: boolean; notFound: boolean }> {
    return this.deleteByUuid('deleteEpisode', 'delete_episode', uuid, groupId, signal);
  }

  /** Deletes one fact of `groupId` (the group named where the tool takes it, as for episodes). */
  async deleteEntityEdge(uuid: string, groupId: string, signal?: AbortSignal): Promise<{ deleted: boolean; notFound: boolean }> {
    return this.deleteByUuid('deleteEntityEdge', 'delete_entity_edge', uuid, groupId, signal);
  }

  /** The one delete: by uuid, the group named where the tool declares it, "not found" reported rather than thrown. */
  private async deleteByUuid(operation: 'deleteEpisode' | 'deleteEntityEdge', label: string, uuid: string, groupId: string, signal?: AbortSignal): Promise<{ deleted: boolean; notFound: boolean }> {
    const [group] = this.safeGroups([groupId]) as [string];
    return this.retrying(label, signal, async () => {
      const tool = await this.requireTool(operation, signal);
      try {
        await this.call(tool.name, declares(tool, 'group_id') ? { uuid, group_id: group } : { uuid }, signal);
        return { deleted: true, notFound: false };
      } catch (error) {
        // Already gone is what we wanted; report it without failing.
        if (error instanceof McpToolError && /not found/i.test(error.detail)) return { deleted: false, notFound: true };
        throw error;
      }
    });
  }

  async searchFacts(query: string, groupIds: string[], maxFacts = 20, signal?: AbortSignal): Promise<Fact[]> {
    const groups = this.safeGroups(groupIds);
    const text = escapeSearchQuery(this.config.db, query, groups.length);
    if (text === '') return [];
    return this.retrying('search_memory_facts', signal, async () => {
      const tool = await this.requireTool('searchFacts', signal);
      const payload = await this.call(tool.name, { query: text, group_ids: groups, max_facts: maxFacts }, signal);
      return z.object({ facts: z.array(factSchema).default([]) }).passthrough().parse(payload).facts;
    });
  }

  async searchNodes(query: string, groupIds: string[], maxNodes = 10, signal?: AbortSignal): Promise<EntityNode[]> {
    const groups = this.safeGroups(groupIds);
    const text = escapeSearchQuery(this.config.db, query, groups.length);
    if (text === '') return [];
    return this.retrying('search_nodes', signal, async () => {
      const tool = await this.requireTool('searchNodes', signal);
      const payload = await this.call(tool.name, { query: text, group_ids: groups, max_nodes: maxNodes }, signal);
      return z.object({ nodes: z.array(nodeSchema).default([]) }).passthrough().parse(payload).nodes;
    });
  }

  async close(): Promise<void> {
    await this.mcp.close();
  }

  /** `retryIf`: which retryable errors to try again (default all; add_memory: ADD_ONCE). */
  private retrying<T>(what: string, signal: AbortSignal | undefined, fn: () => Promise<T>, retryIf?: RetryOptions['retryIf']): Promise<T> {
    return withRetry(() => fn(), {
      ...(retryIf === undefined ? {} : { retryIf }),
      retries: this.config.retries,
      deadlineMs: this.config.retryDeadlineMs,
      ...(signal === undefined ? {} : { signal }),
      onRetry: (error, attempt, delayMs) => this.logger.warn('retrying', { call: what, attempt, delayMs, error: error.message }),
    });
  }

  /** Tool discovery, once per MCP session (a new session may be a different server). */
  private async resolveTool(op: Operation, signal?: AbortSignal): Promise<ToolInfo | undefined> {
    await this.mcp.connect(signal);
    if (this.tools === undefined || this.toolsSession !== this.mcp.sessionId) {
      const list = await this.mcp.listTools(signal === undefined ? {} : { signal });
      this.tools = new Map(list.map((t) => [t.name, t]));
      this.toolsSession = this.mcp.sessionId;
    }
    for (const name of TOOL_NAMES[op]) {
      const tool = this.tools.get(name);
      if (tool !== undefined) return tool;
    }
    return undefined;
  }

  /** After a tools/list: throws NotGraphitiError when the listed tools are not Graphiti's (GRAPHITI_SURFACE). */
  private requireGraphiti(): void {
    const message = notGraphitiMessage(this.config.mcpUrl, [...(this.tools?.keys() ?? [])]);
    if (message !== undefined) throw new NotGraphitiError(message);
  }

  private async requireTool(op: Operation, signal?: AbortSignal): Promise<ToolInfo> {
    const tool = await this.resolveTool(op, signal);
    if (tool === undefined) {
      this.requireGraphiti();
      throw new McpProtocolError(`The server offers none of the tools ${TOOL_NAMES[op].join(', ')}; is this a Graphiti MCP server?`);
    }
    return tool;
  }

  /** Calls a tool and returns its payload; `isError` and `{error}` payloads become McpToolError. */
  private async call(tool: string, args: Record<string, unknown>, signal?: AbortSignal, onDispatch?: () => void): Promise<unknown> {
    const result = await this.mcp.callTool(tool, args, { ...(signal === undefined ? {} : { signal }), ...(onDispatch === undefined ? {} : { onDispatch }) });
    const payload = extractPayload(result);
    if (result.isError === true) throw new McpToolError(tool, textOf(result) || JSON.stringify(payload).slice(0, 500));
    if (isRecord(payload) && typeof payload.error === 'string') throw new McpToolError(tool, payload.error);
    return payload;
  }
}

function declares(tool: ToolInfo, parameter: string): boolean {
  return tool.inputSchema.properties !== undefined && Object.prototype.hasOwnProperty.call(tool.inputSchema.properties, parameter);
}

function textOf(result: CallToolResult): string {
  return result.content
    .map((c) => (typeof c.text === 'string' ? c.text : ''))
    .join('\n')
    .trim();
}

function parseJsonOr(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    // FastMCP returns plain strings as text (e.g. pre-v1 "Episode 'x' queued …").
    return { message: text };
  }
}

/**
 * The payload of a tool result: `structuredContent` (unwrapping FastMCP's `{"result": …}`;
 * get_status is bare), else the JSON in the text content. Servers on python mcp 1.9.4 send a
 * returned list as one text item per element.
 */
export function extractPayload(result: CallToolResult): unknown {
  const structured = result.structuredContent;
  if (isRecord(structured)) {
    const keys = Object.keys(structured);
    if (keys.length === 1 && keys[0] === 'result') return structured.result;
    return structured;
  }
  const texts = result.content.filter((c) => c.type === 'text' && typeof c.text === 'string').map((c) => c.text as string);
  if (texts.length === 0) return {};
  if (texts.length === 1) return parseJsonOr(texts[0] as string);
  return texts.map(parseJsonOr);
}

function parseEpisodes(payload: unknown): Episode[] {
  // v1+: {message, episodes: [...]}; pre-v1: a raw list, or a "No episodes found" message.
  const list = Array.isArray(payload) ? payload : isRecord(payload) && Array.isArray(payload.episodes) ? payload.episodes : [];
  return list.map((e) => {
    const parsed = episodeSchema.parse(e);
    return {
      uuid: parsed.uuid,
      name: parsed.name,
      content: parsed.content,
      created_at: parsed.created_at,
      source: parsed.source,
      source_description: parsed.source_description,
      group_id: parsed.group_id,
    };
  });
}
