/**
 * What a sync saw the graph lose, kept for the next session and `status` as long as it is true
 * (context/graph-problem.ts LOST_OWNS_ITS_NOTES): after each sync (the CLI's, the worker's, a watch
 * pass), the notes its listing no longer showed are recorded, and the notes a `lost` warning names
 * are looked up in the state as the sync left it: a note gone from the state (removed here, by the
 * person or by `pull`) or no longer resting on the episode seen missing (sent again) leaves it.
 * The state is read (read-only) only while a warning names notes: most syncs read nothing more.
 */
import { loadState } from '../state/state.js';
import type { SyncState } from '../state/types.js';
import { lostNamesParts, recordLostSeen, settleLostParts, type EmptiedGroup, type LostPart } from './graph-problem.js';

/** Whether the state still has note `part.id` resting on episode `part.uuid` in `group`. */
export function stillLost(state: SyncState, group: string, part: LostPart): boolean {
  const record = state.files[part.id];
  return record !== undefined && record.episodes.some((ref) => ref.groupId === group && ref.uuid === part.uuid);
}

/** After a sync: records what its listing no longer showed (`lostSeen`), then lets go of what the state says is gone or sent again. */
export async function recordLostAfterSync(stateDir: string, lostSeen: readonly EmptiedGroup[] | undefined): Promise<void> {
  if (lostSeen !== undefined && lostSeen.length > 0) recordLostSeen(stateDir, lostSeen);
  if (!lostNamesParts(stateDir)) return;
  let state: SyncState;
  try {
    ({ state } = await loadState(stateDir, { readOnly: true }));
  } catch {
    return; // unreadable now: the warning stays until a sync that can read it
  }
  settleLostParts(stateDir, (group, part) => stillLost(state, group, part));
}
