/**
 * What the graph holds of ours, group by group, at the least cost the server's API allows.
 *
 * `get_episodes` is the only listing: uuid order (arbitrary in time), no paging, no filter, and a
 * cost that grows with what it returns. So a group is listed only when something of ours in it
 * waits to be seen (a sent part not yet confirmed, a retired part whose uuid we do not know, or
 * everything while the state is being rebuilt), only when its back-off has passed (pace.ts), and
 * with a cap that grows until either every waiting marker is found or the listing has covered the
 * group (fewer episodes than asked). The group's size is remembered, so the next listing covers
 * it in one request. Only a complete listing may prove that something is absent (reconcile.ts).
 * While a busy group's queue is far from our last part, the schedule asks for a pace sample
 * instead (pace.ts `sampleCap`: the top tenth of the uuid order, one request, never grown).
 *
 * On the local server (`graphiti-memory-sync server`) a group is read instead by one small query
 * of its FalkorDB graph (graphiti/falkordb-episodes.ts): our markers, the episodes our parts rest on
 * by uuid (ADOPTED_FOUND_BY_UUID), and the episodes started since the first of ours waiting was queued. It is as complete as a listing for what reconcile judges
 * (every copy of each marker, the group's movement in that window) and costs milliseconds. Not for
 * a rebuild or a take-over (they need the whole group); any failure falls back to get_episodes.
 *
 * A server before 1.1 on FalkorDB lists only the group it last wrote to; with several groups of
 * ours an empty listing is marked `blind` (pace.ts GroupListing), and judged by reconcile.ts.
 */
import { liveServerStartedAt } from '../config/server-runtime.js';
import { normalizeGroupId } from '../graphiti/escape.js';
import { deletesInLastWrittenGroupOnly, listsInLastWrittenGroup } from '../graphiti/semantics.js';
import { FalkorDbEpisodes, localFalkorDbFor } from '../graphiti/falkordb-episodes.js';
import type { Episode } from '../graphiti/graphiti.js';
import { parseMarker, type MarkerInfo } from '../memory/episode.js';
import { McpError, refusesEndpoint } from '../mcp/errors.js';
import { everyPart, queuedTime, retiredParts, type EpisodeRef, type SyncState } from '../state/state.js';
import { isSharedPart, unsettledShared } from './shared.js';
import { firstCap, listingDue, nextCap, paceOf, sampleCap, sampleDue, MAX_LISTING, MAX_SKEW_MS, type GroupListing } from './pace.js';
import { asCurrentOrigin } from './origin-migration.js';
import { SyncError, type OnlineRun } from './types.js';

/**
 * A listed episode with its marker parsed once, here at the edge (undefined: not one of ours, or
 * written by another tool). Everything after the listing reads `marker`, never the description.
 */
export interface ListedEpisode extends Episode {
  marker: MarkerInfo | undefined;
}

/** One group's listing, its episodes with their markers parsed. */
export interface OurGroupListing extends GroupListing {
  episodes: ListedEpisode[];
}

export type Listing = Map<string, OurGroupListing>;

/** Parses an episode's marker: the one place a listed source_description is read. */
export function withMarker(episode: Episode): ListedEpisode {
  return { ...episode, marker: parseMarker(episode.source_description) };
}

/** Markers of ours each group must show before we can stop listing it, by group. */
export function waitingMarkers(state: SyncState, rebuilding: boolean, sharedOrigins: ReadonlySet<string> = new Set()): Map<string, Set<string>> {
  const waiting = new Map<string, Set<string>>();
  const want = (ref: EpisodeRef) => {
    const set = waiting.get(ref.groupId) ?? new Set<string>();
    set.add(ref.marker);
    waiting.set(ref.groupId, set);
  };
  // Listed, but not a marker to find: a racing copy may be anywhere, so the listing must be complete.
  const wantListed = (ref: EpisodeRef) => {
    if (!waiting.has(ref.groupId)) waiting.set(ref.groupId, new Set());
  };
  const retired = retiredParts(state);
  // A part never sent is in the graph only if the state was lost, if it is an older version come
  // back (a revert A → B → A, a file re-created) whose episode is still to be deleted, or if a
  // co-owner of a shared source sent the same version first.
  const retiredMarkers = new Set(retired.map((ref) => ref.marker));
  const shared = (ref: EpisodeRef) => isSharedPart(ref, sharedOrigins);
  for (const record of Object.values(state.files)) {
    if (record.status === 'failed' || record.status === 'skipped') continue;
    for (const ref of record.episodes) {
      if (ref.uuid === undefined && (ref.sentAt !== undefined || rebuilding || retiredMarkers.has(ref.marker) || shared(ref))) want(ref);
      else if (unsettledShared(ref, sharedOrigins)) wantListed(ref);
    }
  }
  for (const ref of retired) if (ref.uuid === undefined && ref.sentAt !== undefined) want(ref);
  if (rebuilding) for (const group of groupsInUse(state)) if (!waiting.has(group)) waiting.set(group, new Set());
  return waiting;
}

