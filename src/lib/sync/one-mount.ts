/**
 * ONE_MOUNT_PER_FILE: a file id found at several paths in one scan is one note, synced from one
 * path.
 *
 * A team-memory file's id comes from its store and its path inside the store, not from the project
 * folder (memory/sources.ts `fileIdFor`), because every teammate holds it under a different project
 * folder. Claude Code mounts a team store under each project's auto memory, so one machine can hold
 * the same team file twice: a project moved or renamed keeps its old memory folder beside the new
 * one, and a store set for several projects is mounted in each. Two declared shared sources with
 * one origin (two clones of the team's notes on one machine) are the same case. Synced as two
 * files, the two paths fought over one episode: each sent its own copy, the later was removed as a
 * duplicate, its record then took it for dropped and sent it again, for ever (real Graphiti 0.31.2:
 * every team note doubled in the graph, an extraction per note per round).
 *
 * The path synced is the one written last (Claude Code's store sync writes the mount of the project
 * in use first, and a teammate's own edit lands in the project they work in); at equal times, the
 * one the state already follows, then the first path. The others (mirrors) are left out of the scan:
 * never sent, never taken for deleted. When the path synced changes, the plan sees the old path
 * gone and the new one there: the same text is a rename (nothing sent), other text an edit.
 *
 * Records of mirrors that older builds kept (the state of a machine that synced both paths) are
 * folded into the record of the path synced (`foldMirrorRecords`): their other versions become its
 * older versions, deleted as any replaced version is; a copy of its own version is handed to the
 * shared-source rules, which keep the copy processed first for everybody.
 */
import { fileIdFor } from '../memory/sources.js';
import type { MemorySource, ScannedFile } from '../memory/types.js';
import { fileRecordId } from '../state/state.js';
import type { EpisodeRef, FileRecord, SyncState } from '../state/types.js';

export interface Mounts {
  /** The scan's files, one path per file id. */
  files: ScannedFile[];
  /** Paths left out: another path of the same file id is synced. */
  mirrors: ScannedFile[];
}

/** ONE_MOUNT_PER_FILE: one path per file id (see above). Files of a source not in `sources` are kept as they are. */
export function oneMountPerFile(files: readonly ScannedFile[], sources: readonly MemorySource[], state: Pick<SyncState, 'files'>): Mounts {
  const byName = new Map(sources.map((s) => [s.name, s]));
  const groups = new Map<string, ScannedFile[]>();
  for (const file of files) {
    const source = byName.get(file.source);
    if (source === undefined) continue;
    const id = fileIdFor(source, file.relPath);
    const group = groups.get(id);
    if (group === undefined) groups.set(id, [file]);
    else group.push(file);
  }
  const mirrors = new Set<ScannedFile>();
  for (const group of groups.values()) {
    if (group.length < 2) continue;
    const synced = [...group].sort((a, b) => b.mtimeMs - a.mtimeMs || followed(b, state) - followed(a, state) || a.absPath.localeCompare(b.absPath))[0];
    for (const file of group) if (file !== synced) mirrors.add(file);
  }
  if (mirrors.size === 0) return { files: [...files], mirrors: [] };
  return { files: files.filter((f) => !mirrors.has(f)), mirrors: files.filter((f) => mirrors.has(f)) };
}

function followed(file: ScannedFile, state: Pick<SyncState, 'files'>): number {
  return state.files[fileRecordId(file.source, file.relPath)] === undefined ? 0 : 1;
}

/**
 * Folds the records of mirror paths into the record of the path synced, when the state has one
 * (else the plan settles them: the same text moved is a rename). Returns how many were folded.
 */
export function foldMirrorRecords(state: SyncState, mounts: Mounts, nowIso: string): number {
  if (mounts.mirrors.length === 0) return 0;
  const synced = new Map<string, FileRecord>();
  for (const file of mounts.files) {
    const record = state.files[fileRecordId(file.source, file.relPath)];
    if (record !== undefined) synced.set(record.fileId, record);
  }
  let folded = 0;
  for (const mirror of mounts.mirrors) {
    const id = fileRecordId(mirror.source, mirror.relPath);
    const record = state.files[id];
    const into = record === undefined ? undefined : synced.get(record.fileId);
    if (record === undefined || into === undefined || into === record) continue;
    const current = new Set(into.episodes.map((ref) => ref.marker));
    const known = new Set([...into.episodes, ...into.superseded].map((ref) => ref.uuid).filter((u) => u !== undefined));
    const older: EpisodeRef[] = [];
    for (const ref of [...record.episodes, ...record.superseded]) {
      if (ref.uuid !== undefined && known.has(ref.uuid)) continue;
      if (current.has(ref.marker)) {
        // A second copy of the synced version: list it again until the shared rules have settled which copy stays.
        for (const part of into.episodes) if (part.marker === ref.marker) delete part.settledAt;
        continue;
      }
      older.push(ref);
    }
    if (older.length > 0) into.superseded = [...into.superseded, ...older];
    into.updatedAt = nowIso;
    delete state.files[id];
    folded++;
  }
  return folded;
}
