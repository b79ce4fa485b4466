/**
 * Notes between versions: on servers where an edit is break-before-make (sync/retire.ts), the
 * older version is deleted before the new one is in the graph. Until it is, a context rebuilt from
 * the graph would miss that note's knowledge, so the worker keeps serving the last good context
 * ("no gap the user sees"; hooks/worker.ts). Read-only, once per refresh.
 */
import type { Config } from '../config/config.js';
import { loadState, type SyncState } from '../state/state.js';

/**
 * Notes whose older version is gone and whose new version is on its way (pending or queued). A
 * new version that failed (rejected, or dropped past its re-sends) is a verdict, not a wait: it
 * must not keep the context from being rebuilt for good.
 */
export function notesBetweenVersions(state: SyncState): number {
  return Object.values(state.files).filter((r) => r.bridgingSince !== undefined && (r.status === 'pending' || r.status === 'queued')).length;
}

/** 0 when there is no readable state. */
export async function loadNotesBetweenVersions(config: Pick<Config, 'stateDir'>): Promise<number> {
  try {
    const { state } = await loadState(config.stateDir, { readOnly: true });
    return notesBetweenVersions(state);
  } catch {
    return 0;
  }
}
