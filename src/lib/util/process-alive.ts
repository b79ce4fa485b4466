/**
 * Whether a process is still running, for lock owners and the background worker.
 *
 * `kill(pid, 0)` succeeds for a zombie: a finished child whose parent has not reaped it yet.
 * In a container without an init (a common devcontainer set-up) our detached worker stays a
 * zombie after it exits, and counting it as alive kept new work queued until the lock went
 * stale (6 minutes, issue 13). On Linux a zombie shows state `Z` in /proc/<pid>/stat.
 */
import { readFileSync } from 'node:fs';

/** The state letter of /proc/<pid>/stat (after the last ')' of the command name), if readable. */
export function procState(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) || undefined;
  } catch {
    return undefined;
  }
}

export function isProcessAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  if (process.platform !== 'linux') return true;
  const state = procState(pid);
  return state !== 'Z' && state !== 'X';
}
