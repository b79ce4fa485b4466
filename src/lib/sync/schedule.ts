/**
 * When to list a group next (issue 27): when the answer can have changed, not on a clock.
 *
 * Graphiti works through a group's queue one episode at a time, at a pace the group's earlier
 * listings showed (pace.ts: one episode's processing, our episodes' queue waits). So while parts
 * of ours wait, the next listing is set for when they should all be done: after the last one
 * queued has waited its usual wait and been processed, and after every part still waiting has
 * taken one processing time. A listing that shows progress predicts again from what is left; one
 * that shows nothing new backs off (doubling, up to MAX_GAP_MS). Before the group's pace is known,
 * an assumed processing time stands in for it, and a prediction from few samples is trusted only
 * part of the way (`trustIn`): the first look comes early enough to learn the pace.
 *
 * And a listing never takes more than its share of the server's time: each one is charged its own
 * wall time ÷ LISTING_SHARE against a budget (`budgetAt`), with two listings' worth in reserve, so
 * a group that costs 1.3 s to list is listed at most about once per 30 s, and a cheap one (under
 * 1,000 episodes, pace.ts `costlyListing`; the local server's direct query) as often as the
 * prediction asks.
 *
 * The same schedule serves every caller: `sync --wait` sleeps until the earliest due group
 * (`nextListingTime`), the hooks' worker lists only groups that are due (listing.ts), and watch
 * runs its confirmation pass when the summary says the next listing is due.
 *
 * Pure functions over the group's pace; the times are epoch ms on our clock.
 */
import type { GroupPace, SyncState } from '../state/state.js';
import { nextBackoff } from '../util/backoff.js';
import { costlyListing, listingDue, median, nextPace, paceOf, stepOf, stepSamples, typicalWaitOf, type PaceInput } from './pace.js';

/** The share of the server's time listings may take (4 %: each listing buys 25 times its cost of quiet). */
export const LISTING_SHARE = 0.04;
/** Listings that may follow one another at once after a quiet spell (the budget's reserve). */
const BURST = 2;
/** Never list a group twice within this, however cheap. */
export const MIN_GAP_MS = 250;
/** Longest back-off between two listings of a group where ours wait. */
export const MAX_GAP_MS = 5 * 60_000;
/**
 * One episode's processing before a group has shown its own: Graphiti with an LLM takes from a few
 * hundred ms (instant answers) to many seconds per episode. Only a quarter of the way is trusted.
 */
const ASSUMED_STEP_MS = 1_000;
/** Nothing is scheduled further ahead than this (pace.ts counts a time beyond it as due). */
const MAX_AHEAD_MS = 9 * 60_000;

/** The group's pace after a listing: its samples (pace.ts), then its next listing. */
export function paceAfterListing(input: PaceInput): GroupPace {
  return nextListing({ pace: nextPace(input), now: input.now, waiting: input.stillWaiting, progress: input.progress, lastQueuedAt: input.lastQueuedAt, listedMs: costlyListing(input.listing) ? input.listing.ms : undefined, direct: input.listing.direct === true });
}

export interface ScheduleInput {
  /** The group's pace with this listing's samples already in. */
  pace: GroupPace;
  now: number;
  /** Parts of ours in the group still unseen after this listing. */
  waiting: number;
  /** Something of ours changed state in this listing. */
  progress: boolean;
  /** When the last of the waiting parts was queued. */
  lastQueuedAt?: number | undefined;
  /** This listing's wall time (ms), charged against the budget; undefined when none happened or it was cheap (pace.ts `costlyListing`). */
  listedMs?: number | undefined;
  /** The look was the local server's direct query (milliseconds): near the end it may come every couple of episodes. */
  direct?: boolean;
}

/** The pace after a listing: budget charged, and the next listing set (or cleared when nothing waits). */
export function nextListing(input: ScheduleInput): GroupPace {
  const { now } = input;
  const pace: GroupPace = { ...input.pace };
  if (input.listedMs !== undefined) {
    // Two listings' worth of reserve: after a quiet spell the next checks need not wait.
    const typical = (median(pace.listMs) ?? input.listedMs) / LISTING_SHARE;
    pace.budgetAt = Math.round(Math.max(pace.budgetAt ?? 0, now - BURST * typical) + input.listedMs / LISTING_SHARE);
  }
  if (input.waiting === 0) {
    delete pace.nextListingAt;
    delete pace.backoffMs;
    return pace;
  }
  let at: number;
  if (input.progress || pace.backoffMs === undefined) {
    // Something moved (or this is the first look): list when what is left should be done.
    delete pace.backoffMs;
    // A pace from few samples (or none: a guess) may be far off: look again part of the way there.
    at = now + (guessDone(pace, now, input.waiting, input.lastQueuedAt) - now) * trustIn(pace);
    // A direct query costs the server milliseconds: look every couple of episodes rather than miss the end.
    if (input.direct === true) at = Math.min(at, now + 2 * (stepOf(pace) ?? ASSUMED_STEP_MS));
    if (!input.progress) pace.backoffMs = Math.max(MIN_GAP_MS, stepOf(pace) ?? MIN_GAP_MS);
  } else {
    // Nothing new since the last look: ours are behind a backlog, or lost. Back off.
    const base = Math.max(MIN_GAP_MS, stepOf(pace) ?? MIN_GAP_MS);
    pace.backoffMs = Math.round(nextBackoff(pace.backoffMs, { initialMs: base, maxMs: MAX_GAP_MS }));
    at = now + pace.backoffMs;
  }
  pace.nextListingAt = bounded(pace, now, at);
  return pace;
}

