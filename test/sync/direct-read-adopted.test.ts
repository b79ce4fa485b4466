/**
 * ADOPTED_FOUND_BY_UUID (graphiti/falkordb-episodes.ts) against the fake server: on the local server
 * (`server start`) a group is read by one FalkorDB query instead of get_episodes. A note adopted
 * from the madeinoz hook (sync/adopt-prior.ts) rests on the hook's episode, which carries no marker
 * of ours: found by marker only, `sync --force` took it for lost (FORCE_LOOK) and sent it again
 * beside the episode still there.
 *
 * No FalkorDB here: the direct read is stood in for by a reader of the fake server's own store
 * that answers the query's WHERE clause as FalkorDB does (description ending with an asked marker,
 * every marked episode on a rebuild, an asked uuid, or started since the window). The query itself
 * is proven on the real server (test/real-graphiti/direct-confirm.test.ts).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { Episode } from '../../src/lib/graphiti/graphiti.js';
import { priorFingerprint } from '../../src/lib/migrate/prior-hook.js';
import { runSync } from '../../src/lib/sync/sync.js';
import type { GraphitiTestServer } from '../support/graphiti-server.js';
import { learning, type Sandbox } from '../support/sandbox.js';
import { useServerAndSandbox } from '../helpers/use-server-and-sandbox.js';

let server: GraphitiTestServer;
let box: Sandbox;
const directReads: Array<{ markers: readonly string[]; uuids: readonly string[] }> = [];

vi.mock('../../src/lib/graphiti/falkordb-episodes.js', () => ({
  localFalkorDbFor: () => ({ host: '127.0.0.1', port: 1 }),
  FalkorDbEpisodes: {
    connect: async () => ({
      async find(groupId: string, markers: readonly string[], since: string, options: { everyMarked?: boolean; uuids?: readonly string[] } = {}): Promise<Episode[]> {
        const uuids = options.uuids ?? [];
        directReads.push({ markers, uuids });
        const endsWithAsked = (d: string) => d.includes('[gms:') && markers.includes(`[gms:${d.split('[gms:').at(-1) ?? ''}`);
        return server
          .episodes(groupId)
          .filter((e) => (e.created_at ?? '') >= since || (options.everyMarked === true ? e.source_description.includes('[gms:') : endsWithAsked(e.source_description)) || uuids.includes(e.uuid))
          .map((e) => ({ uuid: e.uuid, name: e.name, content: '', created_at: e.created_at, source: 'text', source_description: e.source_description, group_id: groupId }));
      },
      close: async () => undefined,
    }),
  },
}));

useServerAndSandbox((s, b) => {
  server = s;
  box = b;
  directReads.length = 0;
});

const adds = () => server.calls.filter((c) => c.tool === 'add_memory');
const WAIT = { waitMs: 5000 };

/** What the madeinoz hook left: its episode (sent months ago, no marker of ours) and its state file naming the note. */
function priorHookSent(path: string): string {
  const raw = readFileSync(path, 'utf8');
  const { episodeBody, contentHash } = priorFingerprint(raw);
  const title = /^# (.*)$/m.exec(raw)?.[1] ?? 'note';
  const { uuid } = server.seedEpisode({ name: `LEARNING: ${title}`, content: episodeBody, source_description: `Source: capture | Session: 1a2b3c4d | File: ${basename(path)}`, created_at: '2026-05-01T10:00:00.000Z' });
  const file = join(box.root, '.claude', 'MEMORY', 'STATE', 'knowledge-sync', 'sync-state.json');
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify({ version: '1.0.0', last_sync: '2026-05-01T10:00:00.000Z', synced_files: [{ filepath: path, synced_at: '2026-05-01T10:00:00.000Z', capture_type: 'LEARNING', content_hash: contentHash }] }));
  return uuid;
}

describe('the local server\'s direct read finds an adopted note by its episode\'s uuid (ADOPTED_FOUND_BY_UUID)', () => {
  it('sync --force sends nothing again: the note stays once in the graph', async () => {
    const path = box.pai('LEARNING/SYSTEM/a.md', learning('Alpha', 'Service alpha talks to queue one.'));
    const prior = priorHookSent(path);
    expect(await runSync(box.config(), WAIT)).toMatchObject({ added: 0, adopted: 1 });

    const forced = await runSync(box.config(), { ...WAIT, force: true });
    expect(forced).toMatchObject({ resent: 0 });
    expect(forced.lostSeen).toBeUndefined();
    expect(adds()).toHaveLength(0);
    // The look was the direct read (no get_episodes), and it asked for the adopted episode by uuid.
    expect(forced.listing.requests).toBe(0);
    expect(directReads.some((r) => (r.uuids ?? []).includes(prior))).toBe(true);
    await server.whenIdle();
    expect(server.episodes('main').map((e) => e.uuid)).toEqual([prior]);
  });

  it('an adopted note the graph did lose is still sent again by sync --force, once', async () => {
    const path = box.pai('LEARNING/SYSTEM/a.md', learning('Alpha', 'Service alpha talks to queue one.'));
    priorHookSent(path);
    expect(await runSync(box.config(), WAIT)).toMatchObject({ added: 0, adopted: 1 });
    await server.restart({ data: 'lost' }); // a server started again without its data

    expect(await runSync(box.config(), { ...WAIT, force: true })).toMatchObject({ resent: 1 });
    await server.whenIdle();
    expect(server.episodes('main')).toHaveLength(1);
    expect(server.episodes('main')[0]?.content).toContain('Service alpha talks to queue one.');
  });
});
