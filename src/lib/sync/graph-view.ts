/**
 * What the context builder must know of the sync state to show the graph truthfully, read once
 * (read-only) by the worker before it refreshes the SessionStart context:
 * - the retired episodes of ours, whose facts are left out (fact-cleanup.ts `retiredEpisodeUuids`);
 * - the notes between versions: on servers where an edit is break-before-make (retire.ts), the
 *   older version is deleted before the new one is in the graph. Until it is, a context rebuilt
 *   from the graph would miss that note's knowledge, so the last good context is kept ("no gap the
 *   user sees").
 */
import type { Config } from '../config/config.js';
import { loadState, type SyncState } from '../state/state.js';
import { retiredEpisodeUuids } from './fact-cleanup.js';

export interface GraphView {
  retiredEpisodes: Set<string>;
  /** Notes whose older version is gone and whose new version is not confirmed yet. */
  bridging: number;
}

export function graphViewOf(state: SyncState): GraphView {
  return { retiredEpisodes: retiredEpisodeUuids(state), bridging: Object.values(state.files).filter((r) => r.bridgingSince !== undefined).length };
}

/** Empty (nothing retired, nothing bridging) when there is no readable state. */
export async function loadGraphView(config: Pick<Config, 'stateDir'>): Promise<GraphView> {
  try {
    const { state } = await loadState(config.stateDir, { readOnly: true });
    return graphViewOf(state);
  } catch {
    return { retiredEpisodes: new Set(), bridging: 0 };
  }
}
