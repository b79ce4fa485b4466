/**
 * FORCE_LOOK (sync/force-look.ts): what `sync --force` looks for, and the reconcile's judgement of
 * a confirmed part the graph no longer holds (a server restarted without its data). Pure, no server.
 */
import { describe, expect, it } from 'vitest';
import { withMarker, type ListedEpisode } from '../../src/lib/sync/listing.js';
import { formatMarker } from '../../src/lib/memory/episode.js';
import { createEmptyState, type EpisodeRef, type FileRecord, type SyncState } from '../../src/lib/state/state.js';
import { applyReconciliation, reconcile, type ReconcileInput } from '../../src/lib/sync/reconcile.js';
import { emptiedGroups, forceLookParts, MAX_GROUPS_ASKED, withForceLook } from '../../src/lib/sync/force-look.js';

const T0 = Date.parse('2026-01-01T00:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();
const GROUP = 'g';
const HASH = 'aaaaaaaaaaaaaaaaaaaaaaaa';

function ref(fileId: string, extra: Partial<EpisodeRef> = {}, origin = 'm-me'): EpisodeRef {
  return { marker: formatMarker({ fileId, hash: HASH, part: 1, parts: 1, origin }), name: fileId, groupId: GROUP, part: 1, parts: 1, resends: 0, ...extra };
}
const confirmed = (fileId: string, extra: Partial<EpisodeRef> = {}, origin = 'm-me') => ref(fileId, { uuid: `u-${fileId}`, sentAt: iso(T0), queuedAt: iso(T0), confirmedAt: iso(T0), ...extra }, origin);

function record(fileId: string, episodes: EpisodeRef[], extra: Partial<FileRecord> = {}): FileRecord {
  return { id: `pai:${fileId}.md`, source: 'pai', kind: 'pai', relPath: `${fileId}.md`, fileId, hash: HASH, mtimeMs: 1, size: 1, status: 'confirmed', episodes, superseded: [], attempts: 0, firstSeenAt: iso(T0), updatedAt: iso(T0), ...extra };
}
function stateOf(records: FileRecord[]): SyncState {
  const state = createEmptyState(iso(T0));
  for (const r of records) state.files[r.id] = r;
  return state;
}
function episode(r: EpisodeRef): ListedEpisode {
  return withMarker({ uuid: r.uuid ?? 'x', name: r.name, content: '', created_at: iso(T0), source: 'text', source_description: `pai memory x ${r.marker}`, group_id: r.groupId });
}
function input(state: SyncState, episodes: ListedEpisode[], extra: Partial<ReconcileInput> = {}): ReconcileInput {
  return { state, listing: new Map([[GROUP, { episodes, complete: true, requests: 1, listed: episodes.length }]]), now: T0 + 86_400_000, confirmMaxAgeMs: 60_000, maxResends: 2, rebuilding: false, forced: forceLookParts(state, new Set(['m-team']), [{ name: 'pai' }]), ...extra };
}

describe('FORCE_LOOK: sync --force and a graph that lost what the state calls confirmed', () => {
  it('looks for this machine\'s own confirmed parts only: not another machine\'s (foreign), a shared source\'s, one deleted on purpose elsewhere, an unconfirmed or a failed one', () => {
    const state = stateOf([
      record('own', [confirmed('own')]),
      record('foreign', [confirmed('foreign', { foreign: true })]),
      record('team', [confirmed('team', {}, 'm-team')]),
      record('gone', [confirmed('gone', { deletedElsewhere: iso(T0) })]),
      record('waiting', [ref('waiting', { sentAt: iso(T0), queuedAt: iso(T0) })], { status: 'queued' }),
      record('failed', [confirmed('failed')], { status: 'failed' }),
    ]);
    expect([...(forceLookParts(state, new Set(['m-team']), [{ name: 'pai' }]).get(GROUP) ?? [])]).toEqual([confirmed('own').marker]);
    // `--source` names another source: none of these is the run's to look at.
    expect(forceLookParts(state, new Set(['m-team']), [{ name: 'auto-memory' }]).size).toBe(0);
    expect(withForceLook(new Map([[GROUP, new Set(['a'])]]), new Map([[GROUP, new Set(['b'])], ['h', new Set(['c'])]]))).toEqual(new Map([[GROUP, new Set(['a', 'b'])], ['h', new Set(['c'])]]));
  });

  it('a confirmed part a complete listing no longer shows is sent again (its uuid forgotten); one still listed is left alone', () => {
    const lost = confirmed('lost');
    const kept = confirmed('kept');
    const state = stateOf([record('lost', [lost]), record('kept', [kept])]);
    const r = reconcile(input(state, [episode(kept)]));
    expect(r.lost.map((l) => l.ref)).toEqual([lost]);
    expect(r.resends).toEqual([]);
    applyReconciliation(state, r, iso(T0 + 86_400_000));
    expect([lost.uuid, lost.confirmedAt, lost.sentAt, lost.queuedAt]).toEqual([undefined, undefined, undefined, undefined]);
    expect(kept.uuid).toBe('u-kept');
  });

  it('judges nothing from a listing that did not cover the group, nor from a blind one (a server that lists only the group it last wrote to)', () => {
    const state = stateOf([record('lost', [confirmed('lost')])]);
    expect(reconcile(input(state, [], { listing: new Map([[GROUP, { episodes: [], complete: false, requests: 1, listed: 0 }]]) })).lost).toEqual([]);
    expect(reconcile(input(state, [], { listing: new Map([[GROUP, { episodes: [], complete: true, blind: true, requests: 1, listed: 0 }]]) })).lost).toEqual([]);
    expect(reconcile(input(state, [], { listing: new Map() })).lost).toEqual([]);
  });

  it('without --force nothing confirmed is judged; a part COPY_WATCH looks after is left to its rules (DELETED_ON_PURPOSE)', () => {
    const state = stateOf([record('lost', [confirmed('lost')])]);
    expect(reconcile(input(state, [], { forced: undefined })).lost).toEqual([]);
    const watched = reconcile(input(state, [], { watched: new Map([[GROUP, new Set([confirmed('lost').marker])]]) }));
    expect(watched.lost).toEqual([]);
    expect(watched.goneWaiting.map((g) => g.how)).toEqual(['cleared']);
  });

  it('EMPTIED_GRAPH: asks one episode of each group holding our confirmed notes (at most MAX_GROUPS_ASKED), and names those that list none, with how many notes', async () => {
    const inGroup = (fileId: string, group: string, extra: Partial<EpisodeRef> = {}) => confirmed(fileId, { groupId: group, ...extra });
    const state = stateOf([
      record('a', [inGroup('a', 'g1')]),
      record('b', [inGroup('b', 'g1')]),
      record('c', [inGroup('c', 'g2')]),
      record('d', [inGroup('d', 'g3', { foreign: true })]),
      record('e', [inGroup('e', 'g4')]),
      record('f', [inGroup('f', 'g5')]),
      record('g', [inGroup('g', 'g6')]),
    ]);
    const asked: string[] = [];
    const emptied = await emptiedGroups(state, new Set(), async (group) => (asked.push(group), group === 'g2'));
    expect(asked).toHaveLength(MAX_GROUPS_ASKED);
    expect(asked).not.toContain('g3'); // another machine's episode: COPY_WATCH's
    expect(emptied).toEqual([{ group: 'g1', notes: 2 }, { group: 'g4', notes: 1 }]);
    expect(await emptiedGroups(stateOf([]), new Set(), async () => false)).toEqual([]);
  });
});
