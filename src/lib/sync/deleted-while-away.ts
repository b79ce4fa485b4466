/**
 * DELETED_WHILE_AWAY (with state/server-of-record.ts SERVER_OF_RECORD): a note deleted while the
 * machine was pointed at another server is deleted from the first one when the machine is back.
 *
 * The episodes of the first server are known by their uuids only to the state. On the other server
 * they are not found: a deleted note's orphan is asked to be deleted there, answered "not found",
 * and taken for gone; a confirmed part the look finds lost is sent again, its first uuid forgotten.
 * Back on the first server nothing named the deleted note's episode any more (the rebuild there finds
 * older versions of the files the state still has, not of files it no longer has): the note stayed
 * in that graph for good, in every session and on every linked machine's pull.
 *
 * So the first run on another server keeps, under the server it leaves, every part of ours it knew
 * there (taken before the look forgets any: `partsKnownHere`); back on that server (the first run
 * that reaches it: a `sync --source` run away records the server too, LOOK_OWED_TO_SOURCES_LEFT_OUT),
 * those whose note the state no longer has (deleted, or renamed: a new file id) become orphans,
 * deleted by retire.ts with its usual guards (another machine's held part is kept, a fact another
 * episode states is held); none where removed files keep their episodes
 * (MADEINOZ_KNOWLEDGE_DELETE_REMOVED=false). So do those of a note the state still has in groups
 * none of its current parts is in (moved to another group while away, or retracted). A part of a
 * note the state still has, in a group it is still in, is left to the rebuild (an older version) and
 * to the look (the same version, found again by its marker). Several moves keep one list per server left.
 *
 * LEFT_LIST_SLIM: a kept part holds only what its delete needs (its uuid, group, marker and name,
 * its few words, `probe`: the search that finds the facts it left, retire.ts `factsOf` and
 * fact-cleanup.ts, on a server without get_episode_entities; and a hold's fields: retire.ts judges
 * it as any orphan), not its send history: the list is written
 * with the state at every save. A part deleted on purpose elsewhere (`deletedElsewhere`) is not kept:
 * nothing of it is left to delete.
 *
 * LEFT_LIST_BOUND: a move never undone (a new server for good) kept that list for good, a copy of
 * every part the state knew, in every save of the state. After LEFT_LIST_DAYS away from a server,
 * its list keeps only what it may owe: the parts of notes already deleted and of notes moved to
 * other groups (deleted there if the machine ever comes back); the parts of notes still here, in
 * their groups, go. The rule's promise is bounded so: a note
 * deleted more than LEFT_LIST_DAYS after the machine left a server stays on that server should it
 * come back (a log line says so when the bound cuts, with what stays owed). A list an older build
 * wrote, with no date, counts its days from the first run that sees it.
 */
import { partMarker } from '../memory/episode.js';
import { everyPart, type EpisodeRef, type SyncState } from '../state/state.js';

/** Every part of ours with a uuid, as the state knows them now (copies: the look may change the refs). */
export function partsKnownHere(state: SyncState): EpisodeRef[] {
  const out: EpisodeRef[] = [];
  for (const ref of everyPart(state)) if (ref.uuid !== undefined) out.push({ ...ref });
  return out;
}

/** LEFT_LIST_BOUND: how long a server left keeps the parts of notes still here (days). */
export const LEFT_LIST_DAYS = 90;
const DAY_MS = 86_400_000;

/** LEFT_LIST_SLIM: what a kept part's delete needs (retire.ts reads these of an orphan), nothing of its send history. */
function slim(ref: EpisodeRef): EpisodeRef {
  const { marker, name, groupId, part, parts, uuid, probe, foreign, unsigned, heldAt, heldFacts, heldSince, heldChecks } = ref;
  const out: EpisodeRef = { marker, name, groupId, part, parts, resends: 0 };
  Object.assign(out, Object.fromEntries(Object.entries({ uuid, probe, foreign, unsigned, heldAt, heldFacts, heldSince, heldChecks }).filter(([, v]) => v !== undefined)));
  return out;
}

