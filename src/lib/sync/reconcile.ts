/**
 * The reconcile phase: what the graph lists vs. what the state expects. A pure function from
 * state + listing + clock to decisions (confirmations, adoptions, retired parts located or gone,
 * duplicates, re-sends, drops, each listed group's new pace); `applyReconciliation` writes them.
 * Tested without a server (test/sync/reconcile.test.ts).
 *
 * What is seen proves itself in any listing. That something is absent is only judged from a
 * listing that covered its group (`complete`): a capped listing of a busy group says nothing
 * about the episodes it did not return.
 *
 * Drop evidence, per group (Graphiti processes a group's queue in order, one worker each):
 * - FIFO: a part of ours queued after this one is visible and this one is not;
 * - a quiet queue: nothing moved in the group (no episode of anyone started, none of ours
 *   appeared) for longer than the group's patience since this one was queued. Patience comes from
 *   how the group has moved before (pace.ts): seconds on a fast server, minutes on a slow one, and
 *   `confirmMaxAgeMs` until the group has been seen moving. A backlog that keeps moving is waited for;
 * - a restart: this one was queued before the server that answers started (known for the local
 *   server, `GroupListing.serverSince`). Graphiti's queue dies with its process, so what the
 *   server before it had not processed will never appear. Not the server's fault for this note:
 *   it does not count towards `maxResends`.
 *
 * A blind listing (pace.ts GroupListing `blind`: nothing listed, by a server that lists only the
 * group it last wrote to, while we write to several) proves nothing absent until the part has
 * waited BLIND_LISTING_PATIENCE_MS: there the note was most likely stored in a graph the server is
 * not looking at, and sending it again would store it twice.
 */
import type { Episode } from '../graphiti/graphiti.js';
import { recordOrigin, unsettledShared } from './shared.js';
import { everyPart, queuedTime, retiredParts, type EpisodeRef, type FileRecord, type GroupPace, type SyncState } from '../state/state.js';
import type { Listing, ListedEpisode } from './listing.js';
import { absenceSettled, aheadOfOurClock, lastMovement, movementWithinReach, paceOf, patienceMs, quietFrom, type Sighting } from './pace.js';
import { placementOf, repliedPosition, sentPosition, type Placed } from './send-order.js';
import { paceAfterListing } from './schedule.js';
import { GAVE_WAY, PULLED_COPY } from './plan.js';
import { FAILED_FILE_STEPS } from './failed-steps.js';
import { judgeGone, judgeHandOver, takenBackBy, witnessesGone } from './copy-hold.js';
import { parseMarker } from '../memory/episode.js';

/**
 * How long a part waits before a blind listing counts as evidence (at least `confirmMaxAgeMs`).
 * Long, because on such a server the group comes back into view whenever anything is written to
 * it, and the next complete listing then judges as usual; a drop in a group that nothing else is
 * written to is the case this bound is for: that note is sent again after it, not never.
 */
export const BLIND_LISTING_PATIENCE_MS = 2 * 60 * 60_000;

/** Why a part counts as lost (see the header). */
export type DropEvidence = 'fifo' | 'age' | 'restart';

