/**
 * Stopping the processes a runtime record names, only while each is still ours (pid, start time
 * and command line as recorded: a pid recorded before a reboot may belong to anything now, and is
 * never signalled). `server stop` stops a server with it; `server run` (which `server start` and
 * the user service run) stops what an earlier server left running before it starts another: the
 * Graphiti and FalkorDB of a supervisor killed hard (SIGKILL, the OOM killer) outlive it, and a
 * second redis-server on the same data folder would write its older copy of the graph over the
 * new one's when it ends, while the old Graphiti would go on writing its queue into it.
 */
import { ourProcess, type ServerProcessRole, type ServerRuntime } from '../config/server-runtime.js';

const ROLES: readonly ServerProcessRole[] = ['supervisor', 'server', 'db'];

/** The roles of `runtime` whose recorded process is still ours. */
export function recordedAlive(runtime: ServerRuntime | undefined): ServerProcessRole[] {
  return ROLES.filter((role) => ourProcess(runtime, role));
}

/** Waits until none of `roles` is still our process. */
async function waitGone(runtime: ServerRuntime, roles: readonly ServerProcessRole[], timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (roles.some((role) => ourProcess(runtime, role))) {
    if (Date.now() >= deadline) return false;
    await new Promise((r) => setTimeout(r, 100));
  }
  return true;
}

/**
 * Stops the recorded processes that are still ours: the supervisor, which stops its children
 * cleanly, or without it (killed hard) the children themselves; SIGKILL for what has not ended
 * after `graceMs`. Resolves once none is left (or 5 s after the SIGKILL).
 */
export async function stopRecorded(runtime: ServerRuntime, graceMs = 30_000): Promise<void> {
  const ours = recordedAlive(runtime);
  if (ours.length === 0) return;
  const signal = (targets: readonly ServerProcessRole[], sig: NodeJS.Signals) => {
    // Checked again right before each signal: a process that ended meanwhile may have a new owner.
    for (const role of targets) {
      if (!ourProcess(runtime, role)) continue;
      try {
        process.kill(runtime.identities?.[role]?.pid as number, sig);
      } catch {
        // ended between the check and the signal
      }
    }
  };
  signal(ours.includes('supervisor') ? ['supervisor'] : ours, 'SIGTERM');
  if (!(await waitGone(runtime, ours, graceMs))) {
    // The supervisor did not finish its clean stop: make sure nothing of ours is left.
    signal(ours, 'SIGKILL');
    await waitGone(runtime, ours, 5_000);
  }
}
