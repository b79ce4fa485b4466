/**
 * What a context refresh needs from our state, read once and read-only: which of our episodes are
 * retired (their facts are left out, state/retired.ts) and every episode of ours with the source and
 * origin it was sent under (context/provenance.ts tells own from shared). Read by every context
 * refresh (the worker's and `context --refresh`), never by the hook.
 */
import { partMarker } from '../memory/episode.js';
import { retiredEpisodeUuids } from './retired.js';
import { loadState } from './state.js';
import type { SyncState } from './types.js';

/** One episode of ours: its uuid, the source of its file ('' for an orphan), the origin in its marker, and the Claude Code project of an auto-memory file. */
export interface OurEpisode {
  uuid: string;
  source: string;
  origin: string | undefined;
  /** The Claude Code project folder name (`-home-me-repo`) of an auto-memory file; none elsewhere (issue 45). */
  project?: string;
  /** The episode's name (its note's title) and group, and when its note last changed: what context/beyond-project.ts searches for. */
  name?: string;
  groupId?: string;
  at?: string;
  /** The note's path inside its source. */
  relPath?: string;
  /** Which part of its note this episode is, of how many (a long note is sent in parts, each named `Title (part k/n)`). */
  part?: number;
  parts?: number;
}

export interface ContextInputs {
  retiredEpisodes: Set<string>;
  ourEpisodes: OurEpisode[];
}

/** Every episode uuid our state holds: current versions, older ones not yet deleted, orphans. */
export function ourEpisodesOf(state: SyncState): OurEpisode[] {
  const out: OurEpisode[] = [];
  for (const record of Object.values(state.files)) {
    for (const ref of [...record.episodes, ...record.superseded]) {
      if (ref.uuid !== undefined) out.push({ uuid: ref.uuid, source: record.source, origin: partMarker(ref)?.origin, ...(record.project === undefined ? {} : { project: record.project }), name: ref.name, groupId: ref.groupId, at: new Date(Number.isFinite(record.mtimeMs) ? record.mtimeMs : 0).toISOString(), relPath: record.relPath, part: ref.part, parts: ref.parts });
    }
  }
  for (const ref of state.orphans) if (ref.uuid !== undefined) out.push({ uuid: ref.uuid, source: '', origin: partMarker(ref)?.origin });
  return out;
}

/** Read-only; empty when there is no state yet (then every fact reads as `group`). */
export async function loadContextInputs(stateDir: string): Promise<ContextInputs> {
  try {
    const { state } = await loadState(stateDir, { readOnly: true });
    return { retiredEpisodes: retiredEpisodeUuids(state), ourEpisodes: ourEpisodesOf(state) };
  } catch {
    return { retiredEpisodes: new Set(), ourEpisodes: [] };
  }
}
