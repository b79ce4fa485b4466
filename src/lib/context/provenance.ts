/**
 * Whose knowledge a context line is, and which the user lets into the session (issue 32).
 *
 * A fact names the episodes it rests on (`fact.episodes`, uuids). Our state knows the uuid and the
 * marker of every current part we sent or adopted, so it can say, without asking the server, which
 * of those episodes are ours:
 * - `own`: a part of one of this user's own notes;
 * - `shared`: a part of a declared shared source (MADEINOZ_KNOWLEDGE_SHARED_SOURCES) or of a team
 *   memory store (origin `t-` + 10 hex, named by the ownership rules in memory/sources.ts);
 * - `group`: anything else in the group: teammates' own notes, Claude's `add_memory` calls, the PAI
 *   Knowledge skill, any MCP client, and facts that name no episode at all.
 * A fact is as trusted as the most trusted episode that states it: a teammate restating our note does
 * not make our fact foreign. An episode of a shared source that our state does not hold yet (a
 * co-owner's newer version we have not synced) reads as `group` until we hold it: the safe side.
 *
 * Entity summaries mix every episode that mentions the entity and name none, so they are `group`.
 *
 * Whose text the order filter (orders.ts) judges (issue 45). The filter answers other writers to
 * the group, so it is skipped only for what this session would read anyway:
 * - this project's own notes (`thisProjectsEpisodes`: the auto-memory files of this Claude Code
 *   project, where Claude Code keeps them): Claude Code loads them itself, `feedback` memories
 *   ("Run the whole suite before every push") as instructions. Their lines are shown, `[own]`.
 * - `[own]` notes of *other* projects and the user's global notes (PAI, extra sync paths) keep the
 *   full filter: only this tool carries them into this project, so a memory Claude wrote under one
 *   repository's influence (a poisoned README, a hostile issue) would otherwise reach every project
 *   the person opens. Their plain facts are shown `[own]`; their order-shaped lines stay out and are
 *   listed by `context --omitted`, like anyone's.
 * - `[shared]` (declared shared sources, team memory) keeps the full filter: others write there.
 * - `[group]` keeps the full filter.
 */
import type { Config } from '../config/config.js';
import type { Fact } from '../graphiti/graphiti.js';

export type Provenance = 'own' | 'shared' | 'group';
/** The widest provenance the block includes (config MADEINOZ_KNOWLEDGE_CONTEXT_TRUST). */
export type ContextTrust = Config['contextTrust'];

/** Our episodes' uuids → whose they are (`classifyOurEpisodes`). */
export type EpisodeProvenance = ReadonlyMap<string, Exclude<Provenance, 'group'>>;

const RANK: Record<Provenance, number> = { own: 0, shared: 1, group: 2 };

/** Team memory stores' origins (`t-<10 hex>`, the ownership lane's rule); machines and homes stay `m-…`. */
export const TEAM_MEMORY_ORIGIN = /^t-[0-9a-f]{10}$/;

/** Whether a part of ours is shared: its source is declared shared, or its origin is a shared source's or a team memory store's. */
export function isSharedKnowledge(source: string, origin: string | undefined, sharedSources: Readonly<Record<string, string>>): boolean {
  if (Object.hasOwn(sharedSources, source)) return true;
  if (origin === undefined) return false;
  return TEAM_MEMORY_ORIGIN.test(origin) || Object.values(sharedSources).includes(origin);
}

/**
 * Our episodes (state/our-episodes.ts reads them from the state) → own or shared. The first
 * classification of a uuid held twice wins only if it is more trusted (own over shared).
 */
export function classifyOurEpisodes(episodes: Iterable<{ uuid: string; source: string; origin: string | undefined }>, sharedSources: Readonly<Record<string, string>>): Map<string, 'own' | 'shared'> {
  const out = new Map<string, 'own' | 'shared'>();
  for (const e of episodes) {
    const p = isSharedKnowledge(e.source, e.origin, sharedSources) ? 'shared' : 'own';
    if (out.get(e.uuid) !== 'own') out.set(e.uuid, p);
  }
  return out;
}

/** The most trusted provenance among the fact's episodes; `group` when it names none of ours. */
export function factProvenance(fact: Pick<Fact, 'episodes'>, known: EpisodeProvenance): Provenance {
  let best: Provenance = 'group';
  for (const uuid of fact.episodes ?? []) {
    const p = known.get(uuid);
    if (p !== undefined && RANK[p] < RANK[best]) best = p;
  }
  return best;
}

/** Whether the trust setting lets a line of this provenance into the block. */
export function trusted(provenance: Provenance, trust: ContextTrust): boolean {
  return RANK[provenance] <= RANK[trust];
}

/** Where this session's project keeps its own notes: its Claude Code project key, and the moved memory folders (sources) that are its memory folder. */
export interface ThisProject {
  key: string;
  /** Names of auto-memory sources whose folder is this project's memory folder itself (a moved memory folder). */
  folderSources: ReadonlySet<string>;
}

/**
 * Our episodes that belong to this project's own notes (not shared, not team memory): the parts of
 * auto-memory files of this project. The order filter does not judge their facts (see above).
 */
export function thisProjectsEpisodes(episodes: Iterable<{ uuid: string; source: string; origin: string | undefined; project?: string }>, sharedSources: Readonly<Record<string, string>>, here: ThisProject): Set<string> {
  const out = new Set<string>();
  for (const e of episodes) {
    if (isSharedKnowledge(e.source, e.origin, sharedSources)) continue;
    if (e.project === here.key || (e.project === undefined && here.folderSources.has(e.source))) out.add(e.uuid);
  }
  return out;
}

/** Whether a fact rests on one of this project's own notes (then its text is the user's: shown whatever its shape). */
export function restsOnThisProject(fact: Pick<Fact, 'episodes'>, here: ReadonlySet<string>): boolean {
  return (fact.episodes ?? []).some((uuid) => here.has(uuid));
}
