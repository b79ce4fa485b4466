/**
 * COPY_HOLD as pure rules (sync/copy-hold.ts): when a loaded state counts as another machine's, what
 * a held part does to the delete phase's order, and to the facts counted stale. The end-to-end cases
 * with two machines on one server are test/sync/origin-copy.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { formatMarker } from '../../src/lib/memory/episode.js';
import { createEmptyState, type EpisodeRef, type FileRecord, type SyncState } from '../../src/lib/state/state.js';
import { retiredEpisodeUuids } from '../../src/lib/state/retired.js';
import { COPY_WATCH_MAX_MS, COPY_WATCH_MIN_MS, copyWatchDue, heldAsCopy, keepAsOurs, partsHeldAsCopy, recordCopyWatch, sentHereSinceTakeUp, takeUpState } from '../../src/lib/sync/copy-hold.js';
import { applyReconciliation, reconcile } from '../../src/lib/sync/reconcile.js';
import { parseMarker } from '../../src/lib/memory/episode.js';
import type { Listing, ListedEpisode } from '../../src/lib/sync/listing.js';
import { readyToSend, retiredDue } from '../../src/lib/sync/retire.js';
import { GENERATION_SEMANTICS, type ServerSemantics } from '../../src/lib/graphiti/semantics.js';
import type { OriginPlace } from '../../src/lib/util/origin.js';

const iso = '2026-01-01T00:00:00.000Z';
const part = (fileId: string, hash: string, uuid?: string): EpisodeRef => ({ marker: formatMarker({ fileId, hash, part: 1, parts: 1, origin: 'm-shared' }), name: fileId, groupId: 'g', part: 1, parts: 1, resends: 0, ...(uuid === undefined ? {} : { uuid }) });

function stateWith(): { state: SyncState; record: FileRecord } {
  const state = createEmptyState(iso);
  const record: FileRecord = { id: 'pai:one.md', source: 'pai', kind: 'pai', relPath: 'one.md', fileId: 'one', hash: 'b'.repeat(24), mtimeMs: 1, size: 1, status: 'confirmed', episodes: [part('one', 'b'.repeat(12), 'u-current')], superseded: [part('one', 'a'.repeat(12), 'u-old')], attempts: 0, firstSeenAt: iso, updatedAt: iso };
  state.files[record.id] = record;
  state.orphans = [part('gone', 'c'.repeat(12), 'u-gone')];
  return { state, record };
}

const config = (machineKey: string | undefined, originPlace: OriginPlace = 'here') => ({ machineKey, originPlace, stateDir: '/nonexistent' });

describe('copy-hold: taking up a state', () => {
  it('a state stamped by another machine: every part it names is marked, and the folder is to be stamped as this machine\'s', () => {
    const { state } = stateWith();
    expect(takeUpState(config('k-b'), state, false, 'k-a', iso)).toEqual({ stamp: true, marked: 3 });
    expect(partsHeldAsCopy(state).map((r) => r.uuid)).toEqual(['u-old', 'u-gone']);
    expect(state.takenUpAt).toBe(iso);
    // Taken up once: the next run (stamped now) marks nothing more.
    expect(takeUpState(config('k-b'), state, false, 'k-b')).toEqual({ stamp: false, marked: 0 });
  });

  it('no stamp (made before stamps): this machine\'s, unless the origin beside it was made elsewhere too (a copied home from an earlier version)', () => {
    const a = stateWith().state;
    expect(takeUpState(config('k-b', 'here'), a, false, undefined)).toEqual({ stamp: true, marked: 0 });
    const b = stateWith().state;
    expect(takeUpState(config('k-b', 'elsewhere'), b, false, undefined)).toEqual({ stamp: true, marked: 3 });
    // A fresh state beside an origin made elsewhere (a synced folder's second machine): nothing to mark.
    expect(takeUpState(config('k-b', 'elsewhere'), createEmptyState(iso), true, undefined)).toEqual({ stamp: true, marked: 0 });
  });

  it('no machine id here (a container): nothing is ever marked or stamped', () => {
    const { state } = stateWith();
    expect(takeUpState(config(undefined, 'unknown'), state, false, 'k-a')).toEqual({ stamp: false, marked: 0 });
    expect(partsHeldAsCopy(state)).toEqual([]);
  });

  it('keep clears every mark; split retires only what was sent here since the take-up', () => {
    const { state, record } = stateWith();
    takeUpState(config('k-b'), state, false, 'k-a', iso);
    const sentHere = part('one', 'd'.repeat(12), 'u-sent-here');
    record.episodes = [sentHere];
    expect(sentHereSinceTakeUp(state)).toEqual([sentHere]);
    expect(keepAsOurs(state)).toBe(2);
    expect(partsHeldAsCopy(state)).toEqual([]);
    expect(state.takenUpAt).toBeUndefined();
    // A state made here (never taken up): nothing it names is known to be sent here rather than adopted.
    expect(sentHereSinceTakeUp(state)).toEqual([]);
  });
});

describe('copy-hold: what a held part does to the delete phase', () => {
  const breakFirst = GENERATION_SEMANTICS['0.29.3'] as ServerSemantics;

  it('does not hold a new version back on a break-before-make server, takes no run online, and its facts are not stale', () => {
    const { state, record } = stateWith();
    takeUpState(config('k-b'), state, false, 'k-a', iso);
    expect(record.superseded.every(heldAsCopy)).toBe(true);
    expect(readyToSend(record, { semantics: breakFirst, sharedOrigins: new Set() })).toBe(true);
    expect(retiredDue(state, Date.parse(iso))).toBe(false);
    expect(retiredEpisodeUuids(state, { evenBeforeReplacement: true }).size).toBe(0);
    keepAsOurs(state);
    expect(readyToSend(record, { semantics: breakFirst, sharedOrigins: new Set() })).toBe(false);
    expect(retiredDue(state, Date.parse(iso))).toBe(true);
    expect([...retiredEpisodeUuids(state, { evenBeforeReplacement: true })].sort()).toEqual(['u-gone', 'u-old']);
  });
});

describe('copy-hold: COPY_WATCH, the copy\'s look at the episodes its unchanged notes rest on', () => {
  const t0 = Date.parse(iso);
  const listed = (uuids: Record<string, string>, extra: Partial<{ complete: boolean; blind: boolean }> = {}): Listing =>
    new Map([['g', { episodes: Object.entries(uuids).map(([marker, uuid]): ListedEpisode => ({ uuid, name: 'n', content: '', created_at: iso, source: 'text', source_description: marker, group_id: 'g', marker: parseMarker(marker) })), complete: true, requests: 1, listed: 1, ms: 1, ...extra }]]);
  const judge = (state: SyncState, listing: Listing, watched = copyWatchDue(state, t0, new Set())) => reconcile({ state, listing, now: t0, confirmMaxAgeMs: 60_000, maxResends: 3, rebuilding: false, watched });

  it('watches only the current parts on the other machine\'s episodes, own ones, and only when due', () => {
    const { state, record } = stateWith();
    expect(copyWatchDue(state, t0, new Set()).size).toBe(0); // never copied: never looks
    takeUpState(config('k-b'), state, false, 'k-a', iso);
    expect(copyWatchDue(state, t0, new Set())).toEqual(new Map([['g', new Set([record.episodes[0]?.marker])]]));
    // A shared source's part has co-owners who may replace it: not this rule's.
    expect(copyWatchDue(state, t0, new Set(['m-shared'])).size).toBe(0);
    recordCopyWatch(state, copyWatchDue(state, t0, new Set()), listed({ [record.episodes[0]?.marker as string]: 'u-current' }), 0, iso);
    expect(state.copyWatch).toEqual({ at: iso, everyMs: COPY_WATCH_MIN_MS });
    expect(copyWatchDue(state, t0 + COPY_WATCH_MIN_MS - 1, new Set()).size).toBe(0);
    expect(copyWatchDue(state, t0 + COPY_WATCH_MIN_MS, new Set()).size).toBe(1);
    // Edited here: nothing to look for until the new version is in the graph; then it is looked after too (the other machine shares its marker)...
    record.episodes = [part('one', 'd'.repeat(12))];
    expect(copyWatchDue(state, t0 + COPY_WATCH_MIN_MS, new Set()).size).toBe(0);
    record.episodes = [part('one', 'd'.repeat(12), 'u-sent-here')];
    expect(copyWatchDue(state, t0 + COPY_WATCH_MIN_MS, new Set())).toEqual(new Map([['g', new Set([record.episodes[0]?.marker])]]));
    // ...until the user says what this machine is.
    keepAsOurs(state);
    expect(copyWatchDue(state, t0 + COPY_WATCH_MIN_MS, new Set()).size).toBe(0);
  });

  it('looks less often while all is in place, soon again after a find; a look that did not see the group does not count', () => {
    const { state, record } = stateWith();
    takeUpState(config('k-b'), state, false, 'k-a', iso);
    const watched = copyWatchDue(state, t0, new Set());
    const marker = record.episodes[0]?.marker as string;
    recordCopyWatch(state, watched, new Map(), 0, iso);
    expect(state.copyWatch).toBeUndefined();
    recordCopyWatch(state, watched, listed({}, { blind: true }), 0, iso);
    expect(state.copyWatch).toBeUndefined();
    for (let i = 0; i < 12; i++) recordCopyWatch(state, watched, listed({ [marker]: 'u-current' }, { complete: false }), 0, iso);
    expect(state.copyWatch?.everyMs).toBe(COPY_WATCH_MAX_MS);
    recordCopyWatch(state, watched, listed({}), 1, iso);
    expect(state.copyWatch?.everyMs).toBe(COPY_WATCH_MIN_MS);
  });

  it('a watched part is gone only when a complete listing that is not blind shows no copy of its marker; then it is sent again as this machine\'s own', () => {
    const { state, record } = stateWith();
    takeUpState(config('k-b'), state, false, 'k-a', iso);
    const current = record.episodes[0] as EpisodeRef;
    expect(judge(state, listed({ [current.marker]: 'u-current' })).goneElsewhere).toEqual([]);
    // Another copy of the same marker (the other machine reverted and sent it again): taken, not sent.
    expect(judge(state, listed({ [current.marker]: 'u-other' })).goneElsewhere).toEqual([]);
    expect(judge(state, listed({}, { complete: false })).goneElsewhere).toEqual([]);
    expect(judge(state, listed({}, { blind: true })).goneElsewhere).toEqual([]);
    // A complete listing that did not look for it (the local server's direct read finds by marker): no judgement.
    expect(judge(state, listed({}), new Map()).goneElsewhere).toEqual([]);
    // The group holds something else: the other machine deleted this note (not linked here), sent again.
    const r = judge(state, listed({ [part('two', 'e'.repeat(12)).marker]: 'u-two' }));
    expect(r.goneElsewhere.map((x) => x.ref)).toEqual([current]);
    expect(r.goneElsewhere[0]?.beside).toBe(false);
    applyReconciliation(state, r, iso);
    expect(current).toMatchObject({ resends: 0 });
    expect(current.uuid).toBeUndefined();
    expect(current.foreign).toBeUndefined();
    expect(current.sentAt).toBeUndefined();
    // The other machine's older version and deleted note stay held.
    expect(partsHeldAsCopy(state).map((x) => x.uuid)).toEqual(['u-old', 'u-gone']);
  });

  it('DELETED_ON_PURPOSE: a group that shows nothing was cleared, and a note pull judges was deleted on one of the person\'s machines: neither is sent again, watched or held; the other machine\'s edit is sent again beside it', () => {
    const cleared = stateWith();
    takeUpState(config('k-b'), cleared.state, false, 'k-a', iso);
    const current = cleared.record.episodes[0] as EpisodeRef;
    // Not at first sight (an edit in flight may leave the group empty for a while): remembered, nothing sent.
    const first = judge(cleared.state, listed({}));
    expect([first.goneElsewhere, first.leftDeleted]).toEqual([[], []]);
    applyReconciliation(cleared.state, first, iso);
    expect(current.goneSeen).toEqual({ since: iso, how: 'cleared' });
    expect(heldAsCopy(current)).toBe(false); // its episode was seen gone: nothing to hold
    // Once the absence has settled (the group's patience: here the maximum, none known), left deleted, by what the first look saw, though the group has been written to since.
    const later = t0 + 60_000;
    const other = { [part('two', 'e'.repeat(12)).marker]: 'u-two' };
    const r = reconcile({ state: cleared.state, listing: listed(other), now: later, confirmMaxAgeMs: 60_000, maxResends: 3, rebuilding: false, watched: copyWatchDue(cleared.state, later, new Set()) });
    expect(r.goneElsewhere).toEqual([]);
    expect(r.leftDeleted.map((x) => x.why)).toEqual(['cleared']);
    applyReconciliation(cleared.state, r, iso);
    expect(current).toMatchObject({ uuid: 'u-current', deletedElsewhere: iso });
    expect(current.goneSeen).toBeUndefined();
    expect(copyWatchDue(cleared.state, t0, new Set()).size).toBe(0);
    // Edited here later: the part it replaces holds nothing (its episode is gone).
    cleared.record.superseded.push(current);
    expect(heldAsCopy(current)).toBe(false);

    const linked = stateWith();
    takeUpState(config('k-b'), linked.state, false, 'k-a', iso);
    const byPull = reconcile({ state: linked.state, listing: listed(other), now: t0, confirmMaxAgeMs: 60_000, maxResends: 3, rebuilding: false, watched: copyWatchDue(linked.state, t0, new Set()), pullJudges: new Set([linked.record.id]) });
    expect(byPull.goneWaiting.map((x) => x.how)).toEqual(['deleted-by-person']);
    applyReconciliation(linked.state, byPull, iso);

    // The other machine's own version of the note is listed by the next look: it was its edit in flight, whatever pull knows or the first look saw: sent again, beside it.
    const edited = reconcile({ state: linked.state, listing: listed({ ...other, [part('one', 'f'.repeat(12)).marker]: 'u-edit' }), now: t0, confirmMaxAgeMs: 60_000, maxResends: 3, rebuilding: false, watched: copyWatchDue(linked.state, t0, new Set()), pullJudges: new Set([linked.record.id]) });
    expect(edited.goneElsewhere.map((x) => x.beside)).toEqual([true]);
    applyReconciliation(linked.state, edited, iso);
    expect(linked.record.episodes[0]?.resentBeside).toBe(true);
    expect(linked.record.episodes[0]?.goneSeen).toBeUndefined();

    // Seen gone, then in view again (a listing that missed it): the mark goes.
    const flicker = stateWith();
    takeUpState(config('k-b'), flicker.state, false, 'k-a', iso);
    applyReconciliation(flicker.state, judge(flicker.state, listed({})), iso);
    const seen = flicker.record.episodes[0] as EpisodeRef;
    expect(seen.goneSeen).toBeDefined();
    applyReconciliation(flicker.state, judge(flicker.state, listed({ [seen.marker]: 'u-current' })), iso);
    expect(seen.goneSeen).toBeUndefined();
  });

  it('CLEARED_WITNESS: what the other machine cannot delete, seen by a look and all gone at the next, reads as a clear though the group was written to again; one still listed: the other machine deleted the note, sent again', () => {
    const origins = { ours: new Set(['m-shared']), shared: new Set<string>() };
    const teammate = (fileId: string) => formatMarker({ fileId, hash: 'e'.repeat(12), part: 1, parts: 1, origin: 'm-teammate' });
    const { state, record } = stateWith();
    takeUpState(config('k-b'), state, false, 'k-a', iso);
    const current = record.episodes[0] as EpisodeRef;
    const watched = copyWatchDue(state, t0, new Set());
    // The look records another writer's episode and one without our marker; nothing under our origin (the other machine's, or what this one sent of its texts).
    recordCopyWatch(state, watched, listed({ [current.marker]: 'u-current', [teammate('team')]: 'u-team', 'not a marker': 'u-plain', [part('two', 'f'.repeat(12)).marker]: 'u-two' }), 0, iso, origins);
    expect(state.copyWatch?.witnesses).toEqual({ g: ['u-team', 'u-plain'] });
    // A look that is not complete says nothing of the rest of the group: the witnesses stand.
    recordCopyWatch(state, watched, listed({ [current.marker]: 'u-current' }, { complete: false }), 0, iso, origins);
    expect(state.copyWatch?.witnesses).toEqual({ g: ['u-team', 'u-plain'] });

    // Cleared, and written to again by the other writer before this look: not sent again.
    const cleared = judge(state, listed({ [teammate('after')]: 'u-after' }), watched);
    expect(cleared.goneElsewhere).toEqual([]);
    expect(cleared.goneWaiting.map((x) => x.how)).toEqual(['cleared']);
    // One of them still listed: the other machine deleted the note (not linked here): sent again.
    const deleted = judge(state, listed({ [teammate('team')]: 'u-team', [teammate('after')]: 'u-after' }), watched);
    expect(deleted.goneElsewhere.map((x) => x.ref)).toEqual([current]);
    // No witness recorded: only an empty group reads as cleared (as before).
    delete state.copyWatch;
    expect(judge(state, listed({ [teammate('after')]: 'u-after' }), watched).goneElsewhere.map((x) => x.ref)).toEqual([current]);
  });

  it('TAKEN_BACK: a part the copy sent, confirmed, then listed twice with its own copy kept: the other machine wrote this very text, so it rests on that machine\'s now (held, never retired by a split); not a first confirmation, not a foreign part, not a settled state', () => {
    const { state, record } = stateWith();
    takeUpState(config('k-b'), state, false, 'k-a', iso);
    const sent = part('one', 'd'.repeat(12), 'a-mine');
    record.episodes = [sent];
    const twice = (uuids: string[]): Listing => new Map([['g', { episodes: uuids.map((uuid): ListedEpisode => ({ uuid, name: 'n', content: '', created_at: iso, source: 'text', source_description: sent.marker, group_id: 'g', marker: parseMarker(sent.marker) })), complete: true, requests: 1, listed: 1, ms: 1 }]]);
    const r = judge(state, twice(['a-mine', 'z-theirs']));
    expect(r.takenBack).toEqual([sent]);
    // Its own extra is that machine's to retire: held here, never deleted by this one.
    expect(r.duplicates.map((d) => [d.uuid, d.foreign])).toEqual([['z-theirs', true]]);
    applyReconciliation(state, r, iso);
    expect(sent.foreign).toBe(true);
    expect(sentHereSinceTakeUp(state).map((x) => x.uuid)).not.toContain('a-mine');

    // A first confirmation that finds two (its own send repeated before a crash): not taken back.
    const first = stateWith();
    takeUpState(config('k-b'), first.state, false, 'k-a', iso);
    const fresh = { ...part('one', 'd'.repeat(12)), sentAt: iso };
    first.record.episodes = [fresh];
    expect(judge(first.state, twice(['a-mine', 'z-theirs'])).takenBack).toEqual([]);
    // A settled state (no copy taken up): never.
    const settled = stateWith();
    settled.record.episodes = [part('one', 'd'.repeat(12), 'a-mine')];
    expect(reconcile({ state: settled.state, listing: twice(['a-mine', 'z-theirs']), now: t0, confirmMaxAgeMs: 60_000, maxResends: 3, rebuilding: false }).takenBack).toEqual([]);
  });

  it('SPLIT_HANDS_OVER: a split retires what was sent beside the other machine\'s edit held, until a look shows another version of the note (deleted) or none (left to that machine)', () => {
    const make = () => {
      const { state, record } = stateWith();
      takeUpState(config('k-b'), state, false, 'k-a', iso);
      const resent = { ...part('one', 'b'.repeat(12), 'u-resent'), resentBeside: true as const };
      record.episodes = [resent];
      const split = createEmptyState(iso);
      split.orphans = sentHereSinceTakeUp(state);
      return { split, marker: resent.marker };
    };
    const { split, marker } = make();
    expect(split.orphans).toEqual([expect.objectContaining({ uuid: 'u-resent', foreign: true, handOver: true })]);
    expect(split.orphans[0]).not.toHaveProperty('resentBeside');
    expect(partsHeldAsCopy(split)).toEqual([]); // no question to the user
    // `origin --keep` after the split does not release it either: only the look decides.
    expect(keepAsOurs(split)).toBe(0);
    expect(split.orphans[0]?.foreign).toBe(true);
    expect(copyWatchDue(split, t0, new Set())).toEqual(new Map([['g', new Set([marker])]]));
    // Not judged by a partial or blind look.
    expect(judge(split, listed({ [marker]: 'u-resent' }, { complete: false })).handOvers).toEqual([]);
    // Only it is listed under its note: maybe the other machine's current one (a revert): left, never deleted.
    const left = judge(split, listed({ [marker]: 'u-resent' }));
    expect(left.handOvers.map((h) => h.verdict)).toEqual(['leave']);
    applyReconciliation(split, left, iso);
    expect(split.orphans).toEqual([]);

    // Another version of the note under that origin is listed: the other machine's current one is that: this one is deleted.
    const other = make();
    const released = judge(other.split, listed({ [other.marker]: 'u-resent', [part('one', 'f'.repeat(12)).marker]: 'u-a-now' }));
    expect(released.handOvers.map((h) => h.verdict)).toEqual(['delete']);
    applyReconciliation(other.split, released, iso);
    expect(other.split.orphans).toEqual([expect.objectContaining({ uuid: 'u-resent' })]);
    expect(other.split.orphans[0]).not.toHaveProperty('foreign');
    expect(heldAsCopy(other.split.orphans[0] as EpisodeRef)).toBe(false);
  });
});
