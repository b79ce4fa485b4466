/**
 * What servers with main's tool set list beyond the nine 1.0.2 tools (graphiti-core 0.29.3 =
 * server 1.0.2 at HEAD, and 0.31.1 = server 1.1.0), as the real servers listed them (dumped from
 * both with tools/list): four more tools, wider `group_ids` and more search parameters, and on 0.31+ (`graphPerGroup`) a `group_id` on the
 * tools that look a uuid up, because each group lives in its own FalkorDB graph there.
 *
 * The bodies (tool-bodies.ts) are simple but shaped like the real ones: add_triplet writes two
 * entities and a fact, get_episode_entities answers from the fake's provenance, build_communities
 * makes one community per connected cluster of entities (named after its first member; the real
 * server asks the LLM for names and summaries) and summarize_saga finds no saga (the fake accepts add_memory's `saga` and keeps none). The product
 * calls none of the four; they are here so tools/list matches the real server's.
 */
import type { ParamSpec, ToolSpec } from './tool-catalog.js';

const GROUP_ID: ParamSpec = { name: 'group_id', kind: 'optStr', default: null };

/** Listed after get_episodes and before clear_graph, in this order. */
export const MAIN_ONLY_TOOL_SPECS: ToolSpec[] = [
  {
    name: 'summarize_saga',
    description: 'Summarize a saga: an ordered group of related episodes.',
    params: [{ name: 'saga_name', kind: 'str', required: true }, GROUP_ID],
    output: 'saga',
  },
  {
    name: 'build_communities',
    description: "Detect and build community summaries over the graph's entities.",
    params: [{ name: 'group_ids', kind: 'optStrOrStrList', default: null }],
    output: 'communities',
  },
  {
    name: 'add_triplet',
    description: 'Directly add a single fact triplet (source entity -> fact -> target entity).',
    params: [
      { name: 'source_node_name', kind: 'str', required: true },
      { name: 'edge_name', kind: 'str', required: true },
      { name: 'fact', kind: 'str', required: true },
      { name: 'target_node_name', kind: 'str', required: true },
      GROUP_ID,
      { name: 'source_node_uuid', kind: 'optStr', default: null },
      { name: 'target_node_uuid', kind: 'optStr', default: null },
    ],
    output: 'triplet',
  },
  {
    name: 'get_episode_entities',
    description: 'Get the entities (nodes) and facts (edges) created by specific episodes.',
    params: [{ name: 'episode_uuids', kind: 'strList', required: true }],
    output: 'episodeEntities',
  },
];

/**
 * main's changes to four of the nine: `group_ids` also takes one string (`coerce_group_ids`), and
 * the searches take more parameters (declared here; the fake's searches do not filter by them).
 */
export function mainParamsOf(tool: string, params: ParamSpec[]): ParamSpec[] {
  const widened = params.map((p): ParamSpec => (p.name === 'group_ids' ? { ...p, kind: 'optStrOrStrList' } : p));
  if (tool === 'search_nodes') return [...widened, { name: 'center_node_uuid', kind: 'optStr', default: null }];
  if (tool === 'search_memory_facts') {
    return [
      ...widened,
      { name: 'edge_types', kind: 'optStrList', default: null },
      ...['valid_at_after', 'valid_at_before', 'invalid_at_after', 'invalid_at_before'].map((name): ParamSpec => ({ name, kind: 'optStr', default: null })),
    ];
  }
  return widened;
}

/** The tools that take `group_id` (after their own parameters) on servers with a graph per group. */
export const GROUP_SCOPED_TOOLS: ReadonlySet<string> = new Set(['delete_entity_edge', 'delete_episode', 'get_entity_edge', 'get_episode_entities']);

export function withGroupParam(params: ParamSpec[]): ParamSpec[] {
  return params.some((p) => p.name === 'group_id') ? params : [...params, GROUP_ID];
}

const OPT_STR = { anyOf: [{ type: 'string' }, { type: 'null' }] };

export const EDGE_RESULT = {
  properties: {
    uuid: { title: 'Uuid', type: 'string' },
    name: { title: 'Name', type: 'string' },
    fact: { title: 'Fact', type: 'string' },
    source_node_uuid: { title: 'Source Node Uuid', type: 'string' },
    target_node_uuid: { title: 'Target Node Uuid', type: 'string' },
    group_id: { title: 'Group Id', type: 'string' },
    created_at: { ...OPT_STR, title: 'Created At' },
    valid_at: { ...OPT_STR, title: 'Valid At' },
    invalid_at: { ...OPT_STR, title: 'Invalid At' },
  },
  required: ['uuid', 'name', 'fact', 'source_node_uuid', 'target_node_uuid', 'group_id', 'created_at', 'valid_at', 'invalid_at'],
  title: 'EdgeResult',
  type: 'object',
};

export const COMMUNITY_RESULT = {
  properties: {
    uuid: { title: 'Uuid', type: 'string' },
    name: { title: 'Name', type: 'string' },
    group_id: { title: 'Group Id', type: 'string' },
    summary: { ...OPT_STR, title: 'Summary' },
  },
  required: ['uuid', 'name', 'group_id', 'summary'],
  title: 'CommunityResult',
  type: 'object',
};

const MESSAGE = { title: 'Message', type: 'string' };
const NODES = { items: { $ref: '#/$defs/NodeResult' }, title: 'Nodes', type: 'array' };
const EDGES = { items: { $ref: '#/$defs/EdgeResult' }, title: 'Edges', type: 'array' };

/** The success models of the four tools: [name, schema, the other $defs they refer to]. */
export const MAIN_ONLY_OUTPUTS: Record<'saga' | 'communities' | 'triplet' | 'episodeEntities', [string, Record<string, unknown>, string[]]> = {
  saga: [
    'SagaSummaryResponse',
    {
      properties: { message: MESSAGE, uuid: { title: 'Uuid', type: 'string' }, name: { title: 'Name', type: 'string' }, summary: { title: 'Summary', type: 'string' } },
      required: ['message', 'uuid', 'name', 'summary'],
      title: 'SagaSummaryResponse',
      type: 'object',
    },
    [],
  ],
  communities: [
    'BuildCommunitiesResponse',
    {
      properties: {
        message: MESSAGE,
        community_count: { title: 'Community Count', type: 'integer' },
        edge_count: { title: 'Edge Count', type: 'integer' },
        communities: { items: { $ref: '#/$defs/CommunityResult' }, title: 'Communities', type: 'array' },
      },
      required: ['message', 'community_count', 'edge_count', 'communities'],
      title: 'BuildCommunitiesResponse',
      type: 'object',
    },
    ['CommunityResult'],
  ],
  triplet: ['TripletResponse', { properties: { message: MESSAGE, nodes: NODES, edges: EDGES }, required: ['message', 'nodes', 'edges'], title: 'TripletResponse', type: 'object' }, ['NodeResult', 'EdgeResult']],
  episodeEntities: [
    'EpisodeEntitiesResponse',
    { properties: { message: MESSAGE, nodes: NODES, edges: EDGES }, required: ['message', 'nodes', 'edges'], title: 'EpisodeEntitiesResponse', type: 'object' },
    ['NodeResult', 'EdgeResult'],
  ],
};
