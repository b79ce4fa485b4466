/**
 * What we know of each group's pace, learned from what the server shows and kept in the state
 * (`state.groups`): how many episodes the group holds (so the next listing covers it in one
 * request), how long our episodes wait in its queue and how long one episode takes, the clock
 * skew between the server and us, and when the group may be listed next (back-off).
 *
 * Why: `get_episodes` is the only way to find our episodes, it lists by uuid (not by time), has no
 * paging and costs in proportion to what it returns (1.4 s and 6 MB for 10,000 short episodes).
 * A shared group holds everyone's episodes, so the listing must grow until it has covered the
 * group, and must run only while something of ours is unconfirmed, and not at every run then.
 * And a drop at the tail of the queue has no later episode of ours to give FIFO evidence: it is
 * judged from how the queue moves (`patienceMs`, `idleSince`) instead of a flat 30 minutes.
 *
 * Every estimate recovers from a bad sample (issue 24): samples are windows of recent values,
 * read through medians and bounded quantiles; the clock skew is a bounded, outlier-robust low
 * estimate, so a single late sighting (a part left in flight by a killed run, whose queuing
 * time is only known as the next run's start) cannot blind the tail-drop judgement for good.
 * When to list next is decided in schedule.ts.
 *
 * A look need not be a full listing. The top of the uuid order is a fair sample of the group
 * (uuids are random), so a slice of a tenth of a busy group (`sampleCap`) shows about a tenth of
 * our processed episodes at a tenth of the cost. With the queue in order, each one seen pins where
 * the queue stood: it started at `created_at`, after every part of ours sent before it. So a
 * sample gives the pace (the time between two of ours over the parts sent between them) and the
 * head (`headAt`), which is all the prediction needs. Only a full listing confirms the rest and
 * judges what is absent; samples lead up to it.
 *
 * Pure functions over plain data; `reconcile.ts` computes the new pace, the ledger stores it.
 */
import type { Episode } from '../graphiti/graphiti.js';
import type { GroupPace, SyncState } from '../state/state.js';
import { provenBefore, type Placed } from './send-order.js';

/** First listing of a group whose size we do not know. */
export const MIN_LISTING = 200;
/** Each listing that did not cover the group (and missed some of ours) asks for this many times more. */
export const LISTING_GROWTH = 4;
/** A safety stop, not a design limit: a group this big is listed in full at most once per back-off. */
export const MAX_LISTING = 2_000_000;
/** Recent samples kept per kind. */
const SAMPLES = 24;
/** A drop is never judged before this much quiet, however fast the server. */
export const MIN_PATIENCE_MS = 10_000;
/** Patience is this many times (queue wait + one episode's processing). */
const PATIENCE_FACTOR = 4;
/**
 * The largest clock skew (server behind us) that is corrected for. Machines that keep time are
 * within a second; a bound keeps one bad sample from moving the group's movement a day ahead. A
 * server further behind than this only gets a drop judged that much early (a re-send whose extra
 * copy is then retired), never a part waited for forever.
 */
export const MAX_SKEW_MS = 2 * 60_000;
/** A skew sample this far below every other recent one, and this far below zero, is an outlier (a late sighting), not the clock. */
const SKEW_OUTLIER_MS = 30_000;

/** A pace sample lists this share of the group (1/10): about a tenth of our processed episodes. */
export const SAMPLE_DIVISOR = 10;
/** Groups smaller than this are listed in full (a full listing of 2,000 short episodes costs ~0.3 s). */
export const SAMPLE_MIN_GROUP = 2_000;

/** One group's listing: the episodes, and whether they are all the group holds. */
export interface GroupListing {
  episodes: Episode[];
  /** True when the server returned fewer than asked: nothing of the group is missing from it. */
  complete: boolean;
  /** A pace sample (the top of the uuid order, `sampleCap`): it confirms what it shows, and judges nothing absent. */
  sample?: boolean;
  /** get_episodes calls and episodes received, for the run's report and the benchmark. */
  requests: number;
  listed: number;
  /** Wall time the listing took (all its requests), ms: what it cost the server, roughly. */
  ms?: number;
  /** Found by the local server's direct query (confirm-direct.ts), not by get_episodes. */
  direct?: boolean;
  /**
   * When the server that answered started (epoch ms, our clock), where the tool knows it: the
   * local server of `server start` (config/server-runtime.ts `liveServerStartedAt`). Graphiti's
   * queue dies with its process, so a part queued before then that a complete listing does not
   * show was lost (reconcile.ts).
   */
  serverSince?: number;
  /**
   * Nothing listed, by a server that lists only in the group it last wrote to while this sync
   * writes to several (graphiti/semantics.ts `deletesInLastWrittenGroupOnly`): it may be on another
   * group's graph, so the listing proves nothing absent for a while (reconcile.ts `BLIND_LISTING_PATIENCE_MS`).
   */
  blind?: boolean;
  /**
   * Nothing listed, by a server that lists only in the group it last wrote to (graphiti/semantics.ts
   * `listsInLastWrittenGroup`), whatever the number of our groups: after a restart such a server is
   * on none of ours, so the empty listing cannot tell a wiped group from one it is not on
   * (sync/force-look.ts FORCE_LOOK judges nothing from it).
   */
  offGroup?: boolean;
}