export interface ReconcileInput {
  state: SyncState;
  /** What get_episodes listed, per group listed this run (a group not in it was not listed), markers parsed (listing.ts). */
  listing: Listing;
  now: number;
  confirmMaxAgeMs: number;
  maxResends: number;
  /** The state was lost or never existed: visible old versions of our files are unknown to it. */
  rebuilding: boolean;
  /** Origins of shared sources: their files have several owners, who must all keep the same copy. */
  sharedOrigins?: ReadonlySet<string>;
  /** This machine's origins (util/origin.ts `ourOrigins`): what a pulled copy's own episodes carry. */
  ourOrigins?: ReadonlySet<string>;
  /** The origin file was made on another machine (copy-hold.ts `staleMayBeForeign`): a rebuild's older versions may be its current ones, and are held. */
  staleMayBeForeign?: boolean;
  /** The markers this listing looked for COPY_WATCH (copy-hold.ts `copyWatchDue`), by group: only they may be judged gone elsewhere. */
  watched?: ReadonlyMap<string, ReadonlySet<string>>;
  /** Record ids whose deletion elsewhere `pull` judges (copy-hold.ts `judgedByPull`, DELETED_ON_PURPOSE). */
  pullJudges?: ReadonlySet<string>;
  /** The markers `sync --force` looked for (force-look.ts FORCE_LOOK), by group: those a complete listing no longer shows are sent again. */
  forced?: ReadonlyMap<string, ReadonlySet<string>>;
  /** Record ids FORCE_LOOK leaves to `pull`, which already counts their absence as a deletion elsewhere (force-look.ts PULL_WAITS_ON_IT). */
  pullWaits?: ReadonlySet<string>;
  /** This machine's own confirmed parts, by group (force-look.ts `forceLookParts`), judged by a listing made for other reasons (force-look.ts LOST_SEEN_IN_PASSING). */
  inPassing?: ReadonlyMap<string, ReadonlySet<string>>;
}

export interface Reconciliation {
  /** Current parts now visible. `adopted`: never sent by us, already in the graph (a crash, a lost state). */
  confirmations: Array<{ record: FileRecord; ref: EpisodeRef; uuid: string; adopted: boolean }>;
  /** Retired parts whose uuid is now known, so they can be deleted. */
  located: Array<{ ref: EpisodeRef; uuid: string }>;
  /** Retired parts that can no longer appear (never sent, or dropped): nothing left to delete. */
  vanished: Set<EpisodeRef>;
  /** Extra copies of a visible part: to retire at once (the kept copy has the same content). */
  duplicates: EpisodeRef[];
  /** Older versions of our own (not shared) files found while rebuilding: they retire as older versions. */
  stale: Array<{ record: FileRecord; ref: EpisodeRef }>;
  /** Current parts the server dropped, to send again. */
  resends: Array<{ record: FileRecord; ref: EpisodeRef; evidence: DropEvidence }>;
  /** Current parts COPY_WATCH looked for (copy-hold.ts: on another machine's episode, or sharing its markers) that a complete listing no longer shows: sent again as ours. */
  goneElsewhere: Array<{ record: FileRecord; ref: EpisodeRef; beside: boolean }>;
  /** Confirmed parts of ours `sync --force` looked for (force-look.ts FORCE_LOOK) that a complete listing no longer shows: the graph lost them, sent again. */
  lost: Array<{ record: FileRecord; ref: EpisodeRef }>;
  /** Confirmed parts of ours that a complete get_episodes listing made for other reasons no longer shows (force-look.ts LOST_SEEN_IN_PASSING): told, not sent again. */
  unseen: Array<{ record: FileRecord; ref: EpisodeRef }>;
  /** Parts COPY_WATCH found deleted on purpose elsewhere (copy-hold.ts DELETED_ON_PURPOSE), the absence settled: not sent again. */
  leftDeleted: Array<{ record: FileRecord; ref: EpisodeRef; why: 'cleared' | 'deleted-by-person' }>;
  /** Parts whose absence reads as a deletion on purpose, not settled yet: remembered (DELETED_ON_PURPOSE `goneSeen`). */
  goneWaiting: Array<{ ref: EpisodeRef; since: number; how: 'cleared' | 'deleted-by-person' }>;
  /** Parts seen gone before (`goneSeen`) that this listing shows again: the mark goes. */
  backInView: EpisodeRef[];
  /** Parts the copy sent that the other machine wrote again, the copy's episode kept (copy-hold.ts TAKEN_BACK). */
  takenBack: EpisodeRef[];
  /** SPLIT_HANDS_OVER orphans judged (copy-hold.ts): `delete` released to the usual deletion, `leave`/`gone` dropped from the state. */
  handOvers: Array<{ ref: EpisodeRef; verdict: 'delete' | 'leave' | 'gone' }>;
  /** Current parts dropped with their re-sends used up: the file fails. */
  drops: Array<{ record: FileRecord; ref: EpisodeRef; message: string }>;
  /** Shared parts whose copy is now known to be the one every owner keeps. */
  settled: EpisodeRef[];
  /** Each listed group's pace after this listing. */
  paces: Map<string, GroupPace>;
}

