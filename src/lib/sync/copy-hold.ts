/**
 * COPY_HOLD: a copy never deletes what another machine may still own.
 *
 * One origin is one owner (util/origin.ts), and the origin travels with `~/.claude`. Two machines
 * then act as one: right for a synced Claude config folder (one memory), a silent loss for a copy
 * (a home migrated to a new machine while the old one stays in use, or only `origin.json` in a
 * dotfiles repository): each machine's edit replaced, and its deletion deleted, the other's
 * current episode, and the other never noticed. On disk a synced folder, a copy and a retired old
 * machine look alike; only the user knows which it is. So until they say (`origin --keep`: the same
 * memory; `origin --split`: an origin of this machine's own), a machine that finds itself on
 * another machine's state or origin deletes only what it sent or confirmed itself:
 *
 * - a state folder made on another machine (`state/machine-stamp.ts`; or, for one from before the
 *   stamp, a state beside an origin file made elsewhere): every part it names is marked `foreign`
 *   when this machine takes it up. Edits and deletions here still send and plan as before; the
 *   older versions and deleted notes they retire are held, not deleted (retire.ts);
 * - an origin file made on another machine, with a state of this machine's own (a synced folder, a
 *   shared `origin.json`): only what a rebuild would retire without this machine having sent it,
 *   the other machine's versions of a note at the same path (reconcile.ts `stale`), is `foreign`.
 *   A synced folder has none (its notes are the same on both), so it stays silent and sends
 *   nothing again.
 *
 * A held part is never taken for an older version of ours in the facts either: its facts are the
 * other machine's (state/retired.ts leaves it out). Without a machine id (many containers) nothing
 * is taken for a copy: a rebuild there makes a new host name, and the origin lives in `~/.claude`
 * precisely so that it survives that (util/origin.ts).
 */
import { join } from 'node:path';
import type { Config } from '../config/config.js';
import type { MarkerInfo } from '../memory/episode.js';
import type { MemorySource } from '../memory/types.js';
import type { PulledLedger, PulledNote } from '../state/pulled.js';
import { everyPart, retiredParts, type EpisodeRef, type SyncState } from '../state/state.js';
import { readMachineStamp } from '../state/machine-stamp.js';
import { nextBackoff } from '../util/backoff.js';
import { isSharedPart } from './shared.js';
import type { Listing, OurGroupListing } from './listing.js';

/** What taking up the loaded state found: whether to stamp the folder as this machine's once the state is saved, and how many parts were marked. */
export interface TakeUp {
  /** Write this machine's stamp once the state (with its marks) is on disk. */
  stamp: boolean;
  /** Parts marked `foreign` now. */
  marked: number;
}

/**
 * At the start of a run that may write: is the loaded state another machine's? Then every part it
 * names is marked `foreign` (see the header). `fresh`: no state was loaded (nothing to mark).
 */
export function takeUpState(config: Pick<Config, 'machineKey' | 'originPlace' | 'stateDir'>, state: SyncState, fresh: boolean, stamp: string | undefined = readMachineStamp(config.stateDir), nowIso: string = new Date().toISOString()): TakeUp {
  const key = config.machineKey;
  if (key === undefined || stamp === key) return { stamp: false, marked: 0 };
  // No stamp: made before stamps existed. Ours, unless the origin beside it came from elsewhere too (a copied home, from an earlier version).
  const copied = !fresh && (stamp !== undefined || config.originPlace === 'elsewhere');
  let marked = 0;
  if (copied) {
    state.takenUpAt ??= nowIso;
    for (const ref of everyPart(state)) {
      if (ref.foreign === true) continue;
      ref.foreign = true;
      marked++;
    }
  }
  return { stamp: true, marked };
}

/** Whether a rebuild's older versions of our notes may be someone else's: the origin file was made on another machine and nobody said what it is. */
export function staleMayBeForeign(config: Pick<Config, 'originPlace'>): boolean {
  return config.originPlace === 'elsewhere';
}

/**
 * A retired part held by COPY_HOLD: not deleted until the user says what this machine is. One found
 * deleted on purpose elsewhere (DELETED_ON_PURPOSE) holds nothing: its episode is gone already.
 */
export function heldAsCopy(ref: Pick<EpisodeRef, 'foreign' | 'deletedElsewhere' | 'goneSeen'>): boolean {
  return ref.foreign === true && ref.deletedElsewhere === undefined && ref.goneSeen === undefined;
}

