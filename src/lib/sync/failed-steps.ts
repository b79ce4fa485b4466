/**
 * The next step of a file that failed or was dropped, worded once for the sync summary and `status`.
 * An edit changes the file's mtime, so the next sync reads it again; a permission change, a raised
 * limit or a server fixed meanwhile do not (plan.ts `sameStat` calls the file unchanged, and a
 * failed file is a verdict): only `sync --force` (which retries failed files) does.
 */
import { cli } from '../util/install-route.js';

export const FAILED_FILE_STEPS = {
  edit: 'fix the file (or remove it); the next sync reads it again',
  // Getters: the command is the running copy's (util/install-route.ts), asked when the step is said.
  get unreadable() {
    return `make it readable, then run "${cli()} sync --force" (a permission change alone does not make the next sync read it)`;
  },
  get tooLarge() {
    return `split the file, or raise MADEINOZ_KNOWLEDGE_MAX_FILE_BYTES and run "${cli()} sync --force"`;
  },
  get serverSide() {
    return `once that is fixed, "${cli()} sync --force" sends it again`;
  },
};
