/**
 * The "facts left behind" phase (docs/architecture.md, the engine's phases): deleted stays deleted.
 *
 * Graphiti extracts facts from an episode, and a fact names the episodes it rests on. Servers on
 * graphiti-core 0.29+ delete the facts only a deleted episode created; the released 1.0.2 image
 * (0.28.2) deletes the episode node only, so its facts stay and come back in every search. So the
 * state remembers the episodes of ours that were deleted (`state.deletedEpisodes`, with the
 * retired ones still waiting to be deleted that is the "retired" set), and:
 * - after a run deletes episodes, one search per deleted part (its name and a few of its words,
 *   `EpisodeRef.probe`) finds what they left, and `delete_entity_edge` removes each fact that rests
 *   only on retired episodes of ours;
 * - the context leaves such facts out whatever the server kept (context.ts, given the same set).
 * A fact another episode still supports is never touched (it names that episode too), nor one of
 * another origin (it names none of ours), nor one that names no episode at all.
 */
import { factRestsOnlyOn } from '../graphiti/graphiti.js';
import { serverUnusable } from '../mcp/errors.js';
import { retiredEpisodeUuids } from '../state/retired.js';
import type { EpisodeRef, SyncState } from '../state/state.js';
import type { OnlineRun } from './types.js';

/** How many deleted episodes the state remembers (the newest). */
export const DELETED_EPISODES_KEPT = 5000;
/** Facts asked for per deleted part: a note yields a handful; the rest of the group ranks below. */
const FACTS_PER_SEARCH = 50;

export function rememberDeleted(state: SyncState, uuid: string, groupId: string, at: string): void {
  const list = (state.deletedEpisodes ??= []);
  if (list.some((d) => d.uuid === uuid)) return;
  list.push({ uuid, groupId, at });
  if (list.length > DELETED_EPISODES_KEPT) list.splice(0, list.length - DELETED_EPISODES_KEPT);
}

/**
 * Removes the facts that rest only on retired episodes, found through the parts this run deleted
 * (`deleted`, from retire.ts). Returns how many it removed. Not needed where the server deletes
 * unsupported facts itself (graphiti/semantics.ts `needsFactCleanup`).
 */
export async function cleanupFacts(ctx: OnlineRun, deleted: readonly EpisodeRef[]): Promise<number> {
  if (deleted.length === 0 || !ctx.server.reachable) return 0;
  const retired = retiredEpisodeUuids(ctx.state);
  const removed = new Set<string>();
  for (const ref of deleted) {
    if (ctx.options.signal?.aborted === true || !ctx.server.reachable) break;
    const query = [ref.name, ref.probe ?? ''].join(' ').trim();
    try {
      const facts = await ctx.graphiti.searchFacts(query, [ref.groupId], FACTS_PER_SEARCH, ctx.options.signal);
      for (const fact of facts) {
        if (removed.has(fact.uuid) || !factRestsOnlyOn(fact, retired)) continue;
        await ctx.graphiti.deleteEntityEdge(fact.uuid, ref.groupId, ctx.options.signal);
        removed.add(fact.uuid);
      }
    } catch (error) {
      // The context still leaves such facts out; the next deletion's search may find them.
      if (serverUnusable(error)) ctx.server.markDown(error);
      ctx.logger.warn('could not remove the facts a deleted episode left', { uuid: ref.uuid, error: (error as Error).message });
    }
  }
  if (removed.size > 0) ctx.logger.info('removed facts left behind by deleted episodes', { facts: removed.size });
  return removed.size;
}
