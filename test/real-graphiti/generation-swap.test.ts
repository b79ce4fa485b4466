/**
 * Rules that follow the server, not the address (issue 43), on the real servers: one address, one
 * FalkorDB, one group, and the Graphiti release behind them rolled back (0.31.2 → 0.31.1) and
 * forward again (0.31.1 → 0.31.2), with the stand-in LLM. 0.31.1 and 0.31.2 have the same tools and
 * the same serverInfo: only the restart shows, and the rules must be learnt again. One story, one
 * server, to keep the suite lean.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GraphitiClient } from '../../src/lib/graphiti/graphiti.js';
import { resolveSemantics, semanticsOptions } from '../../src/lib/graphiti/server-rules.js';
import { McpClient } from '../../src/lib/mcp/client.js';
import { nullLogger } from '../../src/lib/util/log.js';
import { eventually, runCli, startRealGraphiti, type RealGraphiti } from '../support/real-graphiti.js';
import { learning, makeSandbox, type Sandbox } from '../support/sandbox.js';

const GROUP = 'gms_swap';
const WAIT = ['--wait', '90000'];
/** A lost episode is judged dropped within seconds (default 30 min). */
const FAST_RESEND = { MADEINOZ_KNOWLEDGE_CONFIRM_MAX_AGE: '2000' };

