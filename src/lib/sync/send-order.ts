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
 * The order is the send's millisecond (`sentAt`) times ORDERS_PER_MS plus the hand-off's rank among
 * the parts whose send started in that millisecond: parts of different milliseconds compare by send
 * time, as before, and within one by hand-off (so a part a retry held back goes behind those of its
 * own millisecond, not behind later ones: drop evidence counts it from its send's start too). Where a part stands (`sentPosition`) is its order read
 * back as epoch ms, a fraction of its own millisecond added: a time as well as an order (the pace
 * compares it with processing starts), which no clock set back can move. A wait spans runs (the
 * hooks' worker lists what `sync --wait` sent, in another process, and the head a look found is kept
 * in the group's pace as its position), so each part keeps its order in the state; the counter need
 * not survive the run, as runs of one state take turns (its lock) and no two share a millisecond. A
 * part with no order (sent by a build before this one, or whose reply a killed run never recorded)
 * stands at the start of its millisecond: no later than the head of its millisecond, as every such
 * part counted before.
 *
 * `sentAt` stays what it was, the send's start: drop evidence compares it with reply times.
 */
import { sentTime, type EpisodeRef } from '../state/state.js';

/**
 * Ranks per millisecond, a power of two: an order read back as ms with a fraction (`sentPosition`) is
 * then exact in a double until the year 2248. Hand-offs past the last rank share it (a tie counts as
 * sent no later, the rule before send orders).
 */
const ORDERS_PER_MS = 1024;

/** Hand-offs so far per send millisecond, in this process (a part's may come long after its send started: a retry). */
const handedOff = new Map<number, number>();
/** Milliseconds remembered: a send whose millisecond was forgotten ranks from 0 again, tied with the first of it. */
const REMEMBERED_MS = 4_096;

/** The send order of a part whose send started at `sentAt` (epoch ms), handed to the transport now: after every earlier hand-off of its millisecond. */
export function nextSendOrder(sentAt: number): number {
  const ms = Math.floor(sentAt);
  const rank = handedOff.get(ms) ?? 0;
  handedOff.delete(ms);
  handedOff.set(ms, rank + 1);
  if (handedOff.size > REMEMBERED_MS) handedOff.delete(handedOff.keys().next().value as number);
  return ms * ORDERS_PER_MS + Math.min(rank, ORDERS_PER_MS - 1);
}

/**
 * Where a sent part stands in the order ours went to the server, as epoch ms: its send time with a
 * fraction for its hand-off's rank in that millisecond, or without an order its send time. NaN for a
 * part never sent.
 */
export function sentPosition(ref: Pick<EpisodeRef, 'sendOrder' | 'sentAt' | 'queuedAt'>): number {
  const sent = sentTime(ref);
  const order = ref.sendOrder;
  // The state is a hint here: anything but an order of this very send is ignored.
  if (ref.sentAt !== undefined && Number.isSafeInteger(order) && Math.floor((order as number) / ORDERS_PER_MS) === sent) return (order as number) / ORDERS_PER_MS;
  return sent;
}