/** The retired parts held by COPY_HOLD (status, the summary, the session's note); an orphan waiting for SPLIT_HANDS_OVER's look is no question to the user. */
export function partsHeldAsCopy(state: SyncState): EpisodeRef[] {
  return retiredParts(state).filter((ref) => heldAsCopy(ref) && ref.handOver !== true);
}

/** `origin --keep`: this machine's user says the state is theirs; every mark goes, and what was held is deleted by the next run. Returns how many were marked. */
export function keepAsOurs(state: SyncState): number {
  delete state.takenUpAt;
  delete state.copyWatch;
  let cleared = 0;
  for (const ref of everyPart(state)) {
    // A split's orphan waiting for SPLIT_HANDS_OVER's look stays held: the other machine may rest on it, whatever this machine is.
    if (ref.foreign !== true || ref.handOver === true) continue;
    delete ref.foreign;
    cleared++;
  }
  return cleared;
}

/**
 * `origin --split`: the parts this machine sent itself under the shared origin, to retire once it
 * has an origin of its own (its notes go out again under that one). Only in a state taken up from
 * another machine, where every part the other machine named is `foreign`. In a state made here
 * beside an origin made elsewhere, a part adopted while rebuilding may be the other machine's
 * episode of the same text (a coincidence, or a synced folder): none is retired there.
 * A part sent again beside the other machine's edit (`resentBeside`) goes as a SPLIT_HANDS_OVER
 * orphan.
 */
export function sentHereSinceTakeUp(state: SyncState): EpisodeRef[] {
  if (state.takenUpAt === undefined) return [];
  return everyPart(state)
    .filter((ref) => ref.foreign !== true && ref.uuid !== undefined && ref.deletedElsewhere === undefined)
    .map(({ resentBeside, ...ref }) => (resentBeside === true ? { ...ref, foreign: true as const, handOver: true as const } : ref));
}

/**
 * SPLIT_HANDS_OVER: `origin --split` never deletes what the other machine may have taken back.
 *
 * What the copy sent again beside the other machine's edit (COPY_WATCH, `resentBeside`) is that
 * machine's earlier text under the origin that is that machine's alone after the split: a revert
 * there takes the episode for its own current one (same marker), and nothing in the graph says so.
 * So the split retires it held (`foreign`, `handOver`: a build that does not know this holds it
 * too, HELD_NEEDS_NEWER_FORMAT), and the next complete listing of its group judges:
 * - another version of the note under that origin is listed: the other machine's current version is
 *   that one (a file has one), so this one is nobody's: deleted like any orphan;
 * - none (or a listing that finds by marker only, the local server's): left to the other machine,
 *   dropped from this state, never deleted;
 * - the episode itself gone: nothing to do.
 * What the copy sent again after the other machine's deletion, or sent of its own edits, nobody
 * else names (unless TAKEN_BACK): deleted as before.
 *
 * What no look can tell, and the sides taken: the other machine writing a text the copy sent
 * (reverting to it, or writing a deleted note again with this very text) sends its own episode,
 * finds the copy's of the same marker processed earlier, keeps that one as its current (the keeper
 * rule, reconcile.ts `keeper`) and deletes its own. Afterwards the graph holds exactly what it held
 * before: same uuid, marker, body and time; only that machine's state knows. So a look after it
 * cannot tell a revert from that machine deleting its note (a handed-over episode is then left to
 * nobody: the copy's text twice, once under each origin), nor a note written again from one left
 * deleted (the split deletes that machine's current episode; its text stays in the graph under the
 * copy's origin until the copy changes its own). A handed-over part is left (a revert must never
 * lose its note); a part sent again after a deletion is deleted (else every note the other machine
 * deleted before a split would stay twice). Only a look that falls between that machine's own send
 * and its next listing sees it: TAKEN_BACK.
 */
export function judgeHandOver(ref: EpisodeRef, listed: OurGroupListing | undefined): 'delete' | 'leave' | 'gone' | undefined {
  if (listed === undefined || !listed.complete || listed.blind === true) return undefined;
  const own = listed.episodes.find((e) => e.uuid === ref.uuid);
  if (own === undefined) return 'gone';
  const marker = own.marker;
  if (listed.direct === true || marker === undefined) return 'leave';
  return listed.episodes.some((e) => e.uuid !== ref.uuid && anotherVersion(e.marker, marker)) ? 'delete' : 'leave';
}

