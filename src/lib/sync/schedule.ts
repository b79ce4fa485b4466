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
 * In a busy group, the looks before the end are pace samples (pace.ts `sampleCap`): a tenth of the
 * group, which shows where the queue stands (the head) and how fast it moves, at a tenth of a
 * listing's cost. Each one looks again part of the way to the predicted end (three quarters once
 * the pace is trusted), and once the end is within NEAR_STEPS processing times the full listing
 * that confirms is set for it. So a batch gets one full listing at its end, aimed from a head seen
 * a few episodes before it.
 *
 * And a listing never takes more than its share of the server's time: each one is charged its own
 * wall time ÷ LISTING_SHARE against a budget (`budgetAt`), with three listings' worth in reserve, so
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
import { queuedTime, type GroupPace, type SyncState } from '../state/state.js';
import { nextBackoff } from '../util/backoff.js';
import { provenBefore, type Placed } from './send-order.js';
import { canSample, costlyListing, listingDue, MAX_AHEAD_MS, median, nextPace, paceOf, SAMPLE_DIVISOR, stepOf, stepSamples, typicalWaitOf, type PaceInput } from './pace.js';

/** The share of the server's time listings may take (4 %: each listing buys 25 times its cost of quiet). */
export const LISTING_SHARE = 0.04;
/**
 * Listings that may follow one another at once after a quiet spell (the budget's reserve). Three:
 * the end of a batch in a busy group can take two full listings after its samples (the first one
 * an episode early), and a third held back by the budget cost a bench run 15 s of waiting.
 */
const BURST = 3;
/**
 * Looks the end of a batch may take (BURST's reason): the one aimed at it, and one more a processing
 * time later where that one came an episode early (it held the last episode up as long as it ran).
 */
const END_LOOKS = 2;
/** Never list a group twice within this, however cheap. */
export const MIN_GAP_MS = 250;
/** Longest back-off between two listings of a group where ours wait. */
export const MAX_GAP_MS = 5 * 60_000;
/**
 * One episode's processing before a group has shown its own: Graphiti with an LLM takes from a few
 * hundred ms (instant answers) to many seconds per episode. Only a quarter of the way is trusted.
 */
const ASSUMED_STEP_MS = 1_000;
/** A pace sample looks again this far towards the predicted end once the pace is trusted (`sampleReach`). */
const SAMPLE_REACH = 0.75;
/**
 * Within this many processing times of the predicted end, the next look is the full listing (a
 * sample's head trails the queue by about ten episodes anyway: one in ten is in a sample).
 */
const NEAR_STEPS = 6;
/**
 * Margin per processing time predicted from the head: the pace measured behind the head
 * underestimates the one ahead of it where the graph grows (0.81 → 0.95 s per episode over the
 * bench's 200), and a full listing that comes too early costs the server a listing and the run a
 * budget gap (in the simulated busy group of test/sync/schedule.test.ts: 2 % left a third of the
 * runs with a second full listing, 4 % one in twenty).
 */
const HEAD_MARGIN = 0.04;
/** Extra margin, in processing times, for the look that confirms the end where a miss would wait on the budget (`aimAtEnd`). */
const END_MARGIN_STEPS = 0.5;
/** A look part of the way needs this many listings' time left before the predicted end (`worthLookingEarly`). */
const PARTIAL_LOOK_WORTH = 5;
/** Parts of ours a sample should show to be worth its cost: two give a processing time and a head that moved. */
const SAMPLE_SHOWS = 2;

