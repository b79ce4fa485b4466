/**
 * Episodes our earlier origins sent are ours (util/origin.ts: the origin is now kept beside the
 * memory; earlier versions derived it from the machine). The engine sees them under our current
 * origin, on both sides of the comparison, so nothing is sent again:
 * - `migrateStateOrigins`: the state's markers with an earlier origin now name the current one;
 * - `asCurrentOrigin`: a listed episode whose marker names an earlier origin is read as if it named
 *   the current one (its uuid, by which it is confirmed and deleted, is untouched).
 * With a lost state (a container rebuild), the current version of a file is then found in the
 * graph and adopted, and older versions of ours are recognised as stale: nothing is orphaned.
 */
import type { Episode } from '../graphiti/graphiti.js';
import { formatMarker, parseMarker, partMarker, type MarkerInfo } from '../memory/episode.js';
import type { EpisodeRef, SyncState } from '../state/state.js';

export interface OwnOrigins {
  origin: string;
  previousOrigins: readonly string[];
}

/** The marker with an earlier origin of ours replaced by the current one; undefined when it is not such a marker. */
function currentMarker(marker: MarkerInfo | undefined, own: OwnOrigins): { from: string; to: string } | undefined {
  if (marker?.origin === undefined || marker.origin === own.origin || !own.previousOrigins.includes(marker.origin)) return undefined;
  return { from: marker.raw, to: formatMarker({ ...marker, origin: own.origin }) };
}

function replaceLast(text: string, from: string, to: string): string {
  const at = text.lastIndexOf(from);
  return at < 0 ? text : text.slice(0, at) + to + text.slice(at + from.length);
}

/** Rewrites the state's markers of earlier origins of ours to the current origin. Returns how many changed. */
export function migrateStateOrigins(state: SyncState, own: OwnOrigins): number {
  if (own.previousOrigins.length === 0) return 0;
  let changed = 0;
  const migrate = (ref: EpisodeRef) => {
    const next = currentMarker(partMarker(ref), own);
    if (next === undefined) return;
    ref.marker = next.to;
    changed++;
  };
  for (const record of Object.values(state.files)) for (const ref of [...record.episodes, ...record.superseded]) migrate(ref);
  for (const ref of state.orphans) migrate(ref);
  return changed;
}

/** Listed episodes, those of earlier origins of ours read under the current origin. */
export function asCurrentOrigin(episodes: Episode[], own: OwnOrigins): Episode[] {
  if (own.previousOrigins.length === 0) return episodes;
  return episodes.map((e) => {
    const next = currentMarker(parseMarker(e.source_description), own);
    return next === undefined ? e : { ...e, source_description: replaceLast(e.source_description, next.from, next.to) };
  });
}
