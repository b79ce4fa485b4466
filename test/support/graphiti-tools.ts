/**
 * The nine Graphiti MCP 1.0.2 tools as FastMCP (python mcp 1.26) exposes them:
 * JSON input schemas generated the pydantic way, argument pre-parsing and
 * validation with pydantic's literal error text, and the tool bodies with
 * Graphiti's literal result strings (reference: graphiti-mcp-server.md §2, §3).
 */
import {
  GROUP_ID_RE,
  invalidGroupIdMessage,
  redisearchSyntaxError,
  type GraphitiStore,
  type StoredEpisode,
  type StoredFact,
  type StoredNode,
} from './graphiti-store.js';

export type CanonicalTool =
  | 'add_memory'
  | 'search_nodes'
  | 'search_memory_facts'
  | 'delete_entity_edge'
  | 'delete_episode'
  | 'get_entity_edge'
  | 'get_episodes'
  | 'clear_graph'
  | 'get_status';

/** Pre-v1 names (`legacyToolNames`). */
export const LEGACY_TOOL_NAMES: Partial<Record<CanonicalTool, string>> = {
  add_memory: 'add_episode',
  search_memory_facts: 'search_facts',
  search_nodes: 'search_memory_nodes',
};

type ParamKind = 'str' | 'optStr' | 'int' | 'optStrList';
interface ParamSpec {
  name: string;
  kind: ParamKind;
  /** No default → required. */
  default?: string | number | null;
  required?: boolean;
}

type OutputKind = 'success' | 'nodes' | 'facts' | 'episodes' | 'fact' | 'status';

interface ToolSpec {
  name: CanonicalTool;
  description: string;
  params: ParamSpec[];
  output: OutputKind;
}

const TOOL_SPECS: ToolSpec[] = [
  {
    name: 'add_memory',
    description:
      'Add an episode to memory. This is the primary way to add information to the graph.\n\n' +
      'This function returns immediately and processes the episode addition in the background.\n' +
      'Episodes for the same group_id are processed sequentially to avoid race conditions.',
    params: [
      { name: 'name', kind: 'str', required: true },
      { name: 'episode_body', kind: 'str', required: true },
      { name: 'group_id', kind: 'optStr', default: null },
      { name: 'source', kind: 'str', default: 'text' },
      { name: 'source_description', kind: 'str', default: '' },
      { name: 'uuid', kind: 'optStr', default: null },
    ],
    output: 'success',
  },
  {
    name: 'search_nodes',
    description: 'Search for nodes in the graph memory.',
    params: [
      { name: 'query', kind: 'str', required: true },
      { name: 'group_ids', kind: 'optStrList', default: null },
      { name: 'max_nodes', kind: 'int', default: 10 },
      { name: 'entity_types', kind: 'optStrList', default: null },
    ],
    output: 'nodes',
  },
  {
    name: 'search_memory_facts',
    description: 'Search the graph memory for relevant facts.',
    params: [
      { name: 'query', kind: 'str', required: true },
      { name: 'group_ids', kind: 'optStrList', default: null },
      { name: 'max_facts', kind: 'int', default: 10 },
      { name: 'center_node_uuid', kind: 'optStr', default: null },
    ],
    output: 'facts',
  },
  {
    name: 'delete_entity_edge',
    description: 'Delete an entity edge from the graph memory.',
    params: [{ name: 'uuid', kind: 'str', required: true }],
    output: 'success',
  },
  {
    name: 'delete_episode',
    description: 'Delete an episode from the graph memory.',
    params: [{ name: 'uuid', kind: 'str', required: true }],
    output: 'success',
  },
  {
    name: 'get_entity_edge',
    description: 'Get an entity edge from the graph memory by its UUID.',
    params: [{ name: 'uuid', kind: 'str', required: true }],
    output: 'fact',
  },
  {
    name: 'get_episodes',
    description: 'Get episodes from the graph memory.',
    params: [
      { name: 'group_ids', kind: 'optStrList', default: null },
      { name: 'max_episodes', kind: 'int', default: 10 },
    ],
    output: 'episodes',
  },
  {
    name: 'clear_graph',
    description: 'Clear all data from the graph for specified group IDs.',
    params: [{ name: 'group_ids', kind: 'optStrList', default: null }],
    output: 'success',
  },
  {
    name: 'get_status',
    description: 'Get the status of the Graphiti MCP server and database connection.',
    params: [],
    output: 'status',
  },
];

