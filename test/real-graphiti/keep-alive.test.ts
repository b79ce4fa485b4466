/**
 * The real server's keep-alive against our client (util/keep-alive.ts IDLE_REUSE): uvicorn, under
 * every Graphiti generation, closes a connection 5 s after its last reply and says so in no
 * header. An add_memory made once that close has happened, on a client whose event loop was busy
 * all along (so no timer of ours ran, and the server's FIN was not read yet), must go out on a new
 * connection: before IDLE_REUSE it went on the old one and was reset, a lost reply every time
 * (measured 4 in 4). The 5 s is the server's real idle time, waited for once; nothing is
 * synchronized on it (the client is blocked through it and past it).
 */
import { Agent, globalAgent } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GraphitiClient } from '../../src/lib/graphiti/graphiti.js';
import { sharedIdleLimitedAgent } from '../../src/lib/util/keep-alive.js';
import { eventually, startRealGraphiti, type RealGraphiti } from '../support/real-graphiti.js';
import { makeSandbox, type Sandbox } from '../support/sandbox.js';

const GENERATION = process.env.GMS_KEEP_ALIVE_GENERATION ?? '0.31.2';
const GROUP = 'gms_keep_alive';
/** uvicorn's `timeout_keep_alive` (0.34.3's default; no generation sets it) and a margin over it. */
const SERVER_IDLE_MS = 5_000;
const BUSY_MS = SERVER_IDLE_MS + 300;

/** Resolves once the client's connection is back in its pool; Node's global agent was the pool before IDLE_REUSE. */
function pooled(): Promise<void> {
  return new Promise((resolve) => {
    const free = () => [sharedIdleLimitedAgent(Agent), globalAgent].some((agent) => Object.values(agent.freeSockets).some((sockets) => (sockets?.length ?? 0) > 0));
    const check = () => (free() ? resolve() : setImmediate(check));
    check();
  });
}

describe(`kept-alive connections: real Graphiti ${GENERATION} (uvicorn closes them after 5 s)`, () => {
  let real: RealGraphiti;
  let box: Sandbox;

  beforeAll(async () => {
    real = await startRealGraphiti({ generation: GENERATION, transport: 'http', groupId: GROUP });
    box = makeSandbox(real.url, { MADEINOZ_KNOWLEDGE_DB: 'falkordb', MADEINOZ_KNOWLEDGE_GROUP_ID: GROUP, MADEINOZ_KNOWLEDGE_TIMEOUT: '30000', MADEINOZ_KNOWLEDGE_RETRY_DEADLINE: '30000' });
  }, 600_000);

  afterAll(async () => {
    await real?.stop();
    box?.cleanup();
  }, 60_000);

  it('an add_memory after the server closed the idle connection, with our event loop busy throughout, reaches the server once with its reply', async () => {
    const client = new GraphitiClient(box.config());
    const note = { groupId: GROUP, sourceDescription: 'keep-alive test', referenceTime: '2026-12-07T00:00:00.000Z' };
    try {
      await expect(client.addMemory({ ...note, name: 'Before the pause', episodeBody: 'Aurora calls Basalt before the pause.' })).resolves.toMatchObject({ queued: true });
      await pooled();
      const until = performance.now() + BUSY_MS;
      while (performance.now() < until) {
        // busy: neither our agent's idle timer nor the server's FIN is handled until this ends
      }
      await expect(client.addMemory({ ...note, name: 'After the pause', episodeBody: 'Basalt answers Aurora after the pause.' })).resolves.toMatchObject({ queued: true });
      await eventually('both episodes in the graph', async () => (await real.episodeNames(GROUP)).length >= 2, 120_000);
      expect(await real.episodeNames(GROUP)).toEqual(['After the pause', 'Before the pause']);
    } finally {
      await client.close();
    }
  });
});