/**
 * TAKEN_BACK: a part the copy sent under the shared origin that a look finds listed twice, its own
 * copy the earliest and already confirmed before, was sent again by someone else with the very same
 * marker: the other machine wrote this very text (a revert, a deleted note written again, a file
 * carried over by hand) and, by the keeper rule every owner follows, takes the copy's episode for its
 * current one once it lists the group, and retires its own extra (held here meanwhile, `foreign`:
 * the copy never deletes that machine's send). From then on the part rests on an episode the other machine names, as a part taken up does:
 * it is marked `foreign`, so an edit here holds it, `origin --split` leaves it to that machine
 * (never retires it), `--keep` releases it, and COPY_WATCH sends this text again if that machine
 * deletes it. Only while a copied state is unsettled (`takenUpAt`) and for parts not resting on the
 * other machine's already. A copy's own extra sent
 * before its part was confirmed (a crash between send and reply) is listed at that first
 * confirmation, not after; one processed only later reads as taken back: the safe side (left, the
 * text twice, rather than deleting what may be the other machine's).
 */
export function takenBackBy(state: Pick<SyncState, 'takenUpAt'>, ref: Pick<EpisodeRef, 'foreign' | 'uuid'>, keptUuid: string, copies: number): boolean {
  return state.takenUpAt !== undefined && ref.foreign !== true && ref.uuid !== undefined && ref.uuid === keptUuid && copies > 1;
}

/** Another version (another text) of the same file under the same origin. */
function anotherVersion(listed: MarkerInfo | undefined, of: MarkerInfo): boolean {
  return listed !== undefined && listed.fileId === of.fileId && listed.origin === of.origin && listed.hash !== of.hash;
}

/**
 * DELETED_ON_PURPOSE: the copy does not undo a deletion the person made on purpose elsewhere.
 *
 * COPY_WATCH sends a note again when the other machine's edit or deletion took the episode it rests
 * on: until the user says which it is, this machine's text may be another memory's and must stay in
 * the graph. But an episode also leaves the graph because the person deleted the note everywhere,
 * and undoing that brings a deleted note back (and `pull` then writes it back on the machine where it
 * was deleted). Whichever the user answers, such a deletion stands: a machine never copied sends
 * nothing again after it. So a part whose episode a complete, listing-wide look no longer shows is:
 * - sent again, `resentBeside`, where another version of its note under its origin is listed (the
 *   other machine edited it: the two memories differ, this text must stay; also where the listing
 *   finds by marker only and cannot tell);
 * - left deleted where the group was cleared (`clear_graph`, a wiped database), as
 *   docs/real-graphiti.md "Wiping the graph" says for every machine: it holds no episode at all, or
 *   none of those the last look saw there that the other machine cannot have deleted
 *   (CLEARED_WITNESS: a busy group is written to again soon after a clear);
 * - left deleted where `pull` judges the note (linked, its ledger agrees with the file as it is,
 *   `judgedByPull`): a note deleted on one of the person's machines (pull's deletion on a linked
 *   machine, or the other machine's own) is deleted on the others where untouched, pull.md's rule,
 *   one owner (pull/decide.ts): the copy's pull removes its untouched file;
 * - sent again otherwise (the other machine deleted it, the two not linked).
 * Not at first sight: an edit on a server that deletes the old version before the new one is stored
 * leaves the graph without the note for a while (in a group of one note, empty). The first look that
 * reads a deletion on purpose records it (`goneSeen`: since when, and what it saw: a group written to
 * again since it was cleared still was cleared), and the part is left deleted only once the absence
 * has settled (sync/pace.ts ABSENCE_SETTLED, as pull judges a note deleted elsewhere); the other
 * machine's new version listed by then is its edit, and the text is sent again beside it.
 * A part left deleted is marked `deletedElsewhere`: never watched or sent again, nothing to hold
 * (nor while `goneSeen`: its episode was seen gone).
 * What the copy cannot tell, and the side it takes: a group that held nothing but the other
 * machine's notes (and what the copy sent of their texts) ends the same whether the person cleared
 * it or the other machine deleted its last notes there, episode for episode; the other machine
 * leaves no trace in the graph of why (its state is on its disk). Read as cleared: a deletion that
 * may be on purpose stands (as it would under `origin --keep`, one memory), the copy's text stays on
 * its disk, and `origin` says so with the step (`origin --split`: two memories, this machine's
 * notes sent again under its own origin). The other side would bring back what a person cleared,
 * perhaps to take a wrong or leaked note out of every session.
 */
