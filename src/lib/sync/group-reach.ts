/**
 * Which of our groups the server can delete in right now, on a server that lists and deletes only
 * in the group it last wrote to (graphiti/semantics.ts `listsInLastWrittenGroup`: before 1.1, on
 * FalkorDB). There a delete in any other group answers "not found" while the episode stays, so
 * "not found" cannot be read as "already gone" (retire.ts), and an empty listing says nothing.
 *
 * The proof that the server is on a group: a listing of it shows an episode (in another group's
 * graph none of the group's episodes are found). One get_episodes of one episode, asked once per
 * group and phase; asked again after a delete answered "not found", so that "not found" counts as
 * gone only when the server was on the group before and after it. A server that moves off and back
 * between those two looks (two episodes of two groups processed within milliseconds) could still
 * make a delete it missed count as done: the one case left (docs/semantics.md).
 *
 * Every other server takes the group (or has one graph): every group is in reach and nothing is asked.
 * The same proof tells which groups one listing of several can speak for (`groupsInView`: pull).
 */
import type { DbKind } from '../config/config.js';
import { normalizeGroupId } from '../graphiti/escape.js';
import type { Episode, GraphitiClient } from '../graphiti/graphiti.js';
import { listsInLastWrittenGroup } from '../graphiti/semantics.js';
import type { Logger } from '../util/log.js';

export interface GroupReach {
  /** The server can delete in `group` now (asked once per group for the phase, unless `lookAgain`). */
  inReach(group: string, lookAgain?: boolean): Promise<boolean>;
}

const EVERY_GROUP: GroupReach = { inReach: async () => true };

/** The server a reach is asked of: the run's client, its database setting, the run's signal and log. */
export interface ReachInput {
  graphiti: GraphitiClient;
  db: DbKind;
  signal?: AbortSignal | undefined;
  logger: Logger;
}

/** The reach of the server: every group, unless it lists and deletes only in the group it last wrote to. */
export async function groupReach(input: ReachInput): Promise<GroupReach> {
  const { graphiti, signal, logger } = input;
  const takesGroup = await graphiti.deleteEpisodeTakesGroup(signal);
  if (!listsInLastWrittenGroup({ deleteEpisodeTakesGroup: takesGroup, db: input.db })) return EVERY_GROUP;
  const known = new Map<string, boolean>();
  return {
    async inReach(group, lookAgain = false) {
      const cached = known.get(group);
      if (cached !== undefined && !lookAgain) return cached;
      const shown = (await graphiti.getEpisodes([group], 1, signal)).length > 0;
      known.set(group, shown);
      if (!shown) logger.debug('the server is not on this group now (it lists and deletes only in the group it last wrote to)', { group });
      return shown;
    },
  };
}

/**
 * The groups of `asked` that one listing of them can speak for (pull's listing of several groups):
 * on a server that lists only in the group it last wrote to, those it shows an episode of; the
 * others may be out of its view, so nothing of theirs is absent on it. Elsewhere every group asked.
 */
export async function groupsInView(graphiti: GraphitiClient, db: DbKind, asked: readonly string[], listed: readonly Pick<Episode, 'group_id'>[], signal?: AbortSignal): Promise<Set<string>> {
  if (!listsInLastWrittenGroup({ deleteEpisodeTakesGroup: await graphiti.deleteEpisodeTakesGroup(signal), db })) return new Set(asked);
  const shown = new Set(listed.map((e) => e.group_id));
  return new Set(asked.filter((group) => shown.has(normalizeGroupId(db, group))));
}
