/**
 * The Graphiti layer against the Graphiti-shaped test server in each of its release shapes:
 * what the caller sees for result encodings, {error} payloads, older tool names, optional
 * parameters and escaping.
 */
import { Agent, globalAgent } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildConfig } from '../../src/lib/config/config.js';
import { GroupIdError } from '../../src/lib/graphiti/escape.js';
import { GraphitiClient } from '../../src/lib/graphiti/graphiti.js';
import { McpNetworkError, McpProtocolError, McpToolError } from '../../src/lib/mcp/errors.js';
import { sharedIdleLimitedAgent } from '../../src/lib/util/keep-alive.js';
import { mcpHandler, result, sse, sseHeaders, startServer } from '../mcp/fake-server.js';
import { startGraphitiServer, type GraphitiServerOptions, type GraphitiTestServer } from '../support/graphiti-server.js';

let server: GraphitiTestServer | undefined;
let client: GraphitiClient | undefined;

afterEach(async () => {
  vi.restoreAllMocks();
  await client?.close();
  await server?.close();
  client = undefined;
  server = undefined;
});

async function setup(options: GraphitiServerOptions = {}, env: Record<string, string> = {}): Promise<{ s: GraphitiTestServer; g: GraphitiClient }> {
  server = await startGraphitiServer({ processingDelayMs: 0, ...options });
  const config = buildConfig({ HOME: '/nonexistent', MADEINOZ_KNOWLEDGE_MCP_URL: server.url, MADEINOZ_KNOWLEDGE_RETRIES: '2', MADEINOZ_KNOWLEDGE_RETRY_DEADLINE: '5000', ...env });
  client = new GraphitiClient(config);
  return { s: server, g: client };
}

const memory = { name: 'Note', episodeBody: 'Alice decided to use Postgres.', groupId: 'main', sourceDescription: 'test [gms:0123456789abcdef:0123456789ab:1/1]', referenceTime: '2026-01-04T18:30:00.000Z' };

