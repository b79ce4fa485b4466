/**
 * The next step of a file that failed or was dropped, worded once for the sync summary and `status`.
 * An edit changes the file's mtime, so the next sync reads it again; a permission change, a raised
 * limit or a server fixed meanwhile do not (plan.ts `sameStat` calls the file unchanged, and a
 * failed file is a verdict): only `sync --force` (which retries failed files) does.
 */
export const FAILED_FILE_STEPS = {
  edit: 'fix the file (or remove it); the next sync reads it again',
  unreadable: 'make it readable, then run "graphiti-memory-sync sync --force" (a permission change alone does not make the next sync read it)',
  tooLarge: 'split the file, or raise MADEINOZ_KNOWLEDGE_MAX_FILE_BYTES and run "graphiti-memory-sync sync --force"',
  serverSide: 'once that is fixed, "graphiti-memory-sync sync --force" sends it again',
} as const;
