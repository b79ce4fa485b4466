/**
 * What a Graphiti server does to the knowledge (facts, entity summaries) when an episode is
 * deleted, per generation, and how the sync engine finds out which one it is talking to.
 *
 * Graphiti merges a restated fact into the existing one and appends the new episode to its
 * `episodes` (the exact-text fast path, or the LLM's duplicate resolution), so `fact.episodes[0]`
 * is the episode that created it. What `delete_episode` then removes differs by generation
 * (checked against each released graphiti-core, see docs/semantics.md):
 *
 * | graphiti-core | server | deleteRemoves | rebuildsSummaries |
 * |---|---|---|---|
 * | 0.28.2 | 1.0.2 image | `episode-only`: the episode node; every fact stays | no |
 * | 0.29.3, 0.31.1 | 1.0.x HEAD, 1.1.0 | `facts-first-created`: every fact whose FIRST episode is the deleted one, even when others still support it | no |
 * | 0.31.2 | 1.1.2 | `facts-unsupported`: the episode is detached; only facts left with no episode go | yes |
 *
 * This module is the table and the rules derived from it (`editOrder`, `deleteGuard`, …): pure,
 * no I/O. How the engine finds out which row a server is (the tool surface, a setting, our local
 * server's release, a probe, a cached answer) is `server-rules.ts`.
 */
import type { DbKind } from '../config/config.js';
import type { Fact } from './graphiti.js';

/** What `delete_episode` removes besides the episode node. */
export type DeleteRemoves = 'episode-only' | 'facts-first-created' | 'facts-unsupported';

export interface ServerSemantics {
  deleteRemoves: DeleteRemoves;
  /** Entity summaries are rebuilt from the remaining episodes after a delete (else they keep retired words). */
  rebuildsSummaries: boolean;
}

/** The semantics of each generation the tool pins and tests against (src/lib/server/pins.ts). */
export const GENERATION_SEMANTICS: Readonly<Record<string, ServerSemantics>> = {
  '0.28.2': { deleteRemoves: 'episode-only', rebuildsSummaries: false },
  '0.29.3': { deleteRemoves: 'facts-first-created', rebuildsSummaries: false },
  '0.31.1': { deleteRemoves: 'facts-first-created', rebuildsSummaries: false },
  '0.31.2': { deleteRemoves: 'facts-unsupported', rebuildsSummaries: true },
};

/**
 * What the engine assumes while a server's semantics are unknown (a probe that could not finish):
 * the generation where a careless delete loses the most. Its rules are safe on every other
 * generation too (at worst an old episode is kept longer than needed).
 */
export const CAUTIOUS_SEMANTICS: ServerSemantics = GENERATION_SEMANTICS['0.29.3'] as ServerSemantics;

/**
 * The order of an edit. `break-before-make`: the old version is deleted before the new one is
 * sent, because deleting it afterwards would take every fact the new version restates (they were
 * merged into facts the old one created). `make-before-break`: the new version is confirmed first,
 * so the graph always holds the note.
 */
export function editOrder(semantics: ServerSemantics): 'make-before-break' | 'break-before-make' {
  return semantics.deleteRemoves === 'facts-first-created' ? 'break-before-make' : 'make-before-break';
}

/** Deleting an episode can take facts other episodes still support: every delete is checked first. */
export function deleteGuard(semantics: ServerSemantics): boolean {
  return semantics.deleteRemoves === 'facts-first-created';
}

/** Facts a deleted episode leaves behind must be removed by us (the server keeps them). */
export function needsFactCleanup(semantics: ServerSemantics): boolean {
  return semantics.deleteRemoves !== 'facts-unsupported';
}

/**
 * The facts that deleting `episode` would take although an episode outside `retired` still
 * states them: on `facts-first-created` servers, the ones it created (first in `episodes`) that
 * name another live episode.
 */
export function factsLostByDeleting(semantics: ServerSemantics, episode: string, facts: readonly Fact[], retired: ReadonlySet<string>): Fact[] {
  if (!deleteGuard(semantics)) return [];
  return facts.filter((f) => (f.episodes ?? [])[0] === episode && (f.episodes ?? []).some((e) => e !== episode && !retired.has(e)));
}

/**
 * A server that lists and deletes episodes only in the group it last wrote to: `delete_episode`
 * without `group_id` (before servers 1.1, graphiti-core 0.31.1: server/pins.ts `graphPerGroup` says
 * which pinned generation takes it), on FalkorDB. There each group is its own graph, and the
 * server's one Graphiti client deletes and lists in the graph of the group it last PROCESSED an
 * episode for (graphiti-core's add_episode rebinds its driver; search clones it per call and is not
 * affected); after a restart, in none of ours. Deleting a note (or editing it) in any other group
 * then answers "not found" and the old episode stays, its knowledge still found by search and the
 * session context; and a listing of another group shows nothing of it. A listing of a group that
 * shows an episode is the proof that the server is on that group (sync/group-reach.ts).
 * Measured on 0.28.2 and 0.29.3: test/real-graphiti/old-groups.test.ts. Neo4j (one database) is not affected.
 */
export function listsInLastWrittenGroup(server: { deleteEpisodeTakesGroup: boolean; db: DbKind }): boolean {
  return !server.deleteEpisodeTakesGroup && server.db === 'falkordb';
}

/**
 * Such a server (listsInLastWrittenGroup) and a sync that writes to more than one group: its own
 * writes move the server off each of its groups, so an empty listing is the rule, not a restart's
 * exception (sync/reconcile.ts `BLIND_LISTING_PATIENCE_MS`), and users are told (`health`, `status`).
 */
export function deletesInLastWrittenGroupOnly(server: { deleteEpisodeTakesGroup: boolean; db: DbKind; groups: number }): boolean {
  return listsInLastWrittenGroup(server) && server.groups > 1;
}

/** What `health` and `status` say of such a server (deletesInLastWrittenGroupOnly); `cli` is how the user runs this tool. */
export function lastWrittenGroupOnlyWarning(cli: string): { problem: string; fix: string } {
  return {
    problem:
      'this Graphiti server (before 1.1: its delete_episode takes no group) on FalkorDB deletes and lists episodes only in the group it last wrote to, and this sync writes to several groups: so deleting or editing a note in a group waits until the server next writes to that group (its old episode, and its knowledge, stay in the graph until then), and a note sent there waits likewise to be confirmed',
    fix: `upgrade the Graphiti MCP server to 1.1.2 (graphiti-core 0.31.2, what \`${cli} server start\` runs), or send every note to one group (no MADEINOZ_KNOWLEDGE_SOURCE_GROUPS, no group_id in notes)`,
  };
}
