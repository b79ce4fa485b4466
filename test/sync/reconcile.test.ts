/**
 * The reconcile phase as a pure function: state + listing + clock → decisions, no server.
 * Each case builds a small state by hand and a listing like get_episodes returns.
 */
import { describe, expect, it } from 'vitest';
import { withMarker, type ListedEpisode, type OurGroupListing } from '../../src/lib/sync/listing.js';
import { formatMarker } from '../../src/lib/memory/episode.js';
import { createEmptyState, type EpisodeRef, type FileRecord, type SyncState } from '../../src/lib/state/state.js';
import { applyReconciliation, reconcile, type ReconcileInput } from '../../src/lib/sync/reconcile.js';
import { paceOf } from '../../src/lib/sync/pace.js';
import { waitsAfterJump } from '../../src/lib/sync/clock-jump.js';
import { cli } from '../../src/lib/util/install-route.js';

/** The running copy's command (this checkout's: node and the path of its dist/cli.js), as a regular expression. */
const CLI = cli().replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const T0 = Date.parse('2026-01-01T00:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();
const GROUP = 'g';
const HASH = 'aaaaaaaaaaaaaaaaaaaaaaaa';

function ref(fileId: string, part: number, parts: number, extra: Partial<EpisodeRef> = {}, hash = HASH, origin: string | undefined = 'm-me'): EpisodeRef {
  return { marker: formatMarker({ fileId, hash, part, parts, origin }), name: `${fileId} ${part}`, groupId: GROUP, part, parts, resends: 0, ...extra };
}

function record(fileId: string, episodes: EpisodeRef[], extra: Partial<FileRecord> = {}): FileRecord {
  return {
    id: `pai:${fileId}.md`, source: 'pai', kind: 'pai', relPath: `${fileId}.md`, fileId, hash: HASH, mtimeMs: 1, size: 1,
    status: 'queued', episodes, superseded: [], attempts: 0, firstSeenAt: iso(T0), updatedAt: iso(T0), ...extra,
  };
}

function stateOf(records: FileRecord[], orphans: EpisodeRef[] = []): SyncState {
  const state = createEmptyState(iso(T0));
  for (const r of records) state.files[r.id] = r;
  state.orphans = orphans;
  return state;
}

/** A listed episode; `processedAt` is its created_at (when the server processed it). */
function episode(r: EpisodeRef, uuid: string, processedAt?: number): ListedEpisode {
  return withMarker({ uuid, name: r.name, content: '', created_at: processedAt === undefined ? null : iso(processedAt), source: 'text', source_description: `pai memory x ${r.marker}`, group_id: r.groupId });
}

function input(state: SyncState, episodes: ListedEpisode[], now: number, extra: Partial<ReconcileInput> = {}): ReconcileInput {
  return { state, listing: new Map([[GROUP, { episodes, complete: true, requests: 1, listed: episodes.length }]]), now, confirmMaxAgeMs: 60_000, maxResends: 2, rebuilding: false, ...extra };
}

describe('reconcile (pure)', () => {
  it('confirms a queued part that became visible, and adopts one that was never sent', () => {
    const queued = ref('f1', 1, 1, { sentAt: iso(T0), queuedAt: iso(T0) });
    const unsent = ref('f2', 1, 1);
    const state = stateOf([record('f1', [queued]), record('f2', [unsent], { status: 'pending' })]);
    const r = reconcile(input(state, [episode(queued, 'u1'), episode(unsent, 'u2')], T0 + 1000));
    expect(r.confirmations.map((c) => [c.uuid, c.adopted])).toEqual([['u1', false], ['u2', true]]);
    expect(r.duplicates).toEqual([]);
    expect(r.resends).toEqual([]);
    // Pure: nothing in the state changed.
    expect(queued.uuid).toBeUndefined();
    applyReconciliation(state, r, iso(T0 + 1000));
    expect(queued.uuid).toBe('u1');
    expect(unsent).toMatchObject({ uuid: 'u2', sentAt: iso(T0 + 1000), confirmedAt: iso(T0 + 1000) });
  });

  it('an unsigned episode replaced by its signed re-send is never taken for the current part with the same marker: the new copy is confirmed, the old one stays retired, no duplicate', () => {
    const old = ref('f1', 1, 1, { sentAt: iso(T0), queuedAt: iso(T0), uuid: 'old', confirmedAt: iso(T0), unsigned: true });
    const resent = ref('f1', 1, 1, { sentAt: iso(T0 + 500), queuedAt: iso(T0 + 500) });
    const state = stateOf([record('f1', [resent], { superseded: [old] })]);
    // Before the new copy is processed: only the old one is listed, and it confirms nothing.
    const early = reconcile(input(state, [episode(old, 'old', T0)], T0 + 600));
    expect(early.confirmations).toEqual([]);
    expect(early.duplicates).toEqual([]);
    const r = reconcile(input(state, [episode(old, 'old', T0), episode(resent, 'new', T0 + 700)], T0 + 1000));
    expect(r.confirmations.map((c) => [c.uuid, c.adopted])).toEqual([['new', false]]);
    expect(r.duplicates).toEqual([]);
    expect(r.resends).toEqual([]);
    // An older version brought back by a revert (not flagged) is taken back instead: nothing sent again.
    const revert = ref('f1', 1, 1);
    const reverted = stateOf([record('f1', [revert], { superseded: [{ ...old, unsigned: undefined }] })]);
    expect(reconcile(input(reverted, [episode(old, 'old', T0)], T0 + 600)).confirmations.map((c) => c.uuid)).toEqual(['old']);
  });

  it('a marker listed twice: keeps the copy processed first (it created the facts) and retires the other, whichever the state knew', () => {
    const part = ref('f1', 1, 1, { sentAt: iso(T0), queuedAt: iso(T0), uuid: 'known', confirmedAt: iso(T0) });
    const state = stateOf([record('f1', [part], { status: 'confirmed' })]);
    // The known copy was processed first: it stays, the later one goes.
    const r = reconcile(input(state, [episode(part, 'a-later', T0 + 5), episode(part, 'known', T0 + 1)], T0 + 10));
    expect(r.confirmations).toEqual([]);
    expect(r.duplicates.map((d) => d.uuid)).toEqual(['a-later']);
    // A copy processed before the one the state knows (a re-send after a crash) created the facts: it is kept instead.
    const earlier = reconcile(input(state, [episode(part, 'known', T0 + 5), episode(part, 'z-earlier', T0 + 1)], T0 + 10));
    expect(earlier.confirmations.map((c) => c.uuid)).toEqual(['z-earlier']);
    expect(earlier.duplicates.map((d) => d.uuid)).toEqual(['known']);
    applyReconciliation(state, earlier, iso(T0 + 10));
    expect(part.uuid).toBe('z-earlier');
    expect(state.orphans.map((o) => o.uuid)).toEqual(['known']);
  });

  it('FIFO evidence: a part sent later is visible and an earlier one is not → re-send the earlier one', () => {
    const early = ref('f1', 1, 1, { sentAt: iso(T0), queuedAt: iso(T0) });
    const late = ref('f2', 1, 1, { sentAt: iso(T0 + 10), queuedAt: iso(T0 + 10) });
    const state = stateOf([record('f1', [early]), record('f2', [late])]);
    const r = reconcile(input(state, [episode(late, 'u2')], T0 + 20));
    expect(r.resends.map((x) => [x.record.fileId, x.evidence])).toEqual([['f1', 'fifo']]);
    applyReconciliation(state, r, iso(T0 + 20));
    expect(early).toMatchObject({ resends: 1 });
    expect(early.sentAt).toBeUndefined();
    expect(early.queuedAt).toBeUndefined();
  });

  it('a queue that keeps moving is no drop; a stalled one is, after confirmMaxAge', () => {
    const waiting = ref('f1', 1, 1, { sentAt: iso(T0), queuedAt: iso(T0) });
    const state = stateOf([record('f1', [waiting])]);
    // No progress, not old enough yet.
    expect(reconcile(input(state, [], T0 + 59_000)).resends).toEqual([]);
    // Another of our parts in the group was confirmed recently (progress), so the age alone is no proof.
    const other = ref('f0', 1, 1, { sentAt: iso(T0 - 5000), queuedAt: iso(T0 - 5000), uuid: 'u0', confirmedAt: iso(T0 + 100_000) });
    const moving = stateOf([record('f0', [other], { status: 'confirmed' }), record('f1', [waiting])]);
    expect(reconcile(input(moving, [episode(other, 'u0')], T0 + 120_000)).resends).toEqual([]);
    // No progress for longer than confirmMaxAge: dropped.
    expect(reconcile(input(state, [], T0 + 61_000)).resends.map((x) => x.evidence)).toEqual(['age']);
  });

  it('re-sends used up → a drop that fails the file', () => {
    const part = ref('f1', 1, 1, { sentAt: iso(T0), queuedAt: iso(T0), resends: 2 });
    const state = stateOf([record('f1', [part])]);
    const r = reconcile(input(state, [], T0 + 61_000));
    expect(r.resends).toEqual([]);
    expect(r.drops).toHaveLength(1);
    expect(r.drops[0]?.message).toMatch(new RegExp(String.raw`^dropped: the server accepted this episode 3 times.*; once that is fixed, "${CLI} sync --force" sends it again$`));
    applyReconciliation(state, r, iso(T0 + 61_000));
    expect(state.files['pai:f1.md']?.status).toBe('failed');
  });

  it('a restart: what was queued before the server that answers started, and is not listed, is lost at once; it does not use up the re-sends', () => {
    const before = ref('f1', 1, 1, { sentAt: iso(T0), queuedAt: iso(T0), resends: 2 });
    const seen = ref('f2', 1, 1, { sentAt: iso(T0), queuedAt: iso(T0) });
    const after = ref('f3', 1, 1, { sentAt: iso(T0 + 5000), queuedAt: iso(T0 + 5000) });
    const oldVersion = ref('f4', 1, 1, { sentAt: iso(T0), queuedAt: iso(T0) }, 'dddddddddddddddd');
    const file4 = record('f4', [ref('f4', 1, 1, { sentAt: iso(T0), uuid: 'u4', confirmedAt: iso(T0) })], { status: 'confirmed' });
    file4.superseded = [oldVersion];
    const state = stateOf([record('f1', [before]), record('f2', [seen]), record('f3', [after]), file4]);
    const restartedAt = T0 + 2000;
    const listing = (serverSince?: number) => new Map([[GROUP, { episodes: [episode(seen, 'u2', T0 + 1000)], complete: true, requests: 1, listed: 1, ...(serverSince === undefined ? {} : { serverSince }) }]]);
    // Without knowing the restart: nothing is judged a second after it (the queue may still be working).
    expect(reconcile({ ...input(state, [], T0 + 3000), listing: listing() }).resends).toEqual([]);
    const r = reconcile({ ...input(state, [], T0 + 3000), listing: listing(restartedAt) });
    expect(r.confirmations.map((c) => c.uuid)).toEqual(['u2']);
    expect(r.resends.map((x) => [x.record.fileId, x.evidence])).toEqual([['f1', 'restart']]);
    expect(r.drops).toEqual([]);
    expect(r.vanished.has(oldVersion)).toBe(true);
    // A capped listing proves nothing absent, restart or not.
    expect(reconcile({ ...input(state, [], T0 + 3000), listing: new Map([[GROUP, { ...listing(restartedAt).get(GROUP)!, complete: false }]]) }).resends).toEqual([]);
    applyReconciliation(state, r, iso(T0 + 3000));
    expect(before).toMatchObject({ resends: 2 });
    expect(before.sentAt).toBeUndefined();
  });

  it('retired parts: located when listed, vanished when never sent or dropped', () => {
    const listed = ref('f1', 1, 1, { sentAt: iso(T0), queuedAt: iso(T0) }, 'bbbbbbbbbbbbbbbb');
    const neverSent = ref('f1', 1, 1, {}, 'cccccccccccccccc');
    const lost = ref('gone', 1, 1, { sentAt: iso(T0), queuedAt: iso(T0) });
    const current = ref('f1', 1, 1, { sentAt: iso(T0), uuid: 'cur', confirmedAt: iso(T0) });
    const file = record('f1', [current], { status: 'confirmed' });
    file.superseded = [listed, neverSent];
    const state = stateOf([file], [lost]);
    const r = reconcile(input(state, [episode(current, 'cur'), episode(listed, 'old')], T0 + 61_000));
    expect(r.located.map((l) => l.uuid)).toEqual(['old']);
    expect([...r.vanished]).toEqual([neverSent, lost]);
    applyReconciliation(state, r, iso(T0 + 61_000));
    expect(file.superseded).toEqual([{ ...listed, uuid: 'old' }]);
    expect(state.orphans).toEqual([]);
  });

  it('rebuilding lost state: a visible older version of a current file is retired; unrelated episodes are left alone', () => {
    const current = ref('f1', 1, 1, { sentAt: iso(T0), queuedAt: iso(T0) });
    const older = ref('f1', 1, 1, {}, 'dddddddddddddddd');
    const foreign = ref('zz', 1, 1);
    const state = stateOf([record('f1', [current])]);
    // The same file at the same path, from another origin (a teammate, another machine), and from before origins existed.
    const theirs = ref('f1', 1, 1, {}, 'eeeeeeeeeeeeeeee', 'm-teammate');
    const legacy = { ...older, marker: formatMarker({ fileId: 'f1', hash: 'ffffffffffffffff', part: 1, parts: 1 }) };
    const listing = [episode(current, 'u1'), episode(older, 'u-old'), episode(foreign, 'u-zz'), episode(theirs, 'u-theirs'), episode(legacy, 'u-legacy')];
    expect(reconcile(input(state, listing, T0)).stale).toEqual([]);
    const r = reconcile(input(state, listing, T0, { rebuilding: true }));
    expect(r.duplicates).toEqual([]);
    expect(r.stale.map((d) => d.ref.uuid)).toEqual(['u-old']);
    // It retires as an older version of the file (deleted in the order the server needs, never before the current one is known).
    applyReconciliation(state, r, iso(T0));
    expect(state.files['pai:f1.md']?.superseded.map((d) => d.uuid)).toEqual(['u-old']);
    expect(state.orphans).toEqual([]);
  });

  it('rebuilding lost state of a shared file: a version the state does not know is never retired (a co-owner may have sent a newer one)', () => {
    const shared = new Set(['team-notes']);
    const current = ref('f1', 1, 1, { sentAt: iso(T0), queuedAt: iso(T0) }, HASH, 'team-notes');
    const newer = ref('f1', 1, 1, {}, 'eeeeeeeeeeeeeeee', 'team-notes');
    const state = stateOf([record('f1', [current])]);
    const r = reconcile({ ...input(state, [episode(newer, 'u-newer', T0)], T0, { rebuilding: true }), sharedOrigins: shared });
    expect(r.stale).toEqual([]);
    expect(r.duplicates).toEqual([]);
  });

  it('a shared file listed twice: every owner keeps the copy processed first, whichever copy it knew', () => {
    const shared = new Set(['team-notes']);
    const mine = ref('f1', 1, 1, { sentAt: iso(T0), queuedAt: iso(T0), uuid: 'b-mine', confirmedAt: iso(T0) }, HASH, 'team-notes');
    const state = stateOf([record('f1', [mine], { status: 'confirmed' })]);
    const listing = [episode(mine, 'b-mine', T0 + 2), episode(mine, 'a-theirs', T0 + 1)];
    const r = reconcile({ ...input(state, listing, T0 + 1000), sharedOrigins: shared });
    expect(r.confirmations.map((c) => c.uuid)).toEqual(['a-theirs']);
    expect(r.duplicates.map((d) => d.uuid)).toEqual(['b-mine']);
    // The co-owner who knew nothing yet keeps the same one.
    const fresh = ref('f1', 1, 1, { sentAt: iso(T0), queuedAt: iso(T0) }, HASH, 'team-notes');
    const other = reconcile({ ...input(stateOf([record('f1', [fresh])]), listing, T0 + 1000), sharedOrigins: shared });
    expect(other.confirmations.map((c) => c.uuid)).toEqual(['a-theirs']);
    // Once a racing copy would have shown up, the shared part is settled and no longer listed.
    expect(reconcile({ ...input(state, [episode(mine, 'b-mine')], T0 + 5_000), sharedOrigins: shared }).settled).toEqual([]);
    expect(reconcile({ ...input(state, [episode(mine, 'b-mine')], T0 + 60 * 60_000), sharedOrigins: shared }).settled).toEqual([mine]);
    // The same rule when the times tie: the smallest uuid.
    expect(reconcile({ ...input(stateOf([record('f1', [{ ...fresh }])]), [episode(mine, 'b-mine', T0), episode(mine, 'a-theirs', T0)], T0 + 1000), sharedOrigins: shared }).confirmations.map((c) => c.uuid)).toEqual(['a-theirs']);
  });

  it('a shared part confirmed before a forward jump of the wall clock (ABSENCE_AFTER_JUMP): still listed until a racing copy would have appeared in real time, so a copy that turns up after the jump is resolved', () => {
    const shared = new Set(['team-notes']);
    const mine = ref('f1', 1, 1, { sentAt: iso(T0), queuedAt: iso(T0), uuid: 'b-mine', confirmedAt: iso(T0) }, HASH, 'team-notes');
    const state = stateOf([record('f1', [mine], { status: 'confirmed' })]);
    // Three hours on the wall clock, two seconds of real time (clock-jump.ts tells them apart at the run's start).
    const startedAt = T0 + 3 * 60 * 60_000 + 2_000;
    expect(waitsAfterJump(state, 3 * 60 * 60_000, startedAt, shared)).toBe(1);
    expect(reconcile({ ...input(state, [episode(mine, 'b-mine')], startedAt), sharedOrigins: shared }).settled).toEqual([]);
    // The co-owner's racing copy, processed first, shows up: every owner keeps it.
    const r = reconcile({ ...input(state, [episode(mine, 'b-mine', T0 + 2), episode(mine, 'a-theirs', T0 + 1)], startedAt + 1_000), sharedOrigins: shared });
    expect(r.duplicates.map((d) => d.uuid)).toEqual(['b-mine']);
    // Not shared, or settled already: left as it was.
    const own = ref('f2', 1, 1, { uuid: 'u2', confirmedAt: iso(T0) });
    const settled = ref('f3', 1, 1, { uuid: 'u3', confirmedAt: iso(T0), settledAt: iso(T0) }, HASH, 'team-notes');
    const other = stateOf([record('f2', [own], { status: 'confirmed' }), record('f3', [settled], { status: 'confirmed' })]);
    expect(waitsAfterJump(other, 3 * 60 * 60_000, startedAt, shared)).toBe(0);
    expect([own.confirmedAt, settled.confirmedAt]).toEqual([iso(T0), iso(T0)]);
  });

  it('a failed or skipped file is a verdict: its missing parts are not chased', () => {
    const part = ref('f1', 1, 1, { sentAt: iso(T0), queuedAt: iso(T0) });
    const state = stateOf([record('f1', [part], { status: 'failed' })]);
    const r = reconcile(input(state, [], T0 + 10 * 60_000));
    expect(r.resends).toEqual([]);
    expect(r.drops).toEqual([]);
  });
});

describe('reconcile: what a listing may prove', () => {
  it('a listing that did not cover the group proves nothing absent: no re-send, no vanished part', () => {
    const early = ref('f1', 1, 1, { sentAt: iso(T0), queuedAt: iso(T0) });
    const late = ref('f2', 1, 1, { sentAt: iso(T0 + 10), queuedAt: iso(T0 + 10) });
    const retired = ref('old', 1, 1, { sentAt: iso(T0), queuedAt: iso(T0) });
    const state = stateOf([record('f1', [early]), record('f2', [late], { superseded: [retired] })]);
    const partial = input(state, [episode(late, 'u2')], T0 + 3_600_000);
    partial.listing.set(GROUP, { episodes: [episode(late, 'u2')], complete: false, requests: 1, listed: 1 });
    const r = reconcile(partial);
    expect(r.confirmations.map((c) => c.uuid)).toEqual(['u2']); // what is seen still counts
    expect(r.resends).toEqual([]); // FIFO and age evidence need the whole group
    expect(r.vanished.size).toBe(0);
    // The same listing, complete: the early part was dropped (FIFO).
    expect(reconcile(input(state, [episode(late, 'u2')], T0 + 3_600_000)).resends.map((x) => x.evidence)).toEqual(['fifo']);
  });

  it('a group not listed this run is not judged at all, and its pace is kept', () => {
    const waiting = ref('f1', 1, 1, { sentAt: iso(T0), queuedAt: iso(T0) });
    const state = stateOf([record('f1', [waiting])]);
    state.groups = { [GROUP]: { size: 12_345, nextListingAt: T0 + 5_000 } };
    const r = reconcile({ ...input(state, [], T0 + 86_400_000), listing: new Map() });
    expect(r.resends).toEqual([]);
    expect(r.paces.size).toBe(0);
  });

  it('patience follows the group: seconds where episodes appear fast, never past the configured maximum', () => {
    const queuedAt = T0;
    const tail = ref('tail', 1, 1, { sentAt: iso(queuedAt), queuedAt: iso(queuedAt) });
    const fast = stateOf([record('tail', [tail])]);
    fast.groups = { [GROUP]: { stepsMs: [300, 320, 310], waitsMs: [0, 5, 10] } };
    const oldEpisode = { ...episode(ref('other', 1, 1), 'x'), source_description: 'someone else', created_at: iso(T0 - 1000) };
    const at = (ms: number, state: SyncState) => reconcile({ ...input(state, [oldEpisode], queuedAt + ms), confirmMaxAgeMs: 1_800_000 }).resends.length;
    expect(at(9_000, fast)).toBe(0); // at least 10 s of quiet, however fast the server
    expect(at(11_000, fast)).toBe(1);
    const slow = stateOf([record('tail', [{ ...tail }])]);
    slow.groups = { [GROUP]: { stepsMs: [150_000, 180_000, 170_000], waitsMs: [0, 60_000] } };
    expect(at(11 * 60_000, slow)).toBe(0); // a minutes-per-episode server gets minutes
    expect(at(16 * 60_000, slow)).toBe(1);
    const unknown = stateOf([record('tail', [{ ...tail }])]);
    expect(at(29 * 60_000, unknown)).toBe(0); // never seen moving: the configured maximum
    expect(at(31 * 60_000, unknown)).toBe(1);
  });
});

describe('reconcile: the order parts went to the server in (sync/send-order.ts)', () => {
  /**
   * Forty parts sent within one millisecond (concurrency 64, a fast server), each with its send
   * order; the group is busy (10,000 episodes) and takes 1 s per episode. A pace sample shows the
   * tenth part, started at 9 s: the other 30 sent after it in that millisecond are still ahead of
   * the worker. Counting by the millisecond took them for processed: the end looked reached.
   */
  function oneMillisecondBatch(withOrders: boolean) {
    const parts = Array.from({ length: 40 }, (_, i) => ref(`m${String(i).padStart(2, '0')}`, 1, 1, { sentAt: iso(T0), queuedAt: iso(T0 + 5), ...(withOrders ? { sendOrder: T0 * 1024 + i } : {}) }));
    const state = stateOf(parts.map((p) => record(p.marker.slice(0, 40), [p])));
    state.groups = { [GROUP]: { size: 10_000, stepsMs: Array(8).fill(1_000), listMs: [1_000] } };
    const head = parts[9] as EpisodeRef;
    const sample = { episodes: [episode(head, 'u9', T0 + 9_000)], complete: false, sample: true, requests: 1, listed: 1_000, ms: 150 };
    const r = reconcile(input(state, [], T0 + 9_500, { listing: new Map([[GROUP, sample]]) }));
    return { state, r, pace: r.paces.get(GROUP) };
  }

  it('a sample whose head has parts sent after it in its millisecond: they are still ahead, and the next look is a sample aimed at their end', () => {
    const { pace } = oneMillisecondBatch(true);
    expect(pace?.headAt).toBe(T0 + 9_000);
    // The end: the head's processing and the 30 after it, 1 s each (and its margins), not the head's own.
    expect(pace?.sampleUntil).toBeGreaterThanOrEqual(T0 + 9_000 + 31 * 1_000);
    expect(pace?.nextListingAt).toBeLessThan(pace?.sampleUntil as number);
  });

  it('the head keeps its place through the state (a wait that spans runs); parts sent by a build before send orders, answered after the head went out, are not taken for processed', () => {
    const { state, r, pace } = oneMillisecondBatch(true);
    applyReconciliation(state, r, iso(T0 + 9_500));
    expect(paceOf(state, GROUP).headSentAt).toBe(pace?.headSentAt);
    expect(paceOf(state, GROUP).headSentAt).toBeGreaterThan(T0);
    expect(paceOf(state, GROUP).headProofAt).toBe(pace?.headProofAt);
    // No send orders (a state written before them): the parts of the head's millisecond were in
    // flight together with it (answered at 5 ms), so none is proven ahead of it (send-order.ts
    // PROVEN_ORDER). By the millisecond alone (before): all 39 counted as processed, a full listing at once.
    const before = oneMillisecondBatch(false).pace;
    expect(before?.sampleUntil).toBeGreaterThanOrEqual(T0 + 9_000 + 40 * 1_000);
  });

  /** `count` parts handed off within one millisecond, each answered after all went out (send orders and reply orders), in a busy group at 1 s per episode (100 ms: `stepMs`). */
  function inFlightTogether(count: number, stepMs = 1_000) {
    const parts = Array.from({ length: count }, (_, i) => ref(`f${String(i).padStart(2, '0')}`, 1, 1, { sentAt: iso(T0), sendOrder: T0 * 1024 + i, queuedAt: iso(T0 + 5), queuedOrder: (T0 + 5) * 1024 + i }));
    const state = stateOf(parts.map((p) => record(p.marker.slice(0, 40), [p])));
    state.groups = { [GROUP]: { size: 10_000, stepsMs: Array(8).fill(stepMs), listMs: [1_000] } };
    const sample = (seen: ListedEpisode[]) => new Map([[GROUP, { episodes: seen, complete: false, sample: true, requests: 1, listed: 1_000, ms: 150 }]]);
    return { parts, state, sample };
  }

  it('forty in flight together, the server queued them in reverse: a sample showing the last one handed off, started first, takes none of the others for processed', () => {
    const { parts, state, sample } = inFlightTogether(40);
    const last = parts[39] as EpisodeRef;
    const r = reconcile(input(state, [], T0 + 1_500, { listing: sample([episode(last, 'u39', T0 + 1_000)]) }));
    const pace = r.paces.get(GROUP);
    expect(pace?.headAt).toBe(T0 + 1_000);
    // The 39 others are still ahead of the worker: the next look is a sample aimed at their end.
    // By the order handed off they counted as processed: the end looked reached, a full listing for nothing.
    expect(pace?.sampleUntil).toBeGreaterThanOrEqual(T0 + 1_000 + 40 * 1_000);
    expect(pace?.nextListingAt).toBeLessThan(pace?.sampleUntil as number);
  });

  it('a span over parts in flight together says nothing of the pace: thirty sent at once, two seen a processing time apart, is not 29 parts in 100 ms', () => {
    const { parts, state, sample } = inFlightTogether(30, 100);
    // The first one handed off was seen by an earlier sample, started at 1 s: it is the head.
    const first = parts[0] as EpisodeRef;
    first.uuid = 'u0';
    first.confirmedAt = iso(T0 + 1_200);
    state.groups = { [GROUP]: { ...state.groups?.[GROUP], headAt: T0 + 1_000, headSentAt: T0, headRepliedAt: T0 + 5 } };
    // The last one handed off was queued right after it (the server took them in another order).
    const r = reconcile(input(state, [], T0 + 1_500, { listing: sample([episode(parts[29] as EpisodeRef, 'u29', T0 + 1_100)]) }));
    const pace = r.paces.get(GROUP);
    expect(pace?.headAt).toBe(T0 + 1_100);
    // Between the two, anything from none to all 28 others ran: no processing time from it (by the
    // order handed off: 29 parts in 100 ms, a pace of 3 ms that replaced the group's).
    expect(pace?.stepsMs).toEqual(Array(8).fill(100));
  });

  it('LOST_SEEN_IN_PASSING: a confirmed part a complete get_episodes listing no longer shows is unseen (told, not sent again); the direct read, a sample, a blind or off-group listing, and a part pull waits on judge nothing', () => {
    const gone = ref('f1', 1, 1, { uuid: 'u1', confirmedAt: iso(T0) });
    const waiting = ref('f2', 1, 1, { sentAt: iso(T0), queuedAt: iso(T0) });
    const state = stateOf([record('f1', [gone], { status: 'confirmed' }), record('f2', [waiting])]);
    const inPassing = new Map([[GROUP, new Set([gone.marker])]]);
    const judged = (listed: Partial<OurGroupListing>, extra: Partial<ReconcileInput> = {}) =>
      reconcile({ ...input(state, [episode(waiting, 'u2')], T0 + 1000, { inPassing, ...extra }), listing: new Map([[GROUP, { episodes: [episode(waiting, 'u2')], complete: true, requests: 1, listed: 1, ...listed }]]) }).unseen.map((u) => u.ref.marker);
    expect(judged({})).toEqual([gone.marker]);
    expect(reconcile(input(state, [episode(waiting, 'u2')], T0 + 1000, { inPassing })).lost).toEqual([]); // not sent again
    expect(judged({ direct: true })).toEqual([]);
    expect(judged({ sample: true })).toEqual([]);
    expect(judged({ blind: true })).toEqual([]);
    expect(judged({ offGroup: true })).toEqual([]);
    expect(judged({ complete: false })).toEqual([]);
    expect(judged({}, { pullWaits: new Set(['pai:f1.md']) })).toEqual([]);
    // Shown: nothing to tell.
    expect(reconcile(input(state, [episode(waiting, 'u2'), episode(gone, 'u1')], T0 + 1000, { inPassing })).unseen).toEqual([]);
  });
});