/**
 * A listing that costs the server enough to be paced by its cost (schedule.ts): one that returned
 * this many episodes or more (the server's time grows with what it returns: ~150 ms for 1,000,
 * 1.4 s for 10,000). A smaller one is cheap whatever our own clock says (a busy client's wall
 * time is no measure of the server's), and so is the local server's direct query.
 */
export const COSTLY_LISTING_EPISODES = 1_000;

export function costlyListing(listing: GroupListing): boolean {
  return listing.ms !== undefined && listing.direct !== true && listing.listed >= COSTLY_LISTING_EPISODES;
}

/** The group's pace from the state, checked field by field (it is a hint: anything odd is dropped). */
export function paceOf(state: SyncState, group: string): GroupPace {
  const raw = state.groups?.[group] as Record<string, unknown> | undefined;
  if (typeof raw !== 'object' || raw === null) return {};
  const pace: GroupPace = {};
  if (isCount(raw.size)) pace.size = raw.size;
  if (typeof raw.nextListingAt === 'number' && Number.isFinite(raw.nextListingAt)) pace.nextListingAt = raw.nextListingAt;
  if (isCount(raw.backoffMs)) pace.backoffMs = raw.backoffMs;
  if (isSamples(raw.waitsMs)) pace.waitsMs = raw.waitsMs.slice(-SAMPLES);
  if (isSamples(raw.stepsMs)) pace.stepsMs = raw.stepsMs.slice(-SAMPLES);
  if (isSamples(raw.appearMs)) pace.appearMs = raw.appearMs.slice(-SAMPLES);
  // `skewMs` (a running minimum, before issue 24) is not read: one late sighting made it stick.
  if (isSigned(raw.skewsMs)) pace.skewsMs = raw.skewsMs.slice(-SAMPLES);
  if (isSigned(raw.aheadBoundsMs)) pace.aheadBoundsMs = raw.aheadBoundsMs.slice(-SAMPLES);
  if (isSamples(raw.listMs)) pace.listMs = raw.listMs.slice(-SAMPLES);
  if (isLooks(raw.looks)) pace.looks = raw.looks.slice(-SAMPLES);
  if (typeof raw.budgetAt === 'number' && Number.isFinite(raw.budgetAt)) pace.budgetAt = raw.budgetAt;
  // headSentAt is a send position (send-order.ts): epoch ms with a fraction.
  if (isCount(raw.headAt) && isTime(raw.headSentAt)) {
    pace.headAt = raw.headAt;
    pace.headSentAt = raw.headSentAt;
    // Its reply position (send-order.ts); a state before reply orders has none (the head then stands where it was handed off).
    if (isTime(raw.headRepliedAt)) pace.headRepliedAt = raw.headRepliedAt;
    if (isTime(raw.headProofAt)) pace.headProofAt = raw.headProofAt;
  }
  if (isCount(raw.sampleUntil)) pace.sampleUntil = raw.sampleUntil;
  const ahead = raw.ahead as Record<string, unknown> | undefined;
  if (typeof ahead === 'object' && ahead !== null && isCount(ahead.newest) && isCount(ahead.seenAt)) pace.ahead = { newest: ahead.newest, seenAt: ahead.seenAt };
  return pace;
}

/**
 * A listing of this group is due: never scheduled, or its time has come. A time further ahead
 * than any schedule sets (a clock set back, a corrupt hint) counts as due: never stuck.
 */
export function listingDue(pace: GroupPace, now: number): boolean {
  return pace.nextListingAt === undefined || now >= pace.nextListingAt || pace.nextListingAt - now > MAX_WAIT_AHEAD_MS;
}
/** Nothing is scheduled further ahead than this (schedule.ts `bounded`). */
export const MAX_AHEAD_MS = 9 * 60_000;
/** A listing set further ahead than this is due at once: above MAX_AHEAD_MS by construction, so no schedule ever reads as stuck. */
const MAX_WAIT_AHEAD_MS = MAX_AHEAD_MS + 60_000;

/**
 * How many episodes to ask for first: the group's last known size with room to grow. A group of
 * unknown size is asked for in full at once (issue 27): growing 200 → 800 → 3,200 → … fetched a
 * busy group four times before its size was known, and the last, full reply costs the same.
 */
export function firstCap(pace: GroupPace, ours: number): number {
  if (pace.size === undefined) return MAX_LISTING;
  return Math.min(MAX_LISTING, Math.max(MIN_LISTING, Math.ceil(pace.size * 1.1) + ours + 100));
}

export function nextCap(cap: number): number {
  return Math.min(MAX_LISTING, cap * LISTING_GROWTH);
}