export interface ListingOptions {
  rebuilding: boolean;
  sharedOrigins: ReadonlySet<string>;
  /** List even if the group's back-off has not passed (`sync --wait` paces itself). */
  ignoreBackoff: boolean;
  /** Groups to list in full now whatever waits in them (the madeinoz hook's notes to take over). */
  listInFull?: ReadonlySet<string>;
  /**
   * This run has read all its groups in full once already (`FetchedListing.coveredAll` of an
   * earlier pass): a rebuild then looks for its markers only, and may take pace samples.
   */
  coveredBefore?: boolean;
  /** Markers to look for in full now, by group, whatever the group's back-off (sync/copy-hold.ts COPY_WATCH). */
  watch?: ReadonlyMap<string, ReadonlySet<string>>;
}

export interface FetchedListing {
  listing: Listing;
  /** Every group listed was read in full (a listing that covered it, or the direct read). */
  coveredAll: boolean;
}

/**
 * Lists each group that has something of ours waiting and is due. Undefined when the server is
 * unreachable (marked on `ctx.server`); groups not listed are simply absent from the map.
 */
export async function fetchListing(ctx: OnlineRun, options: ListingOptions): Promise<FetchedListing | undefined> {
  const { state } = ctx;
  const listing: Listing = new Map();
  const groups = waitingMarkers(state, options.rebuilding, options.sharedOrigins);
  // No marker to find: the listing grows until it has covered the group.
  for (const group of options.listInFull ?? []) groups.set(group, new Set());
  for (const [group, markers] of options.watch ?? []) groups.set(group, new Set([...(groups.get(group) ?? []), ...markers]));
  const direct = new DirectReader(ctx, options);
  const covered: string[] = [];
  // Read before the listing: a server that starts after this read cannot make a part look lost.
  const serverSince = liveServerStartedAt(ctx.config.stateDir, ctx.config.mcpUrl);
  const since = serverSince === undefined ? {} : { serverSince };
  // Asked at the first get_episodes listing only (the tools are listed once per session).
  let lastWrittenOnly: Promise<boolean> | undefined;
  const blindIfEmpty = async (listed: OurGroupListing): Promise<OurGroupListing> => {
    if (listed.episodes.length > 0 || !listed.complete) return listed;
    lastWrittenOnly ??= ctx.graphiti.deleteEpisodeTakesGroup(ctx.options.signal).then((deleteEpisodeTakesGroup) => listsInLastWrittenGroup({ deleteEpisodeTakesGroup, db: ctx.config.db }));
    if (!(await lastWrittenOnly)) return listed;
    return { ...listed, offGroup: true, ...(deletesInLastWrittenGroupOnly({ deleteEpisodeTakesGroup: false, db: ctx.config.db, groups: groupsInUse(state).length }) ? { blind: true } : {}) };
  };
  try {
    for (const [group, markers] of groups) {
      const pace = paceOf(state, group);
      // Ours queued with a server that has stopped since: its queue began empty, so look now (in
      // full), and reconcile sends again what the graph does not hold, instead of waiting the
      // group's patience for episodes that can no longer come.
      const restarted = serverSince !== undefined && queuedBefore(state, group, serverSince);
      const watched = options.watch?.get(group);
      const now = options.rebuilding || options.ignoreBackoff || restarted || options.listInFull?.has(group) === true || watched !== undefined || listingDue(pace, ctx.now());
      if (!now) continue;
      const read = options.listInFull?.has(group) === true ? undefined : await direct.read(group, markers, watched);
      if (read !== undefined) {
        listing.set(group, { ...read, ...since });
        covered.push(group);
        continue;
      }
      // A sample needs the group's size, and a rebuild's first look must cover the group.
      const sample = sampleDue(pace, ctx.now()) && !options.ignoreBackoff && !restarted && watched === undefined && (!options.rebuilding || options.coveredBefore === true);
      try {
        const listed = { ...(await blindIfEmpty(sample ? await sampleGroup(ctx, group, sampleCap(pace.size as number)) : await listGroup(ctx, group, markers, firstCap(pace, oursIn(state, group))))), ...since };
        listing.set(group, listed);
        if (listed.complete) covered.push(group);
      } catch (error) {
        // Refused whatever we ask (our local server stopping under us: no token from then on) is the server gone, not a bad request.
        if (error instanceof McpError && !error.retryable && error.kind !== 'tool' && !refusesEndpoint(error)) throw new SyncError(`Graphiti rejected get_episodes: ${error.message}`, { cause: error });
        ctx.server.markDown(error);
        return undefined;
      }
    }
  } finally {
    await direct.close();
  }
  return { listing, coveredAll: covered.length > 0 && covered.length === listing.size };
}

