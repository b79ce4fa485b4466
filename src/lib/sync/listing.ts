/** What the graph holds for our groups: one get_episodes per group in use. */
import type { Episode } from '../graphiti/graphiti.js';
import { McpError } from '../mcp/errors.js';
import type { SyncState } from '../state/state.js';
import { SyncError, type OnlineRun, type RunContext } from './types.js';

/** Graphiti has no pagination for get_episodes, so ask for plenty. */
const MIN_LISTING = 200;
const MAX_LISTING = 20_000;

/** Listing per group, or undefined when the server is unreachable (marked on `ctx.server`). */
export async function fetchListing(ctx: OnlineRun): Promise<Map<string, Episode[]> | undefined> {
  const { state } = ctx;
  const ours = Object.values(state.files).reduce((n, r) => n + r.episodes.length + r.superseded.length, state.orphans.length);
  const cap = Math.min(MAX_LISTING, Math.max(MIN_LISTING, ours * 2 + 100));
  const listing = new Map<string, Episode[]>();
  for (const group of groupsInUse(state)) {
    try {
      const episodes = await ctx.graphiti.getEpisodes([group], cap, ctx.options.signal);
      if (episodes.length >= cap) ctx.logger.warn('get_episodes hit its cap; some episodes may be invisible to confirmation', { group, cap });
      listing.set(group, episodes);
    } catch (error) {
      if (error instanceof McpError && !error.retryable && error.kind !== 'tool') throw new SyncError(`Graphiti rejected get_episodes: ${error.message}`, { cause: error });
      ctx.server.markDown(error);
      return undefined;
    }
  }
  return listing;
}

function groupsInUse(state: SyncState): string[] {
  const groups = new Set<string>();
  for (const record of Object.values(state.files)) for (const ref of [...record.episodes, ...record.superseded]) groups.add(ref.groupId);
  for (const ref of state.orphans) groups.add(ref.groupId);
  return [...groups].sort();
}
