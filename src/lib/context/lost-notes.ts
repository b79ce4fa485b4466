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
import type { Logger } from '../util/log.js';
import { lostNamesParts, recordLostSeen, settleLostParts, type EmptiedGroup, type LostPart } from './graph-problem.js';

/** Whether the state still has note `part.id` resting on episode `part.uuid` in `group`. */
export function stillLost(state: SyncState, group: string, part: LostPart): boolean {
  const record = state.files[part.id];
  return record !== undefined && record.episodes.some((ref) => ref.groupId === group && ref.uuid === part.uuid);
}

/**
 * After a sync: records what its listing no longer showed (`lostSeen`), then lets go of what the state
 * says is gone or sent again. For a run that ends with its summary whatever the record costs (the
 * watch's pass process, the worker's sync step, the command line's `sync`; qa-review-16a): a record that
 * cannot be written (the state folder full, its path taken) is said in the log instead. Thrown there,
 * it ended the watch's pass process unanswered (the pass failed, its summary lost), made the worker take
 * its sync for failed, and ended `sync` with an error after the sync was done. Nothing is lost by it:
 * the state still calls the notes confirmed, so the next listing of their group tells them again.
 */
export async function recordLostAfterSync(stateDir: string, lostSeen: readonly EmptiedGroup[] | undefined, logger: Pick<Logger, 'warn'>): Promise<void> {
  try {
    if (lostSeen !== undefined && lostSeen.length > 0) recordLostSeen(stateDir, lostSeen);
    if (!lostNamesParts(stateDir)) return;
    let state: SyncState;
    try {
      ({ state } = await loadState(stateDir, { readOnly: true }));
    } catch {
      return; // unreadable now: the warning stays until a sync that can read it
    }
    settleLostParts(stateDir, (group, part) => stillLost(state, group, part));
  } catch (error) {
    logger.warn('could not record for the next session the notes a listing no longer showed (LOST_SEEN_IN_PASSING); the next sync that lists their group tells them again, and `sync --force` sends them again', { lost: lostSeen, error: error instanceof Error ? error.message : String(error) });
  }
}
