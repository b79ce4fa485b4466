/**
 * Which folder each source name stood for, kept in the state (`sourceRoots`), so a name given to
 * another folder is not taken for the same notes.
 *
 * A file's identity is its source name and path (`extra1:ideas.md`). Unnamed folders in
 * MADEINOZ_KNOWLEDGE_SYNC_PATHS are named by their place (`extra1`, `extra2`): taking the first out
 * of the list renamed the second to `extra1`, and the next sync (the hooks' worker at the next
 * session start, a `sync`, a watch started afresh) deleted the first folder's notes from the graph,
 * their files gone from `extra1`, and sent the second's again beside its copies under `extra2`.
 *
 * The rule, for the folders people add (MADEINOZ_KNOWLEDGE_SYNC_PATHS): a source whose name stood
 * for another folder that is still there is held. Its files
 * are not planned and its records are under a problem of the whole source (nothing deleted,
 * nothing sent), said with the next step. A folder that moved (the one it named is gone) is taken
 * up: the same notes, from their new place. A name seen for the first time is recorded.
 */
import { existsSync } from 'node:fs';
import type { MemorySource, ScanProblem } from '../memory/types.js';
import type { SyncState } from '../state/state.js';

export interface SourceRootCheck {
  /** Sources held this run (by name): their files are not planned. */
  held: Set<string>;
  /** One per held source, at its root (relPath ''): its records are unknown, not gone. */
  problems: ScanProblem[];
  /** `state.sourceRoots` was updated (a name recorded, a move taken up): the state is to be saved. */
  changed: boolean;
}

function recordedRoots(state: SyncState): Record<string, string> {
  const roots = state.sourceRoots;
  const out: Record<string, string> = Object.create(null) as Record<string, string>;
  if (typeof roots !== 'object' || roots === null || Array.isArray(roots)) return out;
  for (const [name, root] of Object.entries(roots)) if (typeof root === 'string') out[name] = root;
  return out;
}

/** Checks the run's sources against the folders their names stood for, and records the new ones in `state`. */
export function checkSourceRoots(state: SyncState, sources: readonly MemorySource[], exists: (path: string) => boolean = existsSync): SourceRootCheck {
  const roots = recordedRoots(state);
  const check: SourceRootCheck = { held: new Set(), problems: [], changed: false };
  for (const source of sources) {
    // The folders people add; PAI's and Claude Code's follow PAI_DIR and CLAUDE_CONFIG_DIR, which
    // some switch between profiles on purpose: those keep the engine's rule as it was.
    if (source.kind !== 'extra') continue;
    const was = roots[source.name];
    // A folder not there (yet) is not scanned, so nothing of it is deleted: recorded once it is.
    if (was === source.root || !exists(source.root)) continue;
    if (was !== undefined && exists(was)) {
      check.held.add(source.name);
      const next = /^extra\d+$/.test(source.name)
        ? `name each folder in MADEINOZ_KNOWLEDGE_SYNC_PATHS (name=path, e.g. "notes=${was}:work=${source.root}") so that taking one out renames no other`
        : `give ${source.root} a name of its own in MADEINOZ_KNOWLEDGE_SYNC_PATHS (e.g. "work=${source.root}"), or move ${was} away if ${source.root} replaces it`;
      check.problems.push({
        source: source.name,
        relPath: '',
        absPath: source.root,
        reason: 'source-renamed',
        message: `the source "${source.name}" is ${source.root} now, but its notes in the graph are those of ${was}, which is still there: not synced, so nothing of ${was} is deleted and nothing of ${source.root} sent twice. Next step: ${next}`,
      });
      continue;
    }
    roots[source.name] = source.root;
    check.changed = true;
  }
  if (check.changed) state.sourceRoots = roots;
  return check;
}
