/**
 * A simulated Graphiti queue for the listing schedule (sync/schedule.ts): one group, one episode at
 * a time, a listing that costs the server its time. Shared by test/sync/schedule.test.ts and the
 * schedule bench (bench/schedule-bench.ts), so the figures the README gives are the tests' own.
 */
import type { Episode } from '../../src/lib/graphiti/graphiti.js';
import type { GroupPace } from '../../src/lib/state/state.js';
import type { Sighting } from '../../src/lib/sync/pace.js';
import { sampleCap, sampleDue } from '../../src/lib/sync/pace.js';
import { afterSend, LISTING_SHARE, paceAfterListing } from '../../src/lib/sync/schedule.js';
import type { Placed } from '../../src/lib/sync/send-order.js';
import { mulberry32 } from './prng.js';

export const T0 = Date.parse('2026-03-01T12:00:00.000Z');

/** Parts sent one at a time at these send positions, each answered before the next went out: the order is proven (sync/send-order.ts). */
export function oneAtATime(sent: readonly number[]): Placed[] {
  return sent.map((t) => ({ sent: t, replied: t }));
}

export interface Simulated {
  listings: number;
  listingMs: number;
  /** When the listing that saw the last of ours ended, from the first send. */
  confirmedAfterMs: number;
  floorMs: number;
}

/**
 * `count` episodes of ours queued 10 ms apart at T0 into a group whose worker takes `stepMs` each
 * (created_at = start of processing, visible once processed); every listing costs `listMs` of the
 * server's time, which delays the queue by as much (the server is shared). The first listing
 * comes from `afterSend`, every next one from the pace the previous one left.
 */
export function simulate(count: number, stepMs: number, listMs: number, start: GroupPace = {}, foreign = listMs >= 100 ? 10_000 : 0): Simulated {
  const queuedAt = (i: number) => T0 + i * 10;
  let serverLost = 0; // processing time taken by listings so far
  const startOf = (i: number, lost: number) => T0 + i * stepMs + lost;
  const episodes: Array<Episode & { visibleAt: number }> = [];
  let pace = afterSend(start, T0 + count * 10, count, queuedAt(count - 1));
  let listings = 0;
  let seen = 0;
  let now = T0;
  for (let guard = 0; guard < 1_000 && seen < count; guard++) {
    now = Math.max(now, pace.nextListingAt ?? now);
    // Episodes processed before this listing.
    while (episodes.length < count) {
      const i = episodes.length;
      const started = startOf(i, serverLost);
      if (started + stepMs > now) break;
      episodes.push({ uuid: `u${i}`, name: `n${i}`, content: '', created_at: new Date(started).toISOString(), source: 'text', source_description: `[gms:${i}]`, group_id: 'g', visibleAt: started + stepMs });
    }
    listings++;
    serverLost += listMs;
    now += listMs;
    const sightings: Sighting[] = episodes.slice(seen).map((episode, k) => ({ queuedAt: queuedAt(seen + k), episode }));
    const progress = sightings.length > 0;
    seen = episodes.length;
    pace = paceAfterListing({ previous: pace, listing: { episodes, complete: true, requests: 1, listed: foreign + episodes.length, ms: listMs }, now, sightings, stillWaiting: count - seen, progress, lastQueuedAt: queuedAt(count - 1) });
  }
  return { listings, listingMs: listings * listMs, confirmedAfterMs: now - T0, floorMs: count * stepMs };
}

export interface BusyQueue {
  count: number;
  /** Processing time of our i-th episode (Graphiti's grows with the graph). */
  stepMs: (i: number) => number;
  /** Other clients' episodes in the group. */
  foreign: number;
  /** What listing the whole group costs the server; a listing of part of it costs its share. */
  fullListMs: number;
  /** The pace the run's first listing (before sending) left. */
  start: GroupPace;
}

export interface BusyRun extends Simulated {
  full: number;
  samples: number;
  /** When the server had processed the last of ours, from the first send. */
  doneMs: number;
}

