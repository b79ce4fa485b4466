/**
 * A busy group against the real Graphiti server (issue 27): the group holds thousands of other
 * clients' episodes (put straight into FalkorDB, with random uuids as Graphiti gives them), and
 * `sync --wait` looks while the queue works through ours with pace samples, the top tenth of
 * get_episodes' uuid order, and confirms with one full listing at the end. What the fake's
 * get_episodes assumes (the top of the uuid order up to the cap) is what the real server does.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMarker } from '../../src/lib/memory/episode.js';
import { runSync } from '../../src/lib/sync/sync.js';
import { sampleCap } from '../../src/lib/sync/pace.js';
import { GraphitiClient } from '../../src/lib/graphiti/graphiti.js';
import { startRealGraphiti, type RealGraphiti } from '../support/real-graphiti.js';
import { learning, makeSandbox, type Sandbox } from '../support/sandbox.js';

const GENERATION = process.env.GMS_BUSY_GROUP_GENERATION ?? '0.31.2';
const GROUP = 'gms_busy';
const FOREIGN = 2_500;

describe(`a busy group: real Graphiti ${GENERATION} on FalkorDB, stand-in LLM`, () => {
  let real: RealGraphiti;
  let box: Sandbox;

  beforeAll(async () => {
    real = await startRealGraphiti({ generation: GENERATION, transport: 'http', groupId: GROUP });
    box = makeSandbox(real.url, { MADEINOZ_KNOWLEDGE_DB: 'falkordb', MADEINOZ_KNOWLEDGE_GROUP_ID: GROUP, MADEINOZ_KNOWLEDGE_TIMEOUT: '30000', MADEINOZ_KNOWLEDGE_RETRY_DEADLINE: '30000' });
    const uuids = Array.from({ length: FOREIGN }, () => `'${randomUUID()}'`).join(',');
    await real.query(
      `WITH [${uuids}] AS uuids UNWIND range(0, ${FOREIGN - 1}) AS i CREATE (:Episodic {uuid: uuids[i], name: 'Foreign note ' + toString(i), group_id: '${GROUP}', created_at: '2026-01-01T00:00:00+00:00', valid_at: '2026-01-01T00:00:00+00:00', source: 'text', source_description: 'claude add_memory', content: 'Someone else wrote note ' + toString(i) + '.', entity_edges: []})`,
    );
  }, 600_000);

  afterAll(async () => {
    await real?.stop();
    box?.cleanup();
  }, 60_000);

  it("the server's get_episodes returns the top of the uuid order, whatever the cap", async () => {
    const client = new GraphitiClient(box.config());
    try {
      const listed = (await client.getEpisodes([GROUP], 250)).map((e) => e.uuid);
      const all = (await real.query(`MATCH (e:Episodic) WHERE e.group_id = '${GROUP}' RETURN e.uuid`)).map((r) => String(r[0]));
      expect(all).toHaveLength(FOREIGN);
      expect(listed.sort()).toEqual(all.sort().reverse().slice(0, 250).sort());
    } finally {
      await client.close();
    }
  });

  it('sync --wait: pace samples while the queue works, full listings before and at the end, every note once', async () => {
    for (let i = 0; i < 30; i++) box.pai(`LEARNING/SYSTEM/b${i}.md`, learning(`Busy ${i}`, `Aurora calls Basalt for request ${i}.`));
    const summary = await runSync(box.config(), { waitMs: 200_000 });
    expect(summary).toMatchObject({ added: 30, confirmed: 30, queued: 0, resent: 0 });
    // Before sending: the whole group (a new state could have been lost). While the queue works:
    // samples of a tenth (how many full listings the end takes is the bench's to measure).
    expect(summary.listing.samples).toBeGreaterThanOrEqual(1);
    expect(summary.listing.requests).toBeGreaterThan(summary.listing.samples);
    const ours = new Map<string, number>();
    for (const row of await real.query(`MATCH (e:Episodic) WHERE e.group_id = '${GROUP}' RETURN e.source_description`)) {
      const marker = parseMarker(String(row[0]));
      if (marker !== undefined) ours.set(marker.raw, (ours.get(marker.raw) ?? 0) + 1);
    }
    expect(ours.size).toBe(30);
    expect([...ours.values()].every((n) => n === 1)).toBe(true);
    expect(sampleCap(FOREIGN + 30)).toBeLessThan(FOREIGN);
  });
});