describe('GraphitiClient', () => {
  it('reads a bare get_status and wrapped structuredContent results (Graphiti 1.0.2)', async () => {
    const { s, g } = await setup();
    expect(await g.getStatus()).toEqual({ status: 'ok', message: 'Graphiti MCP server is running and connected to neo4j database' });
    const queued = await g.addMemory(memory);
    expect(queued.message).toBe("Episode 'Note' queued for processing in group 'main'");
    await s.whenIdle();
    const episodes = await g.getEpisodes(['main'], 50);
    expect(episodes).toHaveLength(1);
    expect(episodes[0]).toMatchObject({ name: 'Note', group_id: 'main', source: 'text' });
    expect(await g.deleteEpisode(episodes[0]?.uuid as string, 'main')).toEqual({ deleted: true, notFound: false });
    expect(await g.deleteEpisode(episodes[0]?.uuid as string, 'main')).toEqual({ deleted: false, notFound: true });
  });

  it('deleteEpisode names the group where delete_episode takes one (1.1.0 keeps each group in its own graph)', async () => {
    const { s, g } = await setup({ groupId: 'main', mainParams: true, graphPerGroup: true, db: 'falkordb' }, { MADEINOZ_KNOWLEDGE_DB: 'falkordb' });
    await g.addMemory({ ...memory, groupId: 'team-notes' });
    await s.whenIdle();
    const [episode] = await g.getEpisodes(['team-notes'], 10);
    // Without the group the server looks in its default group's graph and finds nothing there.
    const blind = await g.client.callTool('delete_episode', { uuid: episode?.uuid });
    expect(JSON.stringify(blind.structuredContent)).toContain('not found');
    expect(await g.deleteEpisode(episode?.uuid as string, 'team-notes')).toEqual({ deleted: true, notFound: false });
    expect(s.calls.filter((c) => c.tool === 'delete_episode').at(-1)?.args).toEqual({ uuid: episode?.uuid, group_id: 'team_notes' });
    expect(await g.getEpisodes(['team-notes'], 10)).toEqual([]);
  });

  it('sends reference_time only to servers whose add_memory declares it', async () => {
    const old = await setup();
    await old.g.addMemory(memory);
    expect(old.s.calls.find((c) => c.tool === 'add_memory')?.args).not.toHaveProperty('reference_time');
    await client?.close();
    await server?.close();
    const main = await setup({ mainParams: true });
    await main.g.addMemory(memory);
    expect(main.s.calls.find((c) => c.tool === 'add_memory')?.args.reference_time).toBe('2026-01-04T18:30:00.000Z');
  });

  it('works with text-only results (python mcp 1.9.4, no structuredContent)', async () => {
    const { s, g } = await setup({ structuredContent: false });
    await g.addMemory(memory);
    await s.whenIdle();
    expect(await g.getEpisodes(['main'], 10)).toHaveLength(1);
    expect((await g.getStatus()).status).toBe('ok');
  });

  it('maps the older tool names (add_episode, search_facts, search_memory_nodes)', async () => {
    const { s, g } = await setup({ legacyToolNames: true });
    await g.addMemory(memory);
    expect(s.calls.map((c) => c.tool)).toContain('add_episode');
    s.seedFact({ fact: 'Alice decided to use Postgres', name: 'DECIDED' });
    s.seedNode({ name: 'Postgres', summary: 'database' });
    expect((await g.searchFacts('Postgres', ['main'])).map((f) => f.fact)).toContain('Alice decided to use Postgres');
    expect((await g.searchNodes('Postgres', ['main'])).map((n) => n.name)).toContain('Postgres');
    expect(s.calls.map((c) => c.tool)).toEqual(expect.arrayContaining(['search_facts', 'search_memory_nodes']));
  });

  it('treats an {error} payload as a failure, never a success, and retries "not initialized"', async () => {
    const { s, g } = await setup({ startupErrors: 2 });
    const status = await g.addMemory(memory);
    expect(status.queued).toBe(true);
    expect(s.calls.filter((c) => c.tool === 'add_memory').map((c) => c.outcome)).toEqual(['error', 'error', 'ok']);
    s.failNext('queueError', 1);
    await expect(g.addMemory(memory)).rejects.toBeInstanceOf(McpToolError);
    await expect(g.addMemory(memory)).resolves.toMatchObject({ queued: true });
  });

  it('add_memory tells the caller as each attempt is handed to the transport (the order its queue takes it in, sync/send-order.ts)', async () => {
    const { s, g } = await setup({ startupErrors: 2 });
    const handedOver: number[] = [];
    await g.addMemory(memory, undefined, () => void handedOver.push(s.calls.filter((c) => c.tool === 'add_memory').length));
    // Three attempts (two "not initialized", then queued), each handed over before the server saw it.
    expect(handedOver).toEqual([0, 1, 2]);
  });

  describe('a pause past the server\'s keep-alive (util/keep-alive.ts IDLE_REUSE)', () => {
    /** Resolves once the client's connection is back in its pool (the last reply fully read); Node's global agent was the pool before IDLE_REUSE. */
    const pooled = () =>
      new Promise<void>((resolve) => {
        const free = () => [sharedIdleLimitedAgent(Agent), globalAgent].some((agent) => Object.values(agent.freeSockets).some((sockets) => (sockets?.length ?? 0) > 0));
        const check = () => (free() ? resolve() : setImmediate(check));
        check();
      });

    it('an add_memory after 5 s with the event loop busy (no idle timer ran on either side) reaches the server once, with its reply', async () => {
      // Both sides' clock: the client's idle judgement and the server's (uvicorn's 5 s, options.ts keepAlive).
      const real = performance.now.bind(performance);
      let busy = 0;
      vi.spyOn(performance, 'now').mockImplementation(() => real() + busy);
      const { s, g } = await setup();
      await expect(g.addMemory(memory)).resolves.toMatchObject({ queued: true });
      await pooled();
      busy += 5_000;
      // Before: the connection was used again, the server's close crossed it, and the reply was lost
      // (MAY_HAVE_ARRIVED: the part would wait in flight for reconcile).
      await expect(g.addMemory({ ...memory, name: 'Second' })).resolves.toMatchObject({ queued: true });
      expect(s.keepAliveResets).toBe(0);
      await s.whenIdle();
      expect(s.calls.filter((c) => c.tool === 'add_memory')).toHaveLength(2);
      expect((await g.getEpisodes(['main'], 10)).map((e) => e.name).sort()).toEqual(['Note', 'Second']);
    });
  });

  describe('add_memory is never sent twice by its own retries (ADD_ONCE: each call queues one more episode)', () => {
    const adds = (s: GraphitiTestServer) => s.calls.filter((c) => c.tool === 'add_memory');

    it('a reply lost after the server queued the episode: the error reaches the caller, sent once, one episode', async () => {
      const { s, g } = await setup();
      s.failNext('lostReply', 1);
      await expect(g.addMemory(memory)).rejects.toBeInstanceOf(McpNetworkError);
      await s.whenIdle();
      expect(adds(s)).toHaveLength(1);
      expect(await g.getEpisodes(['main'], 10)).toHaveLength(1);
    });

    it.each(['forwarded502', 'forwarded504'] as const)('a proxy that forwarded the request, then answered %s (the server queued it): the error reaches the caller, sent once, one episode', async (kind) => {
      const { s, g } = await setup();
      s.failNext(kind, 1);
      await expect(g.addMemory(memory)).rejects.toMatchObject({ status: kind === 'forwarded502' ? 502 : 504 });
      await s.whenIdle();
      expect(adds(s)).toHaveLength(1);
      expect(await g.getEpisodes(['main'], 10)).toHaveLength(1);
    });

    it('a proxy\'s 502 for every other request is still retried (get_episodes is only read)', async () => {
      const { s, g } = await setup();
      await g.addMemory(memory);
      await s.whenIdle();
      s.failNext('http502', 1);
      await expect(g.getEpisodes(['main'], 10)).resolves.toHaveLength(1);
      expect(s.calls.filter((c) => c.tool === 'get_episodes')).toHaveLength(2);
    });

    it('answers that say it was not taken (503, a lost session, "not initialized") are still retried: queued once', async () => {
      const { s, g } = await setup({ startupErrors: 1 });
      s.failNext('http503', 1);
      await expect(g.addMemory(memory)).resolves.toMatchObject({ queued: true });
      s.failNext('sessionLoss', 1);
      await expect(g.addMemory({ ...memory, name: 'Second' })).resolves.toMatchObject({ queued: true });
      await s.whenIdle();
      expect((await g.getEpisodes(['main'], 10)).map((e) => e.name).sort()).toEqual(['Note', 'Second']);
    });

    it('a reply stream the server ends before its response (it had the request): sent once', async () => {
      const addMemoryTool = { name: 'add_memory', description: 'Add', inputSchema: { type: 'object', properties: { name: { type: 'string' } } } };
      const fake = await startServer(
        mcpHandler({
          reply: 'sse',
          on: {
            'tools/list': (req, res) => {
              sseHeaders(res);
              res.end(sse(result(req.json.id, { tools: [addMemoryTool] })));
              return true;
            },
            'tools/call': (_req, res) => {
              // The stream opens (200, text/event-stream) and closes cleanly with no event: no id to resume from.
              sseHeaders(res);
              res.end();
              return true;
            },
          },
        }),
      );
      try {
        const config = buildConfig({ HOME: '/nonexistent', MADEINOZ_KNOWLEDGE_MCP_URL: `${fake.origin}/mcp`, MADEINOZ_KNOWLEDGE_RETRIES: '2', MADEINOZ_KNOWLEDGE_RETRY_DEADLINE: '5000' });
        client = new GraphitiClient(config);
        await expect(client.addMemory(memory)).rejects.toBeInstanceOf(McpProtocolError);
        expect(fake.rpc('tools/call')).toHaveLength(1);
      } finally {
        await client?.close();
        client = undefined;
        await fake.close();
      }
    });
  });

  it('reports a database error from get_status as status "error"', async () => {
    const { g } = await setup({ statusError: true });
    expect((await g.getStatus()).status).toBe('error');
  });

  it('escapes group ids and search text for FalkorDB and validates them for Neo4j', async () => {
    const falkor = await setup({ db: 'falkordb' }, { MADEINOZ_KNOWLEDGE_DB: 'falkordb' });
    await falkor.g.addMemory({ ...memory, groupId: 'my-project.notes' });
    expect(falkor.s.calls.find((c) => c.tool === 'add_memory')?.args.group_id).toBe('my_project_notes');
    falkor.s.seedFact({ fact: 'Uses RediSearch', group_id: 'my_project_notes' });
    await falkor.g.searchFacts('RediSearch: (syntax) "test"', ['my-project.notes']);
    const search = falkor.s.calls.find((c) => c.tool === 'search_memory_facts');
    expect(search?.args.group_ids).toEqual(['my_project_notes']);
    expect(String(search?.args.query)).not.toMatch(/[:()"]/);
    await client?.close();
    await server?.close();
    const neo = await setup();
    await expect(neo.g.addMemory({ ...memory, groupId: 'bad group' })).rejects.toBeInstanceOf(GroupIdError);
    expect(neo.s.calls.filter((c) => c.tool === 'add_memory')).toHaveLength(0);
  });

  it('sends search text within graphiti\'s word limit for the database and the number of groups', async () => {
    const long = Array.from({ length: 300 }, (_, i) => `word${i}`).join(' ');
    const falkor = await setup({ db: 'falkordb' }, { MADEINOZ_KNOWLEDGE_DB: 'falkordb' });
    await falkor.g.searchFacts(long, ['main']);
    await falkor.g.searchNodes(long, ['main', 'other']);
    const words = (tool: string) => String(server?.calls.find((c) => c.tool === tool)?.args.query).split(' ').length;
    expect(words('search_memory_facts')).toBe(63); // FalkorDB: 2·words − 1 + groups < 128
    expect(words('search_nodes')).toBe(63);
    await client?.close();
    await server?.close();
    const neo = await setup();
    await neo.g.searchFacts(long, ['main', 'other']);
    expect(words('search_memory_facts')).toBe(125); // Neo4j: words + groups < 128
  });

  it('finds episodes in the uuid-DESC order Graphiti returns, up to the cap asked for', async () => {
    const { s, g } = await setup();
    for (let i = 0; i < 5; i++) await g.addMemory({ ...memory, name: `N${i}` });
    await s.whenIdle();
    const two = await g.getEpisodes(['main'], 2);
    expect(two).toHaveLength(2);
    const all = await g.getEpisodes(['main'], 100);
    expect(all.map((e) => e.uuid)).toEqual([...all.map((e) => e.uuid)].sort().reverse());
  });
});