/**
 * After sending: the group's first listing for the new parts, unless one is already set (then that
 * listing sees them and predicts again).
 */
export function afterSend(previous: GroupPace, now: number, waiting: number, lastQueuedAt: number | undefined): GroupPace {
  if (waiting === 0 || (previous.nextListingAt !== undefined && !listingDue(previous, now))) return previous;
  // Before the pace is known, the next run may look at once (a fast server is done by then),
  // unless the group is costly to list: then a look before anything can be done is a waste.
  const costly = previous.listMs !== undefined && previous.listMs.length > 0;
  const done = costly ? guessDone(previous, now, waiting, lastQueuedAt) : predictDone(previous, now, waiting, lastQueuedAt);
  const at = Math.max(done === undefined ? now : now + (done - now) * trustIn(previous), previous.budgetAt ?? 0);
  // Due within the shortest gap anyway (a fast server, a cheap group): the next run may look at once.
  if (at < now + MIN_GAP_MS) return previous;
  const pace: GroupPace = { ...previous };
  delete pace.backoffMs;
  pace.nextListingAt = bounded(pace, now, at);
  return pace;
}

/**
 * When the waiting parts should all have been processed, from the group's pace: the last one
 * queued waits its usual wait and takes one processing time, and all of them take one processing
 * time each from now; half a processing time of margin. Undefined before the pace is known.
 */
export function predictDone(pace: GroupPace, now: number, waiting: number, lastQueuedAt: number | undefined): number | undefined {
  const step = stepOf(pace);
  if (step === undefined) return undefined;
  const last = (lastQueuedAt ?? now) + (typicalWaitOf(pace) ?? 0) + step;
  return Math.round(Math.max(now + waiting * step, last) + step / 2);
}

/** `predictDone`, or before the group's pace is known, the same with an assumed processing time. */
function guessDone(pace: GroupPace, now: number, waiting: number, lastQueuedAt: number | undefined): number {
  return predictDone(pace, now, waiting, lastQueuedAt) ?? predictDone({ ...pace, stepsMs: [ASSUMED_STEP_MS] }, now, waiting, lastQueuedAt) ?? now;
}

/** How far to go towards a predicted end before looking again: all the way once the pace rests on several samples. */
function trustIn(pace: GroupPace): number {
  const n = stepSamples(pace);
  return n >= 8 ? 1 : n >= 3 ? 0.5 : 0.25;
}

/** The earliest time any of `groups` is to be listed (`sync --wait` sleeps until then). */
export function nextListingTime(state: SyncState, groups: Iterable<string>, now: number): number {
  let earliest = Number.POSITIVE_INFINITY;
  for (const group of groups) {
    const pace = paceOf(state, group);
    earliest = Math.min(earliest, listingDue(pace, now) ? now : (pace.nextListingAt as number));
  }
  return earliest;
}

/** Not sooner than MIN_GAP_MS nor than the budget allows, not later than MAX_AHEAD_MS. */
function bounded(pace: GroupPace, now: number, at: number): number {
  return Math.round(Math.min(now + MAX_AHEAD_MS, Math.max(at, now + MIN_GAP_MS, pace.budgetAt ?? 0)));
}

/**
 * After a send phase: each group where parts of ours now wait gets its first listing for them
 * (`afterSend`), written into `state.groups`.
 */
export function scheduleSent(state: SyncState, now: number): void {
  const waiting = new Map<string, { count: number; lastQueuedAt: number }>();
  const parts = [...Object.values(state.files).flatMap((r) => (r.status === 'failed' || r.status === 'skipped' ? [] : r.episodes))];
  for (const ref of parts) {
    if (ref.uuid !== undefined || ref.sentAt === undefined) continue;
    const w = waiting.get(ref.groupId) ?? { count: 0, lastQueuedAt: 0 };
    w.count++;
    w.lastQueuedAt = Math.max(w.lastQueuedAt, Date.parse(ref.queuedAt ?? ref.sentAt) || 0);
    waiting.set(ref.groupId, w);
  }
  for (const [group, w] of waiting) {
    const previous = paceOf(state, group);
    const pace = afterSend(previous, now, w.count, w.lastQueuedAt || undefined);
    if (pace === previous) continue;
    state.groups ??= Object.create(null) as Record<string, GroupPace>;
    state.groups[group] = pace;
  }
}

/**
 * How long until the next listing of a group where parts of ours wait (watch schedules its
 * confirmation pass then); undefined when nothing of ours waits to be seen.
 */
export function nextListingIn(state: SyncState, waitingGroups: Iterable<string>, now: number): number | undefined {
  const at = nextListingTime(state, waitingGroups, now);
  return Number.isFinite(at) ? Math.max(0, at - now) : undefined;
}
