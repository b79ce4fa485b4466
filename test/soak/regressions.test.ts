/**
 * Regressions for the bugs the soak and the SSE properties found, each as a small
 * deterministic case against the Graphiti-shaped test server:
 * - the MCP client sent requests WITHOUT a session id after a lost session (FastMCP answers
 *   400 "Missing session ID", not retryable): forever after a re-initialize that failed once,
 *   and for any request issued while another request's re-initialize was in flight;
 * - retired (superseded or deleted) parts that were never sent stayed in the state forever,
 *   so every later run needed the server and every `--wait` waited its full time;
 * - after a revert (A → B → A while A's old episode was still to be deleted) or a re-created
 *   file, the engine adopted the old episode for the current part and then deleted it as
 *   retired: the content was gone from the graph while the state said "confirmed".
 */
import { rmSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { McpClient } from '../../src/lib/mcp/client.js';
import { loadState } from '../../src/lib/state/state.js';
import { runSync } from '../../src/lib/sync/sync.js';
import type { GraphitiTestServer, HttpLog } from '../support/graphiti-server.js';
import { learning, type Sandbox } from '../support/sandbox.js';
import { useServerAndSandbox } from '../helpers/use-server-and-sandbox.js';

let server: GraphitiTestServer;
let box: Sandbox;

useServerAndSandbox((s, b) => {
  server = s;
  box = b;
});

const stateOf = async () => (await loadState(box.env.MADEINOZ_KNOWLEDGE_STATE_DIR as string, { readOnly: true })).state;
const sessionless = () => server.http.filter((h) => h.method === 'POST' && h.rpcMethod === 'tools/call' && h.headers['mcp-session-id'] === undefined);

describe('MCP client: never a request without a session after a lost session', () => {
  it('a re-initialize that failed once is redone by the next call', async () => {
    server.setOptions({ faults: { methods: ['*'] } });
    const client = new McpClient({ url: server.url, transport: 'streamable-http', timeoutMs: 3000 });
    try {
      await client.callTool('get_status', {});
      server.failNext('sessionLoss');
      server.failNext('http503'); // hits the re-initialize
      await expect(client.callTool('get_status', {})).rejects.toMatchObject({ status: 503, retryable: true });
      await expect(client.callTool('get_status', {})).resolves.toMatchObject({ content: expect.any(Array) });
      expect(sessionless()).toEqual([]);
    } finally {
      await client.close();
    }
  });

  it('a call started while another call re-initializes waits for the new session', async () => {
    const client = new McpClient({ url: server.url, transport: 'streamable-http', timeoutMs: 3000 });
    try {
      await client.callTool('get_status', {});
      server.setOptions({ faults: { methods: ['*'], latencyMs: 50 } });
      // The re-initialize is the next POST without a session id; start the second call the moment it arrives.
      const reinitializing = new Promise<void>((resolve) => {
        const onHttp = (h: HttpLog) => {
          if (h.method === 'POST' && h.headers['mcp-session-id'] === undefined) {
            server.events.off('http', onHttp);
            resolve();
          }
        };
        server.events.on('http', onHttp);
      });
      server.failNext('sessionLoss');
      const first = client.callTool('get_status', {});
      await reinitializing;
      const second = client.callTool('get_status', {});
      await expect(first).resolves.toBeDefined();
      await expect(second).resolves.toBeDefined();
      expect(sessionless()).toEqual([]);
    } finally {
      await client.close();
    }
  });
});

describe('sync engine: retired parts', () => {
  it('forgets a superseded version that was never sent: --wait returns at once, later runs need no server', async () => {
    box.pai('LEARNING/SYSTEM/a.md', learning('Alpha', 'First version.'));
    await server.stop({ keepState: true });
    expect((await runSync(box.config())).pending).toBe(1);
    box.pai('LEARNING/SYSTEM/a.md', learning('Alpha', 'Second version.'));
    await server.start();
    const started = performance.now();
    const summary = await runSync(box.config(), { waitMs: 5000 });
    expect(summary.confirmed).toBe(1);
    expect(performance.now() - started).toBeLessThan(2500);
    const record = Object.values((await stateOf()).files)[0]!;
    expect(record.superseded).toEqual([]);
    const calls = server.calls.length;
    await runSync(box.config(), { waitMs: 5000 });
    expect(server.calls.length).toBe(calls);
    expect(server.episodes().map((e) => e.content)).toEqual([expect.stringContaining('Second version.')]);
  });

  it('forgets a superseded version the server dropped (FIFO evidence) instead of waiting for it forever', async () => {
    box.pai('LEARNING/SYSTEM/a.md', learning('Alpha', 'First version.'));
    server.failNext('drop');
    expect((await runSync(box.config())).queued).toBe(1);
    await server.whenIdle();
    box.pai('LEARNING/SYSTEM/a.md', learning('Alpha', 'Second version.'));
    const started = performance.now();
    const summary = await runSync(box.config(), { waitMs: 5000 });
    expect(summary.confirmed).toBe(1);
    // The second version became visible after the first was sent: per-group FIFO says the first was dropped.
    expect(performance.now() - started).toBeLessThan(2500);
    expect(Object.values((await stateOf()).files)[0]!.superseded).toEqual([]);
    expect(server.episodes().map((e) => e.content)).toEqual([expect.stringContaining('Second version.')]);
  });

  it('a revert (A → B → A) before the old episode was deleted keeps A in the graph', async () => {
    box.pai('LEARNING/SYSTEM/a.md', learning('Alpha', 'Version A.'));
    await runSync(box.config(), { waitMs: 5000 });
    expect(server.episodes()).toHaveLength(1);
    box.pai('LEARNING/SYSTEM/a.md', learning('Alpha', 'Version B.'));
    await server.stop({ keepState: true });
    await runSync(box.config());
    box.pai('LEARNING/SYSTEM/a.md', learning('Alpha', 'Version A.'));
    await server.start();
    expect((await runSync(box.config(), { waitMs: 5000 })).confirmed).toBe(1);
    await server.whenIdle();
    await runSync(box.config(), { waitMs: 5000 });
    const episodes = server.episodes();
    expect(episodes.map((e) => e.content)).toEqual([expect.stringContaining('Version A.')]);
    const record = Object.values((await stateOf()).files)[0]!;
    expect(record.status).toBe('confirmed');
    expect(record.episodes[0]!.uuid).toBe(episodes[0]!.uuid);
    expect(server.calls.filter((c) => c.tool === 'delete_episode')).toEqual([]);
  });

  it('a file deleted while the server was down and re-created with the same content keeps its episode', async () => {
    const path = box.pai('LEARNING/SYSTEM/a.md', learning('Alpha', 'Same content.'));
    await runSync(box.config(), { waitMs: 5000 });
    rmSync(path);
    await server.stop({ keepState: true });
    await runSync(box.config());
    expect((await stateOf()).orphans).toHaveLength(1);
    box.pai('LEARNING/SYSTEM/a.md', learning('Alpha', 'Same content.'));
    await server.start();
    await runSync(box.config(), { waitMs: 5000 });
    await server.whenIdle();
    await runSync(box.config(), { waitMs: 5000 });
    const episodes = server.episodes();
    expect(episodes).toHaveLength(1);
    const state = await stateOf();
    expect(state.orphans).toEqual([]);
    expect(Object.values(state.files)[0]!.episodes[0]!.uuid).toBe(episodes[0]!.uuid);
  });
});