/** The local server's direct query, opened on first use in a listing pass; undefined where it does not apply. */
class DirectReader {
  private episodes: FalkorDbEpisodes | undefined;
  private unusable = false;
  /**
   * A rebuild (lost or new state) looks for versions of ours anywhere in the group, whatever their
   * marker: the run's first look reads every episode that carries a marker of this tool, as a
   * listing of the whole group would show them (the others are no one's version of our files).
   */
  private readonly everyMarked: boolean;

  constructor(
    private readonly ctx: OnlineRun,
    private readonly options: ListingOptions,
  ) {
    this.everyMarked = options.rebuilding && options.coveredBefore !== true;
  }

  /** `watched`: markers only to be found by marker (COPY_WATCH: long confirmed); they do not widen the window of the group's movement. */
  async read(group: string, markers: Set<string>, watched: ReadonlySet<string> = new Set()): Promise<OurGroupListing | undefined> {
    if (this.unusable) return undefined;
    const { ctx } = this;
    const wanted = new Set([...markers].filter((m) => !watched.has(m)));
    let since = Number.POSITIVE_INFINITY;
    for (const ref of everyPart(ctx.state)) {
      if (ref.groupId !== group) continue;
      if (unsettledShared(ref, this.options.sharedOrigins)) wanted.add(ref.marker);
      if (wanted.has(ref.marker) && ref.uuid === undefined) since = Math.min(since, queuedTime(ref) || Number.POSITIVE_INFINITY);
      if (wanted.has(ref.marker) && ref.confirmedAt !== undefined) since = Math.min(since, Date.parse(ref.confirmedAt) || Number.POSITIVE_INFINITY);
    }
    for (const marker of watched) wanted.add(marker);
    if (wanted.size === 0 && !this.everyMarked) return undefined; // nothing to find by marker: only a listing covers the group
    // ADOPTED_FOUND_BY_UUID (falkordb-episodes.ts): a part we know the episode of is looked for by that
    // uuid too, as get_episodes would show it (reconcile.ts LISTED_BY_UUID): an adopted one carries no marker of ours.
    const uuids = new Set<string>();
    for (const ref of everyPart(ctx.state)) if (ref.groupId === group && ref.uuid !== undefined && wanted.has(ref.marker)) uuids.add(ref.uuid);
    if (!Number.isFinite(since)) since = ctx.now();
    // The window starts early enough for a server clock behind ours, and for the episode that ran before ours.
    const window = new Date(since - MAX_SKEW_MS - 60_000).toISOString();
    try {
      this.episodes ??= await this.open();
      if (this.episodes === undefined) return undefined;
      const elapsed = stopwatch(ctx);
      const found = await this.episodes.find(normalizeGroupId(ctx.config.db, group), [...wanted], window, { everyMarked: this.everyMarked, uuids: [...uuids] });
      const episodes = asCurrentOrigin(found, ctx.config).map(withMarker);
      const ms = elapsed();
      ctx.logger.debug('read group from the local FalkorDB', { group, markers: wanted.size, everyMarked: this.everyMarked, episodes: episodes.length, ms });
      return { episodes, complete: true, requests: 0, listed: 0, ms, direct: true };
    } catch (error) {
      ctx.logger.warn('local FalkorDB query failed; confirming through get_episodes', { group, error: error instanceof Error ? error.message : String(error) });
      this.unusable = true;
      return undefined;
    }
  }

