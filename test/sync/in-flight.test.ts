import { describe, expect, it } from 'vitest';
import { createEmptyState, type EpisodeRef, type FileRecord } from '../../src/lib/state/state.js';
import { applyLeftInFlight, leftInFlight } from '../../src/lib/sync/in-flight.js';

const T0 = Date.parse('2026-01-01T00:00:00Z');

function ref(marker: string, fields: Partial<EpisodeRef> = {}): EpisodeRef {
  return { marker, name: marker, groupId: 'g', part: 1, parts: 1, resends: 0, ...fields };
}

describe('parts left in flight by an earlier run (sync/in-flight.ts, invariant 3)', () => {
  it('counts a part sent with no reply recorded as queued since this run began, in current and older versions and orphans', () => {
    const state = createEmptyState();
    const sentOnly = ref('a', { sentAt: '2025-12-31T00:00:00.000Z' });
    const olderSentOnly = ref('b', { sentAt: '2025-12-31T00:00:00.000Z' });
    const orphanSentOnly = ref('c', { sentAt: '2025-12-31T00:00:00.000Z' });
    const queued = ref('d', { sentAt: '2025-12-31T00:00:00.000Z', queuedAt: '2025-12-31T00:00:01.000Z' });
    const confirmed = ref('e', { sentAt: '2025-12-31T00:00:00.000Z', uuid: 'u-e' });
    const neverSent = ref('f');
    state.files['pai:a.md'] = { id: 'pai:a.md', episodes: [sentOnly, queued, confirmed, neverSent], superseded: [olderSentOnly] } as unknown as FileRecord;
    state.orphans.push(orphanSentOnly);

    const found = leftInFlight(state, T0);
    expect(found.parts.map((r) => r.marker).sort()).toEqual(['a', 'b', 'c']);
    expect(sentOnly.queuedAt).toBeUndefined(); // deciding writes nothing

    applyLeftInFlight(found);
    for (const r of [sentOnly, olderSentOnly, orphanSentOnly]) expect(r.queuedAt).toBe(new Date(T0).toISOString());
    expect(queued.queuedAt).toBe('2025-12-31T00:00:01.000Z');
    expect(confirmed.queuedAt).toBeUndefined();
    expect(neverSent.queuedAt).toBeUndefined();
  });
});
