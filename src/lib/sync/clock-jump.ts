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
 *
 * ABSENCE_AFTER_JUMP: the same jump cut short the waits on an absence, where time is the only
 * evidence that a note missing from the graph was deleted and is not an edit in flight (pace.ts
 * ABSENCE_SETTLED): pull's `missingSince` (a pulled copy removed) and a copy's `goneSeen.since`
 * (copy-hold.ts DELETED_ON_PURPOSE: its text not sent again). Each such start, recorded on the clock
 * before the jump, is read on the clock after it: moved forward by the jump, never past this run's
 * start. The absence keeps the real time it has lasted and gains none the clock skipped. The pull
 * keeps its own mark (state/pulled.ts `lastPull`): it runs without the sync (a machine that only pulls).
 * The same holds for the one other wait on real time that ends in a verdict: a confirmed part of a
 * shared source stays listed until a co-owner's racing copy would have appeared (reconcile.ts
 * `settled`, counted from `confirmedAt`); settled at once after a jump, a racing copy that appears
 * later was never resolved, and both stayed.
 *
 * STAMPS_AFTER_STEP_BACK: a wall clock put right backward by less than the time to the next look
 * (a laptop a minute ahead, corrected by NTP) left the parts sent before the step stamped up to a
 * minute "later" than a part sent just after it. Once now had passed those stamps, FIFO_ON_OUR_CLOCK
 * (reconcile.ts, which leaves out stamps after now) no longer told them apart: the part sent after
 * the step, still in the queue, was taken for dropped behind the one sent before it, and sent
 * again (counted: a note sent twice). The offset to the server's clock does not tell the step
 * either: the sighting that would show it is of the very part not yet visible. The uptime does: the
 * run after the step sees the wall clock moved less than the uptime, and moves every stamp of ours
 * recorded before (parts' sends, replies and sightings, their send orders, the groups' heads and looks) back
 * by the step: on the clock as it is now, in the order they were made. Steps below STEP_BACK_MIN_MS
 * are not told (an uptime in whole seconds on some systems); a step within a run moves the stamps
 * that run made after it too, earlier than they were: a part judged by age that much sooner.
 *
 * SLEPT_WITH_THE_SERVER: a laptop closed while parts waited in the queue of a server on the laptop
 * itself (our local server, or any on a loopback address). The wall clock and the uptime both count
 * the sleep, so no jump is seen; but that queue slept too, and at the first run after waking it had
 * looked quiet for hours: the parts were sent again while the first copies still waited in the queue
 * that had just woken (both processed). The awake time (Linux's CLOCK_MONOTONIC) does not count a
 * suspend: the uptime moved further than it since the last run, so the machine slept that long, and
 * for a server here that counts as CLOCK_JUMPED_FORWARD counts a jump (parts waiting queued from this
 * run's start, absences moved on by the sleep), the server's clock offset kept (its clock is ours). A
 * server elsewhere worked on while we slept: its parts are judged on the wall clock as before. Inside
 * a run too: a `sync --wait` suspended in its wait compares the marks around each pause
 * (sync.ts `wokeInTheWait`) and counts the sleep the same way before its next look.
 */
import { uptime } from 'node:os';
import { everyPart, type SyncState } from '../state/state.js';
import { bootId } from '../util/process-identity.js';
import { isLoopbackHost } from '../util/loopback.js';
import { MAX_SKEW_MS } from './pace.js';
import { ORDERS_PER_MS } from './send-order.js';
import { unsettledShared } from './shared.js';

/** Where the system's own clock stood at a run's start (kept in `lastRun.clock`). */
export interface ClockMark {
  /** System uptime, ms. */
  uptimeMs: number;
  /** How long the system has been awake since it booted, ms (Linux's CLOCK_MONOTONIC: suspend not counted); absent where not told. */
  awakeMs?: number;
  /** The boot's id where the system has one (Linux). */
  bootId?: string;
}

/** A run's start on the wall clock (ISO) and the system's clock then (`lastRun`, the pull ledger's `lastPull`). */
export interface RunMark {
  startedAt: string;
  clock?: ClockMark | undefined;
}

/** This moment's mark. */
export function clockMarkNow(): ClockMark {
  const boot = bootId();
  // Node's hrtime is CLOCK_MONOTONIC on Linux, counted from boot without the time suspended; other
  // systems' clocks behind it differ (some count the sleep), so only Linux's is taken as awake time.
  const awake = process.platform === 'linux' ? { awakeMs: Math.round(Number(process.hrtime.bigint() / 1_000_000n)) } : {};
  return { uptimeMs: Math.round(uptime() * 1000), ...awake, ...(boot === undefined ? {} : { bootId: boot }) };
}

/**
 * SLEPT_WITH_THE_SERVER: how long the system was suspended between two marks (ms): the uptime
 * (suspend counted) moved further than the awake time (suspend not counted) by more than a server's
 * clock may be off (MAX_SKEW_MS); 0 when it was not, or it cannot be told (another boot, a mark
 * without the awake time).
 */
export function sleptMs(last: ClockMark | undefined, now: ClockMark): number {
  if (last?.awakeMs === undefined || now.awakeMs === undefined) return 0;
  if (last.bootId !== undefined && now.bootId !== undefined && last.bootId !== now.bootId) return 0;
  const up = now.uptimeMs - last.uptimeMs;
  const awake = now.awakeMs - last.awakeMs;
  if (up < 0 || awake < 0) return 0; // another boot
  const slept = up - awake;
  return slept > MAX_SKEW_MS ? slept : 0;
}

/**
 * SLEPT_WITH_THE_SERVER: whether the server at `url` sleeps when this machine does, its queue stopped
 * for as long: a loopback address (our local server, `server start`, or one the person runs here).
 * A tunnel to a server elsewhere on a loopback port is taken for one here too: the parts it holds then
 * wait one patience more after a sleep, nothing is sent twice.
 */
export function serverOnThisMachine(url: string): boolean {
  try {
    return isLoopbackHost(new URL(url).hostname);
  } catch {
    return false;
  }
}

/**
 * How much further the wall clock moved than the system's uptime since the last run (ms: negative,
 * it was set back), undefined where that cannot be told (another boot, no mark).
 */
function wallBeyondUptime(last: { startedAt: number; clock?: ClockMark | undefined } | undefined, now: { startedAt: number; clock: ClockMark }): number | undefined {
  const before = last?.clock;
  if (last === undefined || before === undefined || !Number.isFinite(last.startedAt)) return undefined;
  if (before.bootId !== undefined && now.clock.bootId !== undefined && before.bootId !== now.clock.bootId) return undefined;
  const up = now.clock.uptimeMs - before.uptimeMs;
  if (up < 0) return undefined; // another boot
  return now.startedAt - last.startedAt - up;
}

/** How far the wall clock jumped forward since the last run (ms), 0 when it did not, or it cannot be told (another boot, no mark). */
export function forwardJumpMs(last: { startedAt: number; clock?: ClockMark | undefined } | undefined, now: { startedAt: number; clock: ClockMark }): number {
  const jump = wallBeyondUptime(last, now) ?? 0;
  return jump > MAX_SKEW_MS ? jump : 0;
}

/** STAMPS_AFTER_STEP_BACK: a step back smaller than this is not told (some systems count the uptime in whole seconds). */
export const STEP_BACK_MIN_MS = 2_000;

/** How far the wall clock was set back since the last run (ms), 0 when it was not, or it cannot be told (another boot, no mark). */
export function backwardStepMs(last: { startedAt: number; clock?: ClockMark | undefined } | undefined, now: { startedAt: number; clock: ClockMark }): number {
  const step = -(wallBeyondUptime(last, now) ?? 0);
  return step > STEP_BACK_MIN_MS ? step : 0;
}

/** How far the wall clock was set back between the run `last` recorded and one starting now (backwardStepMs). */
export function stepBackSince(last: RunMark | undefined, startedAt: number, clock: ClockMark): number {
  return backwardStepMs(last === undefined ? undefined : { startedAt: Date.parse(last.startedAt), clock: last.clock }, { startedAt, clock });
}

/** STAMPS_AFTER_STEP_BACK: every stamp of ours in the state, recorded on the clock before a step back of `stepMs`, on the clock after it. How many parts. */
export function stampsAfterStepBack(state: SyncState, stepMs: number): number {
  const back = (iso: string | undefined) => (iso === undefined || !Number.isFinite(Date.parse(iso)) ? iso : new Date(Date.parse(iso) - stepMs).toISOString());
  const step = Math.round(stepMs);
  let moved = 0;
  for (const ref of everyPart(state)) {
    if (ref.sentAt === undefined && ref.queuedAt === undefined) continue;
    if (ref.confirmedAt !== undefined) ref.confirmedAt = back(ref.confirmedAt);
    if (ref.sentAt !== undefined) ref.sentAt = back(ref.sentAt);
    if (ref.queuedAt !== undefined) ref.queuedAt = back(ref.queuedAt);
    // Send and reply orders are their millisecond times ORDERS_PER_MS plus a rank (send-order.ts).
    if (ref.sendOrder !== undefined) ref.sendOrder -= step * ORDERS_PER_MS;
    if (ref.queuedOrder !== undefined) ref.queuedOrder -= step * ORDERS_PER_MS;
    moved++;
  }
  for (const record of Object.values(state.files)) if (record.queuedAt !== undefined) record.queuedAt = back(record.queuedAt);
  for (const pace of Object.values(state.groups ?? {})) {
    for (const key of ['headAt', 'headSentAt', 'headRepliedAt', 'headProofAt'] as const) if (pace[key] !== undefined) pace[key] -= stepMs;
    if (pace.looks !== undefined) pace.looks = pace.looks.map(([from, to]) => [Math.max(0, from - step), Math.max(0, to - step)]);
  }
  return moved;
}

/** How far the wall clock jumped forward between the run `last` recorded and one starting now (forwardJumpMs). */
export function jumpSince(last: RunMark | undefined, startedAt: number, clock: ClockMark): number {
  return forwardJumpMs(last === undefined ? undefined : { startedAt: Date.parse(last.startedAt), clock: last.clock }, { startedAt, clock });
}

/** ABSENCE_AFTER_JUMP: an absence's start recorded before a forward jump of `jumpMs`, on the clock after it (never past `startedAt`). */
export function sinceAfterJump(since: string, jumpMs: number, startedAt: number): string {
  const t = Date.parse(since);
  if (!Number.isFinite(t) || jumpMs <= 0 || t >= startedAt) return since;
  return new Date(Math.min(t + jumpMs, startedAt)).toISOString();
}

/**
 * ABSENCE_AFTER_JUMP for the sync's state: each copy's absence (`goneSeen.since`), and each unsettled
 * shared part's confirmation (`confirmedAt`), on the clock after the jump. How many parts.
 */
export function waitsAfterJump(state: SyncState, jumpMs: number, startedAt: number, sharedOrigins: ReadonlySet<string>): number {
  let moved = 0;
  for (const ref of everyPart(state)) {
    let changed = false;
    if (ref.goneSeen !== undefined) {
      const since = sinceAfterJump(ref.goneSeen.since, jumpMs, startedAt);
      if (since !== ref.goneSeen.since) (ref.goneSeen = { ...ref.goneSeen, since }), (changed = true);
    }
    if (unsettledShared(ref, sharedOrigins) && ref.confirmedAt !== undefined) {
      const confirmed = sinceAfterJump(ref.confirmedAt, jumpMs, startedAt);
      if (confirmed !== ref.confirmedAt) (ref.confirmedAt = confirmed), (changed = true);
    }
    if (changed) moved++;
  }
  return moved;
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