/** Keeps `parts` (learnt on `server`) for when the state is back there, left at `nowIso`. */
export function leaveServer(state: SyncState, server: string, parts: readonly EpisodeRef[], nowIso: string): void {
  const owed = parts.filter((ref) => ref.deletedElsewhere === undefined);
  if (owed.length === 0) return;
  state.leftOn ??= {};
  const kept = state.leftOn[server] ?? [];
  const known = new Set(kept.map((ref) => ref.uuid));
  state.leftOn[server] = [...kept, ...owed.filter((ref) => !known.has(ref.uuid)).map(slim)];
  state.leftOnSince ??= {};
  state.leftOnSince[server] ??= nowIso;
}

/**
 * The parts among `left` no current part of their note's stands for, their uuid known no more:
 * those of a note the state no longer has (deleted, or renamed: a new file id), unless `deleteRemoved`
 * is false; those of a note whose current parts are all in other groups (moved or retracted).
 */
function owedBack(state: SyncState, left: readonly EpisodeRef[], deleteRemoved: boolean): EpisodeRef[] {
  // By file id: the groups its current parts are in now.
  const groupsNow = new Map<string, Set<string>>();
  for (const record of Object.values(state.files)) {
    const groups = groupsNow.get(record.fileId) ?? new Set<string>();
    for (const ref of record.episodes) groups.add(ref.groupId);
    groupsNow.set(record.fileId, groups);
  }
  const known = new Set(everyPart(state).map((ref) => ref.uuid).filter((uuid) => uuid !== undefined));
  return left.filter((ref) => {
    const fileId = partMarker(ref)?.fileId;
    if (ref.uuid === undefined || known.has(ref.uuid) || fileId === undefined) return false;
    const groups = groupsNow.get(fileId);
    return groups === undefined ? deleteRemoved : !groups.has(ref.groupId);
  });
}

function forget(state: SyncState, server: string): void {
  if (state.leftOn !== undefined) delete state.leftOn[server];
  if (state.leftOnSince !== undefined) delete state.leftOnSince[server];
  if (state.leftOn !== undefined && Object.keys(state.leftOn).length === 0) delete state.leftOn;
  if (state.leftOnSince !== undefined && Object.keys(state.leftOnSince).length === 0) delete state.leftOnSince;
}

/**
 * Back on `server`: the parts left there that no current part of their note's stands for become
 * orphans. How many. Those of a note the state no longer has: unless removed files keep their
 * episodes (`deleteRemoved` false, MADEINOZ_KNOWLEDGE_DELETE_REMOVED=false, plan.ts), as they were
 * kept on the server the note was deleted on. Those of a note the state still has whose current
 * parts are all in other groups (the note moved to another group while away, or opted out: its
 * current parts retracted): the rebuild looks only in the groups in use now, so nothing else would
 * ever name them; a note's move or retraction retires its older parts, whatever `deleteRemoved` says.
 */
export function backOnServer(state: SyncState, server: string, deleteRemoved: boolean): number {
  const left = state.leftOn?.[server];
  if (left === undefined) return 0;
  forget(state, server);
  const gone = owedBack(state, left, deleteRemoved);
  state.orphans.push(...gone);
  return gone.length;
}

/**
 * LEFT_LIST_BOUND at a run: each server left more than LEFT_LIST_DAYS before `now` keeps only the
 * parts it may owe (of notes already deleted or moved to other groups); a list with no date is dated now. What was cut, by server.
 */
export function boundLeftLists(state: SyncState, now: number): Array<{ server: string; dropped: number; owed: number; since: string }> {
  const cut: Array<{ server: string; dropped: number; owed: number; since: string }> = [];
  for (const [server, left] of Object.entries(state.leftOn ?? {})) {
    state.leftOnSince ??= {};
    const since = (state.leftOnSince[server] ??= new Date(now).toISOString());
    const at = Date.parse(since);
    if (!Number.isFinite(at) || now - at <= LEFT_LIST_DAYS * DAY_MS) continue;
    // What may be owed whatever MADEINOZ_KNOWLEDGE_DELETE_REMOVED says when the machine is back.
    const owed = owedBack(state, left, true);
    if (owed.length === left.length) continue;
    if (owed.length === 0) forget(state, server);
    else (state.leftOn as Record<string, EpisodeRef[]>)[server] = owed;
    cut.push({ server, dropped: left.length - owed.length, owed: owed.length, since });
  }
  return cut;
}
