/**
 * Deleted stays deleted, on a server whose delete_episode leaves the facts behind (the released
 * 1.0.2 image, graphiti-core 0.28.2; the test server's default `deleteMode: 'node-only'`).
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildContext } from '../../src/lib/context/context.js';
import { detectProject } from '../../src/lib/context/project.js';
import { loadRetiredEpisodes } from '../../src/lib/state/retired.js';
import { runSync } from '../../src/lib/sync/sync.js';
import type { GraphitiTestServer } from '../support/graphiti-server.js';
import { learning, type Sandbox } from '../support/sandbox.js';
import { useServerAndSandbox } from '../helpers/use-server-and-sandbox.js';

let server: GraphitiTestServer;
let box: Sandbox;

useServerAndSandbox((s, b) => {
  server = s;
  box = b;
});

const WAIT = { waitMs: 5000 };
const factTexts = () => server.facts('main').map((f) => f.fact);

async function settle(): Promise<void> {
  await server.whenIdle();
  await runSync(box.config(), WAIT);
}

describe('facts of deleted and replaced episodes', () => {
  it('an edit and a delete: the facts only they supported are removed, a fact another note supports stays', async () => {
    box.pai('LEARNING/SYSTEM/zephyr.md', learning('Zephyr bus', 'Zephyr uses Kafka for the event bus. Kafka feeds Postgres nightly.'));
    box.pai('LEARNING/SYSTEM/ledger.md', learning('Ledger feed', 'Ledger exports go through Kafka. Kafka feeds Postgres nightly.'));
    box.pai('LEARNING/SYSTEM/wombat.md', learning('Wombat backups', 'Wombat backs up to Restic every hour.'));
    await runSync(box.config(), WAIT);
    await settle();
    expect(factTexts()).toEqual(expect.arrayContaining(['Zephyr uses Kafka for the event bus.', 'Kafka feeds Postgres nightly.', 'Wombat backs up to Restic every hour.']));
    const shared = server.facts('main').find((f) => f.fact === 'Kafka feeds Postgres nightly.');
    expect(shared?.episodes).toHaveLength(2);

    box.pai('LEARNING/SYSTEM/zephyr.md', learning('Zephyr bus', 'Zephyr moved to Pulsar for the event bus.'));
    rmSync(box.path('pai', 'MEMORY', 'LEARNING', 'SYSTEM', 'wombat.md'));
    await runSync(box.config(), WAIT);
    await settle();

    const texts = factTexts();
    expect(texts).not.toContain('Zephyr uses Kafka for the event bus.');
    expect(texts).not.toContain('Wombat backs up to Restic every hour.');
    expect(texts).toContain('Kafka feeds Postgres nightly.'); // the ledger note still supports it
    expect(texts).toContain('Zephyr moved to Pulsar for the event bus.');
    const removals = server.calls.filter((c) => c.tool === 'delete_entity_edge');
    expect(removals.length).toBeGreaterThanOrEqual(2);
    expect(removals.map((c) => c.args.uuid)).not.toContain(shared?.uuid);
  });

  it('the context leaves out a fact resting only on a retired episode, even one the clean-up never found', async () => {
    box.pai('LEARNING/SYSTEM/zephyr.md', learning('Zephyr bus', 'Zephyr uses Kafka for the event bus.'));
    await runSync(box.config(), WAIT);
    await settle();
    const [old] = server.episodes('main');
    // A fact the old version left that no probe search would find (other words), and one of another client's.
    server.seedFact({ fact: 'Architecture decision: consumers written in Go.', episodes: [old!.uuid] });
    server.seedFact({ fact: 'Zephyr dashboards live in Grafana.', episodes: ['someone-elses-episode'] });
    box.pai('LEARNING/SYSTEM/zephyr.md', learning('Zephyr bus', 'Zephyr moved to Pulsar for the event bus.'));
    await runSync(box.config(), WAIT);
    await settle();

    const project = box.path('code', 'zephyr');
    mkdirSync(join(project, '.git'), { recursive: true });
    const config = box.config();
    const { GraphitiClient } = await import('../../src/lib/graphiti/graphiti.js');
    const graphiti = new GraphitiClient(config);
    try {
      const built = await buildContext({ graphiti, config, project: detectProject(project, config), retiredEpisodes: await loadRetiredEpisodes(config.stateDir) });
      // The facts part; entity summaries keep what any episode said (Graphiti folds mentions into
      // them and no generation unfolds them; NodeResult names no episodes to judge them by).
      const facts = built.text.split('Related entities:')[0] ?? '';
      expect(facts).toContain('Zephyr moved to Pulsar');
      expect(facts).not.toContain('written in Go');
      expect(facts).not.toContain('uses Kafka');
      expect(facts).toContain('Grafana'); // not ours: kept
      expect(built.found.retired).toBeGreaterThanOrEqual(1);
      expect(factTexts()).not.toContain('Architecture decision: consumers written in Go.'); // and removed from the graph
    } finally {
      await graphiti.close();
    }
  });
});

describe('retiredEpisodeUuids', () => {
  it('an older version counts once the new one is in the graph; deleted and orphaned ones always; a current one never', async () => {
    const { retiredEpisodeUuids } = await import('../../src/lib/state/retired.js');
    const ref = (uuid?: string) => ({ marker: `m-${uuid ?? 'x'}`, name: 'n', groupId: 'main', part: 1, parts: 1, resends: 0, ...(uuid === undefined ? {} : { uuid }) });
    const record = (current: string | undefined, old: string) => ({ id: 'pai:a.md', source: 'pai', kind: 'pai' as const, relPath: 'a.md', fileId: 'f', mtimeMs: 0, size: 0, status: 'queued' as const, episodes: [ref(current)], superseded: [ref(old)], attempts: 0, firstSeenAt: '', updatedAt: '' });
    const state = (current: string | undefined) => ({
      tool: 'graphiti-memory-sync' as const, version: 1 as const, createdAt: '', updatedAt: '',
      files: { 'pai:a.md': record(current, 'old') }, orphans: [ref('orphan')], deletedEpisodes: [{ uuid: 'gone', groupId: 'main', at: '' }, { uuid: 'back', groupId: 'main', at: '' }],
    });
    expect([...retiredEpisodeUuids(state(undefined))].sort()).toEqual(['back', 'gone', 'orphan']);
    expect([...retiredEpisodeUuids(state('new'))].sort()).toEqual(['back', 'gone', 'old', 'orphan']);
    // A revert adopted a deleted episode back as the current one: it is not retired.
    expect([...retiredEpisodeUuids(state('back'))].sort()).toEqual(['gone', 'old', 'orphan']);
  });
});
