/**
 * Phase 5, deleting retired parts: a "retired" part is an episode to delete from the graph. The
 * state keeps them in two lists (names of the on-disk format): `record.superseded`, older versions
 * of a file that still exists, and `state.orphans`, parts of deleted files and duplicate copies.
 * A retired part is deleted once its uuid is known; until then it waits for a later reconcile.
 *
 * Make before break: an older version is deleted only once every part of the file's current
 * version is confirmed (has its uuid), so at every moment the graph holds at least one version
 * of the file, and exactly one after that. A new version the server drops is re-sent while the
 * old one stays. A file with no current parts (deleted, opted out, skipped as loop or empty)
 * has nothing to wait for: its old episodes go at once.
 */
import { McpError } from '../mcp/errors.js';
import type { EpisodeRef, FileRecord } from '../state/state.js';
import { rememberDeleted } from './fact-cleanup.js';
import type { OnlineRun, RunContext } from './types.js';

export async function deleteRetired(ctx: OnlineRun): Promise<void> {
  const { state, options } = ctx;
  // An episode a current part holds is never deleted: after a revert (A → B → A before A's old
  // episode was deleted) or a re-created file, reconcile adopts the old episode for the current
  // part, and deleting it as retired would lose the content while the state says "confirmed".
  const current = new Set<string>();
  for (const record of Object.values(state.files)) for (const ref of record.episodes) if (ref.uuid !== undefined) current.add(ref.uuid);
  const remove = async (refs: EpisodeRef[]): Promise<EpisodeRef[]> => {
    const keep: EpisodeRef[] = [];
    for (const ref of refs) {
      if (ref.uuid !== undefined && current.has(ref.uuid)) continue;
      if (ref.uuid === undefined || !ctx.server.reachable || options.signal?.aborted === true) {
        keep.push(ref);
        continue;
      }
      try {
        await ctx.graphiti.deleteEpisode(ref.uuid, ref.groupId, options.signal);
        // Gone (deleted now, or already): its facts may not be (fact-cleanup.ts).
        rememberDeleted(state, ref.uuid, ref.groupId, new Date(ctx.now()).toISOString());
        ctx.deletedThisRun.push(ref);
      } catch (error) {
        if (error instanceof McpError && error.retryable) ctx.server.markDown(error);
        ctx.logger.warn('delete_episode failed; will retry next run', { uuid: ref.uuid, error: (error as Error).message });
        keep.push(ref);
      }
    }
    return keep;
  };
  for (const record of Object.values(state.files)) {
    if (record.superseded.length === 0 || !currentVersionConfirmed(record)) continue;
    record.superseded = await remove(record.superseded);
    await ctx.ledger.journal([record]);
  }
  if (state.orphans.length > 0) {
    state.orphans = await remove(state.orphans);
    await ctx.ledger.journal([], true);
  }
}

/** Every part of the record's current version is in the graph (or it has none to wait for). */
export function currentVersionConfirmed(record: FileRecord): boolean {
  return record.episodes.every((ref) => ref.uuid !== undefined);
}

/** Any part whose deletion still waits for its uuid. */
export function retiredWaiting(ctx: RunContext): boolean {
  return Object.values(ctx.state.files).some((r) => r.superseded.some((s) => s.uuid === undefined)) || ctx.state.orphans.some((o) => o.uuid === undefined);
}
