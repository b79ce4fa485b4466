/**
 * Notes between versions: on servers where an edit is break-before-make (sync/retire.ts), the
 * older version is deleted before the new one is in the graph. Until it is, a context rebuilt from
 * the graph would miss that note's knowledge, so the last good context is kept ("no gap the user
 * sees"): by the worker (hooks/worker.ts) and by `context --refresh` (context/cli.ts) alike, both
 * through context/frozen.ts `contextFrozen`. Only the projects whose context reads a group such a note is in are
 * held back; every other project's context is rebuilt as usual. Read-only, once per refresh.
 */
import { loadState } from './state.js';
import type { SyncState } from './types.js';

/**
 * Notes whose older version is gone and whose new version (or the older one sent again,
 * sync/restore.ts) is on its way, pending or queued, in one of `groups` (every group when
 * undefined). A version that failed for good is a verdict, not a wait: it must not keep the
 * context from being rebuilt for good.
 */
export function notesBetweenVersions(state: SyncState, groups?: ReadonlySet<string>): number {
  return Object.values(state.files).filter(
    (r) => r.bridgingSince !== undefined && (r.status === 'pending' || r.status === 'queued') && (groups === undefined || r.episodes.some((ref) => groups.has(ref.groupId))),
  ).length;
}

/** 0 when there is no readable state. */
export async function loadNotesBetweenVersions(config: { stateDir: string }, groups?: ReadonlySet<string>): Promise<number> {
  try {
    const { state } = await loadState(config.stateDir, { readOnly: true });
    return notesBetweenVersions(state, groups);
  } catch {
    return 0;
  }
}