describe('one address, one FalkorDB, one group: Graphiti 0.31.2 → 0.31.1 → 0.31.2 (real servers, stand-in LLM)', () => {
  let real: RealGraphiti;
  let box: Sandbox;
  beforeAll(async () => {
    real = await startRealGraphiti({ generation: '0.31.2', transport: 'http', groupId: GROUP });
    box = makeSandbox(real.url, { MADEINOZ_KNOWLEDGE_DB: 'falkordb', MADEINOZ_KNOWLEDGE_GROUP_ID: GROUP, MADEINOZ_KNOWLEDGE_TIMEOUT: '30000', MADEINOZ_KNOWLEDGE_RETRY_DEADLINE: '30000', MADEINOZ_KNOWLEDGE_ORIGIN: 'm-alice' });
  }, 600_000);
  afterAll(async () => {
    await real?.stop();
    box?.cleanup();
  }, 60_000);

  const sync = async (args: string[] = [], extra: Record<string, string> = {}) => {
    const run = await runCli({ ...box.env, ...extra }, ['sync', '--json', ...args]);
    try {
      return { ...run, summary: JSON.parse(run.stdout) as { updated: number; deleted: number; queued: number; failed: number; held: number; semantics?: { deleteRemoves: string; source: string } } };
    } catch {
      throw new Error(`sync printed no JSON (exit ${run.code}): ${run.stdout}${run.stderr}`);
    }
  };
  const facts = async () => (await real.query('MATCH ()-[e:RELATES_TO]->() RETURN e.fact')).map((row) => String(row[0]));
  const contents = async (name: string) => (await real.query(`MATCH (e:Episodic) WHERE e.name = '${name}' RETURN e.content`)).map((r) => String(r[0]));
  /** When the running server process started (set at each swap). */
  let processSince = 0;
  const swap = async (generation: string) => {
    processSince = Date.now();
    await real.swapGeneration(generation);
  };
  /**
   * Probes of the running server process, as the rules file records them. Not its log's scratch
   * groups: a probe uses again the group the last one left clean (SCRATCH_REUSE), so a second probe of
   * one process would not show as a second group.
   */
  const probes = () => {
    const file = JSON.parse(readFileSync(join(box.path('state'), 'server-semantics.json'), 'utf8')) as { servers: Record<string, { probes: Array<{ at: string }> }> };
    return (file.servers[real.url]?.probes ?? []).filter((p) => Date.parse(p.at) >= processSince).length;
  };

  it('0.31.2 → 0.31.1: the rules learnt of 0.31.2 are not used, and an edit keeps the fact it restates', async () => {
    box.pai('LEARNING/2026-07/z.md', learning('Zephyr bus', 'Zephyr uses Kafka for the event bus. Kafka feeds Postgres nightly.'));
    const first = await sync(WAIT);
    // A run that only adds does not probe (sync.ts PROBE_WHEN_NEEDED); one that deletes learns 0.31.2's rules.
    expect(first.summary).toMatchObject({ queued: 0, failed: 0, semantics: { source: 'assumed' } });
    box.pai('LEARNING/2026-07/y.md', learning('Yak logs', 'Yak stores its logs in Loki.'));
    expect((await sync(WAIT)).summary).toMatchObject({ queued: 0, failed: 0, semantics: { source: 'assumed' } });
    rmSync(join(box.path('pai'), 'MEMORY', 'LEARNING', '2026-07', 'y.md'));
    expect((await sync(WAIT)).summary).toMatchObject({ deleted: 1, failed: 0, semantics: { deleteRemoves: 'facts-unsupported', source: 'probe' } });
    await eventually('the facts are extracted', async () => (await facts()).includes('Zephyr uses Kafka for the event bus.'));
    await swap('0.31.1');
    box.pai('LEARNING/2026-07/z.md', learning('Zephyr bus', 'Zephyr uses Kafka for the event bus. Zephyr archives to Glacier.'));
    const edit = await sync(WAIT);
    expect(edit.summary).toMatchObject({ updated: 1, queued: 0, failed: 0, semantics: { deleteRemoves: 'facts-first-created' } });
    await eventually('the new version is in, the old one gone', async () => JSON.stringify((await contents('Zephyr bus')).map((c) => c.includes('Glacier'))) === '[true]');
    // The restated sentence's fact is there (on 0.31.1, deleting the old version after the new one would have taken it).
    expect(await facts()).toContain('Zephyr uses Kafka for the event bus.');
    expect(await facts()).not.toContain('Kafka feeds Postgres nightly.');
    const status = await runCli(box.env, ['status']);
    expect(status.stdout).toMatch(/Server rules: .*created first/);
    expect(probes()).toBe(1); // the 0.31.1 process was probed (once)
  });

  it('on 0.31.1 a new version the server keeps dropping leaves the note\'s facts in the graph (its old text is sent again)', async () => {
    box.pai('LEARNING/2026-07/n.md', learning('Narwhal jobs', 'Narwhal schedules jobs with Temporal. Temporal retries Narwhal jobs through Kestrel.'));
    expect((await sync(WAIT)).summary).toMatchObject({ queued: 0, failed: 0 });
    await eventually('the facts are extracted', async () => (await facts()).includes('Temporal retries Narwhal jobs through Kestrel.'));
    try {
      real.llm.fail({ kind: 'http-400', match: 'Loki', times: Number.POSITIVE_INFINITY });
      box.pai('LEARNING/2026-07/n.md', learning('Narwhal jobs', 'Narwhal schedules jobs with Temporal. Temporal logs Narwhal jobs to Loki.'));
      // The old version goes first on this server; the new one is dropped, re-sent three times, then the old text goes out again.
      await sync(WAIT, FAST_RESEND);
      await eventually('the old version is back', async () => {
        await sync(['--wait', '20000'], FAST_RESEND);
        return (await contents('Narwhal jobs')).some((c) => c.includes('Kestrel'));
      }, 200_000);
      await eventually('its facts are back', async () => (await facts()).includes('Temporal retries Narwhal jobs through Kestrel.'));
      expect(await facts()).toContain('Narwhal schedules jobs with Temporal.');
      expect(await facts()).not.toContain('Temporal logs Narwhal jobs to Loki.');
      const status = await runCli(box.env, ['status', '--json']);
      expect((JSON.parse(status.stdout) as { failures: Array<{ reason: string }> }).failures).toEqual([expect.objectContaining({ reason: expect.stringContaining('previous version was sent again') })]);
    } finally {
      real.llm.clearFailures();
    }
    expect(probes()).toBe(1); // the same server process: its rules were not probed again
  }, 400_000);

  it('0.31.1 → 0.31.2: a retired episode held under the old rules is let go once the new ones are known', async () => {
    box.pai('LEARNING/2026-07/k.md', learning('Kea notes', 'Kea streams orders through NATS. NATS keeps Kea orders in Jetstream.'));
    expect((await sync(WAIT)).summary).toMatchObject({ queued: 0, failed: 0 });
    await eventually('the facts are extracted', async () => (await facts()).includes('NATS keeps Kea orders in Jetstream.'));
    // A teammate's note states one of the same facts, processed after ours (so ours created it).
    const client = new McpClient({ url: real.url, transport: 'streamable-http', timeoutMs: 60_000 });
    try {
      await client.connect();
      await client.callTool('add_memory', { name: 'Teammate on Kea', episode_body: 'Kea streams orders through NATS.', group_id: GROUP, source: 'text', source_description: 'teammate note [gms:teammate0000000a:abcdefabcdef:1/1:m-teammate]' });
    } finally {
      await client.close();
    }
    await eventually('the teammate note is in', async () => (await contents('Teammate on Kea')).length === 1);
    rmSync(join(box.path('pai'), 'MEMORY', 'LEARNING', '2026-07', 'k.md'));
    expect((await sync(WAIT)).summary).toMatchObject({ deleted: 1, held: 1 });
    expect(await contents('Kea notes')).toHaveLength(1);
    expect(probes()).toBe(1);
    await swap('0.31.2');
    // Any run that reaches the server learns its rules again, and lets the held episode go.
    box.pai('LEARNING/2026-07/o.md', learning('Osprey feed', 'Osprey reads the feed from Kinesis.'));
    const run = await sync(WAIT);
    expect(run.summary).toMatchObject({ failed: 0, semantics: { deleteRemoves: 'facts-unsupported', source: 'probe' } });
    await eventually('the held episode is gone', async () => (await contents('Kea notes')).length === 0);
    expect(await facts()).toContain('Kea streams orders through NATS.');
    expect((await runCli(box.env, ['status'])).stdout).not.toMatch(/Kept in the graph/);
    expect(probes()).toBe(1); // the 0.31.2 process was probed (once)
  }, 300_000);

  it('0.31.2 replaced by 0.31.1 mid-probe, after the probe\'s delete: no rule is cached for 0.31.1, and the next edit keeps the fact it restates (PROBE_ON_ONE_PROCESS)', async () => {
    box.pai('LEARNING/2026-07/w.md', learning('Wren feed', 'Wren reads events from Pulsar. Wren writes to Iceberg.'));
    expect((await sync(WAIT)).summary).toMatchObject({ queued: 0, failed: 0 });
    await eventually('the facts are extracted', async () => (await facts()).includes('Wren reads events from Pulsar.'));
    await swap('0.31.2'); // a restart: the rules must be probed again
    const graphiti = new GraphitiClient(box.config(), { logger: nullLogger });
    const deleteEpisode = graphiti.deleteEpisode.bind(graphiti);
    let swapped = false;
    graphiti.deleteEpisode = async (uuid, group, signal) => {
      const done = await deleteEpisode(uuid, group, signal);
      if (group.startsWith('gms_probe_') && !swapped) {
        swapped = true;
        await swap('0.31.1'); // a docker tag rolled back while the probe reads its fact again
      }
      return done;
    };
    try {
      await resolveSemantics(graphiti, { ...semanticsOptions(box.config(), nullLogger, undefined), probeTimeoutMs: 120_000 });
    } finally {
      await graphiti.close();
    }
    expect(swapped).toBe(true);
    box.pai('LEARNING/2026-07/w.md', learning('Wren feed', 'Wren reads events from Pulsar. Wren compacts to Parquet.'));
    const edit = await sync(WAIT);
    expect(edit.summary).toMatchObject({ updated: 1, queued: 0, failed: 0 });
    expect(edit.summary.semantics?.deleteRemoves).not.toBe('facts-unsupported');
    await eventually('the new version is in, the old one gone', async () => JSON.stringify((await contents('Wren feed')).map((c) => c.includes('Parquet'))) === '[true]');
    expect(await facts()).toContain('Wren reads events from Pulsar.');
    expect(await facts()).not.toContain('Wren writes to Iceberg.');
  }, 400_000);
});