/** The group's pace after a listing: its samples (pace.ts), then its next listing. */
export function paceAfterListing(input: PaceInput): GroupPace {
  return nextListing({ pace: nextPace(input), now: input.now, waiting: input.stillWaiting, progress: input.progress, lastQueuedAt: input.lastQueuedAt, waitingPlaced: input.waiting, complete: input.listing.complete, lookMs: input.listing.ms, listedMs: costlyListing(input.listing) ? input.listing.ms : undefined, direct: input.listing.direct === true, sample: input.listing.sample === true });
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
  /** Each waiting part's hand-off and reply (send-order.ts `Placed`): those not proven ahead of the head are still ahead of the worker. */
  waitingPlaced?: readonly Placed[] | undefined;
  /** The listing covered the group: every waiting part is still ahead of the worker (or lost), wherever it was sent. */
  complete?: boolean;
  /** This look's wall time (ms), however cheap: the server runs a listing on the loop that runs the queue, so it held the worker up as long. */
  lookMs?: number | undefined;
  /** This listing's wall time (ms), charged against the budget; undefined when none happened or it was cheap (pace.ts `costlyListing`). */
  listedMs?: number | undefined;
  /** The look was the local server's direct query (milliseconds): near the end it may come every couple of episodes. */
  direct?: boolean;
  /** The look was a pace sample (a tenth of the group): a sample that shows nothing new says nothing. */
  sample?: boolean;
}

