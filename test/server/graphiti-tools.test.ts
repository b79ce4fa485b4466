/**
 * The test server's tools answer with Graphiti MCP 1.0.2's literal strings and
 * FastMCP's result shapes (reference: graphiti-mcp-server.md §2–§3).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startGraphitiServer, type GraphitiTestServer } from '../support/graphiti-server.js';
import { RawSession } from '../helpers/raw-mcp.js';

let server: GraphitiTestServer;
let s: RawSession;

beforeAll(async () => {
  server = await startGraphitiServer({ processingDelayMs: 0 });
  s = await RawSession.open(server.url);
});
afterAll(async () => {
  await server.close();
});
afterEach(() => {
  server.setOptions({
    structuredContent: true,
    legacyToolNames: false,
    mainParams: false,
    statusError: false,
    db: 'neo4j',
    startupErrors: 0,
    deleteMode: 'node-only',
    graphPerGroup: false,
  });
});

describe('tools/list', () => {
  it('lists the 9 v1 tools with FastMCP-shaped input schemas', async () => {
    const { msg } = await s.rpc('tools/list');
    const tools = (msg!.result as { tools: Array<Record<string, unknown>> }).tools;
    expect(tools.map((t) => t.name)).toEqual([
      'add_memory',
      'search_nodes',
      'search_memory_facts',
      'delete_entity_edge',
      'delete_episode',
      'get_entity_edge',
      'get_episodes',
      'clear_graph',
      'get_status',
    ]);
    const add = tools[0]!;
    expect(add.inputSchema).toEqual({
      properties: {
        name: { title: 'Name', type: 'string' },
        episode_body: { title: 'Episode Body', type: 'string' },
        group_id: { anyOf: [{ type: 'string' }, { type: 'null' }], default: null, title: 'Group Id' },
        source: { default: 'text', title: 'Source', type: 'string' },
        source_description: { default: '', title: 'Source Description', type: 'string' },
        uuid: { anyOf: [{ type: 'string' }, { type: 'null' }], default: null, title: 'Uuid' },
      },
      required: ['name', 'episode_body'],
      title: 'add_memoryArguments',
      type: 'object',
    });
    expect(add).not.toHaveProperty('annotations');
    expect(add).not.toHaveProperty('title');
    expect((add.outputSchema as { required: string[] }).required).toEqual(['result']);
    const status = tools.find((t) => t.name === 'get_status')!;
    expect((status.outputSchema as { title: string }).title).toBe('StatusResponse');
  });

  it('legacyToolNames: pre-v1 names', async () => {
    server.setOptions({ legacyToolNames: true });
    const { msg } = await s.rpc('tools/list');
    const names = (msg!.result as { tools: Array<{ name: string }> }).tools.map((t) => t.name);
    expect(names).toContain('add_episode');
    expect(names).toContain('search_facts');
    expect(names).toContain('search_memory_nodes');
    expect(names).not.toContain('add_memory');
    const r = await s.call('add_episode', { name: 'L', episode_body: 'legacy body text' });
    expect(JSON.parse(r.content[0]!.text)).toEqual({ message: "Episode 'L' queued for processing in group 'main'" });
    const unknown = await s.call('add_memory', { name: 'x', episode_body: 'y' });
    expect(unknown).toEqual({ content: [{ type: 'text', text: 'Unknown tool: add_memory' }], isError: true });
  });

  it('structuredContent:false: text only, no outputSchema', async () => {
    server.setOptions({ structuredContent: false });
    const { msg } = await s.rpc('tools/list');
    expect((msg!.result as { tools: Array<Record<string, unknown>> }).tools[0]).not.toHaveProperty('outputSchema');
    const r = await s.call('get_status');
    expect(r).toEqual({
      content: [{ type: 'text', text: '{\n  "status": "ok",\n  "message": "Graphiti MCP server is running and connected to neo4j database"\n}' }],
      isError: false,
    });
  });
});

describe('add_memory / get_episodes / delete_episode', () => {
  it('queues at once; the exact FastMCP result', async () => {
    const r = await s.call('add_memory', { name: 'Doc A', episode_body: 'Alpha beta gamma.', group_id: 'g_add' });
    expect(r).toEqual({
      content: [{ type: 'text', text: "{\n  \"message\": \"Episode 'Doc A' queued for processing in group 'g_add'\"\n}" }],
      structuredContent: { result: { message: "Episode 'Doc A' queued for processing in group 'g_add'" } },
      isError: false,
    });
  });

  it('null/empty group_id falls back to the configured group; unknown args ignored', async () => {
    expect(await s.payload('add_memory', { name: 'n1', episode_body: 'b', group_id: null, bogus: 1 })).toEqual({
      message: "Episode 'n1' queued for processing in group 'main'",
    });
    expect(await s.payload('add_memory', { name: 'n2', episode_body: 'b', group_id: '' })).toEqual({
      message: "Episode 'n2' queued for processing in group 'main'",
    });
  });

  it('get_episodes: 7 fields, uuid DESC, capped; empty message', async () => {
    for (let i = 0; i < 5; i += 1) await s.call('add_memory', { name: `E${i}`, episode_body: `Body number ${i} here.`, group_id: 'g_list', source: 'JSON' });
    await server.whenIdle();
    const p = await s.payload('get_episodes', { group_ids: ['g_list'], max_episodes: 3 });
    expect(p.message).toBe('Episodes retrieved successfully');
    const eps = p.episodes as Array<Record<string, unknown>>;
    expect(eps).toHaveLength(3);
    expect(Object.keys(eps[0]!)).toEqual(['uuid', 'name', 'content', 'created_at', 'source', 'source_description', 'group_id']);
    expect(eps[0]!.source).toBe('json');
    const all = server.episodes('g_list').map((e) => e.uuid);
    expect(eps.map((e) => e.uuid)).toEqual([...all].sort().reverse().slice(0, 3));
    expect(eps[0]!.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}\+00:00$/);
    expect(await s.payload('get_episodes', { group_ids: ['nothing_here'] })).toEqual({ message: 'No episodes found', episodes: [] });
  });

  it('JSON-string arguments are decoded for non-str parameters', async () => {
    const p = await s.payload('get_episodes', { group_ids: '["g_list"]', max_episodes: '2' });
    expect((p.episodes as unknown[]).length).toBe(2);
  });

  it('delete_episode: literal success and not-found strings', async () => {
    await s.call('add_memory', { name: 'Del', episode_body: 'To be deleted soon.', group_id: 'g_del' });
    await server.whenIdle();
    const uuid = server.episodes('g_del')[0]!.uuid;
    expect(await s.payload('delete_episode', { uuid })).toEqual({ message: `Episode with UUID ${uuid} deleted successfully` });
    const again = await s.call('delete_episode', { uuid });
    expect(again.isError).toBe(false);
    expect(JSON.parse(again.content[0]!.text)).toEqual({ error: `Error deleting episode: node ${uuid} not found` });
    expect(again.structuredContent).toEqual({ result: { error: `Error deleting episode: node ${uuid} not found` } });
  });

  it('node-only delete keeps facts; cascade removes the facts it created', async () => {
    await s.call('add_memory', { name: 'Casc', episode_body: 'Zebra stripes are unique.', group_id: 'g_casc' });
    await server.whenIdle();
    const ep = server.episodes('g_casc')[0]!;
    await s.call('delete_episode', { uuid: ep.uuid });
    expect(server.facts('g_casc').some((f) => f.episodes.includes(ep.uuid))).toBe(true);

    server.setOptions({ deleteMode: 'cascade' });
    await s.call('add_memory', { name: 'Casc2', episode_body: 'Okapi are shy animals.', group_id: 'g_casc' });
    await server.whenIdle();
    const ep2 = server.episodes('g_casc').find((e) => e.name === 'Casc2')!;
    expect(server.facts('g_casc').some((f) => f.episodes[0] === ep2.uuid)).toBe(true);
    await s.call('delete_episode', { uuid: ep2.uuid });
    expect(server.facts('g_casc').some((f) => f.episodes[0] === ep2.uuid)).toBe(false);
    expect(server.nodes('g_casc').some((n) => n.name === 'Casc2')).toBe(false);
  });

  it('an entity summary folds in every episode that mentions it and keeps a deleted episode\'s text, cascade or not (as the real server does)', async () => {
    server.setOptions({ deleteMode: 'cascade' });
    await s.call('add_memory', { name: 'Tapir one', episode_body: 'Tapir herds live in Borneo.', group_id: 'g_sum' });
    await server.whenIdle();
    await s.call('add_memory', { name: 'Tapir two', episode_body: 'Tapir calves eat fruit.', group_id: 'g_sum' });
    await server.whenIdle();
    const tapir = () => server.nodes('g_sum').find((n) => n.name === 'Tapir');
    expect(tapir()?.summary).toBe('Tapir herds live in Borneo.\nTapir calves eat fruit.');
    const first = server.episodes('g_sum').find((e) => e.name === 'Tapir one')!;
    await s.call('delete_episode', { uuid: first.uuid });
    expect(server.facts('g_sum').some((f) => f.fact.includes('Borneo'))).toBe(false);
    expect(tapir()?.summary).toContain('Borneo');
  });

  it('mainParams: add_memory declares the seven newer parameters in the real order, update_communities a boolean', async () => {
    server.setOptions({ mainParams: true });
    const { msg } = await s.rpc('tools/list');
    const add = (msg!.result as { tools: Array<{ name: string; inputSchema: { properties: Record<string, unknown> } }> }).tools[0]!;
    expect(Object.keys(add.inputSchema.properties)).toEqual([
      'name', 'episode_body', 'group_id', 'source', 'source_description', 'uuid',
      'reference_time', 'excluded_entity_types', 'custom_extraction_instructions', 'previous_episode_uuids', 'update_communities', 'saga', 'saga_previous_episode_uuid',
    ]);
    expect(add.inputSchema.properties.update_communities).toEqual({ default: false, title: 'Update Communities', type: 'boolean' });
  });

  it('mainParams: reference_time in the schema, validated', async () => {
    server.setOptions({ mainParams: true });
    const { msg } = await s.rpc('tools/list');
    const add = (msg!.result as { tools: Array<{ name: string; inputSchema: { properties: Record<string, unknown> } }> }).tools[0]!;
    expect(add.inputSchema.properties.reference_time).toEqual({ anyOf: [{ type: 'string' }, { type: 'null' }], default: null, title: 'Reference Time' });
    expect(await s.payload('add_memory', { name: 'R', episode_body: 'b', reference_time: 'yesterday' })).toEqual({
      error: "Invalid reference_time: Invalid isoformat string: 'yesterday'",
    });
    expect(await s.payload('add_memory', { name: 'R', episode_body: 'Rome was founded early.', group_id: 'g_ref', reference_time: '2024-01-02T03:04:05Z' })).toEqual({
      message: "Episode 'R' queued for processing in group 'g_ref'",
    });
    await server.whenIdle();
    expect(server.facts('g_ref')[0]!.valid_at).toBe('2024-01-02T03:04:05.000000+00:00');
    // Newer graphiti-core (0.29+, the servers with these parameters) adds reference_time to facts.
    const found = (await s.payload('search_memory_facts', { query: 'Rome', group_ids: ['g_ref'] })) as { facts: Array<Record<string, unknown>> };
    expect(Object.keys(found.facts[0]!).slice(-2)).toEqual(['reference_time', 'attributes']);
    expect(found.facts[0]!.reference_time).toBe('2024-01-02T03:04:05.000000+00:00');
  });

  it('without mainParams reference_time is silently ignored', async () => {
    expect(await s.payload('add_memory', { name: 'R2', episode_body: 'b', reference_time: 'garbage' })).toEqual({
      message: "Episode 'R2' queued for processing in group 'main'",
    });
  });
});

describe('validation and errors', () => {
  it('missing required field: pydantic text, isError true', async () => {
    const r = await s.call('add_memory', { name: 'x' });
    expect(r.isError).toBe(true);
    expect(r.structuredContent).toBeUndefined();
    expect(r.content[0]!.text).toBe(
      'Error executing tool add_memory: 1 validation error for add_memoryArguments\n' +
        'episode_body\n' +
        "  Field required [type=missing, input_value={'name': 'x'}, input_type=dict]\n" +
        '    For further information visit https://errors.pydantic.dev/2.11/v/missing',
    );
  });

  it('wrong type: Input should be a valid string; two errors counted', async () => {
    const r = await s.call('add_memory', { episode_body: { a: 1 } });
    expect(r.isError).toBe(true);
    expect(r.content[0]!.text).toContain('2 validation errors for add_memoryArguments');
    expect(r.content[0]!.text).toContain("episode_body\n  Input should be a valid string [type=string_type, input_value={'a': 1}, input_type=dict]");
  });

  it('unknown tool', async () => {
    expect(await s.call('nope', {})).toEqual({ content: [{ type: 'text', text: 'Unknown tool: nope' }], isError: true });
  });

  it('startupErrors: first N calls are "not initialized"', async () => {
    server.setOptions({ startupErrors: 3 });
    expect(await s.payload('add_memory', { name: 'a', episode_body: 'b' })).toEqual({ error: 'Services not initialized' });
    expect(await s.payload('get_episodes', {})).toEqual({ error: 'Graphiti service not initialized' });
    expect(await s.payload('get_status', {})).toEqual({ status: 'error', message: 'Graphiti service not initialized' });
    expect((await s.payload('get_status', {})).status).toBe('ok');
  });
});

describe('get_status / clear_graph / facts / nodes', () => {
  it('get_status: bare structuredContent; falkordb; error variant', async () => {
    const r = await s.call('get_status');
    expect(r.structuredContent).toEqual({ status: 'ok', message: 'Graphiti MCP server is running and connected to neo4j database' });
    server.setOptions({ db: 'falkordb' });
    expect((await s.payload('get_status')).message).toBe('Graphiti MCP server is running and connected to falkordb database');
    server.setOptions({ statusError: 'boom' });
    expect(await s.payload('get_status')).toEqual({ status: 'error', message: 'Graphiti MCP server is running but database connection failed: boom' });
  });

  it('search_memory_facts: facts shape, term match, cap, empty, max_facts check', async () => {
    await s.call('add_memory', {
      name: 'Kitchen',
      episode_body: '# Kitchen\n- The Oven runs hot on Tuesdays.\n- Salt goes in the blue jar.\n- The Oven timer is broken.',
      group_id: 'g_facts',
    });
    await server.whenIdle();
    const p = await s.payload('search_memory_facts', { query: 'oven', group_ids: ['g_facts'], max_facts: 1 });
    expect(p.message).toBe('Facts retrieved successfully');
    const facts = p.facts as Array<Record<string, unknown>>;
    expect(facts).toHaveLength(1);
    expect(Object.keys(facts[0]!)).toEqual([
      'uuid',
      'group_id',
      'source_node_uuid',
      'target_node_uuid',
      'created_at',
      'name',
      'fact',
      'episodes',
      'expired_at',
      'valid_at',
      'invalid_at',
      'attributes',
    ]);
    expect(String(facts[0]!.fact)).toMatch(/oven/i);
    expect(facts[0]!.episodes).toEqual([server.episodes('g_facts')[0]!.uuid]);
    expect(await s.payload('search_memory_facts', { query: 'xylophone', group_ids: ['g_facts'] })).toEqual({ message: 'No relevant facts found', facts: [] });
    expect(await s.payload('search_memory_facts', { query: 'oven', max_facts: 0 })).toEqual({ error: 'max_facts must be a positive integer' });
    const edge = facts[0]!;
    expect(await s.payload('get_entity_edge', { uuid: edge.uuid })).toEqual(edge);
    const r = await s.call('get_entity_edge', { uuid: edge.uuid });
    expect(r.structuredContent).toEqual({ result: edge });
    expect(await s.payload('delete_entity_edge', { uuid: edge.uuid })).toEqual({ message: `Entity edge with UUID ${String(edge.uuid)} deleted successfully` });
    expect(await s.payload('delete_entity_edge', { uuid: edge.uuid })).toEqual({ error: `Error deleting entity edge: edge ${String(edge.uuid)} not found` });
    expect(await s.payload('get_entity_edge', { uuid: edge.uuid })).toEqual({ error: `Error getting entity edge: edge ${String(edge.uuid)} not found` });
  });

  it('search_nodes: node shape; seeded and expired facts are returned as stored', async () => {
    server.seedNode({ name: 'Quasar', summary: 'A distant bright object', group_id: 'g_seed' });
    const expired = server.seedFact({ fact: 'Quasar was a planet', group_id: 'g_seed', expired_at: '2024-01-01T00:00:00+00:00' });
    const p = await s.payload('search_nodes', { query: 'quasar', group_ids: ['g_seed'] });
    expect(p.message).toBe('Nodes retrieved successfully');
    const node = (p.nodes as Array<Record<string, unknown>>)[0]!;
    expect(Object.keys(node)).toEqual(['uuid', 'name', 'labels', 'created_at', 'summary', 'group_id', 'attributes']);
    expect(node).toMatchObject({ name: 'Quasar', labels: ['Entity'], summary: 'A distant bright object', group_id: 'g_seed', attributes: {} });
    const f = await s.payload('search_memory_facts', { query: 'quasar planet', group_ids: ['g_seed'] });
    expect((f.facts as Array<Record<string, unknown>>)[0]).toMatchObject({ uuid: expired.uuid, expired_at: '2024-01-01T00:00:00+00:00' });
    expect(await s.payload('search_nodes', { query: 'nothing', group_ids: ['g_seed'] })).toEqual({ message: 'No relevant nodes found', nodes: [] });
  });

  it('search: invalid group id and falkordb hyphen errors', async () => {
    expect(await s.payload('search_nodes', { query: 'x', group_ids: ['a.b'] })).toEqual({
      error: 'Error searching nodes: group_id "a.b" must contain only alphanumeric characters, dashes, or underscores',
    });
    expect((await s.payload('search_nodes', { query: 'x', group_ids: ['acpt-probe'] })).message).toBe('No relevant nodes found');
    server.setOptions({ db: 'falkordb' });
    expect(await s.payload('search_nodes', { query: 'x', group_ids: ['acpt-probe'] })).toEqual({
      error: 'Error searching nodes: RediSearch: Syntax error at offset 16 near acpt',
    });
    expect(await s.payload('search_memory_facts', { query: 'x', group_ids: ['vt-firmware'] })).toEqual({
      error: 'Error searching facts: RediSearch: Syntax error at offset 14 near vt',
    });
  });

  it('clear_graph: literal message; data of those groups gone', async () => {
    server.seedEpisode({ name: 'c1', content: 'x', group_id: 'g_c1' });
    server.seedEpisode({ name: 'c2', content: 'x', group_id: 'g_c2' });
    expect(await s.payload('clear_graph', { group_ids: ['g_c1', 'g_c2'] })).toEqual({ message: 'Graph data cleared successfully for group IDs: g_c1, g_c2' });
    expect(server.episodes('g_c1')).toEqual([]);
    expect(await s.payload('clear_graph', {})).toEqual({ message: 'Graph data cleared successfully for group IDs: main' });
  });
});

describe("main's tool set (servers 1.0.2 at HEAD and 1.1.0)", () => {
  it('lists the four newer tools in the real order, with wider group_ids and the newer search parameters', async () => {
    server.setOptions({ mainParams: true });
    const { msg } = await s.rpc('tools/list');
    const tools = (msg!.result as { tools: Array<{ name: string; inputSchema: { properties: Record<string, unknown>; required?: string[] } }> }).tools;
    expect(tools.map((t) => t.name)).toEqual([
      'add_memory', 'search_nodes', 'search_memory_facts', 'delete_entity_edge', 'delete_episode', 'get_entity_edge', 'get_episodes',
      'summarize_saga', 'build_communities', 'add_triplet', 'get_episode_entities', 'clear_graph', 'get_status',
    ]);
    const facts = tools.find((t) => t.name === 'search_memory_facts')!;
    expect(Object.keys(facts.inputSchema.properties)).toEqual(['query', 'group_ids', 'max_facts', 'center_node_uuid', 'edge_types', 'valid_at_after', 'valid_at_before', 'invalid_at_after', 'invalid_at_before']);
    expect(facts.inputSchema.properties.group_ids).toMatchObject({ anyOf: [{ type: 'string' }, { type: 'array' }, { type: 'null' }] });
    expect(tools.find((t) => t.name === 'get_episode_entities')!.inputSchema.required).toEqual(['episode_uuids']);
    expect(Object.keys(tools.find((t) => t.name === 'delete_episode')!.inputSchema.properties)).toEqual(['uuid']);
  });

  it('add_triplet writes two entities and a fact; get_episode_entities traces what an episode produced; build_communities clusters them', async () => {
    server.setOptions({ mainParams: true });
    const t = await s.payload('add_triplet', { source_node_name: 'Alice', edge_name: 'USES', fact: 'Alice uses Postgres', target_node_name: 'Postgres', group_id: 'g_main' });
    expect(t.message).toBe("Triplet 'Alice -[USES]-> Postgres' added");
    expect((t.nodes as Array<{ name: string }>).map((n) => n.name)).toEqual(['Alice', 'Postgres']);
    expect(Object.keys((t.edges as object[])[0]!)).toEqual(['uuid', 'name', 'fact', 'source_node_uuid', 'target_node_uuid', 'group_id', 'created_at', 'valid_at', 'invalid_at']);
    await s.call('add_memory', { name: 'Zephyr', episode_body: 'Zephyr uses Kafka for the event bus. Kafka feeds Postgres.', group_id: 'g_main' });
    await server.whenIdle();
    const [episode] = server.episodes('g_main');
    const traced = await s.payload('get_episode_entities', { episode_uuids: [episode!.uuid] });
    expect(traced.message).toBe('Retrieved provenance for 1 episode(s)');
    expect((traced.edges as Array<{ fact: string }>).map((e) => e.fact)).toContain('Kafka feeds Postgres.');
    expect(await s.payload('get_episode_entities', { episode_uuids: [] })).toEqual({ error: 'episode_uuids must contain at least one UUID' });
    const built = await s.payload('build_communities', { group_ids: 'g_main' });
    expect(built.community_count).toBeGreaterThan(0);
    expect(built.message).toBe(`Built ${built.community_count as number} communities`);
    expect(await s.payload('summarize_saga', { saga_name: 'x', group_id: 'g_main' })).toEqual({ error: "No saga named 'x' found in group 'g_main'" });
  });

  it('graphPerGroup (1.1.0): the uuid lookups take group_id and see only that group (else the configured one)', async () => {
    server.setOptions({ mainParams: true, graphPerGroup: true });
    await s.call('add_memory', { name: 'Scoped', episode_body: 'Scoped body.', group_id: 'g_scoped' });
    await server.whenIdle();
    const [episode] = server.episodes('g_scoped');
    expect(await s.payload('delete_episode', { uuid: episode!.uuid })).toEqual({ error: `Error deleting episode: node ${episode!.uuid} not found` });
    expect(await s.payload('delete_episode', { uuid: episode!.uuid, group_id: 'g_scoped' })).toEqual({ message: `Episode with UUID ${episode!.uuid} deleted successfully` });
    server.setOptions({ graphPerGroup: false });
  });
});
