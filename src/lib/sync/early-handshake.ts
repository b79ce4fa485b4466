/**
 * The MCP handshake (initialize, tools/list) started while the plan reads the files, when the
 * scan already shows that the run may talk to the server: about 100 ms less before the first
 * send. A guess made before the plan, kept honest: only a file that is new, changed by mtime/size
 * or gone, `--force`, or work the state already holds counts (a run with nothing to do never
 * connects; LEFT_OUT_IS_NO_WORK: a note of a project folder left out is not gone). The plan's
 * verdict (sync.ts `needsServer`) still decides whether the run goes online; a guess that was
 * wrong costs one handshake, which the run closes.
 */
import type { GraphitiClient, ServerProfile } from '../graphiti/graphiti.js';
import type { MemorySource, ScanResult } from '../memory/types.js';
import { inLeftOutProject } from '../memory/sources.js';
import { fileRecordId, type SyncState } from '../state/state.js';
import { sameStat } from './plan.js';

export interface EarlyHandshakeInput {
  state: SyncState;
  scan: ScanResult;
  /** The sources this run covers: a record of another source is not "gone". */
  sources: readonly MemorySource[];
  force: boolean;
  /** The state alone already sends the run to the server (parts to confirm, retired parts due). */
  stateNeedsServer: boolean;
}

/** Whether the plan may find something to send or delete: then the handshake can start now. */
export function mayNeedServer(input: EarlyHandshakeInput): boolean {
  const { state, scan } = input;
  if (input.stateNeedsServer) return true;
  if (input.force && scan.files.length > 0) return true;
  const seen = new Set<string>();
  for (const file of scan.files) {
    const id = fileRecordId(file.source, file.relPath);
    seen.add(id);
    const record = state.files[id];
    // The plan's own shortcut (plan.ts sameStat): a file it does not read cannot send anything.
    if (record === undefined || !sameStat(record, file)) return true;
  }
  // A note of a project folder the scan leaves out (sources.ts inLeftOutProject) is unseen, not gone: the plan
  // deletes nothing there (LEFT_OUT_IS_NO_WORK; read as gone, every run of a machine with such a folder connected).
  const covered = new Map(input.sources.map((s) => [s.name, s]));
  return Object.values(state.files).some((record) => {
    const source = covered.get(record.source);
    return source !== undefined && !seen.has(record.id) && !inLeftOutProject(source, record.relPath);
  });
}

export interface Handshake {
  /** The server's profile once the handshake is done; rejects as `serverProfile` would. */
  profile: Promise<ServerProfile>;
  /** Ends a handshake still under way (retrying an unreachable server) once the run no longer needs it. */
  cancel(): void;
}

/**
 * Starts the handshake; the run awaits `profile` where it needs the server, so a server that
 * cannot be reached fails there, with the same error and retries as before (a rejection nobody
 * awaited yet is not an unhandled one).
 */
export function startHandshake(graphiti: GraphitiClient, signal: AbortSignal | undefined): Handshake {
  const controller = new AbortController();
  const profile = graphiti.serverProfile(signal === undefined ? controller.signal : AbortSignal.any([signal, controller.signal]));
  profile.catch(() => undefined);
  return { profile, cancel: () => controller.abort() };
}