/** The group is big enough that a pace sample costs far less than a full listing. */
export function canSample(pace: GroupPace): boolean {
  return pace.size !== undefined && pace.size >= SAMPLE_MIN_GROUP;
}

/**
 * The look due now is a pace sample: the schedule asked for one (the end was far) and the end it
 * predicted has not come yet (a hook's run an hour later lists in full), in a group big enough.
 */
export function sampleDue(pace: GroupPace, now: number): boolean {
  return pace.sampleUntil !== undefined && now < pace.sampleUntil && canSample(pace);
}

/** How many episodes a pace sample asks for: a tenth of the group as last seen. */
export function sampleCap(size: number): number {
  return Math.max(MIN_LISTING, Math.ceil(size / SAMPLE_DIVISOR));
}

/**
 * The server clock minus ours, as far as our own episodes show it: an episode's `created_at` is
 * when the server started processing it, never before we queued it, so the smallest
 * (created − queued) bounds how far behind the server's clock is: a negative skew is corrected by
 * it, at most MAX_SKEW_MS. Robust: of the recent samples, one far below all the others is left out
 * (its queuing time was a guess), and old samples leave the window, so the estimate recovers.
 *
 * A server clock ahead of ours is read only as far as it is proven (`clockOffsetOf`,
 * SERVER_AHEAD_PROVEN): a queue wait looks just like a server ahead (both make created − queued
 * large), so the waits alone never move it; a few minutes ahead is harmless (we only wait longer),
 * hours ahead was not (every part looked hours in the queue: the schedule put the next look at
 * its longest back-off, and `sync --wait` ended with the parts still queued).
 */
export function skewOf(pace: GroupPace): number {
  const low = lowestSkewSample(pace);
  return low === undefined ? 0 : Math.max(-MAX_SKEW_MS, Math.min(0, low));
}

/**
 * The offset the queue's times are read with (waits, the head, a batch's start: what the schedule
 * predicts from): `skewOf`, or the server's clock ahead of ours where that is proven
 * (SERVER_AHEAD_PROVEN). The drop judgement never rests on it: a group whose times lie ahead of our
 * clock is judged by when those times last moved (CLOCK_SET_BACK, `lastMovement` read with
 * `skewOf`), which needs no offset. An offset gone stale (a clock stepped since) can at worst put
 * a look early or late, or read the waits short (the patience then what the group's processing
 * alone gives: the quiet-queue rule still needs the whole group to stand still that long).
 */
export function clockOffsetOf(pace: GroupPace): number {
  const ahead = provenAheadMs(pace);
  return ahead > 0 ? ahead : skewOf(pace);
}

/**
 * SERVER_AHEAD_PROVEN: how far the server's clock is, at least, ahead of ours (ms; 0 or less: not
 * proven ahead). An episode of ours started, on the server's clock, at `created_at`, and before
 * the listing that showed it came back (`now` on ours): created − now is below the clock offset
 * whatever the episode waited, so the largest such bound is proven, with no guess about waits.
 * Only a step of either clock since (NTP) makes an old bound wrong, and the wrong way (a bound
 * above the offset corrects too far: the group's movement placed too early, a drop judged early):
 * a bound the newer sightings contradict (`aheadBoundsAfter`) and every bound after our clock
 * jumped forward (clock-jump.ts, `forgetClockOffsets`) are dropped.
 */
export function provenAheadMs(pace: GroupPace): number {
  const bounds = pace.aheadBoundsMs ?? [];
  return bounds.length === 0 ? 0 : Math.max(...bounds);
}

/**
 * The window of SERVER_AHEAD_PROVEN bounds after a listing that saw our episodes: each sighting's
 * lower bound (created − now) added; each kept bound at most every sighting's upper bound
 * (created − its hand-off: it started no sooner than we handed it over), the tightest upper bound
 * there is. One above it described the clocks before a step, and goes.
 */
function aheadBoundsAfter(previous: readonly number[] | undefined, seen: ReadonlyArray<{ sentAt: number; created: number }>, now: number): number[] | undefined {
  if (seen.length === 0) return previous === undefined ? undefined : [...previous];
  const upper = Math.min(...seen.map(({ sentAt, created }) => created - sentAt));
  const lower = seen.map(({ created }) => created - now);
  const kept = (previous ?? []).filter((bound) => bound <= upper);
  return [...kept, ...lower].slice(-SAMPLES);
}

/** The clock offsets learnt describe our clock before it jumped (clock-jump.ts CLOCK_JUMPED_FORWARD): forgotten, in every group. How many groups had some. */
export function forgetClockOffsets(state: SyncState): number {
  let groups = 0;
  for (const pace of Object.values(state.groups ?? {})) {
    if (pace.aheadBoundsMs === undefined && pace.skewsMs === undefined) continue;
    delete pace.aheadBoundsMs;
    delete pace.skewsMs;
    groups++;
  }
  return groups;
}

