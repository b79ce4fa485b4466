/**
 * Whether a project's context is to be kept as it is for now (the one freeze rule, asked by the
 * worker and by `context --refresh`): one of the notes its groups hold is between its old and its
 * new version (state/between-versions.ts), so a block rebuilt now would miss that note.
 */
import type { Config } from '../config/config.js';
import { normalizeGroupId } from '../graphiti/escape.js';
import { loadNotesBetweenVersions } from '../state/between-versions.js';

/** How many notes this project's context would miss now (0: rebuild it). */
export function contextFrozen(config: Pick<Config, 'stateDir' | 'db'>, project: { groupIds: readonly string[] }): Promise<number> {
  // The state holds group ids as sent (normalized, prepare.ts); a project names them as configured.
  const groups = new Set(project.groupIds.flatMap((g) => [g, normalizeGroupId(config.db, g)]));
  return loadNotesBetweenVersions(config, groups);
}