export function judgeGone(ref: Pick<EpisodeRef, 'marker' | 'goneSeen'>, marker: MarkerInfo | undefined, listed: OurGroupListing, pullJudges: boolean, witnessesGone = false): { resend: true; beside: boolean } | { resend: false; why: 'cleared' | 'deleted-by-person' } {
  if (listed.direct === true || (marker !== undefined && listed.episodes.some((e) => e.marker?.raw !== ref.marker && anotherVersion(e.marker, marker)))) return { resend: true, beside: true };
  if (ref.goneSeen !== undefined) return { resend: false, why: ref.goneSeen.how };
  if (listed.episodes.length === 0 || witnessesGone) return { resend: false, why: 'cleared' };
  if (pullJudges) return { resend: false, why: 'deleted-by-person' };
  return { resend: true, beside: false };
}

/**
 * CLEARED_WITNESS: a cleared group is told by what the other machine cannot delete, not only by an
 * empty listing.
 *
 * `clear_graph` takes every episode of the group at once. The other machine's sync deletes only the
 * episodes its own state names (and one the copy sent that it took for its own by the same marker):
 * never an episode under another origin (another writer's, a teammate's, a linked machine's note
 * this one pulled: only that machine's `pull` deletes those, once the person deleted the note)
 * or one without our marker. So each COPY_WATCH look records, by watched group, a few such
 * episodes it saw (`copyWatch.witnesses`), and a later look that finds its watched part gone and
 * none of them listed reads a clear, though the group was written to again since (a busy group is,
 * within minutes; before, every note the copy had there was sent again, undoing the clear). Their
 * owners deleting or editing (a new episode, a new uuid) every one of them in the interval in which
 * the other machine deleted a watched note reads as a clear too: the safe side (DELETED_ON_PURPOSE;
 * a witness told by its note instead, not its uuid, would take an edit made after a clear for the
 * group never cleared). No witness recorded: only an empty group reads as cleared.
 */
export const WITNESSES_KEPT = 16;

/** The episodes of a listed group the other machine's sync never deletes: no marker of ours, or another origin than ours and the shared sources'. */
export function witnessesIn(listed: OurGroupListing, ourOrigins: ReadonlySet<string>, sharedOrigins: ReadonlySet<string>): string[] {
  return listed.episodes
    .filter((e) => e.marker === undefined || e.marker.origin === undefined || (!ourOrigins.has(e.marker.origin) && !sharedOrigins.has(e.marker.origin)))
    .slice(0, WITNESSES_KEPT)
    .map((e) => e.uuid);
}

/** Whether the last look's witnesses of `group` are all gone from this complete listing (none recorded: false). */
export function witnessesGone(state: Pick<SyncState, 'copyWatch'>, group: string, listed: OurGroupListing): boolean {
  const witnesses = state.copyWatch?.witnesses?.[group] ?? [];
  if (witnesses.length === 0 || !listed.complete || listed.blind === true) return false;
  const now = new Set(listed.episodes.map((e) => e.uuid));
  return witnesses.every((uuid) => !now.has(uuid));
}

/**
 * The files whose deletion elsewhere `pull` judges (DELETED_ON_PURPOSE), by record id: linked (a
 * ledger, so a note key), and the ledger agrees with the file as this state last sent or took it up
 * (the entry's content hash is the record's): pull removes such a file once its note is gone.
 */
export function judgedByPull(state: SyncState, ledger: PulledLedger | undefined, sources: readonly Pick<MemorySource, 'name' | 'root'>[], which: (entry: PulledNote) => boolean = () => true): Set<string> {
  const out = new Set<string>();
  if (ledger === undefined) return out;
  const roots = new Map(sources.map((s) => [s.name, s.root]));
  for (const record of Object.values(state.files)) {
    const root = roots.get(record.source);
    if (root === undefined || record.hash === undefined) continue;
    const entry = ledger.notes[join(root, record.relPath)];
    if (entry !== undefined && entry.hash !== '' && entry.hash === record.hash && which(entry)) out.add(record.id);
  }
  return out;
}

/**
 * COPY_WATCH: the copy keeps its unchanged notes in the graph, since the other machine cannot know
 * it was copied.
 *
 * A note this machine has not changed since it took the state up rests on the other machine's
 * episode (its current part is `foreign`). That machine's state names the same episode as its own,
 * and nothing on its disk says a copy exists: its edit or deletion of the note deletes the episode,
 * and this machine's text of the note would be missing from the graph until `origin --split` sent
 * it again. So while any current part of ours is foreign (or the state taken up is not settled:
 * `watchedParts`), a run looks at its groups (at most every
 * COPY_WATCH_MIN_MS, twice as long after each look that found all in place, at most
 * COPY_WATCH_MAX_MS; a look that found one gone starts again from the shortest), and a part whose
 * episode a complete listing no longer shows (reconcile.ts `goneElsewhere`: every copy of its marker
 * looked for, the listing not blind) is sent again as this machine's own: the other machine deleted
 * its episode, so what stands for this note in the graph is now this machine's (unless the person
 * deleted it on purpose: DELETED_ON_PURPOSE). Nothing is doubled
 * (only an episode proven gone is replaced), nothing of the other machine's is touched, and a
 * machine that was never copied has no foreign part: it never looks.
 *
 * Why the copy and not the old machine: the old machine would have to look for a sign of a copy
 * before every deletion (a listing of the whole group, on the path every single-machine user takes),
 * the copy would have to write that sign into the user's group (an episode Graphiti's LLM processes
 * into knowledge), and a deletion made before the copy's first run would still be missed. The copy
 * knows it is one from its first run on; between the other machine's deletion and the copy's next
 * look the note is missing from the graph, never lost.
 */