/**
 * The smallest recent (created − queued), a lone outlier far below the rest left out. An outlier
 * is far below zero too: a sample far below the others but near zero is the one episode of ours
 * that did not wait, where the others waited their turn in a slow queue (at 30 s per episode the
 * next one's sample is 30 s higher); leaving it out made every later wait look like none, so a
 * listing that showed one new episode of ours taught no processing time.
 */
function lowestSkewSample(pace: GroupPace): number | undefined {
  const samples = [...(pace.skewsMs ?? [])].sort((a, b) => a - b);
  while (samples.length >= 2 && (samples[0] as number) < -SKEW_OUTLIER_MS && (samples[1] as number) - (samples[0] as number) > SKEW_OUTLIER_MS) samples.shift();
  return samples[0];
}

/** CLOCK_SET_BACK's test: a time further ahead of our clock than a server's clock may be (MAX_SKEW_MS) says nothing of when, on our clock, it happened. */
export function aheadOfOurClock(t: number, now: number): boolean {
  return t > now + MAX_SKEW_MS;
}

/**
 * CLOCK_SET_BACK: when the group last moved, where its times lie ahead of our clock. A laptop whose
 * clock ran hours ahead (then put right by NTP) stamped the parts it queued, and a local server on
 * the same clock the episodes it started, hours in the future; measured against now, the group
 * then looked busy until the clock caught up, so a part the server dropped meanwhile waited hours
 * to be sent again. A time further ahead than a server's clock may be (MAX_SKEW_MS) says nothing
 * of when on our clock the group moved: its movement is the newest time changing, and the group
 * has been quiet since our clock first saw that newest time (`ahead.seenAt`). Within MAX_SKEW_MS
 * ahead it counts as now, as before. Returns the time the quiet counts from, and the mark to keep.
 */
export function quietFrom(newest: number, now: number, previous: GroupPace['ahead']): { from: number; ahead?: NonNullable<GroupPace['ahead']> } {
  if (!aheadOfOurClock(newest, now)) return { from: Math.min(newest, now) };
  const seenAt = previous !== undefined && previous.newest === newest && previous.seenAt <= now ? previous.seenAt : now;
  return { from: seenAt, ahead: { newest, seenAt } };
}

/**
 * How long a part may go unseen while the group's queue shows no movement before we call it
 * dropped: several times (queue wait + one episode's processing) as observed in this group
 * (before a queue has shown the processing time: how soon our episodes appeared at all),
 * at least MIN_PATIENCE_MS, at most the configured maximum (the only rule before we have seen
 * the group move). A slow server (minutes per episode under a real LLM) gets minutes of patience.
 */
export function patienceMs(pace: GroupPace, confirmMaxAgeMs: number): number {
  // The processing time where a queue showed it, else how soon our episodes were seen at all.
  const step = stepOf(pace) ?? median(pace.appearMs);
  if (step === undefined) return confirmMaxAgeMs;
  const wait = percentile(pace.waitsMs, 0.9) ?? 0;
  return Math.min(confirmMaxAgeMs, Math.max(MIN_PATIENCE_MS, PATIENCE_FACTOR * (wait + step)));
}

/** One episode's processing time in this group, as its recent samples show it (median). */
export function stepOf(pace: GroupPace): number | undefined {
  return median(pace.stepsMs);
}

/**
 * How long an episode of ours waits before its processing begins when the queue holds nothing of
 * ours ahead of it: a low quantile of the recent waits (the later parts of a batch wait for the
 * earlier ones, which the prediction counts by itself).
 */
export function typicalWaitOf(pace: GroupPace): number | undefined {
  return percentile(pace.waitsMs, 0.1);
}

/** How many processing-time samples the group has (the schedule trusts a prediction from several). */
export function stepSamples(pace: GroupPace): number {
  return pace.stepsMs?.length ?? 0;
}

/**
 * When the group last showed movement, on our clock: the newest `created_at` in a complete listing
 * (any client's episode: the queue is one per group), corrected for skew; never later than `now`
 * (movement in the future would keep every drop from being judged).
 */
export function lastMovement(pace: GroupPace, listing: Pick<GroupListing, 'episodes'>, now: number = Number.POSITIVE_INFINITY): number {
  let newest = 0;
  for (const e of listing.episodes) {
    const t = parseTime(e.created_at);
    if (t !== undefined && t > newest) newest = t;
  }
  return newest === 0 ? 0 : Math.min(now, newest - skewOf(pace));
}

/**
 * SET_BACK_MOVEMENT: when the group last moved within reach of our clock (not ahead of it by more
 * than a skew: `aheadOfOurClock`), corrected for skew; 0 when nothing is. A server whose clock ran
 * hours ahead and was put right (NTP on the server) left the group's episodes of before "in the
 * future": their newest time stood still while a backlog processed since, below it, kept moving,
 * and CLOCK_SET_BACK, which reads movement from the newest time alone, took the group for quiet
 * and each part waiting behind the backlog for dropped (counted: an edit sent again twice, three times with the offset learnt before the step).
 */