export function reconcile(input: ReconcileInput): Reconciliation {
  const { state, now } = input;
  const nowIso = new Date(now).toISOString();
  const out: Reconciliation = { confirmations: [], located: [], vanished: new Set(), duplicates: [], stale: [], resends: [], goneElsewhere: [], lost: [], unseen: [], leftDeleted: [], goneWaiting: [], backInView: [], takenBack: [], handOvers: [], drops: [], settled: [], paces: new Map() };
  const visible = visibleByMarker(input.listing);
  const complete = (group: string) => input.listing.get(group)?.complete === true;
  const sightings = new Map<string, Sighting[]>();
  const uuidNow = new Map<EpisodeRef, string>();
  const uuidOf = (ref: EpisodeRef) => ref.uuid ?? uuidNow.get(ref);
  // Latest send time of a visible part per group (FIFO evidence), and when the group last showed progress.
  const newestVisibleSend = new Map<string, number>();
  const lastProgress = new Map<string, number>();
  const raise = (map: Map<string, number>, group: string, iso: string | undefined) => {
    if (iso === undefined) return;
    const t = Date.parse(iso);
    if (t > (map.get(group) ?? 0)) map.set(group, t);
  };
  // Where the group's times lie ahead of our clock, when it last moved on our clock (pace.ts CLOCK_SET_BACK).
  const aheadMarks = new Map<string, ReturnType<typeof quietFrom>>();
  const groupQuietFrom = (group: string): ReturnType<typeof quietFrom> => {
    let mark = aheadMarks.get(group);
    if (mark === undefined) {
      const pace = paceOf(state, group);
      const listed = input.listing.get(group);
      let newest = Math.max(lastProgress.get(group) ?? 0, listed === undefined ? 0 : lastMovement(pace, listed));
      for (const record of Object.values(state.files)) {
        if (record.status === 'failed' || record.status === 'skipped') continue;
        for (const ref of record.episodes) if (ref.groupId === group && uuidOf(ref) === undefined && ref.sentAt !== undefined && ref.queuedAt !== undefined) newest = Math.max(newest, queuedTime(ref) || 0);
      }
      mark = quietFrom(newest, now, pace.ahead);
      aheadMarks.set(group, mark);
    }
    return mark;
  };
  /** A time of the group on our clock: one ahead of it by more than a skew counts from when the group last moved (CLOCK_SET_BACK). */
  const grounded = (group: string, t: number) => (aheadOfOurClock(t, now) ? groupQuietFrom(group).from : Math.min(t, now));
  const quiet = (group: string, since: number) => {
    const listed = input.listing.get(group);
    if (listed === undefined || !listed.complete) return false;
    const pace = paceOf(state, group);
    // SET_BACK_MOVEMENT (pace.ts): times ahead of our clock do not hide the movement below them.
    const moved = Math.max(grounded(group, Math.max(since, lastProgress.get(group) ?? 0, lastMovement(pace, listed))), movementWithinReach(pace, listed, now));
    return now - moved > patienceMs(pace, input.confirmMaxAgeMs);
  };
  // A complete listing proves absence, a blind one only for parts that have waited long enough.
  const provesAbsent = (group: string, since: number) => complete(group) && (input.listing.get(group)?.blind !== true || now - grounded(group, since) >= Math.max(input.confirmMaxAgeMs, BLIND_LISTING_PATIENCE_MS));
  const dropEvidence = (group: string, since: number): DropEvidence | undefined => {
    if (!provesAbsent(group, since)) return undefined;
    const serverSince = input.listing.get(group)?.serverSince;
    if (serverSince !== undefined && since < serverSince) return 'restart';
    if ((newestVisibleSend.get(group) ?? 0) > since) return 'fifo';
    return quiet(group, since) ? 'age' : undefined;
  };

  const shown = new Set<EpisodeRef>(); // current parts this listing shows
  // An unsigned episode replaced by the same content re-sent signed (note-signing.ts) has the new
  // parts' marker: it is never taken for them (they would stay unsigned), it is deleted as retired.
  // (An older version a revert brings back, by contrast, is taken back: nothing is sent again.)
  const replacedUnsigned = new Set(retiredParts(state).flatMap((r) => (r.uuid === undefined || r.unsigned !== true ? [] : [r.uuid])));
  for (const record of Object.values(state.files)) {
    for (const ref of record.episodes) {
      const key = visibleKey(ref.groupId, ref.marker);
      const found = visible.get(key)?.filter((e) => !replacedUnsigned.has(e.uuid));
      if (found === undefined || found.length === 0) continue;
      shown.add(ref);
      const keep = keeper(found);
      let seen = ref;
      if (ref.uuid !== undefined && keep.uuid !== ref.uuid) {
        // An earlier copy (a co-owner's of a shared file, or one sent before a crash) created the facts: keep it.
        out.confirmations.push({ record, ref, uuid: keep.uuid, adopted: false });
        uuidNow.set(ref, keep.uuid);
        seen = { ...ref, uuid: keep.uuid };
      } else if (ref.uuid === undefined) {
        const adopted = ref.sentAt === undefined;
        out.confirmations.push({ record, ref, uuid: keep.uuid, adopted });
        uuidNow.set(ref, keep.uuid);
        if (!adopted && ref.queuedAt !== undefined) {
          const list = sightings.get(ref.groupId) ?? [];
          list.push({ queuedAt: queuedTime(ref), sentAt: sentPosition(ref), repliedAt: repliedPosition(ref), episode: keep });
          sightings.set(ref.groupId, list);
        }
        seen = { ...ref, uuid: keep.uuid, confirmedAt: nowIso, ...(adopted ? { sentAt: nowIso } : {}) };
      }
      // TAKEN_BACK (copy-hold.ts): the extra is the other machine's own send, which it retires itself: held, not deleted by this one.
      const taken = takenBackBy(state, ref, keep.uuid, found.length);
      if (taken) out.takenBack.push(ref);
      for (const extra of found) if (extra.uuid !== keep.uuid) out.duplicates.push({ ...seen, uuid: extra.uuid, ...(taken ? { foreign: true as const } : {}) });
      visible.delete(key);
      raise(lastProgress, ref.groupId, seen.confirmedAt);
      // FIFO_ON_OUR_CLOCK: a part sent "after now" was sent before our clock was set back (a laptop hours
      // ahead put right by NTP): when it went out says nothing of its place behind a part sent since,
      // and counting it took every part sent after the step for dropped (sent again at once, twice, and
      // the note kept twice). Our own stamps need no skew allowance: only a step back puts them ahead.
      if (seen.sentAt !== undefined && Date.parse(seen.sentAt) <= now) raise(newestVisibleSend, ref.groupId, seen.sentAt);
    }
  }

  // Older versions and deleted files whose uuid we did not know yet.
  const retired = retiredParts(state);
  for (const ref of retired) {
    if (ref.uuid !== undefined) continue;
    const key = visibleKey(ref.groupId, ref.marker);
    const found = visible.get(key);
    if (found === undefined || found.length === 0) continue;
    const { uuid } = keeper(found);
    out.located.push({ ref, uuid });
    uuidNow.set(ref, uuid);
    for (const extra of found) if (extra.uuid !== uuid) out.duplicates.push({ ...ref, uuid: extra.uuid });
    visible.delete(key);
  }
  // A retired part whose uuid is still unknown has nothing to delete once it can no longer appear:
  // never sent, or sent and the same evidence as for current parts says the server dropped it.
  // Kept, such parts would stay in the state forever and every later run would wait for them.
  for (const ref of retired) {
    if (uuidOf(ref) !== undefined) continue;
    if (ref.sentAt === undefined) {
      out.vanished.add(ref);
      continue;
    }
    if (dropEvidence(ref.groupId, queuedTime(ref)) !== undefined) out.vanished.add(ref);
  }

  if (input.rebuilding) {
    // Lost state: visible versions of our current files that the state does not know are older
    // versions, if they are ours alone: same file id AND same origin, not a shared source. They
    // retire like an older version (deleted after the current one is confirmed, or before it is
    // sent where the server needs that: retire.ts), never at once. Another origin's episode (a
    // teammate's note at the same path, another machine's) is never touched, nor one from before
    // origins existed, nor a shared source's: a co-owner may have sent a NEWER version than ours.
    const current = new Map(Object.values(state.files).map((r) => [r.fileId, r]));
    for (const episodes of visible.values()) {
      for (const episode of episodes) {
        const { marker } = episode;
        const owner = marker === undefined ? undefined : current.get(marker.fileId);
        // A pulled copy (plan.ts PULLED_COPY) has no version of its own in the graph: an episode of
        // this machine's for it is an older version; one of its very text only where the file gave
        // way to another file's copy of that text (GAVE_WAY, pull/decide.ts). (A ledger entry written
        // before that rule may name the other machine for a file whose own copy is the one kept.)
        const pulledCopy = owner !== undefined && owner.status === 'skipped' && owner.episodes.length === 0 && (owner.skipReason === GAVE_WAY || (owner.skipReason === PULLED_COPY && marker?.hash !== owner.hash?.slice(0, marker?.hash.length)));
        const ownerOrigin = owner === undefined ? undefined : pulledCopy && marker?.origin !== undefined && input.ourOrigins?.has(marker.origin) === true ? marker.origin : recordOrigin(owner);
        if (owner === undefined || marker === undefined || marker.origin === undefined || marker.origin !== ownerOrigin || input.sharedOrigins?.has(marker.origin) === true) continue;
        if ((pulledCopy || marker.hash !== owner.hash?.slice(0, marker.hash.length)) && !owner.superseded.some((r) => r.uuid === episode.uuid)) {
          out.stale.push({ record: owner, ref: { marker: marker.raw, name: episode.name, groupId: episode.group_id, part: marker.part, parts: marker.parts, uuid: episode.uuid, resends: 0, ...(input.staleMayBeForeign === true ? { foreign: true as const } : {}) } });
        }
      }
    }
  }

  for (const record of Object.values(state.files)) {
    // Failed and skipped are verdicts: their parts are not chased.
    if (record.status === 'failed' || record.status === 'skipped') continue;
    for (const ref of record.episodes) {
      if (uuidOf(ref) !== undefined || ref.sentAt === undefined || ref.queuedAt === undefined) continue;
      const evidence = dropEvidence(ref.groupId, queuedTime(ref));
      if (evidence === undefined) continue;
      if (evidence !== 'restart' && ref.resends >= input.maxResends) {
        const message = `dropped: the server accepted this episode ${ref.resends + 1} times but never stored it (check the Graphiti server log for "Failed to process episode"; usually its LLM or embedder); ${FAILED_FILE_STEPS.serverSide}`;
        out.drops.push({ record, ref, message });
      } else {
        out.resends.push({ record, ref, evidence });
      }
    }
  }

  // COPY_WATCH (copy-hold.ts): a note this machine has not changed rests on the other machine's
  // episode (or one the other machine took for its own), and that machine deleted it (its edit, or
  // its deletion of the note). Only a complete, not blind, listing that looked for the marker (every
  // copy of it) proves the episode gone.
  for (const record of Object.values(state.files)) {
    if (record.status === 'failed' || record.status === 'skipped') continue;
    for (const ref of record.episodes) {
      if (ref.goneSeen !== undefined && shown.has(ref)) out.backInView.push(ref);
      if (ref.uuid === undefined || shown.has(ref) || input.watched?.get(ref.groupId)?.has(ref.marker) !== true) continue;
      const listed = input.listing.get(ref.groupId);
      if (listed?.complete !== true || listed.blind === true) continue;
      // DELETED_ON_PURPOSE (copy-hold.ts): not every deletion is the other machine's to undo, and not at first sight.
      const gone = judgeGone(ref, parseMarker(ref.marker), listed, input.pullJudges?.has(record.id) === true, witnessesGone(state, ref.groupId, listed));
      if (gone.resend) {
        out.goneElsewhere.push({ record, ref, beside: gone.beside });
        continue;
      }
      const pace = paceOf(state, ref.groupId);
      const absence = absenceSettled(ref.goneSeen?.since, now, patienceMs(pace, input.confirmMaxAgeMs), lastMovement(pace, listed), input.confirmMaxAgeMs);
      if (absence.settled) out.leftDeleted.push({ record, ref, why: gone.why });
      else out.goneWaiting.push({ ref, since: absence.since, how: gone.why });
    }
  }
  // FORCE_LOOK (force-look.ts): a confirmed part of ours that a complete, not blind, listing no
  // longer shows was lost by the graph (a server restarted without its data). COPY_WATCH's parts
  // are judged above, by its own rules; what pull already counts as deleted elsewhere, by pull (PULL_WAITS_ON_IT).
  // LOST_SEEN_IN_PASSING: the same absence in a listing made for other reasons is told, not sent
  // again; only get_episodes' own listing of the whole group judges it (the local server's direct
  // read looks only for the markers it was given, a sample sees a tenth).
  // LISTED_BY_UUID: a part is there if its episode is listed, whatever that episode's description
  // says. A note adopted from the madeinoz hook (adopt-prior.ts) rests on the hook's episode, which
  // carries no marker of ours: by marker alone every later complete listing of its group called it
  // lost (the session told to run `sync --force`), and `--force` sent it again beside the episode
  // still there: the note twice in the graph.
  const listedUuids = new Set([...input.listing.values()].flatMap((l) => l.episodes.map((e) => e.uuid)));
  for (const record of Object.values(state.files)) {
    if (record.status === 'failed' || record.status === 'skipped' || input.pullWaits?.has(record.id) === true) continue;
    for (const ref of record.episodes) {
      if (ref.uuid === undefined || shown.has(ref) || listedUuids.has(ref.uuid) || input.watched?.get(ref.groupId)?.has(ref.marker) === true) continue;
      const forced = input.forced?.get(ref.groupId)?.has(ref.marker) === true;
      if (!forced && input.inPassing?.get(ref.groupId)?.has(ref.marker) !== true) continue;
      const listed = input.listing.get(ref.groupId);
      // An empty listing by a server that lists only the group it last wrote to may be of another group (pace.ts `offGroup`).
      if (listed?.complete !== true || listed.blind === true || listed.offGroup === true) continue;
      if (forced) out.lost.push({ record, ref });
      else if (listed.direct !== true && listed.sample !== true) out.unseen.push({ record, ref });
    }
  }
  // SPLIT_HANDS_OVER (copy-hold.ts): what a split may leave to the other machine, judged by a complete look.
  for (const ref of state.orphans) {
    if (ref.handOver !== true) continue;
    const verdict = judgeHandOver(ref, input.listing.get(ref.groupId));
    if (verdict !== undefined) out.handOvers.push({ ref, verdict });
  }

  // A shared part stays listed after its confirmation until a co-owner's racing copy would have
  // appeared (the group's patience): by then the keeper rule above has picked the copy all keep.
  for (const record of Object.values(state.files)) {
    for (const ref of record.episodes) {
      if (!unsettledShared(ref, input.sharedOrigins) || !complete(ref.groupId) || input.listing.get(ref.groupId)?.blind === true) continue;
      const confirmed = ref.confirmedAt === undefined ? now : Date.parse(ref.confirmedAt);
      if (now - confirmed >= patienceMs(paceOf(state, ref.groupId), input.confirmMaxAgeMs)) out.settled.push(ref);
    }
  }

  for (const [group, listed] of input.listing) {
    const judged = new Set<EpisodeRef>([...out.vanished, ...out.resends.map((x) => x.ref), ...out.drops.map((x) => x.ref)]);
    // pace lane (issue 27): progress is the server showing something of ours; a judgement of ours
    // (a drop, a part that vanished) is not, and must not reset the listing back-off.
    const progress = out.confirmations.some((c) => c.ref.groupId === group) || out.located.some((l) => l.ref.groupId === group);
    const settled = new Set(out.settled);
    const waitingParts = everyPart(state, { chased: true }).filter((ref) => ref.groupId === group && !judged.has(ref) && ((ref.sentAt !== undefined && uuidOf(ref) === undefined) || (unsettledShared(ref, input.sharedOrigins) && !settled.has(ref))));
    // pace lane (issue 27): the schedule predicts from when the last waiting part was queued.
    const lastQueuedAt = waitingParts.reduce((a, ref) => Math.max(a, queuedTime(ref) || 0), 0) || undefined;
    // The queue's order, as far as it is proven (send-order.ts PROVEN_ORDER): where the head stands,
    // what a sample's span covers. Each part's hand-off and reply, not its send time: parts sent in
    // one millisecond stand apart, and parts in flight together are unordered.
    const waiting = waitingParts.map(placedOrStart);
    const placed = everyPart(state, { chased: true }).flatMap((ref) => (ref.groupId === group && ref.queuedAt !== undefined ? [placementOf(ref)] : [])).filter(({ sent }) => Number.isFinite(sent));
    const pace = paceAfterListing({ previous: paceOf(state, group), listing: listed, now, sightings: sightings.get(group) ?? [], stillWaiting: waitingParts.length, progress, lastQueuedAt, waiting, placed });
    const { ahead } = groupQuietFrom(group);
    if (ahead === undefined) delete pace.ahead;
    else pace.ahead = ahead;
    out.paces.set(group, pace);
  }
  return out;
}


