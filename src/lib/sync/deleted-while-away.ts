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
 * (MADEINOZ_KNOWLEDGE_DELETE_REMOVED=false). A part of a note the state still has is left to the rebuild (an older version) and to the
 * look (the same version, found again by its marker). Several moves keep one list per server left.
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
 * Back on `server`: the parts left there whose note the state no longer has become orphans. How many.
 * `deleteRemoved` false (MADEINOZ_KNOWLEDGE_DELETE_REMOVED=false: a removed file keeps its episodes,
 * plan.ts): none do, as none did on the server the note was deleted on; the list is forgotten.
 */
export function backOnServer(state: SyncState, server: string, deleteRemoved: boolean): number {
  const left = state.leftOn?.[server];
  if (left === undefined || state.leftOn === undefined) return 0;
  delete state.leftOn[server];
  if (Object.keys(state.leftOn).length === 0) delete state.leftOn;
  if (!deleteRemoved) return 0;
  const notes = new Set(Object.values(state.files).map((record) => record.fileId));
  const known = new Set(everyPart(state).map((ref) => ref.uuid).filter((uuid) => uuid !== undefined));
  const gone = left.filter((ref) => {
    const fileId = partMarker(ref)?.fileId;
    return ref.uuid !== undefined && !known.has(ref.uuid) && fileId !== undefined && !notes.has(fileId);
  });
  state.orphans.push(...gone);
  return gone.length;
}
