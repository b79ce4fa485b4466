/**
 * FORCE_LOOK: `sync --force` checks that the graph still holds what the state calls confirmed.
 *
 * A confirmed part is never looked at again in the usual runs (a listing of every group on every
 * run would cost the server far more than our 4 % budget, schedule.ts). So when the graph loses
 * episodes behind our back (a server restarted without its data: a docker volume removed, a
 * FalkorDB without persistence, `clear_graph`), every later run believes them there: the session
 * context comes back empty and `status` says all is confirmed. `--force` is the step the messages
 * and docs name for "make the graph hold my files again": its first look lists the groups of this
 * machine's own confirmed parts, and a part a complete (not blind) listing no longer shows is sent
 * again (reconcile.ts `lost`). Only an episode proven gone is replaced, so nothing is doubled: an
 * empty listing by a server before 1.1 on FalkorDB proves nothing (it lists only the group it last
 * wrote to, after a restart none of ours: pace.ts `offGroup`, measured on 0.28.2 with the notes in
 * another group than the server's own); there a wiped group is put back by a `--force` after
 * anything was written to it again (an edit, a new note), which brings the server onto it.
 *
 * Not looked after here: a part resting on another machine's episode (`foreign`: COPY_WATCH and
 * DELETED_ON_PURPOSE in copy-hold.ts decide those), a shared source's (its co-owners send it too:
 * the first of them to sync sends it again), and one deleted on purpose on a linked machine
 * (`deletedElsewhere`: `pull` removes its file).
 */
import { isSharedPart } from './shared.js';
import { judgedByPull } from './copy-hold.js';
import type { EpisodeRef, SyncState } from '../state/state.js';
import type { PulledLedger } from '../state/pulled.js';
import type { MemorySource } from '../memory/types.js';

/**
 * PULL_WAITS_ON_IT: a note whose absence `pull` already counts as a deletion on a linked machine (its
 * ledger entry agrees with the file and carries `missingSince`, not `emptiedSince`: pull.ts
 * EMPTIED_GROUP) is pull's to judge, not FORCE_LOOK's. Else `sync --force` run while pull waits out
 * the group's patience sent back a note deleted on purpose elsewhere, and the next pull on the
 * linked machine wrote it back there: the deletion undone on both. A note lost with its emptied group
 * (`emptiedSince`) is sent again; so is one pull has not yet seen missing (no pull ran since).
 */
export function pullWaitsOn(state: SyncState, ledger: PulledLedger | undefined, sources: readonly Pick<MemorySource, 'name' | 'root'>[]): Set<string> {
  // `sources`: every source (resolveSources), not a `--source` run's: pull judges them all.
  return judgedByPull(state, ledger, sources, (entry) => entry.missingSince !== undefined && entry.emptiedSince === undefined);
}

/**
 * The markers `--force` looks for, by group: this machine's own confirmed current parts, of the run's
 * sources (`sync --force --source NAME` looks at that source only: a note of another one found lost
 * could not be read again in that run, and was left marked to send by the next).
 */
export function forceLookParts(state: SyncState, sharedOrigins: ReadonlySet<string>, sources: readonly Pick<MemorySource, 'name'>[]): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  const inRun = new Set(sources.map((s) => s.name));
  for (const record of Object.values(state.files)) {
    if (record.status === 'failed' || record.status === 'skipped' || !inRun.has(record.source)) continue;
    for (const ref of record.episodes) {
      if (!ownConfirmed(ref, sharedOrigins)) continue;
      const markers = out.get(ref.groupId) ?? new Set<string>();
      markers.add(ref.marker);
      out.set(ref.groupId, markers);
    }
  }
  return out;
}

function ownConfirmed(ref: EpisodeRef, sharedOrigins: ReadonlySet<string>): boolean {
  return ref.uuid !== undefined && ref.foreign !== true && ref.deletedElsewhere === undefined && !isSharedPart(ref, sharedOrigins);
}