export function movementWithinReach(pace: GroupPace, listing: Pick<GroupListing, 'episodes'>, now: number): number {
  let newest = 0;
  for (const e of listing.episodes) {
    const t = parseTime(e.created_at);
    if (t !== undefined && t > newest && !aheadOfOurClock(t, now)) newest = t;
  }
  return newest === 0 ? 0 : Math.min(now, newest - skewOf(pace));
}

/** An episode of ours that became visible in this listing: when we queued it, and the episode. */
export interface Sighting {
  queuedAt: number;
  /**
   * Where we sent it: its place in the server's queue (the queue's order, where `queuedAt` is the
   * reply's), as a send position (send-order.ts: epoch ms, a fraction telling apart the parts sent in
   * one millisecond). Default: `queuedAt`.
   */
  sentAt?: number;
  /** Where its reply came among our hand-offs (send-order.ts `repliedPosition`), epoch ms. Default: `queuedAt`. */
  repliedAt?: number;
  episode: Episode;
}

export interface PaceInput {
  previous: GroupPace;
  listing: GroupListing;
  now: number;
  /** Our parts that became visible in this listing. */
  sightings: Sighting[];
  /** Parts of ours in this group still unseen after this listing (waiting, not re-sent or dropped). */
  stillWaiting: number;
  /** Something of ours changed state in this listing (a confirmation, a located part, a re-send). */
  progress: boolean;
  /** When the last of our still-waiting parts was queued (epoch ms), for the schedule's prediction. */
  lastQueuedAt?: number | undefined;
  /** Each still-waiting part's hand-off and reply (send-order.ts `Placed`): the parts behind the head (schedule.ts). */
  waiting?: readonly Placed[];
  /** Each part of ours in the group that was queued, its hand-off and reply: a sample's spans count the parts between two sightings. */
  placed?: readonly Placed[];
}

/** The group's pace after a listing: size and samples (schedule.ts then sets the next listing). */
export function nextPace(input: PaceInput): GroupPace {
  const { previous, listing, now } = input;
  const pace: GroupPace = { ...previous };
  // A direct query (the local server) returns a window of the group, not the group: no size.
  if (listing.direct === true) {
    // size unchanged
  } else if (listing.complete) pace.size = listing.episodes.length;
  else if (listing.episodes.length > (pace.size ?? 0)) pace.size = listing.episodes.length;

  // This look held the server's worker too (a direct query costs it milliseconds; a cheap
  // listing's wall time is our client's, not the server's).
  if (costlyListing(listing) && listing.ms !== undefined) pace.looks = [...(pace.looks ?? []), [Math.round(now - listing.ms), Math.round(now)] as [number, number]].slice(-SAMPLES);

  if (input.sightings.length > 0) {
    const seen = input.sightings.flatMap(({ queuedAt, sentAt, repliedAt, episode }) => {
      const created = parseTime(episode.created_at);
      return created === undefined ? [] : [{ queuedAt, sentAt: sentAt ?? queuedAt, repliedAt: repliedAt ?? queuedAt, created }];
    });
    delete pace.skewMs;
    pace.skewsMs = keep(pace.skewsMs, seen.map(({ queuedAt, created }) => created - queuedAt));
    const bounds = aheadBoundsAfter(pace.aheadBoundsMs, seen, now);
    if (bounds === undefined || bounds.length === 0) delete pace.aheadBoundsMs;
    else pace.aheadBoundsMs = bounds;
    const correction = clockOffsetOf(pace);
    pace.waitsMs = keep(pace.waitsMs, seen.map(({ queuedAt, created }) => Math.max(0, created - queuedAt - correction)));
    // An upper bound of the time an episode takes to appear, on our clock alone: it was queued
    // then, and is visible now.
    pace.appearMs = keep(pace.appearMs, input.sightings.map(({ queuedAt }) => Math.max(0, now - queuedAt)));
    // Waits against the quickest start seen (ahead or behind, it is the same clock offset).
    const steps = listing.complete ? processingTimes(seen, listing, lowestSkewSample(pace) ?? 0, (from, to) => heldBetween(pace.looks, from - correction, to - correction)) : [];
    // On our clock: when each seen part started.
    const started = seen.map(({ queuedAt, sentAt, repliedAt, created }) => ({ queuedAt, sent: sentAt, replied: repliedAt, startedAt: Math.round(created - correction) })).sort((a, b) => a.startedAt - b.startedAt);
    if (listing.sample === true) steps.push(...spanTimes(started, pace, input.placed ?? [], batchStart(pace, listing, seen, input.waiting ?? [])));
    pace.stepsMs = nextSteps(pace.stepsMs, steps);
    const latest = started[started.length - 1];
    if (latest !== undefined && latest.startedAt > (pace.headAt ?? Number.NEGATIVE_INFINITY)) {
      pace.headAt = latest.startedAt;
      pace.headSentAt = latest.sent;
      if (Number.isFinite(latest.replied)) pace.headRepliedAt = latest.replied;
      else delete pace.headRepliedAt;
    }
    // HEAD_PROOF: a part seen to start no later than the head is ahead of it in the queue (FIFO), and
    // so is every part whose reply came before that one was handed off (send-order.ts PROVEN_ORDER).
    if (pace.headAt !== undefined && pace.headSentAt !== undefined) {
      let proof = pace.headProofAt ?? pace.headSentAt;
      for (const s of started) if (s.startedAt <= pace.headAt) proof = Math.max(proof, s.sent);
      pace.headProofAt = proof;
    }
  }

  // A sample's cost is not what a listing of the group costs (the budget is charged either way: schedule.ts).
  if (costlyListing(listing) && listing.sample !== true) pace.listMs = keep(pace.listMs, [Math.max(0, Math.round(listing.ms ?? 0))]);
  return pace;
}

