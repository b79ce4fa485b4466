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
  const dot = name.lastIndexOf('.');
  const stem = (dot > 0 ? name.slice(0, dot) : name).trimEnd();
  return CONFLICT_STEM.some((re) => re.test(stem));
}
