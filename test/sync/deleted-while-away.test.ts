/** sync/deleted-while-away.ts LEFT_LIST_BOUND, the rule alone (the sync's runs: server-of-record.test.ts). */
import { describe, expect, it } from 'vitest';
import { formatMarker } from '../../src/lib/memory/episode.js';
import { createEmptyState, type EpisodeRef } from '../../src/lib/state/state.js';
import { boundLeftLists, LEFT_LIST_DAYS } from '../../src/lib/sync/deleted-while-away.js';

const DAY = 86_400_000;
const ref = (fileId: string, uuid: string): EpisodeRef => ({ marker: formatMarker({ fileId, hash: 'abcdef012345', part: 1, parts: 1, origin: 'o' }), name: fileId, groupId: 'main', part: 1, parts: 1, uuid, resends: 0 });

describe('LEFT_LIST_BOUND', () => {
  it('a list an older build wrote (no date) is dated at the first run that sees it, nothing cut', () => {
    const state = createEmptyState();
    state.leftOn = { 'http://home/mcp': [ref('gone', 'u1')] };
    const now = Date.now();
    expect(boundLeftLists(state, now)).toEqual([]);
    expect(state.leftOnSince).toEqual({ 'http://home/mcp': new Date(now).toISOString() });
    // Its days count from then.
    expect(boundLeftLists(state, now + LEFT_LIST_DAYS * DAY)).toEqual([]);
    expect(state.leftOn['http://home/mcp']).toHaveLength(1);
  });

  it('past the bound with nothing owed (every note still here): the list goes, with its date', () => {
    const state = createEmptyState();
    const now = Date.now();
    // The note is here, its current part (another version, sent on the new server) in the same group.
    state.files['pai:a.md'] = { fileId: 'live', episodes: [ref('live', 'u2')], superseded: [] } as never;
    state.leftOn = { 'http://home/mcp': [ref('live', 'u1')] };
    state.leftOnSince = { 'http://home/mcp': new Date(now - (LEFT_LIST_DAYS + 1) * DAY).toISOString() };
    expect(boundLeftLists(state, now)).toEqual([expect.objectContaining({ server: 'http://home/mcp', dropped: 1, owed: 0 })]);
    expect(state.leftOn).toBeUndefined();
    expect(state.leftOnSince).toBeUndefined();
  });

  it('past the bound, a note moved to another group (or retracted) while away is still owed: its old part is kept', () => {
    const state = createEmptyState();
    const now = Date.now();
    state.files['pai:a.md'] = { fileId: 'moved', episodes: [{ ...ref('moved', 'u2'), groupId: 'work' }], superseded: [] } as never;
    state.files['pai:b.md'] = { fileId: 'retracted', episodes: [], superseded: [] } as never;
    state.leftOn = { 'http://home/mcp': [ref('moved', 'u1'), ref('retracted', 'u3')] };
    state.leftOnSince = { 'http://home/mcp': new Date(now - (LEFT_LIST_DAYS + 1) * DAY).toISOString() };
    expect(boundLeftLists(state, now)).toEqual([]);
    expect(state.leftOn['http://home/mcp']?.map((r) => r.uuid)).toEqual(['u1', 'u3']);
  });
});