/**
 * A busy group as the real server lists it: every episode has a random uuid, `get_episodes` returns
 * the top of the uuid order up to its cap, and a listing costs the server in proportion to what
 * it returns. The looks follow the schedule, a sample where it asks for one (listing.ts).
 */
export function simulateBusy(q: BusyQueue, seed = 1): BusyRun {
  const random = mulberry32(seed);
  // Four sends at a time, as the engine sends: the server queues them in the order they were sent,
  // and the replies (our `queuedAt`) come back up to 40 ms later, in any order.
  const sentAt = (i: number) => T0 + i * 10;
  const replies = Array.from({ length: q.count }, (_, i) => sentAt(i) + 1 + Math.floor(40 * random()));
  const queuedAt = (i: number) => replies[i] as number;
  // What the sync knows of that order (sync/send-order.ts PROVEN_ORDER): each part's hand-off and reply.
  const placed: Placed[] = Array.from({ length: q.count }, (_, i) => ({ sent: sentAt(i), replied: queuedAt(i) }));
  const foreign = Array.from({ length: q.foreign }, () => random());
  const ourUuid = Array.from({ length: q.count }, () => random());
  const started: number[] = [];
  const visibleAt: number[] = [];
  // The worker: the next episode starts when the one before is done; a listing holds up the one in progress.
  let next = { i: 0, start: T0, extra: 0 };
  const advance = (to: number) => {
    while (next.i < q.count) {
      const start = Math.max(next.start, sentAt(next.i));
      const end = start + q.stepMs(next.i) + next.extra;
      if (end > to) {
        next = { ...next, start };
        return;
      }
      started.push(start);
      visibleAt.push(end);
      next = { i: next.i + 1, start: end, extra: 0 };
    }
  };
  const lastReply = Math.max(...replies);
  let pace = afterSend(q.start, lastReply, q.count, lastReply);
  let now = lastReply;
  const seen = new Set<number>();
  let full = 0;
  let samples = 0;
  let listingMs = 0;
  for (let guard = 0; guard < 1_000 && seen.size < q.count; guard++) {
    now = Math.max(now, pace.nextListingAt ?? now);
    advance(now);
    const sample = sampleDue(pace, now);
    const processed = started.length;
    const cap = sample ? sampleCap(pace.size as number) : Number.POSITIVE_INFINITY;
    // The top `cap` of the uuid order among everything visible.
    const all = [...foreign.map((u) => ({ u, i: -1 })), ...ourUuid.slice(0, processed).map((u, i) => ({ u, i }))].sort((a, b) => b.u - a.u).slice(0, cap);
    const cost = (q.fullListMs * all.length) / (q.foreign + q.count);
    if (sample) samples++;
    else full++;
    listingMs += cost;
    if (next.i < q.count && Math.max(next.start, sentAt(next.i)) <= now) next.extra += cost;
    now += cost;
    const episodes: Episode[] = all.map(({ i }) => (i < 0 ? { uuid: 'f', name: 'f', content: '', created_at: new Date(T0 - 86_400_000).toISOString(), source: 'text', source_description: '', group_id: 'g' } : { uuid: `u${i}`, name: `n${i}`, content: '', created_at: new Date(started[i] as number).toISOString(), source: 'text', source_description: `[gms:${i}]`, group_id: 'g' }));
    const sightings: Sighting[] = [];
    for (const { i } of all) {
      if (i < 0 || seen.has(i)) continue;
      seen.add(i);
      sightings.push({ queuedAt: queuedAt(i), sentAt: sentAt(i), repliedAt: queuedAt(i), episode: episodes.find((e) => e.uuid === `u${i}`) as Episode });
    }
    const waiting = placed.filter((_, i) => !seen.has(i));
    pace = paceAfterListing({
      previous: pace,
      listing: { episodes, complete: !sample, requests: 1, listed: all.length, ms: cost, ...(sample ? { sample: true } : {}) },
      now,
      sightings,
      stillWaiting: waiting.length,
      progress: sightings.length > 0,
      lastQueuedAt: lastReply,
      waiting,
      placed,
    });
  }
  let floorMs = 0;
  for (let i = 0; i < q.count; i++) floorMs += q.stepMs(i);
  return { listings: full + samples, full, samples, listingMs, confirmedAfterMs: now - T0, floorMs, doneMs: (visibleAt[q.count - 1] as number) - T0 };
}

