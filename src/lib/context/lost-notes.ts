/**
 * What a sync saw the graph lose, kept for the next session and `status` as long as it is true
 * (context/graph-problem.ts LOST_OWNS_ITS_NOTES): after each sync (the CLI's, the worker's, a watch
 * pass), the notes its listing no longer showed are recorded, and the notes a `lost` warning names
 * are looked up in the state as the sync left it: an episode no note of the state rests on any more
 * (removed here, by the person or by `pull`, or sent again) leaves it; a renamed note stays in it.
 * The state is read (read-only) only while a warning names notes: most syncs read nothing more.
 */
import { loadState } from '../state/state.js';
import type { SyncState } from '../state/types.js';
import type { Logger } from '../util/log.js';
import { lostNamesParts, recordLostSeen, settleLostParts, type EmptiedGroup, type LostPart } from './graph-problem.js';

/**
 * The part as the state has it now: `part` while note `part.id` still rests on episode `part.uuid` in
 * `group`, else the note that does (renamed here: its episodes moved to the new file's id,
 * graph-problem.ts LOST_PART_IS_ITS_EPISODE), else undefined (removed, or sent again).
 */
export function lostPartNow(state: SyncState, group: string, part: LostPart): LostPart | undefined {
  const restsOn = (record: SyncState['files'][string] | undefined) => record !== undefined && record.episodes.some((ref) => ref.groupId === group && ref.uuid === part.uuid);
  if (restsOn(state.files[part.id])) return part;
  for (const [id, record] of Object.entries(state.files)) if (restsOn(record)) return { id, uuid: part.uuid };
  return undefined;
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
    settleLostParts(stateDir, (group, part) => lostPartNow(state, group, part));
  } catch (error) {
    logger.warn('could not record for the next session the notes a listing no longer showed (LOST_SEEN_IN_PASSING); the next sync that lists their group tells them again, and `sync --force` sends them again', { lost: lostSeen, error: error instanceof Error ? error.message : String(error) });
  }
}