/** The pace after a listing: budget charged, and the next listing set (or cleared when nothing waits). */
export function nextListing(input: ScheduleInput): GroupPace {
  const { now } = input;
  const pace: GroupPace = { ...input.pace };
  if (input.listedMs !== undefined) {
    // BURST listings' worth of reserve: after a quiet spell the next checks need not wait.
    const typical = (median(pace.listMs) ?? input.listedMs) / LISTING_SHARE;
    pace.budgetAt = Math.round(Math.max(pace.budgetAt ?? 0, now - BURST * typical) + input.listedMs / LISTING_SHARE);
  }
  const aimedAt = pace.sampleUntil;
  delete pace.sampleUntil;
  if (input.waiting === 0) {
    delete pace.nextListingAt;
    delete pace.backoffMs;
    return pace;
  }
  let at: number;
  const queue: QueueView | undefined = input.waitingPlaced === undefined ? undefined : { waiting: input.waitingPlaced, complete: input.complete === true };
  let done = guessDone(pace, now, input.waiting, input.lastQueuedAt, queue, input.direct === true ? 0 : (input.lookMs ?? 0));
  const kept = silentSampleEnd(input, pace, aimedAt);
  if (kept !== undefined) done = Math.min(done, kept);
  const ahead = behindHead(pace, queue);
  if (input.direct !== true && ahead !== undefined && sampleFits(pace, now, done) && sampleShows(ahead)) {
    // Far from the end, and the queue's place known: a slice of the group shows how far it got.
    // A sample that shows nothing new says nothing (it holds a tenth): predict again, no back-off.
    delete pace.backoffMs;
    pace.sampleUntil = done;
    at = now + sampleReach(pace, done - now);
  } else if (input.progress || pace.backoffMs === undefined) {
    // Something moved (or this is the first look): list when what is left should be done.
    delete pace.backoffMs;
    // A pace from few samples (or none: a guess) may be far off: look again part of the way there,
    // unless that look would spend the budget the look at the end needs (`leavesRoomFor`).
    at = now + (done - now) * trustIn(pace);
    if (!partWayWorth(pace, now, at, done)) at = done;
    if (at >= done) at = aimAtEnd(pace, done);
    // A direct query costs the server milliseconds: look every couple of episodes rather than miss the end.
    if (input.direct === true) at = Math.min(at, now + 2 * assumedStep(pace));
    if (!input.progress) pace.backoffMs = backoffBase(pace, now, input.lastQueuedAt);
  } else {
    // Nothing new since the last look: ours are behind a backlog, or lost. Back off.
    const base = backoffBase(pace, now, input.lastQueuedAt);
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
  // A busy group whose pace is not yet trusted: the first look is a sample, part of the way.
  // (However few wait: it only has to find how far the queue got, and a full listing holds the server's worker ten times as long.)
  const trust = newBatchTrust(previous, now, done);
  const sample = done !== undefined && trust < 1 && sampleFits(previous, now, done);
  let first = done === undefined ? now : now + (done - now) * trust;
  if (done !== undefined && !sample && !partWayWorth(previous, now, first, done)) first = done;
  const at = Math.max(first, previous.budgetAt ?? 0);
  // Due within the shortest gap anyway (a fast server, a cheap group): the next run may look at once.
  if (at < now + MIN_GAP_MS) return previous;
  const pace: GroupPace = { ...previous };
  delete pace.backoffMs;
  delete pace.sampleUntil;
  if (sample) pace.sampleUntil = done;
  pace.nextListingAt = bounded(pace, now, at);
  return pace;
}

/**
 * NEW_BATCH: how far a new batch's first look goes towards the end predicted from the remembered
 * pace. That pace describes the server as it was, and a rate limit lifted, another model or another
 * build behind the address makes it several times faster: a batch whose first look came at the old
 * end waited for it (in the simulated busy group, batches 3 times faster than remembered took 2.9x
 * the floor, 10 times faster 9.7x). So the first look goes only as far as a pace from few samples
 * is trusted, where the batch is long beside the pace (more than NEAR_STEPS processing times; in a
 * busy group that look is a sample, a tenth of a listing). A shorter batch loses at most a few
 * processing times to a stale pace, about what a look part of the way would cost it.
 */
function newBatchTrust(pace: GroupPace, now: number, done: number | undefined): number {
  const trust = trustIn(pace);
  if (done === undefined || done - now <= NEAR_STEPS * assumedStep(pace)) return trust;
  return Math.min(trust, FEW_SAMPLES_TRUST);
}

/**
 * SILENT_SAMPLE: a sample that shows nothing new of ours, in a group whose pace is known, leaves
 * the end where it was aimed (`sampleUntil`, moved by the look's own hold): it holds a tenth of
 * the group, so it misses most of a few processed parts, and a prediction made again from now for
 * every part still unseen put a 20-note batch's end a quarter later than it was. Where the pace is
 * a guess, the aim was a guess too: the prediction from now stands. Returns the end to keep, or
 * undefined where the rule does not apply.
 */
function silentSampleEnd(input: ScheduleInput, pace: GroupPace, aimedAt: number | undefined): number | undefined {
  if (input.sample !== true || input.progress || stepOf(pace) === undefined || aimedAt === undefined || aimedAt <= input.now) return undefined;
  return aimedAt + (input.lookMs ?? 0);
}

/**
 * How far towards the predicted end the next sample looks: part of the way while the pace rests on
 * few samples, three quarters once it is trusted. DRIFT: a trusted pace still does not go straight
 * to the end, because the pace drifts over a long batch (an LLM's latency through the day, the
 * machine's load): on the real server a 500-note batch whose first third ran 30 % slower, under
 * load, was predicted from a sample in that third and waited 73 s past the server's end. A sample
 * costs a tenth of a listing; three quarters of what is left each time is a few more per batch.
 */
function sampleReach(pace: GroupPace, aheadMs: number): number {
  const trust = trustIn(pace);
  if (trust < 1) return aheadMs * trust;
  return aheadMs * SAMPLE_REACH;
}

/**
 * A look at `at`, part of the way to the predicted end, is worth it: it leaves the budget room for
 * the looks the end may take (END_LOOKS), and what is left is long beside a listing, or the pace is
 * not known yet (the look is how it is learnt). Where the pace is not known the room counts too: a
 * look at the guessed end teaches the pace as well, and three looks part of the way held a 3-note
 * batch's confirming look 25 s behind the budget; room for one look at the end only left a 5-note
 * batch's second look there 20-40 s behind it.
 */
function partWayWorth(pace: GroupPace, now: number, at: number, done: number): boolean {
  return leavesRoomFor(pace, at, done, END_LOOKS) && (stepOf(pace) === undefined || worthLookingEarly(pace, now, done));
}

/**
 * A full look at `at` still leaves the budget room for `endLooks` more from `done`, a processing
 * time apart: else the look part of the way would hold the one that confirms behind the budget (a
 * 20-note batch in a busy group: done at 10 s, confirmed at 28 s after a look half way drew the
 * budget). Cheap groups have no budget.
 */
function leavesRoomFor(pace: GroupPace, at: number, done: number, endLooks = 1): boolean {
  const listed = median(pace.listMs);
  if (listed === undefined) return true;
  const typical = listed / LISTING_SHARE;
  const afterLook = Math.max(pace.budgetAt ?? 0, at - BURST * typical) + typical;
  return afterLook + (endLooks - 1) * typical <= done + (endLooks - 1) * assumedStep(pace);
}

/**
 * A look part of the way is worth its cost only when what is left is long beside a listing: the
 * listing holds the server's worker up as long as it takes, and a prediction from a few samples
 * is off by a fifth or so (PARTIAL_LOOK_WORTH listings: a fifth of what is left is a listing).
 */
function worthLookingEarly(pace: GroupPace, now: number, done: number): boolean {
  const listed = median(pace.listMs);
  return listed === undefined || done - now > PARTIAL_LOOK_WORTH * listed;
}

/**
 * The look meant to confirm the end: half a processing time later than predicted (a whole one of
 * margin in all) where a look that came too early would leave the next one waiting on the budget:
 * a look that finds the last part still running costs a budget gap (27 s for a 1.1 s listing),
 * one that comes late costs the lateness.
 */
function aimAtEnd(pace: GroupPace, done: number): number {
  const step = stepOf(pace);
  if (step === undefined) return done;
  return leavesRoomFor(pace, done, done + step) ? done : done + step * END_MARGIN_STEPS;
}

/** A sample is worth it: the group is big and the end is still more than NEAR_STEPS processing times away. */
function sampleFits(pace: GroupPace, now: number, done: number): boolean {
  return canSample(pace) && done - now > NEAR_STEPS * assumedStep(pace);
}

/**
 * After the first look, a sample must be able to show something: enough of ours still to be
 * processed before the end is near that a tenth of them is `SAMPLE_SHOWS` (a sample of a 20-note
 * batch shows one or two of ours, and learns nothing a full listing at the end would not: the
 * grid of issue 43 took five samples in 20 s, each seeing none).
 */
function sampleShows(waiting: number): boolean {
  return waiting - NEAR_STEPS >= SAMPLE_SHOWS * SAMPLE_DIVISOR;
}

/** The waiting parts as the last look showed them. */
export interface QueueView {
  /** Each waiting part's hand-off and reply (send-order.ts `Placed`). */
  waiting: readonly Placed[];
  /** The look covered the group: a waiting part is unprocessed (or lost) wherever it was sent. */
  complete: boolean;
}

/**
 * How many waiting parts are still ahead of the worker, counted from the head (the latest-started
 * part of ours seen), when the head tells: the worker has been busy since it (the first of them
 * was sent before the head was done). After a complete listing every waiting part is ahead; after
 * a sample, every part not proven queued before the head (send-order.ts PROVEN_ORDER: its reply
 * came before the head was handed off); the others were processed, out of the sample. A part in
 * flight together with the head may have been queued after it, whichever was handed off first:
 * taken for processed, the end looked reached and a busy group was listed in full for nothing
 * (dozens share the head's millisecond at a high concurrency, and the test server took requests in
 * flight together in another order). Undefined otherwise: no head, or a head from an earlier
 * batch, after which the queue went idle.
 */
function behindHead(pace: GroupPace, queue: QueueView | undefined): number | undefined {
  if (pace.headAt === undefined || pace.headSentAt === undefined || queue === undefined) return undefined;
  // A part is proven ahead of the head by its own reply: before the head's hand-off, or before that
  // of a part seen to start no later than the head (pace.ts HEAD_PROOF). Only the hand-off matters.
  const head: Placed = { sent: pace.headProofAt ?? pace.headSentAt, replied: Number.POSITIVE_INFINITY };
  let behind = 0;
  let first = Number.POSITIVE_INFINITY;
  for (const part of queue.waiting) {
    if (!queue.complete && provenBefore(part, head)) continue;
    behind++;
    first = Math.min(first, part.sent);
  }
  // Every part still unseen was queued before the head: the queue (FIFO) took them before it, so
  // they are processed and merely out of the sample. The end is the head's own processing; from
  // now, each unseen part would take a processing time again (a 500-note batch waited 200 s more).
  if (behind === 0) return queue.complete || queue.waiting.length === 0 ? undefined : 0;
  if (first > pace.headAt + assumedStep(pace)) return undefined;
  return behind;
}

/**
 * When the waiting parts should all have been processed, from the group's pace: the last one
 * queued waits its usual wait and takes one processing time, and the queue works through what is
 * left one processing time each: from the head where it is known (the head's own, then each part
 * still ahead of the worker, `behindHead`, HEAD_MARGIN more each), else from now for every part still waiting; half a
 * processing time of margin. Undefined before the pace is known.
 */
export function predictDone(pace: GroupPace, now: number, waiting: number, lastQueuedAt: number | undefined, queue?: QueueView, heldMs = 0): number | undefined {
  const step = stepOf(pace);
  if (step === undefined) return undefined;
  const last = (lastQueuedAt ?? now) + (typicalWaitOf(pace) ?? 0) + step;
  const ahead = behindHead(pace, queue);
  // From the head, the look that just ended held the worker up too (from now, it is already past).
  const worked = ahead === undefined ? now + waiting * step : (pace.headAt as number) + (ahead + 1) * step + heldMs;
  const margin = step / 2 + (ahead === undefined ? 0 : HEAD_MARGIN * (ahead + 1) * step);
  return Math.round(Math.max(worked, last) + margin);
}

/** One episode's processing in this group, or before the group has shown it, the assumed one. */
function assumedStep(pace: GroupPace): number {
  return stepOf(pace) ?? ASSUMED_STEP_MS;
}

/**
 * The first back-off after a look that showed nothing new: one processing time, at least
 * MIN_GAP_MS. Before the group has shown one, as long again as ours have waited unseen: nothing
 * after t says an episode takes longer than t, so the looks double the wait (a 6 s-per-episode
 * server was listed in full six times in its first 20 s at 250 ms steps).
 */
function backoffBase(pace: GroupPace, now: number, lastQueuedAt: number | undefined): number {
  const step = stepOf(pace);
  if (step !== undefined) return Math.max(MIN_GAP_MS, step);
  return Math.max(MIN_GAP_MS, lastQueuedAt === undefined ? 0 : now - lastQueuedAt);
}

/** `predictDone`, or before the group's pace is known, the same with an assumed processing time (at least what the last look showed, `leastStep`). */
function guessDone(pace: GroupPace, now: number, waiting: number, lastQueuedAt: number | undefined, queue?: QueueView, heldMs = 0): number {
  return predictDone(pace, now, waiting, lastQueuedAt, queue, heldMs) ?? predictDone({ ...pace, stepsMs: [Math.max(ASSUMED_STEP_MS, leastStep(pace, now - heldMs, queue))] }, now, waiting, lastQueuedAt, queue, heldMs) ?? now;
}

/**
 * Before the group has shown a processing time, the least one can be, from a complete look that
 * shows the head (the latest-started part of ours) but not a part queued before the head started:
 * that one started when the head was done and is not done either, so the two took longer than the
 * time from the head's start to the look; each, about half of it (ours are alike in size). The
 * guess is at least that: a 6 s-per-episode server whose first look showed one of five after 12 s
 * was guessed at 1 s per episode and looked again at once, for nothing. Zero when the look does
 * not tell (no head, a sample, nothing of ours queued behind the head) or costs the server little.
 */
function leastStep(pace: GroupPace, lookedAt: number, queue: QueueView | undefined): number {
  // Only where a look is costly: a cheap group is looked at as often as the guess asks.
  if (queue === undefined || !queue.complete || pace.headAt === undefined || median(pace.listMs) === undefined) return 0;
  const headAt = pace.headAt;
  if (!queue.waiting.some(({ sent }) => sent <= headAt)) return 0;
  return Math.max(0, (lookedAt - headAt) / 2);
}

/** How far towards a predicted end a pace from fewer than three samples (or none: a guess) is trusted. */
const FEW_SAMPLES_TRUST = 0.25;

/** How far to go towards a predicted end before looking again: all the way once the pace rests on several samples. */
function trustIn(pace: GroupPace): number {
  const n = stepSamples(pace);
  return n >= 8 ? 1 : n >= 3 ? 0.5 : FEW_SAMPLES_TRUST;
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
    w.lastQueuedAt = Math.max(w.lastQueuedAt, queuedTime(ref) || 0);
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