/**
 * A first batch in a busy group, as issue 43's grid runs it: `count` notes of `stepMs` each (the
 * last 15 % longer than the first, as the graph grows; each ±`spread` from the one before), among
 * `foreign` other episodes whose full listing costs `fullListMs`; the run's first listing (before
 * sending) left the group's size and cost and drew on the budget; the pace is unknown.
 */
export function firstBatch(count: number, stepMs: number, fullListMs: number, seed: number, options: { foreign?: number; spread?: number } = {}): BusyRun {
  return driftBatch(count, stepMs, GROWTH, fullListMs, seed, options);
}

/** Graphiti's time per episode grows with the graph: the last of a batch takes 15 % longer than the first. */
const GROWTH = (i: number, count: number): number => 1 + (0.15 * i) / count;

/** A batch's processing times: episode i takes `stepMs` × `shape(i, count)`, ±`spread` (uniform draws seeded by `jitterSeed`). */
function batchSteps(count: number, stepMs: number, shape: (i: number, count: number) => number, spread: number, jitterSeed: number): number[] {
  const jitter = mulberry32(jitterSeed);
  return Array.from({ length: count }, (_, i) => stepMs * shape(i, count) * (1 - spread + 2 * spread * jitter()));
}

/** What a first run's listing before sending left: the group's size and cost, and the budget it drew on. */
function afterFirstListing(foreign: number, fullListMs: number): GroupPace {
  return { size: foreign, listMs: [fullListMs], budgetAt: T0 - (2 * fullListMs) / LISTING_SHARE };
}

/**
 * A later batch in a busy group: the group's pace remembered from earlier batches (SAMPLES-full
 * of `rememberedStepMs`), the server now taking `stepMs` per episode (a rate limit lifted or hit,
 * another model, another build behind the address: or the same, `stepMs` = `rememberedStepMs`).
 * No listing before sending (the state knows the group), so the budget's reserve is whole.
 */
export function laterBatch(count: number, rememberedStepMs: number, stepMs: number, fullListMs: number, seed: number, options: { foreign?: number; spread?: number } = {}): BusyRun {
  const foreign = options.foreign ?? 10_000;
  const steps = batchSteps(count, stepMs, GROWTH, options.spread ?? 0.1, 900 + seed);
  const start: GroupPace = { size: foreign, listMs: Array<number>(5).fill(fullListMs), budgetAt: T0 - 10_000_000, stepsMs: Array<number>(24).fill(rememberedStepMs), waitsMs: Array<number>(24).fill(0), skewsMs: Array<number>(24).fill(0) };
  return simulateBusy({ count, stepMs: (i) => steps[i] as number, foreign, fullListMs, start }, seed);
}

/**
 * A first batch whose pace drifts as it runs (an LLM's latency through the day, the machine's load):
 * episode i of `count` takes `stepMs` × `shape(i, count)`, ±`spread` each (uniform, `seed`'s own
 * draws), in a busy group of `foreign` others whose full listing costs `fullListMs`; the run's first
 * listing (before sending) left the group's size and cost and drew on the budget.
 */
export function driftBatch(count: number, stepMs: number, shape: (i: number, count: number) => number, fullListMs: number, seed: number, options: { foreign?: number; spread?: number; jitterSeed?: number } = {}): BusyRun {
  const foreign = options.foreign ?? 10_000;
  const steps = batchSteps(count, stepMs, shape, options.spread ?? 0.1, (options.jitterSeed ?? 300) + seed);
  return simulateBusy({ count, stepMs: (i) => steps[i] as number, foreign, fullListMs, start: afterFirstListing(foreign, fullListMs) }, seed);
}
