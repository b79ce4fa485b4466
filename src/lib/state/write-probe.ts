/**
 * STATE_WRITE_PROBE: whether the state folder can take a write now, for `status`.
 *
 * A sync, the hooks' worker and `pull` stop at their first failed write (a full disk, a quota used up,
 * a read-only mount, a folder that is no longer the user's): nothing is lost, but nothing moves either,
 * and the state cannot record why, since recording is the write that fails. The hooks stay quiet by
 * design. So `status` asks the folder itself: it writes PROBE_BYTES to a file of its own there and
 * removes it. Not an empty file: on a full disk creating one still succeeds (an inode, no data block),
 * while a journal line or a state file needs data blocks.
 */
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** One block of the usual file systems: what the smallest write of a run needs. */
const PROBE_BYTES = 4096;
/** The probe's name in the state folder (removed right after; a leftover of a killed `status` is harmless). */
export const WRITE_PROBE_FILE = '.write-probe';

/** The error of a write to the state folder (Node's `CODE: words, syscall 'path'`), or undefined when it can be written or does not exist yet. */
export function stateWriteProblem(stateDir: string): string | undefined {
  if (!existsSync(stateDir)) return undefined;
  const probe = join(stateDir, WRITE_PROBE_FILE);
  try {
    writeFileSync(probe, Buffer.alloc(PROBE_BYTES), { mode: 0o600 });
    return undefined;
  } catch (error) {
    return (error as Error).message;
  } finally {
    rmSync(probe, { force: true });
  }
}
