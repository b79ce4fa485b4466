/**
 * Another program's MCP server at Graphiti's address (graphiti.ts GRAPHITI_SURFACE): a user's own
 * FastMCP project started on port 8000 while Graphiti is stopped. Before, its tool list (no
 * get_episode_entities) named it graphiti-core 0.28.2, `status` said "Server: ok", and the sync
 * ended with exit 1 and "a send that failed", naming neither the cause nor the next step.
 */
import { rmSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkHealth } from '../../src/lib/graphiti/health.js';
import { runSync } from '../../src/lib/sync/sync.js';
import { nullLogger } from '../../src/lib/util/log.js';
import type { GraphitiTestServer } from '../support/graphiti-server.js';
import { startOtherMcpServer } from '../support/other-mcp-server.js';
import { learning, type Sandbox } from '../support/sandbox.js';
import { useServerAndSandbox } from '../helpers/use-server-and-sandbox.js';

let server: GraphitiTestServer;
let box: Sandbox;
useServerAndSandbox((s, b) => {
  server = s;
  box = b;
});

describe('another MCP server at Graphiti\'s address', () => {
  it('the sync stops and says so (nothing sent, nothing deleted, nothing forgotten); health says it is not Graphiti; once Graphiti is back the edit and the deletion go through', async () => {
    const config = box.config();
    box.pai('LEARNING/2026-07/a.md', learning('Auk cache', 'Auk uses Redis for caching.'));
    const b = box.pai('LEARNING/2026-07/b.md', learning('Bittern queue', 'Bittern publishes orders to RabbitMQ.'));
    expect(await runSync(config, { waitMs: 10_000 })).toMatchObject({ added: 2, confirmed: 2 });
    await server.stop({ keepState: true });

    // Another project's MCP server, with a tool of the same name as one of Graphiti's and one of its own.
    const other = await startOtherMcpServer(server.port, ['search', 'get_status']);
    try {
      box.pai('LEARNING/2026-07/a.md', learning('Auk cache', 'Auk uses Redis for caching. Auk evicts keys after an hour.'));
      rmSync(b);
      const error = await runSync(config).catch((e: unknown) => e);
      expect((error as Error).message).toMatch(/is not a Graphiti MCP server: it offers none of add_memory, get_episodes, delete_episode, search_memory_facts \(its tools: search, get_status\)/);
      expect((error as Error).message).toMatch(/set MADEINOZ_KNOWLEDGE_MCP_URL/);
      const health = await checkHealth(config, nullLogger);
      expect(health).toMatchObject({ ok: false, message: expect.stringContaining('is not a Graphiti MCP server') });
      expect(other.calls).toEqual([]); // not even its get_status: its tools are not Graphiti's
    } finally {
      await other.close();
    }

    await server.start();
    expect(await runSync(config, { waitMs: 10_000 })).toMatchObject({ failed: 0, pending: 0, queued: 0 });
    await server.whenIdle();
    expect(server.episodes().map((e) => [e.name, e.content.includes('evicts')])).toEqual([['Auk cache', true]]);
  });
});