/**
 * Processing times from a sample, which shows only some of the episodes: between two of ours seen
 * (the head from an earlier look, then each seen here in start order), the worker ran every part
 * of ours queued between them, one at a time, if the later one was already queued when the earlier
 * one started (it was busy throughout). Which parts were queued between them is known only as far
 * as the order is proven (send-order.ts PROVEN_ORDER): parts in flight together with either end may
 * lie on either side of it (PROVEN_SPAN, `spanCount`). A gap whose count is not pinned is
 * lengthened to the next sighting (the unsure parts at its inner end are then inside), and left out
 * where the chain of busy gaps ends first. Each gap over n parts counts as n samples of n-th of it
 * (the window then holds the latest gaps; other clients' episodes in the queue count into the pace,
 * as they delay ours alike).
 */
function spanTimes(started: readonly Seen[], pace: GroupPace, placed: readonly Placed[], anchor?: number): number[] {
  const steps: number[] = [];
  const startOf = new Map(started.map((s) => [s.sent, s.startedAt]));
  // A head kept by a build before reply orders stands where it was handed off, as it did then.
  let from: SpanEnd | undefined = pace.headAt !== undefined && pace.headSentAt !== undefined ? { sent: pace.headSentAt, replied: pace.headRepliedAt ?? pace.headSentAt, startedAt: pace.headAt } : undefined;
  let last = from;
  const first = started[0];
  if (anchor !== undefined && first !== undefined) {
    // No head of this batch yet: its first part started when it was sent (batchStart says when
    // that holds). The parts queued before the first one seen ran one at a time since, if the batch
    // was all queued before the worker could reach its second part.
    from = { sent: anchor, replied: Number.NEGATIVE_INFINITY, startedAt: anchor, anchor: true };
    last = from;
    const most = spanCount(placed, from, first, startOf).most;
    const span = first.startedAt - anchor - heldBetween(pace.looks, anchor, first.startedAt);
    if (!(most >= 1 && span > 0 && first.queuedAt <= anchor + span / most)) from = undefined;
  }
  for (const b of started) {
    // Busy from the last one seen to b: b was queued when it started (from the batch's start: checked above).
    const busy = last !== undefined && (last.anchor === true || (b.queuedAt <= last.startedAt && b.startedAt > last.startedAt));
    if (from === undefined || last === undefined || !busy) {
      // The worker may have been idle before b (or b is the first): a new chain of busy gaps starts at b.
      if (last === undefined || b.startedAt > last.startedAt) from = last = b;
      continue;
    }
    last = b;
    const count = spanCount(placed, from, b, startOf);
    if (!pinned(count)) continue;
    const span = b.startedAt - from.startedAt - heldBetween(pace.looks, from.startedAt, b.startedAt);
    if (span > 0) steps.push(...spanSamples(span, count.guess));
    from = b;
  }
  return steps;
}

/** A part of ours seen in this listing: when it was queued (its reply), its hand-off and reply positions, and when it started (our clock). */
interface Seen extends Placed {
  queuedAt: number;
  startedAt: number;
}

/** One end of a span: a part of ours with its start, or the batch's first send (`anchor`: every part sent since is after it). */
interface SpanEnd extends Placed {
  startedAt: number;
  anchor?: true;
}

/**
 * How many of ours the worker ran from `from`'s start to `to`'s start (`from` itself, where it is a
 * part, and every part queued between them), as far as the order is proven: at least `least`, at
 * most `most`; `guess`, by the order they were handed off in (within the two: a part proven ahead
 * of another was handed off before it). A part seen in this listing is placed by its start (exact:
 * the queue is FIFO); any other by PROVEN_ORDER against both ends; one proven on neither side of
 * an end it was in flight with counts only into `most`, and into `guess` by its hand-off.
 */
