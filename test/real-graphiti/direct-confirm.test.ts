/**
 * The local server's direct confirmation (issue 27) against the real Graphiti server on FalkorDB
 * with the stand-in LLM: when the MCP URL is the one `server start` runs (its runtime.json), our
 * episodes are confirmed by one small FalkorDB query, not by get_episodes listings. The runtime
 * file is written here as the supervisor writes it; the "supervisor" is a stand-in process whose
 * command line says `server run` (the real one would also start FalkorDB and Graphiti itself).
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeSupervisor, type FakeSupervisor } from '../support/fake-supervisor.js';
import { writeLocalRuntime } from '../support/local-runtime.js';
import { FalkorDbEpisodes } from '../../src/lib/graphiti/falkordb-episodes.js';
import { GraphitiClient } from '../../src/lib/graphiti/graphiti.js';
import { priorFingerprint } from '../../src/lib/migrate/prior-hook.js';
import { nullLogger } from '../../src/lib/util/log.js';
import { runSync } from '../../src/lib/sync/sync.js';
import { eventually, startRealGraphiti, type RealGraphiti } from '../support/real-graphiti.js';
import { learning, makeSandbox, type Sandbox } from '../support/sandbox.js';

const GENERATION = process.env.GMS_DIRECT_CONFIRM_GENERATION ?? '0.31.1';
const GROUP = 'gms_direct';

describe(`local server direct confirmation: real Graphiti ${GENERATION} on FalkorDB, stand-in LLM`, () => {
  let real: RealGraphiti;
  let box: Sandbox;
  let supervisor: FakeSupervisor;

  const runtime = (dbPort: number) => writeLocalRuntime(box.config().stateDir, real, supervisor, { dbPort });

  beforeAll(async () => {
    real = await startRealGraphiti({ generation: GENERATION, transport: 'http', groupId: GROUP });
    box = makeSandbox(real.url, { MADEINOZ_KNOWLEDGE_DB: 'falkordb', MADEINOZ_KNOWLEDGE_GROUP_ID: GROUP, MADEINOZ_KNOWLEDGE_TIMEOUT: '30000', MADEINOZ_KNOWLEDGE_RETRY_DEADLINE: '30000' });
    supervisor = await startFakeSupervisor();
    runtime(real.graphiti.falkordb.port);
  }, 600_000);

  afterAll(async () => {
    supervisor?.child.kill('SIGTERM');
    await real?.stop();
    box?.cleanup();
  }, 60_000);

  const counts = async () => {
    const out: Record<string, number> = {};
    for (const name of await real.episodeNames()) out[name] = (out[name] ?? 0) + 1;
    return out;
  };

  it('confirms by one small query: no get_episodes while waiting, every note once', async () => {
    for (let i = 0; i < 4; i++) box.pai(`LEARNING/SYSTEM/d${i}.md`, learning(`Direct ${i}`, `Aurora calls Basalt for request ${i}.`));
    const first = await runSync(box.config(), { waitMs: 180_000 });
    expect(first).toMatchObject({ added: 4, confirmed: 4, queued: 0, resent: 0 });
    // The new state could have been lost: the first look reads every marked episode of the group
    // from FalkorDB; no get_episodes, before sending or while waiting.
    expect(first.listing.requests).toBe(0);
    expect(await counts()).toEqual({ 'Direct 0': 1, 'Direct 1': 1, 'Direct 2': 1, 'Direct 3': 1 });

    box.pai('LEARNING/SYSTEM/d0.md', learning('Direct 0', 'Aurora calls Cobalt now.'));
    box.pai('LEARNING/SYSTEM/d4.md', learning('Direct 4', 'Ember answers Fjord.'));
    const second = await runSync(box.config(), { waitMs: 180_000 });
    expect(second).toMatchObject({ updated: 1, added: 1, confirmed: 5, queued: 0, resent: 0 });
    expect(second.listing.requests).toBe(0);
    expect(await counts()).toEqual({ 'Direct 0': 1, 'Direct 1': 1, 'Direct 2': 1, 'Direct 3': 1, 'Direct 4': 1 });
  });

  it('the query finds a description that ends with one of our markers, or an episode started since: nothing else', async () => {
    const graph = 'gms_direct_query';
    const seed: Array<[string, string, string]> = [
      ['ends with A', 'pai memory LEARNING/a.md [gms:fa:0123456789ab:1/1]', '2026-01-01T00:00:00+00:00'],
      ['look-alike first, then A2', 'notes on [gms:fx:ffffffffffff:1/1] and more [gms:fa:0123456789ab:1/2:m-abc]', '2026-01-01T00:00:00+00:00'],
      ['A in the middle', 'pai memory [gms:fa:0123456789ab:1/1] edited by hand', '2026-01-01T00:00:00+00:00'],
      ['ends with B, not asked', 'pai memory [gms:fb:0123456789ab:1/1]', '2026-01-01T00:00:00+00:00'],
      ['a longer marker ending like A', 'pai memory [gms:xfa:0123456789ab:1/1]', '2026-01-01T00:00:00+00:00'],
      ['ends with the bare prefix', 'pai memory [gms:', '2026-01-01T00:00:00+00:00'],
      ['foreign, old', 'claude add_memory', '2026-01-01T00:00:00+00:00'],
      ['foreign, new', 'claude add_memory', '2026-11-26T00:00:01.5+00:00'],
    ];
    const rows = seed.map(([name, description, created]) => `{name: ${JSON.stringify(name)}, d: ${JSON.stringify(description)}, c: ${JSON.stringify(created)}}`);
    await real.query(
      `UNWIND [${rows.join(', ')}] AS r CREATE (:Episodic {uuid: r.name, name: r.name, group_id: '${graph}', created_at: r.c, valid_at: r.c, source: 'text', source_description: r.d, content: 'x'})`,
      graph,
    );
    const db = await FalkorDbEpisodes.connect({ host: '127.0.0.1', port: real.graphiti.falkordb.port, password: real.graphiti.falkordb.password });
    try {
      const found = await db.find(graph, ['[gms:fa:0123456789ab:1/1]', '[gms:fa:0123456789ab:1/2:m-abc]'], '2026-11-26T00:00:00Z');
      expect(found.map((e) => e.name).sort()).toEqual(['ends with A', 'foreign, new', 'look-alike first, then A2']);
      expect(await db.find(graph, [], '2026-12-01T00:00:00Z')).toEqual([]);
    } finally {
      await db.close();
    }
  });

  it('falls back to get_episodes when the FalkorDB named in runtime.json does not answer', async () => {
    runtime(1); // nothing listens there
    box.pai('LEARNING/SYSTEM/d5.md', learning('Direct 5', 'Gala keeps Dynamo warm.'));
    const run = await runSync(box.config(), { waitMs: 180_000 });
    runtime(real.graphiti.falkordb.port);
    expect(run).toMatchObject({ added: 1, confirmed: 6, queued: 0, resent: 0 });
    expect(run.listing.requests).toBeGreaterThan(0);
    expect((await counts())['Direct 5']).toBe(1);
  });

  it('lost state: every note is adopted again and the old version of a note edited meanwhile is retired, all read from FalkorDB', async () => {
    rmSync(join(box.config().stateDir, 'state.json'));
    box.pai('LEARNING/SYSTEM/d1.md', learning('Direct 1', 'Aurora calls Dynamo instead.'));
    const run = await runSync(box.config(), { waitMs: 180_000 });
    expect(run.listing.requests).toBe(0);
    expect(run).toMatchObject({ added: 1, adopted: 5, queued: 0, resent: 0 });
    await eventually('the old version of Direct 1 is deleted', async () => (await counts())['Direct 1'] === 1);
    expect(await counts()).toEqual({ 'Direct 0': 1, 'Direct 1': 1, 'Direct 2': 1, 'Direct 3': 1, 'Direct 4': 1, 'Direct 5': 1 });
    const [[content]] = (await real.query("MATCH (e:Episodic {name: 'Direct 1'}) RETURN e.content")) as [[string]];
    expect(content).toContain('Dynamo');
  });

  it('a note adopted from the madeinoz hook is found by its episode\'s uuid: sync --force leaves it once in the graph, its fact resting on one episode (ADOPTED_FOUND_BY_UUID)', async () => {
    // What the madeinoz hook left: its episode of the note (no marker of ours), sent months ago, and its state file.
    const path = box.pai('LEARNING/SYSTEM/prior.md', learning('Harbor', 'Harbor sends invoices through Quill.'));
    const raw = readFileSync(path, 'utf8');
    const { episodeBody, contentHash } = priorFingerprint(raw);
    const client = new GraphitiClient(box.config(), { logger: nullLogger });
    try {
      await client.addMemory({ name: 'LEARNING: Harbor', episodeBody, groupId: GROUP, sourceDescription: `Source: capture | Session: 1a2b3c4d | File: ${basename(path)}` });
    } finally {
      await client.close();
    }
    const harbor = async () => (await real.query("MATCH (e:Episodic) WHERE e.content CONTAINS 'Harbor sends invoices' RETURN e.uuid")).map((row) => String(row[0]));
    await eventually('the madeinoz hook\'s episode is processed', async () => (await harbor()).length === 1);
    const [prior] = await harbor();
    // Sent long before this tool ran: outside the window of episodes started since a wait began.
    await real.query(`MATCH (e:Episodic {uuid: '${prior}'}) SET e.created_at = '2026-05-01T10:00:00+00:00'`);
    const file = join(box.root, '.claude', 'MEMORY', 'STATE', 'knowledge-sync', 'sync-state.json');
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify({ version: '1.0.0', last_sync: '2026-05-01T10:00:00.000Z', synced_files: [{ filepath: path, synced_at: '2026-05-01T10:00:00.000Z', capture_type: 'LEARNING', content_hash: contentHash }] }));
    expect(await runSync(box.config(), { waitMs: 180_000 })).toMatchObject({ added: 0, adopted: 1, failed: 0 });

    const forced = await runSync(box.config(), { force: true, waitMs: 180_000 });
    expect(forced).toMatchObject({ resent: 0, failed: 0 });
    expect(forced.listing.requests).toBe(0); // the look was the direct read
    expect(await harbor()).toEqual([prior]);
    // The fact once, resting on that one episode (a copy sent again would be appended to it: a restated fact).
    const facts = (await real.query("MATCH ()-[f:RELATES_TO]->() WHERE f.fact CONTAINS 'Harbor' RETURN f.fact, f.episodes")).map((row) => ({ fact: String(row[0]), episodes: String(row[1]) }));
    expect(facts).toHaveLength(1);
    expect(facts[0]?.episodes).toBe(`[${prior}]`); // FalkorDB gives the list as its text
    const search = new GraphitiClient(box.config(), { logger: nullLogger });
    try {
      expect((await search.searchFacts('Harbor invoices Quill', [GROUP])).filter((f) => f.fact.includes('Harbor'))).toHaveLength(1);
    } finally {
      await search.close();
    }
  });
});
