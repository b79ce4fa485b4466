/**
 * FILE_SYNC_CONFLICT_COPY: a file a file-sync tool wrote beside a note when two machines changed
 * it at once is not a note. Dropbox and Nextcloud/ownCloud's clients name it
 * `deploy (conflicted copy).md`, `deploy (Laptop's conflicted copy 2026-12-07).md`,
 * `deploy (conflicted copy 2026-12-07 101500).md`; Syncthing `deploy.sync-conflict-20261207-101500-ABCDEFG.md`;
 * ownCloud's older client `deploy_conflict-20261207-101500.md`. It holds the other side of a
 * conflict the person is to merge, usually the older text: sent, both versions were live knowledge
 * in every session (and `pull` carried the copy to every linked machine, listed in `MEMORY.md`,
 * which Claude Code itself never lists it in). So it is left out, as this tool's own conflict
 * copies are while untouched (pull.md); the person merges it into the note and deletes it (the
 * file-sync tool says so), and the note's next version carries the merge. A copy renamed to a name
 * of its own is a note like any other.
 *
 * CONFLICT_COPY_ALONE: only while the note it is a copy of is there. When that note is gone (the
 * person deleted the side they did not want, or kept the wrong file), the copy is the only text left
 * of it: left out, the note's knowledge would leave the graph and every session with no word. Then
 * the copy is a note (under its own name), until a file of the note's name is back. A note caught
 * between the two steps of a save is not gone: the sync's wait for it (sync/mid-write.ts MID_WRITE)
 * leaves its copy out once it is back (sync/plan.ts `copiesOfNotesBack`).
 */

const CONFLICT_STEM = [
  // Dropbox, Nextcloud, ownCloud (current): "(… conflicted copy …)" at the end of the name.
  /\([^()]*\bconflicted copy\b[^()]*\)$/i,
  // Syncthing: ".sync-conflict-<date>-<time>-<device id>".
  /\.sync-conflict-\d{8}-\d{6}(?:-[A-Z0-9]{7})?$/,
  // ownCloud (older clients): "_conflict-<date>-<time>".
  /_conflict-\d{8}-\d{6}$/,
];

/** Whether a file's name is a file-sync tool's conflict copy (its extension is left to the caller). */
export function isFileSyncConflictCopy(name: string): boolean {
  return conflictOriginalName(name) !== undefined;
}

/** The name of the note a conflict copy `name` is a copy of (same extension), or undefined when `name` is no conflict copy. */
export function conflictOriginalName(name: string): string | undefined {
  const dot = name.lastIndexOf('.');
  const ext = dot > 0 ? name.slice(dot) : '';
  const stem = (dot > 0 ? name.slice(0, dot) : name).trimEnd();
  for (const re of CONFLICT_STEM) {
    const match = re.exec(stem);
    if (match !== null) return `${stem.slice(0, match.index).trimEnd()}${ext}`;
  }
  return undefined;
}
