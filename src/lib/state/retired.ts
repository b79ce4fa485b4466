/**
 * Which of our episodes are retired: deleted, or waiting to be. Read from the state by the sync's
 * fact cleanup (sync/fact-cleanup.ts) and by every context refresh (context/context.ts), which
 * leaves out a fact resting only on retired episodes whatever the server kept.
 */
import { loadState, retiredParts } from './state.js';
import type { SyncState } from './types.js';

/**
 * Our episodes that are retired: deleted, or waiting to be (a deleted file's, a copy, and an older
 * version once the new one is in the graph: until then the old one is all the file has, and its
 * facts are the ones to use; after, both exist and only the newer counts).
 */
export function retiredEpisodeUuids(state: SyncState, options: { evenBeforeReplacement?: boolean } = {}): Set<string> {
  const uuids = new Set<string>((state.deletedEpisodes ?? []).map((d) => d.uuid));
  for (const record of Object.values(state.files)) {
    // `evenBeforeReplacement` (sync/retire.ts, deciding a delete: does a fact have live support?):
    // an older version counts as retired at once.
    if (options.evenBeforeReplacement !== true && !record.episodes.every((ref) => ref.uuid !== undefined)) continue;
    for (const ref of record.superseded) if (ref.uuid !== undefined) uuids.add(ref.uuid);
  }
  for (const ref of state.orphans) if (ref.uuid !== undefined) uuids.add(ref.uuid);
  // A part held as another machine's (sync/copy-hold.ts) is that machine's live episode: its facts are not stale.
  for (const ref of retiredParts(state)) if (ref.foreign === true && ref.uuid !== undefined) uuids.delete(ref.uuid);
  // An episode a current part holds (a revert adopted it back) is not retired.
  for (const record of Object.values(state.files)) for (const ref of record.episodes) if (ref.uuid !== undefined) uuids.delete(ref.uuid);
  return uuids;
}

/** The retired set as the worker and the `context` command see it: read-only; empty when there is no state. */
export async function loadRetiredEpisodes(stateDir: string): Promise<Set<string>> {
  try {
    const { state } = await loadState(stateDir, { readOnly: true });
    return retiredEpisodeUuids(state);
  } catch {
    return new Set();
  }
}