function spanCount(placed: readonly Placed[], from: SpanEnd, to: SpanEnd, startOf: ReadonlyMap<number, number>): { least: number; most: number; guess: number } {
  const own = from.anchor === true ? 0 : 1;
  let least = own;
  let most = own;
  let guess = own;
  const afterFrom = (x: Placed) => (from.anchor === true ? x.sent >= from.sent : provenBefore(from, x));
  const beforeFrom = (x: Placed) => (from.anchor === true ? x.sent < from.sent : provenBefore(x, from));
  for (const x of placed) {
    // The ends themselves (the batch's first part is not an end: it ran in the span from the batch's start).
    if ((x.sent === from.sent && from.anchor !== true) || x.sent === to.sent) continue;
    const start = startOf.get(x.sent);
    if (start !== undefined) {
      if (start > from.startedAt && start < to.startedAt) {
        least++;
        most++;
        guess++;
      }
      continue;
    }
    if (beforeFrom(x) || provenBefore(to, x)) continue;
    most++;
    if (afterFrom(x) && provenBefore(x, to)) least++;
    if ((from.anchor === true ? x.sent >= from.sent : x.sent > from.sent) && x.sent < to.sent) guess++;
  }
  return { least, most, guess: Math.min(most, Math.max(least, guess)) };
}

/**
 * PROVEN_SPAN: a span counts where proven order pins how many parts it covers: at least one, and
 * the most it can be at most SPAN_SLACK times the least. Within those bounds the order of the
 * hand-offs is the guess (the queue's own order wherever the requests did not overtake one another).
 * Thirty parts sent at once, one of them seen, cover 1 to 30: no sample (it read a 100 ms pace as
 * 10 ms, or as 171 ms). Four at a time (a span of ten covers 7 to 13 or so) is pinned.
 */
const SPAN_SLACK = 2;

function pinned(count: { least: number; most: number }): boolean {
  return count.least >= 1 && count.most <= count.least * SPAN_SLACK;
}

/**
 * How long our looks held the server's worker between two times on our clock: the overlap of each
 * recent look with [from, to] (a processing time measured across a look is the episode's own plus
 * the look, and the prediction is of the episodes' own: the look that confirms comes after them).
 */
function heldBetween(looks: ReadonlyArray<readonly [number, number]> | undefined, from: number, to: number): number {
  let held = 0;
  for (const [start, end] of looks ?? []) held += Math.max(0, Math.min(end, to) - Math.max(start, from));
  return held;
}

/** A span over n parts (a middle of two counts may be a half): about n samples of its n-th (at most the window's worth). */
function spanSamples(spanMs: number, n: number): number[] {
  return Array<number>(Math.min(Math.max(1, Math.round(n)), SAMPLES)).fill(Math.round(spanMs / n));
}

/**
 * Where a batch's first sample may count its spans from: when its first part was sent, where the
 * worker was free then. Undefined where a head of this batch was seen already (one that started
 * after the batch was sent: spans count from it), or where the sample shows anyone else's episode
 * started since the batch was sent (the worker ran it between ours; a sample holds a tenth of the
 * group, so several such show). One
 * still running when the batch came lengthens the span by at most its own processing time. Unlike
 * a span between two heads, this one spans both clocks (our send, the server's start): a server
 * clock behind ours by less than the skew correction shows shortens it by that much over the whole
 * span (d / k per part), as it shortens the queue waits (`waitsMs`) by d itself.
 */
function batchStart(pace: GroupPace, listing: GroupListing, seen: ReadonlyArray<{ sentAt: number; created: number }>, waiting: readonly Placed[]): number | undefined {
  let first = Number.POSITIVE_INFINITY;
  for (const { sent } of waiting) first = Math.min(first, sent);
  for (const s of seen) first = Math.min(first, s.sentAt);
  // A head that started after the batch was sent is this batch's own: spans count from it.
  if (!Number.isFinite(first) || (pace.headAt !== undefined && pace.headAt >= first)) return undefined;
  const ours = new Set(seen.map((s) => s.created));
  const correction = clockOffsetOf(pace);
  for (const e of listing.episodes) {
    const created = parseTime(e.created_at);
    if (created !== undefined && !ours.has(created) && created - correction > first) return undefined;
  }
  return first;
}

/**
 * One episode's processing time, where the group shows it: B, ours, had to wait in the queue, so
 * the worker was busy from before B was queued until B started; the episode that started last
 * before B (anyone's) ran right up to B's start, and the gap between their starts is its
 * processing. "B waited" is told on one clock where possible: A, ours too, started right before
 * it, and B started later after A than it was queued after A (differences of the server's clock
 * and of ours, so skew does not enter). Where B's reply came back before A's (several sends at
 * once), B was in the queue before A's reply, which comes before A is done: it waited too. Else
 * B's own wait, skew-corrected, is clearly above zero. Needs a complete listing, or an episode
 * between them may be missing.
 */