/** A waiting part's place (send-order.ts); one never sent by us (an adopted shared part) stands at the start of time, as it did. */
function placedOrStart(ref: EpisodeRef): Placed {
  const placed = placementOf(ref);
  return Number.isFinite(placed.sent) ? placed : { sent: 0, replied: 0 };
}

/** Writes a reconciliation into the state (statuses are refreshed by the caller, after re-sends are planned). */
export function applyReconciliation(state: SyncState, r: Reconciliation, nowIso: string): void {
  for (const { ref, uuid, adopted } of r.confirmations) {
    ref.uuid = uuid;
    ref.confirmedAt = nowIso;
    if (adopted) ref.sentAt = nowIso;
  }
  for (const { ref, uuid } of r.located) ref.uuid = uuid;
  if (r.vanished.size > 0) {
    for (const record of Object.values(state.files)) if (record.superseded.some((ref) => r.vanished.has(ref))) record.superseded = record.superseded.filter((ref) => !r.vanished.has(ref));
    if (state.orphans.some((ref) => r.vanished.has(ref))) state.orphans = state.orphans.filter((ref) => !r.vanished.has(ref));
  }
  state.orphans.push(...r.duplicates);
  for (const { record, ref } of r.stale) record.superseded.push(ref);
  for (const { record, message } of r.drops) {
    record.status = 'failed';
    record.lastError = message;
  }
  for (const { ref, evidence } of r.resends) {
    if (evidence !== 'restart') ref.resends++;
    toSendAgain(ref);
  }
  for (const { ref } of r.leftDeleted) {
    ref.deletedElsewhere = nowIso;
    delete ref.goneSeen;
  }
  for (const { ref, since, how } of r.goneWaiting) ref.goneSeen ??= { since: new Date(since).toISOString(), how };
  for (const ref of r.backInView) delete ref.goneSeen;
  // TAKEN_BACK (copy-hold.ts): the other machine names this episode now.
  for (const ref of r.takenBack) ref.foreign = true;
  for (const { ref, verdict } of r.handOvers) {
    delete ref.handOver;
    if (verdict === 'delete') delete ref.foreign;
  }
  if (r.handOvers.some((h) => h.verdict !== 'delete')) {
    const dropped = new Set(r.handOvers.flatMap((h) => (h.verdict === 'delete' ? [] : [h.ref])));
    state.orphans = state.orphans.filter((ref) => !dropped.has(ref));
  }
  for (const { ref, beside } of r.goneElsewhere) {
    // Sent again by this machine: from now on the part is its own (copy-hold.ts COPY_WATCH).
    if (beside) ref.resentBeside = true;
    else delete ref.resentBeside;
    delete ref.goneSeen;
    delete ref.foreign;
    toSendAgain(ref);
  }
  for (const { ref } of r.lost) {
    delete ref.goneSeen;
    toSendAgain(ref);
  }
  for (const ref of r.settled) ref.settledAt = nowIso;
  if (r.paces.size > 0) {
    state.groups ??= Object.create(null) as Record<string, GroupPace>;
    for (const [group, pace] of r.paces) state.groups[group] = pace;
  }
}

