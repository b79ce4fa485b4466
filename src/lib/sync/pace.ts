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
 * Pure functions over plain data; `reconcile.ts` computes the new pace, the ledger stores it.
 */
import type { Episode } from '../graphiti/graphiti.js';
import { nextBackoff } from '../util/backoff.js';
import type { GroupPace, SyncState } from '../state/state.js';

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
/** Back-off between listings that find our episodes still waiting. */
const MIN_BACKOFF_MS = 250;
const MAX_BACKOFF_MS = 5 * 60_000;
/** Patience is this many times (queue wait + one episode's processing). */
const PATIENCE_FACTOR = 4;

/** One group's listing: the episodes, and whether they are all the group holds. */
export interface GroupListing {
  episodes: Episode[];
  /** True when the server returned fewer than asked: nothing of the group is missing from it. */
  complete: boolean;
  /** get_episodes calls and episodes received, for the run's report and the benchmark. */
  requests: number;
  listed: number;
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
  if (typeof raw.skewMs === 'number' && Number.isFinite(raw.skewMs)) pace.skewMs = raw.skewMs;
  return pace;
}

/** A listing of this group is due: never listed with something waiting, or its back-off has passed. */
export function listingDue(pace: GroupPace, now: number): boolean {
  return pace.nextListingAt === undefined || now >= pace.nextListingAt;
}

/** How many episodes to ask for first: the group's last known size with room to grow, else a guess from ours. */
export function firstCap(pace: GroupPace, ours: number): number {
  const guess = pace.size === undefined ? Math.max(MIN_LISTING, ours * 2 + 100) : Math.ceil(pace.size * 1.1) + ours + 100;
  return Math.min(MAX_LISTING, guess);
}

export function nextCap(cap: number): number {
  return Math.min(MAX_LISTING, cap * LISTING_GROWTH);
}

/**
 * The server clock minus ours, as far as our own episodes show it: an episode's `created_at` is
 * when the server started processing it, never before we queued it, so the smallest
 * (created − queued) we saw bounds how far behind the server's clock is. Ahead is harmless (we
 * only wait longer), so only a negative skew is corrected.
 */
function skewOf(pace: GroupPace): number {
  return Math.min(0, pace.skewMs ?? 0);
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
  const step = median(pace.stepsMs) ?? median(pace.appearMs);
  if (step === undefined) return confirmMaxAgeMs;
  const wait = percentile(pace.waitsMs, 0.9) ?? 0;
  return Math.min(confirmMaxAgeMs, Math.max(MIN_PATIENCE_MS, PATIENCE_FACTOR * (wait + step)));
}

/**
 * When the group last showed movement, on our clock: the newest `created_at` in a complete listing
 * (any client's episode: the queue is one per group), corrected for skew.
 */
export function lastMovement(pace: GroupPace, listing: GroupListing): number {
  let newest = 0;
  for (const e of listing.episodes) {
    const t = parseTime(e.created_at);
    if (t !== undefined && t > newest) newest = t;
  }
  return newest === 0 ? 0 : newest - skewOf(pace);
}

/** An episode of ours that became visible in this listing: when we queued it, and the episode. */
export interface Sighting {
  queuedAt: number;
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
}

/** The group's pace after a listing: size, samples and the next listing time. */
export function nextPace(input: PaceInput): GroupPace {
  const { previous, listing, now } = input;
  const pace: GroupPace = { ...previous };
  if (listing.complete) pace.size = listing.episodes.length;
  else if (listing.episodes.length > (pace.size ?? 0)) pace.size = listing.episodes.length;

  if (input.sightings.length > 0) {
    const seen = input.sightings.flatMap(({ queuedAt, episode }) => {
      const created = parseTime(episode.created_at);
      return created === undefined ? [] : [{ queuedAt, created }];
    });
    for (const { queuedAt, created } of seen) pace.skewMs = Math.min(pace.skewMs ?? 0, created - queuedAt);
    const correction = Math.min(0, pace.skewMs ?? 0);
    pace.waitsMs = keep(pace.waitsMs, seen.map(({ queuedAt, created }) => Math.max(0, created - queuedAt - correction)));
    // An upper bound of the time an episode takes to appear, on our clock alone: it was queued
    // then, and is visible now.
    pace.appearMs = keep(pace.appearMs, input.sightings.map(({ queuedAt }) => Math.max(0, now - queuedAt)));
    if (listing.complete) pace.stepsMs = keep(pace.stepsMs, processingTimes(seen, listing));
  }

  if (input.stillWaiting === 0) {
    delete pace.nextListingAt;
    delete pace.backoffMs;
  } else {
    const base = clamp((median(pace.stepsMs) ?? 2 * MIN_BACKOFF_MS) / 2, MIN_BACKOFF_MS, 30_000);
    const backoff = input.progress ? base : nextBackoff(pace.backoffMs, { initialMs: base, maxMs: MAX_BACKOFF_MS });
    pace.backoffMs = Math.round(backoff);
    pace.nextListingAt = now + pace.backoffMs;
  }
  return pace;
}

/**
 * One episode's processing time, where the group shows it: two of ours, A then B, queued in that
 * order, started one right after the other (no episode of anyone started between them), and B
 * started later after A than it was queued after A: B waited for A, so the gap between their
 * starts is A's processing. Differences of the server's clock and differences of ours only, so
 * clock skew does not enter. Needs a complete listing, or an episode between them may be missing.
 */
function processingTimes(seen: Array<{ queuedAt: number; created: number }>, listing: GroupListing): number[] {
  const starts = listing.episodes.map((e) => parseTime(e.created_at)).filter((t): t is number => t !== undefined).sort((a, b) => a - b);
  const byStart = new Map(seen.map((s) => [s.created, s]));
  const steps: number[] = [];
  for (const b of seen) {
    const before = lastBelow(starts, b.created);
    const a = before === undefined ? undefined : byStart.get(before);
    if (a === undefined || a.queuedAt > b.queuedAt) continue;
    const gap = b.created - a.created;
    if (gap > b.queuedAt - a.queuedAt + 1) steps.push(gap);
  }
  return steps;
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

function median(xs: number[] | undefined): number | undefined {
  return percentile(xs, 0.5);
}

function percentile(xs: number[] | undefined, p: number): number | undefined {
  if (xs === undefined || xs.length === 0) return undefined;
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
}

function clamp(x: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, x));
}

function isCount(v: unknown): v is number {
  return Number.isInteger(v) && (v as number) >= 0;
}

function isSamples(v: unknown): v is number[] {
  return Array.isArray(v) && v.every((x) => typeof x === 'number' && Number.isFinite(x) && x >= 0);
}