/**
 * LOST_SEEN_IN_PASSING: EMPTIED_GRAPH's look sees a group that lists nothing at all, so a graph
 * emptied while a sync was in flight (or before a run that sends a new note) went untold: the run
 * sent again what the dead server's queue lost, the group listed episodes again, and the notes
 * confirmed before the wipe were gone for good while `status` called them confirmed and no session
 * heard of it. A run that lists a group anyway (something of its own waits there) and gets the
 * whole group from get_episodes also looks for this machine's own confirmed parts there (the
 * parts `--force` would look for: `forceLookParts`, not those `pull` waits on) and tells what it
 * does not find, as EMPTIED_GRAPH does (context/graph-problem.ts `lost`): it is not sent again by
 * itself, because an absence a linked machine made on purpose is pull's to judge, and pull may
 * not have run since (PULL_WAITS_ON_IT). `--force` sends them again. The local server's direct
 * read looks only for the markers it is given, and a sample sees a tenth: neither judges.
 *
 * LINKED_ABSENCE_IS_PULLS: nor are the notes pull judges at all (`judgedByPull`: a linked machine's
 * ledger agrees with the file), not only those it already waits on. The hook worker syncs before
 * it pulls and a Stop pulls nothing, so a sync that listed the group (a new note to confirm) met a
 * deletion made on purpose on the linked machine before any pull here had: it was told as lost,
 * and the step named, `sync --force` run then, sent the note back to both machines. Pull carries
 * such an absence out, or keeps the note with its emptied group (EMPTIED_GROUP); once it has seen
 * it, `--force` would leave it alone anyway (PULL_WAITS_ON_IT), so telling it promised a re-send
 * that never came.
 */
export function inPassingParts(state: SyncState, sharedOrigins: ReadonlySet<string>, sources: readonly Pick<MemorySource, 'name'>[], pullJudges: ReadonlySet<string>): Map<string, Set<string>> {
  if (pullJudges.size === 0) return forceLookParts(state, sharedOrigins, sources);
  const judged = new Set(Object.values(state.files).filter((record) => pullJudges.has(record.id)).flatMap((record) => record.episodes.map((ref) => `${ref.groupId}\0${ref.marker}`)));
  const out = new Map<string, Set<string>>();
  for (const [group, markers] of forceLookParts(state, sharedOrigins, sources)) {
    const left = new Set([...markers].filter((marker) => !judged.has(`${group}\0${marker}`)));
    if (left.size > 0) out.set(group, left);
  }
  return out;
}

/**
 * EMPTIED_GRAPH: what tells the person to run `--force` in the first place. The usual runs cannot
 * see a wiped graph (they do not look at what is confirmed), but the worker sees its result: a
 * context refresh that finds nothing at all. Only then, for the groups where this machine has
 * confirmed parts (at most MAX_GROUPS_ASKED), it asks the server for one episode of the group (one
 * small get_episodes each): a group that lists none at all holds none of ours either, which no run
 * of ours does (a deletion takes one note at a time); not asked of a server before 1.1 on FalkorDB,
 * whose listing of a group it is not on is empty too. The session start then names the step
 * (context/graph-problem.ts `emptied`). A group that still lists an episode says nothing: a project
 * without facts in a busy graph costs that one request per refresh, and is not called lost.
 */
export const MAX_GROUPS_ASKED = 3;

/**
 * The groups where this machine has confirmed notes and the graph lists no episode at all, with how
 * many notes. Only notes `--force` sends again count: not those `leftToPull` (PULL_WAITS_ON_IT,
 * `pullWaitsOn`), which the worker's pull, run just before the refresh, already counts as deleted on
 * a linked machine. Counted, the session's note promised "sends them again, once each" for a note
 * `--force` then left alone (a group's only note: found by review).
 */
export async function emptiedGroups(state: SyncState, sharedOrigins: ReadonlySet<string>, listsAny: (group: string) => Promise<boolean>, leftToPull: ReadonlySet<string> = new Set()): Promise<Array<{ group: string; notes: number }>> {
  const notes = new Map<string, Set<string>>();
  for (const record of Object.values(state.files)) {
    if (record.status === 'failed' || record.status === 'skipped' || leftToPull.has(record.id)) continue;
    for (const ref of record.episodes) if (ownConfirmed(ref, sharedOrigins)) notes.set(ref.groupId, (notes.get(ref.groupId) ?? new Set()).add(record.id));
  }
  const out: Array<{ group: string; notes: number }> = [];
  for (const [group, ids] of [...notes].slice(0, MAX_GROUPS_ASKED)) if (!(await listsAny(group))) out.push({ group, notes: ids.size });
  return out;
}

/** Both looks in one listing: what COPY_WATCH and FORCE_LOOK each look for, by group. */
export function withForceLook(watch: ReadonlyMap<string, ReadonlySet<string>>, forced: ReadonlyMap<string, ReadonlySet<string>>): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const looks of [watch, forced]) for (const [group, markers] of looks) out.set(group, new Set([...(out.get(group) ?? []), ...markers]));
  return out;
}
