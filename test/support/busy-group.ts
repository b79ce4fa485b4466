/**
 * A busy shared group on the test server (issues 10 and 27): other clients' episodes seeded with
 * random uuids, as Graphiti gives them (get_episodes lists by uuid, so ours land anywhere in it),
 * and a count of our own episodes by marker (exactly once means one copy each).
 */
import { randomUUID } from 'node:crypto';
import { parseMarker } from '../../src/lib/memory/episode.js';
import type { GraphitiTestServer } from './graphiti-server.js';
import { mulberry32 } from './prng.js';

/**
 * Version-4-shaped uuids from a seed (prng.ts): the same draw every run, so where ours land in the
 * uuid order, and so what a pace sample shows, can be replayed (a failing seed is a repro).
 */
export function seededUuids(seed: number): () => string {
  const next = mulberry32(seed);
  const hex = (n: number) => Array.from({ length: n }, () => Math.floor(next() * 16).toString(16)).join('');
  return () => `${hex(8)}-${hex(4)}-4${hex(3)}-${'89ab'[Math.floor(next() * 4)]}${hex(3)}-${hex(12)}`;
}

/** Other clients' episodes: the knowledge skill, Claude's own add_memory, teammates; one a second from 2026-01-01 (uuids from `uuid`: random by default). */
export function fillWithForeignEpisodes(server: GraphitiTestServer, count: number, group = 'main', uuid: () => string = randomUUID): void {
  const base = Date.parse('2026-01-01T00:00:00Z');
  for (let i = 0; i < count; i++) {
    server.seedEpisode({
      uuid: uuid(),
      name: `Foreign note ${i}`,
      content: `Someone else's knowledge number ${i}.`,
      source_description: i % 3 === 0 ? 'claude add_memory' : 'PAI Knowledge skill',
      created_at: new Date(base + i * 1000).toISOString(),
      group_id: group,
    });
  }
}

/** Our episodes visible in the group: how many copies of each marker. */
export function copiesByMarker(server: GraphitiTestServer, group = 'main'): Map<string, number> {
  const counts = new Map<string, number>();
  for (const e of server.episodes(group)) {
    const marker = parseMarker(e.source_description);
    if (marker !== undefined) counts.set(marker.raw, (counts.get(marker.raw) ?? 0) + 1);
  }
  return counts;
}
