/**
 * add_memory semantics of the test server (reference §4–§5): "queued" at once,
 * visible only after the per-group FIFO worker ran, silent background failures,
 * `uuid` = re-process, no dedup, restarts lose the queue, stop/start on the same port.
 */
import { describe, expect, it } from 'vitest';
import type { GraphitiServerOptions, GraphitiTestServer } from '../support/graphiti-server.js';
import { RawSession } from '../helpers/raw-mcp.js';
import { useGraphitiServer } from '../helpers/use-graphiti-server.js';

const startServer = useGraphitiServer();
async function start(o: GraphitiServerOptions = {}): Promise<{ srv: GraphitiTestServer; s: RawSession }> {
  const srv = await startServer(o);
  return { srv, s: await RawSession.open(srv.url) };
}

describe('queue', () => {
  it('queued first, visible only after processing', async () => {
    const { srv, s } = await start({ processingDelayMs: 5 });
    srv.pauseProcessing();
    expect(await s.payload('add_memory', { name: 'Later', episode_body: 'Appears later.' })).toEqual({
      message: "Episode 'Later' queued for processing in group 'main'",
    });
    expect(srv.pendingEpisodes).toBe(1);
    expect(srv.episodes()).toEqual([]);
    expect(await s.payload('get_episodes', {})).toEqual({ message: 'No episodes found', episodes: [] });
    srv.resumeProcessing();
    await srv.whenIdle();
    expect(srv.episodes().map((e) => e.name)).toEqual(['Later']);
    expect(((await s.payload('get_episodes', {})).episodes as unknown[]).length).toBe(1);
  });

  it('whenIdle resolves at once when nothing is pending', async () => {
    const { srv } = await start();
    await srv.whenIdle();
    expect(srv.pendingEpisodes).toBe(0);
  });

  it('FIFO per group, groups independent; no dedup of identical bodies', async () => {
    const { srv, s } = await start({ processingDelayMs: 1 });
    for (let i = 0; i < 5; i += 1) {
      await s.call('add_memory', { name: `a${i}`, episode_body: 'Same body every time.', group_id: 'ga' });
      if (i < 3) await s.call('add_memory', { name: `b${i}`, episode_body: `B body ${i}.`, group_id: 'gb' });
    }
    await srv.whenIdle();
    expect(srv.processed.filter((p) => p.groupId === 'ga').map((p) => p.name)).toEqual(['a0', 'a1', 'a2', 'a3', 'a4']);
    expect(srv.processed.filter((p) => p.groupId === 'gb').map((p) => p.name)).toEqual(['b0', 'b1', 'b2']);
    expect(srv.episodes('ga')).toHaveLength(5);
    // Facts are deduplicated like Graphiti's edges: one fact, five episodes.
    const facts = srv.facts('ga');
    expect(facts).toHaveLength(1);
    expect(facts[0]!.episodes).toEqual(srv.episodes('ga').map((e) => e.uuid));
  });

  it('get_episodes: default cap 10, ORDER BY uuid DESC (not newest first)', async () => {
    const { srv, s } = await start();
    for (let i = 0; i < 15; i += 1) await s.call('add_memory', { name: `n${i}`, episode_body: `Body ${i}.` });
    await srv.whenIdle();
    const eps = (await s.payload('get_episodes', {})).episodes as Array<{ uuid: string }>;
    expect(eps).toHaveLength(10);
    const expected = srv
      .episodes()
      .map((e) => e.uuid)
      .sort()
      .reverse()
      .slice(0, 10);
    expect(eps.map((e) => e.uuid)).toEqual(expected);
  });
});