const REFERENCE_TIME: ParamSpec = { name: 'reference_time', kind: 'optStr', default: null };

export interface ToolConfig {
  legacyToolNames: boolean;
  structuredContent: boolean;
  mainParams: boolean;
}

export interface ToolDefinition {
  name: string;
  description: string;
  inputSchema: Record<string, unknown> & { type: 'object' };
  outputSchema?: Record<string, unknown> & { type: 'object' };
}

function wireName(tool: CanonicalTool, cfg: ToolConfig): string {
  return (cfg.legacyToolNames ? LEGACY_TOOL_NAMES[tool] : undefined) ?? tool;
}

function paramsOf(spec: ToolSpec, cfg: ToolConfig): ParamSpec[] {
  return spec.name === 'add_memory' && cfg.mainParams ? [...spec.params, REFERENCE_TIME] : spec.params;
}

/** pydantic's default field title: `episode_body` → `Episode Body`. */
function title(name: string): string {
  return name
    .split('_')
    .map((w) => (w === '' ? w : w[0]!.toUpperCase() + w.slice(1)))
    .join(' ');
}

function paramSchema(p: ParamSpec): Record<string, unknown> {
  const base: Record<string, unknown> =
    p.kind === 'str'
      ? { type: 'string' }
      : p.kind === 'int'
        ? { type: 'integer' }
        : p.kind === 'optStr'
          ? { anyOf: [{ type: 'string' }, { type: 'null' }] }
          : { anyOf: [{ items: { type: 'string' }, type: 'array' }, { type: 'null' }] };
  const out: Record<string, unknown> = { ...base };
  if (!p.required) out.default = p.default ?? null;
  out.title = title(p.name);
  // pydantic emits keys sorted as anyOf/default/title/type; keep that order.
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

const ERROR_RESPONSE = {
  properties: { error: { title: 'Error', type: 'string' } },
  required: ['error'],
  title: 'ErrorResponse',
  type: 'object',
};

function outputSchema(spec: ToolSpec, wire: string): Record<string, unknown> & { type: 'object' } {
  if (spec.output === 'status') {
    return {
      properties: { status: { title: 'Status', type: 'string' }, message: { title: 'Message', type: 'string' } },
      required: ['status', 'message'],
      title: 'StatusResponse',
      type: 'object',
    };
  }
  const okDefs: Record<OutputKind, [string, Record<string, unknown>] | undefined> = {
    success: ['SuccessResponse', { properties: { message: { title: 'Message', type: 'string' } }, required: ['message'], title: 'SuccessResponse', type: 'object' }],
    nodes: [
      'NodeSearchResponse',
      {
        properties: { message: { title: 'Message', type: 'string' }, nodes: { items: { $ref: '#/$defs/NodeResult' }, title: 'Nodes', type: 'array' } },
        required: ['message', 'nodes'],
        title: 'NodeSearchResponse',
        type: 'object',
      },
    ],
    facts: [
      'FactSearchResponse',
      {
        properties: { message: { title: 'Message', type: 'string' }, facts: { items: { additionalProperties: true, type: 'object' }, title: 'Facts', type: 'array' } },
        required: ['message', 'facts'],
        title: 'FactSearchResponse',
        type: 'object',
      },
    ],
    episodes: [
      'EpisodeSearchResponse',
      {
        properties: { message: { title: 'Message', type: 'string' }, episodes: { items: { additionalProperties: true, type: 'object' }, title: 'Episodes', type: 'array' } },
        required: ['message', 'episodes'],
        title: 'EpisodeSearchResponse',
        type: 'object',
      },
    ],
    fact: undefined,
    status: undefined,
  };
  const defs: Record<string, unknown> = { ErrorResponse: ERROR_RESPONSE };
  let ok: Record<string, unknown>;
  const def = okDefs[spec.output];
  if (def) {
    defs[def[0]] = def[1];
    ok = { $ref: `#/$defs/${def[0]}` };
    if (spec.output === 'nodes') {
      defs.NodeResult = {
        properties: {
          uuid: { title: 'Uuid', type: 'string' },
          name: { title: 'Name', type: 'string' },
          labels: { items: { type: 'string' }, title: 'Labels', type: 'array' },
          created_at: { anyOf: [{ type: 'string' }, { type: 'null' }], title: 'Created At' },
          summary: { anyOf: [{ type: 'string' }, { type: 'null' }], title: 'Summary' },
          group_id: { title: 'Group Id', type: 'string' },
          attributes: { additionalProperties: true, title: 'Attributes', type: 'object' },
        },
        required: ['uuid', 'name', 'labels', 'created_at', 'summary', 'group_id', 'attributes'],
        title: 'NodeResult',
        type: 'object',
      };
    }
  } else {
    ok = { additionalProperties: true, type: 'object' };
  }
  return {
    $defs: defs,
    properties: { result: { anyOf: [ok, { $ref: '#/$defs/ErrorResponse' }], title: 'Result' } },
    required: ['result'],
    title: `${wire}Output`,
    type: 'object',
  };
}

/** The tools/list entries (no titles or annotations, as FastMCP sends them). */
export function listTools(cfg: ToolConfig): ToolDefinition[] {
  return TOOL_SPECS.map((spec) => {
    const wire = wireName(spec.name, cfg);
    const params = paramsOf(spec, cfg);
    const inputSchema: Record<string, unknown> & { type: 'object' } = {
      properties: Object.fromEntries(params.map((p) => [p.name, paramSchema(p)])),
      ...(params.some((p) => p.required) ? { required: params.filter((p) => p.required).map((p) => p.name) } : {}),
      title: `${wire}Arguments`,
      type: 'object',
    };
    const def: ToolDefinition = { name: wire, description: spec.description, inputSchema };
    if (cfg.structuredContent) def.outputSchema = outputSchema(spec, wire);
    return def;
  });
}

export function findTool(name: string, cfg: ToolConfig): { spec: ToolSpec; params: ParamSpec[]; wire: string } | undefined {
  const spec = TOOL_SPECS.find((s) => wireName(s.name, cfg) === name);
  return spec ? { spec, params: paramsOf(spec, cfg), wire: name } : undefined;
}

// ------------------------------------------------------------- validation

/** Python `repr()` of a JSON value, as pydantic prints `input_value`. */
export function pyRepr(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : String(value);
  if (typeof value === 'string') {
    const useDouble = value.includes("'") && !value.includes('"');
    const q = useDouble ? '"' : "'";
    const body = value
      .replace(/\\/g, '\\\\')
      .replace(/\n/g, '\\n')
      .replace(/\r/g, '\\r')
      .replace(/\t/g, '\\t')
      .replace(useDouble ? /(?!)/g : /'/g, "\\'");
    return `${q}${body}${q}`;
  }
  if (Array.isArray(value)) return `[${value.map(pyRepr).join(', ')}]`;
  if (typeof value === 'object') {
    return `{${Object.entries(value as Record<string, unknown>)
      .map(([k, v]) => `${pyRepr(k)}: ${pyRepr(v)}`)
      .join(', ')}}`;
  }
  return String(value);
}

function pyType(value: unknown): string {
  if (value === null || value === undefined) return 'NoneType';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'float';
  if (typeof value === 'string') return 'str';
  if (Array.isArray(value)) return 'list';
  return 'dict';
}

/** pydantic-core shortens long reprs to the first 25 and last 24 characters. */
function truncateRepr(repr: string): string {
  return repr.length > 50 ? `${repr.slice(0, 25)}...${repr.slice(-24)}` : repr;
}

interface LineError {
  loc: string;
  msg: string;
  type: string;
  input: unknown;
}

const PYDANTIC_DOCS = 'https://errors.pydantic.dev/2.11/v';

export function formatValidationError(model: string, errors: LineError[]): string {
  const head = `${errors.length} validation error${errors.length === 1 ? '' : 's'} for ${model}`;
  const lines = errors.map(
    (e) =>
      `${e.loc}\n  ${e.msg} [type=${e.type}, input_value=${truncateRepr(pyRepr(e.input))}, input_type=${pyType(e.input)}]\n` +
      `    For further information visit ${PYDANTIC_DOCS}/${e.type}`,
  );
  return [head, ...lines].join('\n');
}

/**
 * FastMCP's `pre_parse_json`: a string given for a parameter not annotated as
 * plain `str` is json-decoded, unless it decodes to a str/int/float (bools are
 * ints in Python, so "true" stays a string too).
 */
function preParse(kind: ParamKind, value: unknown): unknown {
  if (kind === 'str' || typeof value !== 'string') return value;
  try {
    const parsed: unknown = JSON.parse(value);
    if (typeof parsed === 'string' || typeof parsed === 'number' || typeof parsed === 'boolean') return value;
    return parsed;
  } catch {
    return value;
  }
}

function validateParam(p: ParamSpec, value: unknown, errors: LineError[]): unknown {
  switch (p.kind) {
    case 'str':
      if (typeof value === 'string') return value;
      errors.push({ loc: p.name, msg: 'Input should be a valid string', type: 'string_type', input: value });
      return undefined;
    case 'optStr':
      if (value === null || typeof value === 'string') return value;
      errors.push({ loc: p.name, msg: 'Input should be a valid string', type: 'string_type', input: value });
      return undefined;
    case 'int': {
      if (typeof value === 'boolean') return value ? 1 : 0;
      if (typeof value === 'number') {
        if (Number.isInteger(value)) return value;
        errors.push({ loc: p.name, msg: 'Input should be a valid integer, got a number with a fractional part', type: 'int_from_float', input: value });
        return undefined;
      }
      if (typeof value === 'string') {
        if (/^\s*[-+]?\d+\s*$/.test(value)) return Number.parseInt(value, 10);
        errors.push({ loc: p.name, msg: 'Input should be a valid integer, unable to parse string as an integer', type: 'int_parsing', input: value });
        return undefined;
      }
      errors.push({ loc: p.name, msg: 'Input should be a valid integer', type: 'int_type', input: value });
      return undefined;
    }
    case 'optStrList': {
      if (value === null) return null;
      if (!Array.isArray(value)) {
        errors.push({ loc: p.name, msg: 'Input should be a valid list', type: 'list_type', input: value });
        return undefined;
      }
      value.forEach((item, i) => {
        if (typeof item !== 'string') errors.push({ loc: `${p.name}.${i}`, msg: 'Input should be a valid string', type: 'string_type', input: item });
      });
      return value;
    }
  }
}

export type ValidatedArgs = Record<string, unknown>;

/** Returns validated arguments (defaults applied, unknown keys dropped) or the FastMCP error text. */
export function validateArguments(
  tool: { params: ParamSpec[]; wire: string },
  args: Record<string, unknown>,
): { ok: true; args: ValidatedArgs } | { ok: false; message: string } {
  const errors: LineError[] = [];
  const out: ValidatedArgs = {};
  for (const p of tool.params) {
    if (!(p.name in args)) {
      if (p.required) errors.push({ loc: p.name, msg: 'Field required', type: 'missing', input: args });
      else out[p.name] = p.default ?? null;
      continue;
    }
    out[p.name] = validateParam(p, preParse(p.kind, args[p.name]), errors);
  }
  if (errors.length > 0) {
    return { ok: false, message: `Error executing tool ${tool.wire}: ${formatValidationError(`${tool.wire}Arguments`, errors)}` };
  }
  return { ok: true, args: out };
}

// -------------------------------------------------------------- execution

export interface ExecContext {
  store: GraphitiStore;
  groupId: string;
  db: 'neo4j' | 'falkordb';
  deleteMode: 'node-only' | 'cascade';
  mainParams: boolean;
  statusError: boolean | string;
  /** Consumes one "not initialized" answer if any are left. */
  takeStartupError: () => boolean;
  /** Decides (deterministically) whether the worker will silently drop this episode. */
  decideDrop: () => boolean;
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

function effectiveGroups(groupIds: unknown, configured: string): string[] {
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
      store.enqueue({
        name: a.name as string,
        body: a.episode_body as string,
        groupId,
        source: EPISODE_TYPES.has(source) ? source : 'text',
        sourceDescription: (a.source_description as string) ?? '',
        uuid,
        referenceTime,
        drop: ctx.decideDrop(),
      });
      return { message: `Episode '${a.name as string}' queued for processing in group '${groupId}'` };
    }
    case 'search_nodes': {
      const groups = effectiveGroups(a.group_ids, ctx.groupId);
      const err = searchGroupError(groups, ctx.db);
      if (err) return { error: `Error searching nodes: ${err}` };
      const nodes = store.searchNodes(a.query as string, groups, a.max_nodes as number, (a.entity_types as string[] | null) ?? null);
      if (nodes.length === 0) return { message: 'No relevant nodes found', nodes: [] };
      return { message: 'Nodes retrieved successfully', nodes: nodes.map(nodeResult) };
    }
    case 'search_memory_facts': {
      if ((a.max_facts as number) <= 0) return { error: 'max_facts must be a positive integer' };
      const groups = effectiveGroups(a.group_ids, ctx.groupId);
      const err = searchGroupError(groups, ctx.db);
      if (err) return { error: `Error searching facts: ${err}` };
      const facts = store.searchFacts(a.query as string, groups, a.max_facts as number);
      if (facts.length === 0) return { message: 'No relevant facts found', facts: [] };
      return { message: 'Facts retrieved successfully', facts: facts.map((f) => factResult(f, ctx.mainParams)) };
    }
    case 'delete_entity_edge': {
      const uuid = a.uuid as string;
      if (!store.facts.delete(uuid)) return { error: `Error deleting entity edge: edge ${uuid} not found` };
      return { message: `Entity edge with UUID ${uuid} deleted successfully` };
    }
    case 'delete_episode': {
      const uuid = a.uuid as string;
      if (!store.deleteEpisode(uuid, ctx.deleteMode)) return { error: `Error deleting episode: node ${uuid} not found` };
      return { message: `Episode with UUID ${uuid} deleted successfully` };
    }
    case 'get_entity_edge': {
      const uuid = a.uuid as string;
      const fact = store.facts.get(uuid);
      if (!fact) return { error: `Error getting entity edge: edge ${uuid} not found` };
      return factResult({ ...fact, episodes: [...fact.episodes] }, ctx.mainParams);
    }
    case 'get_episodes': {
      const groups = effectiveGroups(a.group_ids, ctx.groupId);
      const episodes = groups.length > 0 ? store.getEpisodes(groups, a.max_episodes as number) : [];
      if (episodes.length === 0) return { message: 'No episodes found', episodes: [] };
      return { message: 'Episodes retrieved successfully', episodes: episodes.map(episodeResult) };
    }
    case 'clear_graph': {
      // `group_ids or [configured]`: an empty list also falls back.
      const given = a.group_ids as string[] | null;
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