  async close(): Promise<void> {
    await this.episodes?.close();
  }

  private async open(): Promise<FalkorDbEpisodes | undefined> {
    const endpoint = localFalkorDbFor(this.ctx.config.stateDir, this.ctx.config.mcpUrl);
    if (endpoint === undefined) {
      this.unusable = true;
      return undefined;
    }
    return FalkorDbEpisodes.connect(endpoint);
  }
}

/**
 * A look's time, read on the run's clock (RunEnv `now`): the schedule sets it against times on that
 * clock (pace.ts `looks`, from now − ms to now; the budget, schedule.ts `budgetAt`). So on a
 * test's fake clock (SyncOptions `sleep`) a look takes no time, however busy the machine; and a
 * system clock set back during a look reads as 0 ms, never less.
 */
function stopwatch(ctx: OnlineRun): () => number {
  const started = ctx.now();
  return () => Math.max(0, Math.round(ctx.now() - started));
}

/** Grows the cap until every waiting marker is found or the group is covered. */
async function listGroup(ctx: OnlineRun, group: string, markers: Set<string>, cap: number): Promise<OurGroupListing> {
  let requests = 0;
  let listed = 0;
  const elapsed = stopwatch(ctx);
  for (;;) {
    const episodes = asCurrentOrigin(await ctx.graphiti.getEpisodes([group], cap, ctx.options.signal), ctx.config).map(withMarker);
    requests++;
    listed += episodes.length;
    const complete = episodes.length < cap;
    if (complete || cap >= MAX_LISTING || allFound(episodes, markers)) {
      if (!complete && cap >= MAX_LISTING) ctx.logger.warn('get_episodes at its safety cap; some episodes may be invisible to confirmation', { group, cap });
      const ms = elapsed();
      ctx.logger.debug('listed group', { group, cap, episodes: episodes.length, complete, requests, ms });
      return { episodes, complete, requests, listed, ms };
    }
    cap = nextCap(cap);
  }
}

/** One request for the top `cap` of the uuid order: a pace sample (complete only if the group has shrunk below it). */
async function sampleGroup(ctx: OnlineRun, group: string, cap: number): Promise<OurGroupListing> {
  const elapsed = stopwatch(ctx);
  const episodes = asCurrentOrigin(await ctx.graphiti.getEpisodes([group], cap, ctx.options.signal), ctx.config).map(withMarker);
  const complete = episodes.length < cap;
  const ms = elapsed();
  ctx.logger.debug('sampled group', { group, cap, episodes: episodes.length, complete, ms });
  return { episodes, complete, requests: 1, listed: episodes.length, ms, ...(complete ? {} : { sample: true }) };
}

function allFound(episodes: ListedEpisode[], markers: Set<string>): boolean {
  if (markers.size === 0) return false;
  const left = new Set(markers);
  for (const e of episodes) {
    if (e.marker !== undefined) left.delete(e.marker.raw);
    if (left.size === 0) return true;
  }
  return false;
}

/** A part of ours in `group` sent, not yet seen, and queued before `time` (with a server that ran then). */
function queuedBefore(state: SyncState, group: string, time: number): boolean {
  return everyPart(state, { chased: true }).some((ref) => ref.groupId === group && ref.sentAt !== undefined && ref.uuid === undefined && queuedTime(ref) < time);
}

function oursIn(state: SyncState, group: string): number {
  return everyPart(state).filter((ref) => ref.groupId === group).length;
}

function groupsInUse(state: SyncState): string[] {
  return [...new Set(everyPart(state).map((ref) => ref.groupId))].sort();
}
