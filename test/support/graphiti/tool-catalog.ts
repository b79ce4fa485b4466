/**
 * The nine Graphiti MCP 1.0.2 tools as FastMCP (python mcp 1.26) lists them: names (and the pre-v1
 * ones), descriptions, parameters, and the JSON input/output schemas generated the pydantic way
 * (reference: graphiti-mcp-server.md §2). Argument checks are tool-arguments.ts; the bodies,
 * tool-bodies.ts. What newer servers list beyond these is tool-catalog-main.ts.
 */
import { COMMUNITY_RESULT, EDGE_RESULT, GROUP_SCOPED_TOOLS, MAIN_ONLY_OUTPUTS, MAIN_ONLY_TOOL_SPECS, mainParamsOf, withGroupParam } from './tool-catalog-main.js';

export type CanonicalTool =
  | 'add_memory'
  | 'search_nodes'
  | 'search_memory_facts'
  | 'delete_entity_edge'
  | 'delete_episode'
  | 'get_entity_edge'
  | 'get_episodes'
  | 'clear_graph'
  | 'get_status'
  // Servers with main's tool set only (tool-catalog-main.ts):
  | 'summarize_saga'
  | 'build_communities'
  | 'add_triplet'
  | 'get_episode_entities';

/** Pre-v1 names (`legacyToolNames`). */
export const LEGACY_TOOL_NAMES: Partial<Record<CanonicalTool, string>> = {
  add_memory: 'add_episode',
  search_memory_facts: 'search_facts',
  search_nodes: 'search_memory_nodes',
};

export type ParamKind = 'str' | 'optStr' | 'int' | 'bool' | 'optStrList' | 'strList' | 'optStrOrStrList';
export interface ParamSpec {
  name: string;
  kind: ParamKind;
  /** No default → required. */
  default?: string | number | boolean | null;
  required?: boolean;
}

type OutputKind = 'success' | 'nodes' | 'facts' | 'episodes' | 'fact' | 'status' | keyof typeof MAIN_ONLY_OUTPUTS;

export interface ToolSpec {
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

/**
 * add_memory's parameters after `uuid` on servers with main's parameters (server 1.0.2 at HEAD =
 * graphiti-core 0.29.3, and 1.1.0 = 0.31.1), in the order the real server declares them.
 */
const MAIN_ADD_MEMORY_PARAMS: ParamSpec[] = [
  { name: 'reference_time', kind: 'optStr', default: null },
  { name: 'excluded_entity_types', kind: 'optStrList', default: null },
  { name: 'custom_extraction_instructions', kind: 'optStr', default: null },
  { name: 'previous_episode_uuids', kind: 'optStrList', default: null },
  { name: 'update_communities', kind: 'bool', default: false },
  { name: 'saga', kind: 'optStr', default: null },
  { name: 'saga_previous_episode_uuid', kind: 'optStr', default: null },
];

export interface ToolConfig {
  legacyToolNames: boolean;
  structuredContent: boolean;
  /** main's tool set: add_memory's seven newer parameters and the four tools of tool-catalog-main.ts. */
  mainParams: boolean;
  /** Each group in its own graph (0.31+): the uuid lookups take `group_id`. */
  graphPerGroup: boolean;
  /** clear_graph declares no `group_ids` (options.ts `clearGraphTakesNoGroups`). */
  clearGraphTakesNoGroups?: boolean;
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
  if (spec.name === 'clear_graph' && cfg.clearGraphTakesNoGroups === true) return [];
  if (spec.name === 'add_memory' && cfg.mainParams) return [...spec.params, ...MAIN_ADD_MEMORY_PARAMS];
  const params = cfg.mainParams ? mainParamsOf(spec.name, spec.params) : spec.params;
  return cfg.graphPerGroup && GROUP_SCOPED_TOOLS.has(spec.name) ? withGroupParam(params) : params;
}

/** The tools a server lists, in its order. */
function specsOf(cfg: ToolConfig): ToolSpec[] {
  if (!cfg.mainParams) return TOOL_SPECS;
  const at = TOOL_SPECS.findIndex((s) => s.name === 'clear_graph');
  return [...TOOL_SPECS.slice(0, at), ...MAIN_ONLY_TOOL_SPECS, ...TOOL_SPECS.slice(at)];
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
        : p.kind === 'bool'
          ? { type: 'boolean' }
        : p.kind === 'optStr'
          ? { anyOf: [{ type: 'string' }, { type: 'null' }] }
          : p.kind === 'strList'
            ? { items: { type: 'string' }, type: 'array' }
            : p.kind === 'optStrOrStrList'
              ? { anyOf: [{ type: 'string' }, { items: { type: 'string' }, type: 'array' }, { type: 'null' }] }
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
    saga: MAIN_ONLY_OUTPUTS.saga.slice(0, 2) as [string, Record<string, unknown>],
    communities: MAIN_ONLY_OUTPUTS.communities.slice(0, 2) as [string, Record<string, unknown>],
    triplet: MAIN_ONLY_OUTPUTS.triplet.slice(0, 2) as [string, Record<string, unknown>],
    episodeEntities: MAIN_ONLY_OUTPUTS.episodeEntities.slice(0, 2) as [string, Record<string, unknown>],
  };
  const refersTo: string[] = spec.output === 'nodes' ? ['NodeResult'] : spec.output in MAIN_ONLY_OUTPUTS ? MAIN_ONLY_OUTPUTS[spec.output as keyof typeof MAIN_ONLY_OUTPUTS][2] : [];
  const defs: Record<string, unknown> = { ErrorResponse: ERROR_RESPONSE };
  let ok: Record<string, unknown>;
  const def = okDefs[spec.output];
  if (def) {
    defs[def[0]] = def[1];
    ok = { $ref: `#/$defs/${def[0]}` };
    if (refersTo.includes('EdgeResult')) defs.EdgeResult = EDGE_RESULT;
    if (refersTo.includes('CommunityResult')) defs.CommunityResult = COMMUNITY_RESULT;
    if (refersTo.includes('NodeResult')) {
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
    $defs: Object.fromEntries(Object.entries(defs).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
    properties: { result: { anyOf: [ok, { $ref: '#/$defs/ErrorResponse' }], title: 'Result' } },
    required: ['result'],
    title: `${wire}Output`,
    type: 'object',
  };
}

/** The tools/list entries (no titles or annotations, as FastMCP sends them). */
export function listTools(cfg: ToolConfig): ToolDefinition[] {
  return specsOf(cfg).map((spec) => {
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
  const spec = specsOf(cfg).find((s) => wireName(s.name, cfg) === name);
  return spec ? { spec, params: paramsOf(spec, cfg), wire: name } : undefined;
}
