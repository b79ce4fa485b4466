/**
 * CLOCK_JUMPED_FORWARD: a wall clock put right forward (a laptop whose clock ran hours behind,
 * corrected by NTP, or set by hand) made every part still waiting look hours old at the next run:
 * time is the only drop evidence for a part whose group shows no movement (reconcile.ts, a quiet
 * queue), so the part was sent again at once while the first copy still waited in Graphiti's
 * queue, and both were processed (one extra extraction; the next run deleted the later copy).
 *
 * The system's uptime (`os.uptime()`: Linux's CLOCK_BOOTTIME, the tick count on Windows, the boot
 * time on macOS; suspend included everywhere) does not move with the wall clock. Each run records
 * it beside its start (`lastRun.clock`); the next run in the same boot compares: the wall clock
 * moved further than the uptime by more than a server's clock may be off (pace.ts MAX_SKEW_MS),
 * so it jumped. Then every part still waiting for its episode counts as queued from this run's
 * start, as parts left in flight do (in-flight.ts): reconcile adopts them when they appear and
 * judges them dropped only on evidence gathered from now on (FIFO, or a quiet queue for its
 * patience). The cost: a part the server really dropped before the jump waits one patience more.
 *
 * Another boot (the boot id differs where the system has one, Linux; elsewhere the uptime is
 * smaller than recorded) says nothing of the clock: no jump is taken. A reboot the uptime cannot
 * tell (macOS, Windows: the new boot has been up longer than the old one was at the last run) may be
 * taken for a jump: a patience more for the parts waiting then, nothing else.
 */
import { uptime } from 'node:os';
import { everyPart, type SyncState } from '../state/state.js';
import { bootId } from '../util/process-identity.js';
import { MAX_SKEW_MS } from './pace.js';

/** Where the system's own clock stood at a run's start (kept in `lastRun.clock`). */
export interface ClockMark {
  /** System uptime, ms. */
  uptimeMs: number;
  /** The boot's id where the system has one (Linux). */
  bootId?: string;
}

/** This moment's mark. */
export function clockMarkNow(): ClockMark {
  const boot = bootId();
  return { uptimeMs: Math.round(uptime() * 1000), ...(boot === undefined ? {} : { bootId: boot }) };
}

/** How far the wall clock jumped forward since the last run (ms), 0 when it did not, or it cannot be told (another boot, no mark). */
export function forwardJumpMs(last: { startedAt: number; clock?: ClockMark | undefined } | undefined, now: { startedAt: number; clock: ClockMark }): number {
  const before = last?.clock;
  if (last === undefined || before === undefined || !Number.isFinite(last.startedAt)) return 0;
  if (before.bootId !== undefined && now.clock.bootId !== undefined && before.bootId !== now.clock.bootId) return 0;
  const up = now.clock.uptimeMs - before.uptimeMs;
  if (up < 0) return 0; // another boot
  const jump = now.startedAt - last.startedAt - up;
  return jump > MAX_SKEW_MS ? jump : 0;
}

/** The parts still waiting for their episode (sent, no uuid: current, retired and orphaned alike) count as queued from `startedAt`. How many. */
export function requeueAfterJump(state: SyncState, startedAt: number): number {
  const iso = new Date(startedAt).toISOString();
  let moved = 0;
  for (const ref of everyPart(state)) {
    if (ref.uuid !== undefined || ref.queuedAt === undefined || Date.parse(ref.queuedAt) >= startedAt) continue;
    ref.queuedAt = iso;
    moved++;
  }
  return moved;
}