/** A part to be sent again: what its last sending and its sighting recorded goes (a part never seen has none of the sighting). */
function toSendAgain(ref: EpisodeRef): void {
  delete ref.uuid;
  delete ref.confirmedAt;
  delete ref.sentAt;
  delete ref.sendOrder;
  delete ref.queuedOrder;
  delete ref.queuedAt;
}

/**
 * Which copy of a marker listed more than once stays: the earliest processed (`created_at`, then
 * the smallest uuid). Graphiti merges a restated fact into the fact that exists and appends the
 * later episode to it, so the earliest copy is the one that created the facts; on servers whose
 * delete takes the facts an episode created first (graphiti/semantics.ts) deleting any other copy
 * loses nothing. Every owner of a shared file sees the same times and uuids: all keep the same copy.
 * (Also which of the person's machines keeps one note sent with the same text by several:
 * pull/incoming.ts `firstOfText`.)
 */
export function keeper<E extends Pick<Episode, 'uuid' | 'created_at'>>(found: readonly E[]): E {
  return found.reduce((a, b) => (processedBefore(b, a) ? b : a));
}

function processedBefore(a: Pick<Episode, 'uuid' | 'created_at'>, b: Pick<Episode, 'uuid' | 'created_at'>): boolean {
  const ta = a.created_at === null ? Number.POSITIVE_INFINITY : Date.parse(a.created_at);
  const tb = b.created_at === null ? Number.POSITIVE_INFINITY : Date.parse(b.created_at);
  if (ta !== tb && !(Number.isNaN(ta) || Number.isNaN(tb))) return ta < tb;
  return a.uuid < b.uuid;
}

function visibleKey(group: string, marker: string): string {
  return `${group}\u0000${marker}`;
}

/** Our episodes in the listing by group + marker (the marker names file and content, not the group). */
function visibleByMarker(listing: Listing): Map<string, ListedEpisode[]> {
  const visible = new Map<string, ListedEpisode[]>();
  for (const [group, { episodes }] of listing) {
    for (const episode of episodes) {
      const { marker } = episode;
      if (marker === undefined) continue;
      const key = visibleKey(group, marker.raw);
      const list = visible.get(key) ?? [];
      list.push(episode);
      visible.set(key, list);
    }
  }
  return visible;
}
