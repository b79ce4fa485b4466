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
 */
import { partMarker } from '../memory/episode.js';
import { everyPart, type EpisodeRef, type SyncState } from '../state/state.js';

/** Every part of ours with a uuid, as the state knows them now (copies: the look may change the refs). */
export function partsKnownHere(state: SyncState): EpisodeRef[] {
  const out: EpisodeRef[] = [];
  for (const ref of everyPart(state)) if (ref.uuid !== undefined) out.push({ ...ref });
  return out;
}

/** Keeps `parts` (learnt on `server`) for when the state is back there. */
export function leaveServer(state: SyncState, server: string, parts: readonly EpisodeRef[]): void {
  if (parts.length === 0) return;
  state.leftOn ??= {};
  const kept = state.leftOn[server] ?? [];
  const known = new Set(kept.map((ref) => ref.uuid));
  state.leftOn[server] = [...kept, ...parts.filter((ref) => !known.has(ref.uuid))];
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
  if (left === undefined || state.leftOn === undefined) return 0;
  delete state.leftOn[server];
  if (Object.keys(state.leftOn).length === 0) delete state.leftOn;
  // By file id: the groups its current parts are in now.
  const groupsNow = new Map<string, Set<string>>();
  for (const record of Object.values(state.files)) {
    const groups = groupsNow.get(record.fileId) ?? new Set<string>();
    for (const ref of record.episodes) groups.add(ref.groupId);
    groupsNow.set(record.fileId, groups);
  }
  const known = new Set(everyPart(state).map((ref) => ref.uuid).filter((uuid) => uuid !== undefined));
  const gone = left.filter((ref) => {
    const fileId = partMarker(ref)?.fileId;
    if (ref.uuid === undefined || known.has(ref.uuid) || fileId === undefined) return false;
    const groups = groupsNow.get(fileId);
    return groups === undefined ? deleteRemoved : !groups.has(ref.groupId);
  });
  state.orphans.push(...gone);
  return gone.length;
}
