/** The group pace rules (sync/pace.ts) as pure functions: listing sizes, samples, back-off. */
import { describe, expect, it } from 'vitest';
import type { Episode } from '../../src/lib/graphiti/graphiti.js';
import type { GroupPace } from '../../src/lib/state/state.js';
import { firstCap, MAX_LISTING, MIN_LISTING, nextCap, nextPace, patienceMs, type GroupListing } from '../../src/lib/sync/pace.js';
import { paceAfterListing } from '../../src/lib/sync/schedule.js';

const T0 = Date.parse('2026-03-01T12:00:00.000Z');
const ep = (uuid: string, createdMs: number): Episode => ({ uuid, name: uuid, content: '', created_at: new Date(createdMs).toISOString(), source: 'text', source_description: '', group_id: 'g' });
const listing = (episodes: Episode[], complete = true): GroupListing => ({ episodes, complete, requests: 1, listed: episodes.length });

describe('group pace', () => {
  it('lists a group of unknown size in full at once; a known size is covered in one request with room to grow', () => {
    expect(firstCap({}, 3)).toBe(MAX_LISTING);
    expect(nextCap(200)).toBe(800);
    expect(firstCap({ size: 50_000 }, 20)).toBeGreaterThan(55_000);
    expect(firstCap({ size: 10 }, 1)).toBe(MIN_LISTING);
  });

  it('measures one episode’s processing from two of ours started back to back, whatever the server clock says', () => {
    for (const skew of [0, -7_200_000, 3_600_000]) {
      // Ours A and B queued 5 ms apart; A started at once, B waited for A's 400 ms of processing.
      const a = ep('a', T0 + skew);
      const b = ep('b', T0 + 400 + skew);
      const foreign = ep('f', T0 - 60_000 + skew);
      const pace = nextPace({ previous: {}, listing: listing([foreign, a, b]), now: T0 + 60_000, sightings: [{ queuedAt: T0, episode: a }, { queuedAt: T0 + 5, episode: b }], stillWaiting: 0, progress: true });
      expect(pace.stepsMs).toEqual([400]);
      expect(pace.size).toBe(3);
      // A lone episode after idle time says nothing about processing.
      const lone = nextPace({ previous: {}, listing: listing([foreign, a]), now: T0 + 60_000, sightings: [{ queuedAt: T0, episode: a }], stillWaiting: 0, progress: true });
      expect(lone.stepsMs).toBeUndefined();
      expect(lone.appearMs).toEqual([60_000]);
    }
  });

  it('backs off while ours stay unseen, starts over on progress, and stops when nothing waits', () => {
    const after = (previous: GroupPace, now: number, stillWaiting: number, progress: boolean) => paceAfterListing({ previous, listing: listing([]), now, sightings: [], stillWaiting, progress });
    let pace = after({ stepsMs: Array(8).fill(2_000) }, T0, 1, false);
    expect(pace.nextListingAt).toBe(T0 + 3_000); // one part left: one processing time and a half
    pace = after(pace, T0 + 3_000, 1, false);
    expect(pace.backoffMs).toBe(4_000);
    for (let i = 0; i < 20; i++) pace = after(pace, T0, 1, false);
    expect(pace.backoffMs).toBe(5 * 60_000);
    pace = after(pace, T0, 1, true);
    expect(pace.backoffMs).toBeUndefined();
    expect(pace.nextListingAt).toBe(T0 + 3_000);
    pace = after(pace, T0, 0, true);
    expect(pace.nextListingAt).toBeUndefined();
  });

  it('patience: the configured maximum until the group was seen moving', () => {
    expect(patienceMs({}, 1_800_000)).toBe(1_800_000);
    expect(patienceMs({ appearMs: [60_000] }, 1_800_000)).toBe(240_000);
    expect(patienceMs({ stepsMs: [100], appearMs: [60_000] }, 1_800_000)).toBe(10_000);
  });
});