export const COPY_WATCH_MIN_MS = 10 * 60_000;
export const COPY_WATCH_MAX_MS = 6 * 60 * 60_000;

/**
 * The current parts COPY_WATCH looks after: own (not a shared source's), in the graph, in a file
 * still chased; on the other machine's episode (`foreign`), or, in a state taken up from another
 * machine and not settled since, any (the other machine shares their markers: a revert there adopts
 * what this machine sent, and its next edit deletes it). `restingOnOther`: only the foreign ones.
 */
export function watchedParts(state: SyncState, sharedOrigins: ReadonlySet<string>, restingOnOther = false): EpisodeRef[] {
  const out: EpisodeRef[] = [];
  const every = !restingOnOther && state.takenUpAt !== undefined;
  for (const record of Object.values(state.files)) {
    if (record.status === 'failed' || record.status === 'skipped') continue;
    for (const ref of record.episodes) if ((ref.foreign === true || every) && ref.uuid !== undefined && ref.deletedElsewhere === undefined && !isSharedPart(ref, sharedOrigins)) out.push(ref);
  }
  return out;
}

/** The markers COPY_WATCH looks for now, by group; empty when nothing is watched or the next look is not due. */
export function copyWatchDue(state: SyncState, now: number, sharedOrigins: ReadonlySet<string>): Map<string, Set<string>> {
  const due = new Map<string, Set<string>>();
  const last = state.copyWatch;
  if (last !== undefined && now - Date.parse(last.at) < last.everyMs) return due;
  // SPLIT_HANDS_OVER's orphans wait for a look too (a split state has no `copyWatch` yet: due at once).
  for (const ref of [...watchedParts(state, sharedOrigins), ...state.orphans.filter((o) => o.handOver === true)]) {
    const markers = due.get(ref.groupId) ?? new Set<string>();
    markers.add(ref.marker);
    due.set(ref.groupId, markers);
  }
  return due;
}

/**
 * Records a COPY_WATCH look (`gone`: the parts it found gone). Only a look that saw every watched
 * group counts: a complete listing that is not blind, or one that showed every marker looked for.
 * The next is due sooner after a find (the other machine is in use), later after each look that
 * found everything in place.
 */
export function recordCopyWatch(state: SyncState, watched: ReadonlyMap<string, ReadonlySet<string>>, listing: Listing, gone: number, nowIso: string, origins?: { ours: ReadonlySet<string>; shared: ReadonlySet<string> }): void {
  if (watched.size === 0) return;
  for (const [group, markers] of watched) {
    const listed = listing.get(group);
    if (listed === undefined || listed.blind === true) return;
    if (!listed.complete && ![...markers].every((m) => listed.episodes.some((e) => e.marker?.raw === m))) return;
  }
  const everyMs = gone > 0 ? COPY_WATCH_MIN_MS : nextBackoff(state.copyWatch?.everyMs, { initialMs: COPY_WATCH_MIN_MS, maxMs: COPY_WATCH_MAX_MS });
  // CLEARED_WITNESS: only a complete listing knows what the group holds (one that found every marker by marker says nothing of the rest); otherwise the last ones stand.
  // Without our origins nothing can be told apart: none recorded.
  const witnesses: Record<string, string[]> = {};
  for (const group of origins === undefined ? [] : watched.keys()) {
    const listed = listing.get(group) as OurGroupListing;
    const found = listed.complete && listed.direct !== true && origins !== undefined ? witnessesIn(listed, origins.ours, origins.shared) : state.copyWatch?.witnesses?.[group];
    if (found !== undefined && found.length > 0) witnesses[group] = found;
  }
  state.copyWatch = { at: nowIso, everyMs, ...(Object.keys(witnesses).length === 0 ? {} : { witnesses }) };
}
