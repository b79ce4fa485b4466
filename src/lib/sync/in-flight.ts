/**
 * Parts left in flight (invariant 3, "never send blindly twice"): a part an earlier run journaled
 * as sent (`sentAt`) but whose reply it never recorded may have been queued by the server. At the
 * start of a run that talks to the server such parts count as queued since the run began, so
 * reconcile adopts them when their marker appears and re-sends them only on drop evidence, with
 * their patience counted from now (invariant 5).
 *
 * `leftInFlight` decides (state + the run's start → `LeftInFlight`); `applyLeftInFlight` writes it.
 */
import { everyPart, type EpisodeRef, type SyncState } from '../state/state.js';

export interface LeftInFlight {
  /** Parts sent by an earlier run with no reply recorded: no uuid, no `queuedAt`. */
  parts: EpisodeRef[];
  /** When they count as queued: the start of this run. */
  queuedAt: string;
}

export function leftInFlight(state: SyncState, startedAt: number): LeftInFlight {
  const parts = everyPart(state).filter((ref) => ref.sentAt !== undefined && ref.uuid === undefined && ref.queuedAt === undefined);
  return { parts, queuedAt: new Date(startedAt).toISOString() };
}

export function applyLeftInFlight(found: LeftInFlight): void {
  for (const ref of found.parts) ref.queuedAt = found.queuedAt;
}