describe('silent failures', () => {
  it('dropped episodes: reply says queued, call outcome drop, nothing visible, failure logged', async () => {
    const { srv, s } = await start();
    srv.failNext('drop');
    expect(await s.payload('add_memory', { name: 'Lost', episode_body: 'Never stored.' })).toEqual({
      message: "Episode 'Lost' queued for processing in group 'main'",
    });
    await s.call('add_memory', { name: 'Kept', episode_body: 'Stored fine.' });
    await srv.whenIdle();
    expect(srv.episodes().map((e) => e.name)).toEqual(['Kept']);
    expect(srv.calls.map((c) => c.outcome)).toEqual(['drop', 'ok']);
    expect(srv.failures).toEqual([
      expect.objectContaining({
        cause: 'drop',
        name: 'Lost',
        message: 'Failed to process episode None for group main: Rate limit exceeded. Please try again later.',
      }),
    ]);
  });

  it('dropRate is deterministic with a seed', async () => {
    const run = async () => {
      const { srv, s } = await start({ faults: { dropRate: 0.5, seed: 7 } });
      for (let i = 0; i < 20; i += 1) await s.call('add_memory', { name: `d${i}`, episode_body: `Drop test ${i}.` });
      await srv.whenIdle();
      const names = srv.episodes().map((e) => e.name);
      await srv.close();
      return names;
    };
    const a = await run();
    const b = await run();
    expect(a).toEqual(b);
    expect(a.length).toBeGreaterThan(2);
    expect(a.length).toBeLessThan(18);
  });

  it('invalid group id: queued, then fails in the worker', async () => {
    const { srv, s } = await start();
    expect(await s.payload('add_memory', { name: 'Dot', episode_body: 'x y', group_id: 'a.b' })).toEqual({
      message: "Episode 'Dot' queued for processing in group 'a.b'",
    });
    await srv.whenIdle();
    expect(srv.episodes()).toEqual([]);
    expect(srv.failures[0]!.message).toBe(
      'Failed to process episode None for group a.b: group_id "a.b" must contain only alphanumeric characters, dashes, or underscores',
    );
  });

  it('falkordb: a hyphen in the group id fails with RediSearch; neo4j accepts it', async () => {
    const { srv, s } = await start({ db: 'falkordb' });
    await s.call('add_memory', { name: 'H', episode_body: 'x y', group_id: 'vt-firmware' });
    await s.call('add_memory', { name: 'U', episode_body: 'x y', group_id: 'vt_firmware' });
    await srv.whenIdle();
    expect(srv.episodes().map((e) => e.group_id)).toEqual(['vt_firmware']);
    expect(srv.failures.map((f) => f.message)).toEqual(['Failed to process episode None for group vt-firmware: RediSearch: Syntax error at offset 14 near vt']);
    srv.setOptions({ db: 'neo4j' });
    await s.call('add_memory', { name: 'H2', episode_body: 'x y', group_id: 'vt-firmware' });
    await srv.whenIdle();
    expect(srv.episodes('vt-firmware')).toHaveLength(1);
  });

  it('uuid re-processes an existing episode (name/body ignored); unknown uuid fails; "" counts as none', async () => {
    const { srv, s } = await start();
    await s.call('add_memory', { name: 'Orig', episode_body: 'Original content here.' });
    await srv.whenIdle();
    const orig = srv.episodes()[0]!;
    expect(await s.payload('add_memory', { name: 'New name', episode_body: 'New body.', uuid: orig.uuid })).toEqual({
      message: "Episode 'New name' queued for processing in group 'main'",
    });
    await srv.whenIdle();
    expect(srv.episodes()).toEqual([orig]);
    expect(srv.processed.at(-1)).toMatchObject({ uuid: orig.uuid, reprocessed: true });

    const unknown = '00000000-0000-4000-8000-000000000000';
    await s.call('add_memory', { name: 'Ghost', episode_body: 'b', uuid: unknown });
    await srv.whenIdle();
    expect(srv.failures.at(-1)!.message).toBe(`Failed to process episode ${unknown} for group main: node ${unknown} not found`);

    await s.call('add_memory', { name: 'Empty uuid', episode_body: 'Fresh one.', uuid: '' });
    await srv.whenIdle();
    expect(srv.episodes().map((e) => e.name)).toEqual(['Orig', 'Empty uuid']);
  });
});

describe('restart / stop / start', () => {
  it('restart: queued episodes are lost, stored ones kept, sessions forgotten, startupErrors re-armed', async () => {
    const { srv, s } = await start({ processingDelayMs: 0 });
    await s.call('add_memory', { name: 'Stored', episode_body: 'Before restart.' });
    await srv.whenIdle();
    srv.pauseProcessing();
    await s.call('add_memory', { name: 'Queued', episode_body: 'Lost on restart.' });
    expect(srv.pendingEpisodes).toBe(1);
    srv.setOptions({ startupErrors: 1 });
    await s.payload('get_status'); // consumes the one startup error
    await srv.restart();
    expect(srv.pendingEpisodes).toBe(0);
    await srv.whenIdle();
    expect(srv.episodes().map((e) => e.name)).toEqual(['Stored']);
    expect(srv.sessionIds()).toEqual([]);
    expect((await s.rpc('tools/list')).res.status).toBe(404);
    srv.resumeProcessing();
    await srv.whenIdle();
    expect(srv.episodes().map((e) => e.name)).toEqual(['Stored']);
    const s2 = await RawSession.open(srv.url);
    expect(await s2.payload('get_status')).toEqual({ status: 'error', message: 'Graphiti service not initialized' });
  });

  it('stop: connection refused; start: same port, data kept, old session 404', async () => {
    const { srv, s } = await start();
    await s.call('add_memory', { name: 'Persist', episode_body: 'Kept across stop.' });
    await srv.whenIdle();
    const port = srv.port;
    await srv.stop();
    await expect(fetch(`http://127.0.0.1:${port}/health`)).rejects.toThrow();
    await srv.start();
    expect(srv.port).toBe(port);
    expect((await fetch(`http://127.0.0.1:${port}/health`)).status).toBe(200);
    expect(srv.episodes().map((e) => e.name)).toEqual(['Persist']);
    expect((await s.rpc('tools/list')).res.status).toBe(404);
  });

  it('stop({keepState}) keeps sessions (network outage)', async () => {
    const { srv, s } = await start();
    await srv.stop({ keepState: true });
    await srv.start();
    // fetch may first pick its pooled keep-alive socket that stop() destroyed ("other side closed").
    const status = () => s.payload('get_status');
    expect(await status().catch(status)).toMatchObject({ status: 'ok' });
  });
});
