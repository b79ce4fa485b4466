/**
 * ONE_MOUNT_PER_FILE: a file id found at several paths in one scan is one note in each group its
 * paths go to, synced from one path.
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
 * One note per group: a file's parts go to the group its settings and front matter give it, and
 * with a group per project (`auto-memory={project}`) the mounts of one store in two projects go to
 * two groups, each searched by its own project's sessions: a note in each, as before this rule
 * (merged, only the group of the mount written last held it: the other project's sessions lost
 * the team's knowledge, and the note followed whichever mount Claude Code wrote last). So
 * paths are one note only when their file id and their group agree (`MountGroups`, asked only of
 * file ids found at several paths; the front matter read only when the settings give them different
 * groups: a `group_id` there may still put them in one).
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

/** The group a file's parts go to: as its settings give it, and with its front matter read (sync/prepare.ts `groupFor`). */
export interface MountGroups {
  bySettings: (file: ScannedFile) => string;
  withFrontMatter: (file: ScannedFile) => string;
}

/**
 * ONE_MOUNT_PER_FILE: one path per file id and group (see above). Files of a source not in `sources`
 * are kept as they are. Without `groups`, one group for all. `unscanned`: the configured sources
 * this run leaves out (`sync --source`), MOUNT_OUTSIDE_THE_RUN.
 */
export function oneMountPerFile(files: readonly ScannedFile[], sources: readonly MemorySource[], state: Pick<SyncState, 'files'>, groups?: MountGroups, unscanned: ReadonlySet<string> = new Set()): Mounts {
  const byName = new Map(sources.map((s) => [s.name, s]));
  const byId = new Map<string, ScannedFile[]>();
  for (const file of files) {
    const source = byName.get(file.source);
    if (source === undefined) continue;
    const id = fileIdFor(source, file.relPath);
    const same = byId.get(id);
    if (same === undefined) byId.set(id, [file]);
    else same.push(file);
  }
  const mirrors = new Set<ScannedFile>();
  for (const file of followedOutsideTheRun(byId, state, unscanned, groups)) mirrors.add(file);
  for (const same of byId.values()) {
    if (same.length < 2) continue;
    for (const note of byGroup(same, groups)) {
      if (note.length < 2) continue;
      const synced = [...note].sort((a, b) => b.mtimeMs - a.mtimeMs || followed(b, state) - followed(a, state) || a.absPath.localeCompare(b.absPath))[0];
      for (const file of note) if (file !== synced) mirrors.add(file);
    }
  }
  if (mirrors.size === 0) return { files: [...files], mirrors: [] };
  return { files: files.filter((f) => !mirrors.has(f)), mirrors: files.filter((f) => mirrors.has(f)) };
}

/**
 * MOUNT_OUTSIDE_THE_RUN: a run that scans some sources only (`sync --source`) sees one mount of a
 * file whose note the state follows at a path of a source it leaves out. Compared with nothing,
 * that mount was a new file: sent beside the note's episode, removed as its duplicate (the copy
 * processed first stays), taken for dropped and sent again, until the run gave up on it as dropped
 * (fast server: five adds for one note). Such a mount is a mirror in this run: the path the state
 * follows stays the one synced, and the next run that scans both compares them (an edit made only
 * at this mount is sent then, as the newer path). Only for configured sources the run leaves out:
 * a record of a source no longer configured does not hold a file back.
 */
function followedOutsideTheRun(byId: ReadonlyMap<string, ScannedFile[]>, state: Pick<SyncState, 'files'>, unscanned: ReadonlySet<string>, groups: MountGroups | undefined): ScannedFile[] {
  if (unscanned.size === 0) return [];
  const out: ScannedFile[] = [];
  for (const record of Object.values(state.files)) {
    if (!unscanned.has(record.source)) continue;
    const group = groupOfRecord(record);
    for (const file of byId.get(record.fileId) ?? []) if (group === undefined || groups === undefined || groups.withFrontMatter(file) === group) out.push(file);
  }
  return out;
}

/** The paths of one file id, split by the group each goes to. */
function byGroup(paths: readonly ScannedFile[], groups: MountGroups | undefined): ScannedFile[][] {
  if (groups === undefined || new Set(paths.map(groups.bySettings)).size === 1) return [[...paths]];
  const out = new Map<string, ScannedFile[]>();
  for (const file of paths) {
    const group = groups.withFrontMatter(file);
    const note = out.get(group);
    if (note === undefined) out.set(group, [file]);
    else note.push(file);
  }
  return [...out.values()];
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
  // The synced records of each file id: one per group (ONE_MOUNT_PER_FILE).
  const synced = new Map<string, FileRecord[]>();
  for (const file of mounts.files) {
    const record = state.files[fileRecordId(file.source, file.relPath)];
    if (record !== undefined) synced.set(record.fileId, [...(synced.get(record.fileId) ?? []), record]);
  }
  let folded = 0;
  for (const mirror of mounts.mirrors) {
    const id = fileRecordId(mirror.source, mirror.relPath);
    const record = state.files[id];
    const into = record === undefined ? undefined : foldTarget(record, synced.get(record.fileId) ?? []);
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

/** The synced record a mirror's record folds into: the only one of its file id, else the one in its group. */
function foldTarget(record: FileRecord, candidates: readonly FileRecord[]): FileRecord | undefined {
  if (candidates.length <= 1) return candidates[0];
  const group = groupOfRecord(record);
  return candidates.find((c) => groupOfRecord(c) === group);
}

function groupOfRecord(record: FileRecord): string | undefined {
  return (record.episodes[0] ?? record.superseded[0])?.groupId;
}
