/**
 * The order our parts went to the server in (SEND_ORDER). Graphiti's queue is FIFO per group, so a
 * part handed over before another is processed before it: a pace sample's head (the latest-started
 * part of ours it shows) is processed after every part sent before it and before every part sent
 * after it (schedule.ts `behindHead`), and the parts sent between two sightings are what the worker
 * ran between their starts (pace.ts `spanTimes`). The send time (`sentAt`, a millisecond) cannot
 * tell that order where several parts share a millisecond: at a high `concurrency` with a fast
 * server dozens do. A part sent in the head's millisecond but after it was counted as processed and
 * a span over a millisecond counted every part sent in it: the end looked near early, and a busy
 * group got full listings for nothing (test/sync/wait-schedule.test.ts).
 *
 * So each part gets a send order (`EpisodeRef.sendOrder`) when its request is handed to the
 * transport (mcp/client.ts `onDispatch`), not when its send starts: between the two lie the
 * session's handshake and tool discovery, which the first parts of a run wait for together, and a
 * retry's back-off (mcp/retry.ts), after which a part goes out behind parts that started after it.
 * The hand-off is the last step whose order we control; the connections and the server's handling
 * of concurrent requests decide the rest. Requests in flight together may reach its queue in another
 * order: the test server, sent 30 at once, took them one for one with the requests each reply let
 * out next, and a span over parts in flight together then counts parts that ran after it (a 100 ms
 * pace read as 10 ms). The send order is the best guess for those, and exact for the others.
 *
 * The order is a hybrid clock, not a bare counter: the hand-off's millisecond times
 * ORDERS_PER_MS, and always above the last order this process gave. A wait spans runs (the hooks'
 * worker lists what `sync --wait` sent, in another process, and the head a look found is kept in the
 * group's pace), so orders from different runs must compare as their hand-offs did; runs of one
 * state take turns (its lock), so the clock orders them, and within a run the counter does. So
 * nothing but each part's own order needs keeping for the next run.
 *
 * Where a part stands (`sentPosition`) is its order read back as epoch ms with a fraction: the
 * hand-off's millisecond, and its place among the hand-offs in it. It is a time as well as an
 * order (the pace compares it with processing starts). A part with no order (sent by a build before
 * this one, or whose reply a killed run never recorded) stands at its send time, the start of its
 * millisecond: sent no later than the head of its millisecond, as every such part counted before.
 *
 * `sentAt` stays what it was, the send's start: drop evidence compares it with reply times.
 */
import { sentTime, type EpisodeRef } from '../state/state.js';

/**
 * Orders per millisecond of the hand-off time, a power of two: an order read back as ms with a
 * fraction (`sentPosition`) is then exact in a double until the year 2248. More hand-offs than this
 * in one millisecond run the order ahead of the clock, still in order.
 */
const ORDERS_PER_MS = 1024;

/** The last order this process gave (one sequence per process, whatever runs in it: watch's passes, a test's runs). */
let lastOrder = 0;

/** The send order of a request handed to the transport at `now` (epoch ms): above every earlier one in this process. */
export function nextSendOrder(now: number): number {
  lastOrder = Math.max(lastOrder + 1, Math.floor(now) * ORDERS_PER_MS);
  return lastOrder;
}

/**
 * Where a sent part stands in the order ours went to the server, as epoch ms: its send order read
 * back (the hand-off's millisecond, and a fraction for its place in it), or without one its send
 * time. NaN for a part never sent.
 */
export function sentPosition(ref: Pick<EpisodeRef, 'sendOrder' | 'sentAt' | 'queuedAt'>): number {
  const order = ref.sendOrder;
  // The state is a hint here: anything but an order is ignored (and one with no send it came with).
  if (ref.sentAt !== undefined && Number.isSafeInteger(order) && (order as number) > 0) return (order as number) / ORDERS_PER_MS;
  return sentTime(ref);
}
