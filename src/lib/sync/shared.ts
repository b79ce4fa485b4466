/**
 * Whose a part of ours is, read from the marker we wrote into it (`memory/episode.ts`): its origin,
 * and whether that origin is a shared source's (MADEINOZ_KNOWLEDGE_SHARED_SOURCES), whose files
 * have several owners who must all keep the same copy. The one place a stored ref's marker is read (parsed once per part: `partMarker`).
 */
import type { Config } from '../config/config.js';
import { partMarker } from '../memory/episode.js';
import { sharedOriginsOf } from '../memory/sources.js';
import { everyPart, type EpisodeRef, type FileRecord, type SyncState } from '../state/state.js';

/** The origin a part was sent under (undefined in markers from before origins existed). */
export function originOf(ref: Pick<EpisodeRef, 'marker'>): string | undefined {
  return partMarker(ref)?.origin;
}

/** The origin of a record's current version. */
export function recordOrigin(record: Pick<FileRecord, 'episodes'>): string | undefined {
  const [first] = record.episodes;
  return first === undefined ? undefined : originOf(first);
}

export function isSharedPart(ref: Pick<EpisodeRef, 'marker'>, sharedOrigins: ReadonlySet<string> | undefined): boolean {
  const origin = originOf(ref);
  return origin !== undefined && sharedOrigins?.has(origin) === true;
}

export function isSharedRecord(record: Pick<FileRecord, 'episodes'>, sharedOrigins: ReadonlySet<string> | undefined): boolean {
  const origin = recordOrigin(record);
  return origin !== undefined && sharedOrigins?.has(origin) === true;
}

/** A confirmed part of a shared source whose copy is not settled yet (reconcile.ts `settled`). */
export function unsettledShared(ref: Pick<EpisodeRef, 'marker' | 'settledAt' | 'confirmedAt'>, sharedOrigins: ReadonlySet<string> | undefined): boolean {
  if (ref.settledAt !== undefined || ref.confirmedAt === undefined) return false;
  return isSharedPart(ref, sharedOrigins);
}

/** Origins owned together: declared shared sources, and the team-memory stores of the files in the state. */
export function sharedOriginsIn(config: Pick<Config, 'sharedSources'>, state: SyncState): Set<string> {
  return sharedOriginsOf(config.sharedSources, everyPart(state).map(originOf));
}
