/**
 * The fast suite's test server (test/support/graphiti-server.ts) set up like a given real
 * generation must answer the same tool calls with the same shapes and literal strings as the real
 * server: no difference is filtered out.
 */
import { McpClient } from '../../src/lib/mcp/client.js';
import { GENERATION_SEMANTICS, type DeleteRemoves } from '../../src/lib/graphiti/semantics.js';
import type { GraphitiGeneration } from '../../src/lib/server/pins.js';
import type { DeleteMode } from '../support/graphiti/options.js';
import { startGraphitiServer, type GraphitiServerOptions } from '../support/graphiti-server.js';
import { eventually } from '../support/real-graphiti.js';

/** The test server's delete rule for each kind of server semantics (graphiti/semantics.ts). */
const DELETE_MODES: Record<DeleteRemoves, DeleteMode> = { 'episode-only': 'node-only', 'facts-first-created': 'cascade', 'facts-unsupported': 'detach' };

/** Test-server options that match a real generation. */
export function fakeOptionsFor(gen: GraphitiGeneration, groupId: string): GraphitiServerOptions {
  return {
    groupId,
    db: 'falkordb',
    deleteMode: DELETE_MODES[GENERATION_SEMANTICS[gen.id]?.deleteRemoves ?? 'facts-first-created'],
    mainParams: gen.id !== '0.28.2',
    graphPerGroup: gen.graphPerGroup,
    serverVersion: gen.mcp.startsWith('1.') ? gen.mcp : '',
    processingDelayMs: 0,
    // The real servers send no `: ping` comment before each reply (only the 15 s keep-alive).
    pingComments: false,
    // python mcp 2.x answers transport errors with "id": null, 1.x with "server-error".
    errorId: gen.mcp.startsWith('1.') ? 'server-error' : null,
  };
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const DATE = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)?/g;

function normalize(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value, (_k, x: unknown) => (typeof x === 'string' ? x.replace(UUID, '<uuid>').replace(DATE, '<date>').replace(/pydantic\.dev\/[\d.]+\//, 'pydantic.dev/<v>/') : x)));
}

type Probe = Record<string, unknown>;

function declaresGroup(tools: Array<{ name: string; inputSchema: { properties?: Record<string, unknown> } }>, name: string): boolean {
  return Object.prototype.hasOwnProperty.call(tools.find((t) => t.name === name)?.inputSchema.properties ?? {}, 'group_id');
}

/** The same conversation with any Graphiti server; `processed` resolves once an episode is visible. */
export async function probeServer(url: string, groupId: string, processed: () => Promise<boolean>): Promise<Probe> {
  const client = new McpClient({ url, transport: 'streamable-http', timeoutMs: 60_000 });
  await client.connect();
  const out: Probe = {};
  const payload = async (name: string, args: Record<string, unknown>) => {
    const r = await client.callTool(name, args);
    return normalize(r.isError === true ? { isError: true, text: r.content.map((c) => c.text).join('') } : (r.structuredContent ?? r.content));
  };
  try {
    out.serverInfo = client.serverInfo;
    const listed = await client.listTools();
    out.tools = listed.map((t) => t.name);
    const add = listed.find((t) => t.name === 'add_memory');
    out.addMemoryParams = Object.keys(add?.inputSchema.properties ?? {});
    // Every tool's parameters, in the server's order, and which are required.
    out.toolParams = Object.fromEntries(listed.map((t) => [t.name, { params: Object.keys(t.inputSchema.properties ?? {}), required: t.inputSchema.required ?? [] }]));
    out.addMemoryRequired = add?.inputSchema.required;
    out.status = await payload('get_status', {});
    out.add = await payload('add_memory', { name: 'Parity note', episode_body: 'Zephyr uses Kafka for the event bus. Kafka feeds Postgres.', group_id: groupId, source: 'text', source_description: 'parity [gms:p]' });
    await eventually('the episode is processed', processed);
    const episodes = (await client.callTool('get_episodes', { group_ids: [groupId], max_episodes: 10 })).structuredContent as { result: { message: string; episodes: Array<Record<string, unknown>> } };
    out.episodes = { message: episodes.result.message, keys: Object.keys(episodes.result.episodes[0] ?? {}), first: normalize({ ...episodes.result.episodes[0], created_at: undefined }) };
    const facts = (await client.callTool('search_memory_facts', { query: 'Zephyr Kafka', group_ids: [groupId], max_facts: 5 })).structuredContent as { result: { message: string; facts: Array<Record<string, unknown>> } };
    out.facts = { message: facts.result.message, keys: Object.keys(facts.result.facts[0] ?? {}) };
    const nodes = (await client.callTool('search_nodes', { query: 'Zephyr', group_ids: [groupId], max_nodes: 5 })).structuredContent as { result: { message: string; nodes: Array<Record<string, unknown>> } };
    out.nodes = { message: nodes.result.message, keys: Object.keys(nodes.result.nodes[0] ?? {}) };
    const none = '00000000-0000-0000-0000-000000000000';
    out.deleteUnknownEpisode = await payload('delete_episode', { uuid: none });
    out.deleteUnknownEdge = await payload('delete_entity_edge', { uuid: none });
    out.getUnknownEdge = await payload('get_entity_edge', { uuid: none });
    out.missingArgument = await payload('add_memory', { name: 'x' });
    out.unknownTool = await payload('no_such_tool', {});
    out.badGroupSearch = await payload('search_memory_facts', { query: 'x', group_ids: ['a.b'] });
    out.noFacts = await payload('search_memory_facts', { query: 'nothingmatcheshere', group_ids: [groupId] });
    const uuid = episodes.result.episodes[0]?.uuid as string;
    const names = new Set(listed.map((t) => t.name));
    if (names.has('get_episode_entities')) {
      out.episodeEntitiesEmpty = await payload('get_episode_entities', { episode_uuids: [] });
      out.episodeEntitiesUnknown = await payload('get_episode_entities', { episode_uuids: [none] });
    }
    if (names.has('summarize_saga')) out.noSaga = await payload('summarize_saga', { saga_name: 'no such saga' });
    if (names.has('build_communities')) {
      // Names and summaries come from the LLM: compare the counts and the shape.
      const built = (await payload('build_communities', { group_ids: [groupId] })) as { result: Record<string, unknown> & { communities?: Array<Record<string, unknown>> } };
      out.communities = { ...built.result, communities: built.result.communities?.map((c) => Object.keys(c)) };
    }
    // 0.31+ keeps each group in its own graph: a delete naming another group does not find ours.
    if (declaresGroup(listed, 'delete_episode')) out.deleteInOtherGroup = await payload('delete_episode', { uuid, group_id: 'parity_elsewhere' });
    out.deleteEpisode = await payload('delete_episode', declaresGroup(listed, 'delete_episode') ? { uuid, group_id: groupId } : { uuid });
    out.afterDelete = await payload('get_episodes', { group_ids: [groupId], max_episodes: 10 });
  } finally {
    await client.close();
  }
  return out;
}

export async function probeFake(gen: GraphitiGeneration, groupId: string): Promise<Probe> {
  const fake = await startGraphitiServer(fakeOptionsFor(gen, groupId));
  try {
    return await probeServer(fake.url, groupId, async () => fake.episodes(groupId).length > 0);
  } finally {
    await fake.close();
  }
}