function processingTimes(seen: Array<{ queuedAt: number; created: number }>, listing: GroupListing, skew: number, held: (from: number, to: number) => number): number[] {
  const starts = listing.episodes.map((e) => parseTime(e.created_at)).filter((t): t is number => t !== undefined).sort((a, b) => a - b);
  const byStart = new Map(seen.map((s) => [s.created, s]));
  const steps: number[] = [];
  for (const b of seen) {
    const before = lastBelow(starts, b.created);
    if (before === undefined) continue;
    const a = byStart.get(before);
    const gap = b.created - before;
    // The episode's own processing: our looks while it ran held it up (`looks`).
    const own = gap - held(before, b.created);
    if (own <= 0) continue;
    if (a !== undefined) {
      if (gap > b.queuedAt - a.queuedAt + 1) steps.push(own);
    } else if (b.created - b.queuedAt - skew > WAITED_MS) {
      steps.push(own);
    }
  }
  return steps;
}
/** A wait this long (skew-corrected) means the queue was busy when the episode arrived. */
const WAITED_MS = 50;

/** PACE_CHANGED needs this many new processing times (a span over n parts counts n): one episode's may be an outlier (a long note). */
const CHANGE_EVIDENCE = 3;
/** PACE_CHANGED: new processing times this many times off the remembered ones, either way (a graph's growth moves them by a fifth over a batch). */
const CHANGE_FACTOR = 2;

/**
 * The window of processing times after a look adds `added`. PACE_CHANGED: where the new ones
 * cover CHANGE_EVIDENCE episodes and their median is more than CHANGE_FACTOR times off the
 * remembered median, either way, they replace the remembered ones: those describe the server as it
 * was (a rate limit since lifted or hit, another model, another build behind the address), and the
 * window of SAMPLES would follow only after a dozen more episodes, the rest of the batch predicted
 * at the old pace (20 notes three times faster than remembered waited for the old end, 2.9x the
 * floor; test/sync/schedule.test.ts). The schedule then trusts the new pace as any pace from that
 * many samples.
 */
function nextSteps(previous: number[] | undefined, added: number[]): number[] | undefined {
  const before = median(previous);
  const now = median(added);
  if (before !== undefined && now !== undefined && added.length >= CHANGE_EVIDENCE && Math.max(now / before, before / now) > CHANGE_FACTOR) return added.slice(-SAMPLES);
  return keep(previous, added);
}

function keep(previous: number[] | undefined, added: number[]): number[] | undefined {
  if (added.length === 0) return previous;
  return [...(previous ?? []), ...added].slice(-SAMPLES);
}

export function parseTime(iso: string | null | undefined): number | undefined {
  if (typeof iso !== 'string' || iso === '') return undefined;
  const t = Date.parse(iso);
  return Number.isFinite(t) ? t : undefined;
}

function lastBelow(sorted: number[], value: number): number | undefined {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((sorted[mid] as number) < value) lo = mid + 1;
    else hi = mid;
  }
  return lo === 0 ? undefined : sorted[lo - 1];
}

export function median(xs: number[] | undefined): number | undefined {
  return percentile(xs, 0.5);
}

function percentile(xs: number[] | undefined, p: number): number | undefined {
  if (xs === undefined || xs.length === 0) return undefined;
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
}

function isCount(v: unknown): v is number {
  return Number.isInteger(v) && (v as number) >= 0;
}

function isTime(v: unknown): v is number {
  return typeof v === 'number' && Number.isFinite(v) && v >= 0;
}

function isSamples(v: unknown): v is number[] {
  return Array.isArray(v) && v.every((x) => typeof x === 'number' && Number.isFinite(x) && x >= 0);
}

function isLooks(v: unknown): v is Array<[number, number]> {
  return Array.isArray(v) && v.every((x) => Array.isArray(x) && x.length === 2 && isCount(x[0]) && isCount(x[1]) && (x[0] as number) <= (x[1] as number));
}

function isSigned(v: unknown): v is number[] {
  return Array.isArray(v) && v.every((x) => typeof x === 'number' && Number.isFinite(x));
}

/**
 * ABSENCE_SETTLED: whether an episode's absence from the graph is a deletion, not an edit in flight
 * (pull/decide.ts for a note deleted elsewhere; sync/copy-hold.ts DELETED_ON_PURPOSE for a copy's
 * look). A note's absence is a deletion elsewhere: the group's queue has been
 * quiet for its patience since this machine first saw the note missing (`missingSince`; none
 * yet: it starts now), or the absence has lasted the configured maximum. The graph shows nothing
 * of a version still queued, so time is the only evidence, read as the sync reads it for its own
 * parts (sync/reconcile.ts, a quiet queue): the patience is what the group's queue takes (waits
 * and processing, learned by the sync), counted from the last movement, since an edit elsewhere
 * may wait behind others (a batch of edits, processed one after the other) for longer than one
 * patience while the queue keeps moving. A start in the future (a clock set back) starts again
 * now, and movement in the future counts as now: never waited for forever.
 */
export function absenceSettled(missingSince: string | undefined, now: number, patienceMs: number, movedAt = 0, maxMs = Number.POSITIVE_INFINITY): { settled: boolean; since: number } {
  const seen = Date.parse(missingSince ?? '');
  const since = Number.isFinite(seen) && seen <= now ? seen : now;
  const quietSince = Math.max(since, Math.min(movedAt, now));
  return { settled: now - quietSince >= patienceMs || now - since >= maxMs, since };
}
