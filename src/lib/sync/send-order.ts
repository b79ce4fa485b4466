/**
 * The order our parts went to the server in (SEND_ORDER), as far as it is known. Graphiti's queue is
 * FIFO per group, so a part queued before another is processed before it: a pace sample's head (the
 * latest-started part of ours it shows) is processed after every part queued before it and before
 * every part queued after it (schedule.ts `behindHead`), and the parts queued between two sightings
 * are what the worker ran between their starts (pace.ts `spanTimes`). The send time (`sentAt`, a millisecond) cannot
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
 * out next (the 7th handed off was the 12th queued), and a span over parts in flight together then
 * counted parts that ran after it or left out parts that ran in it (a 100 ms pace read as 10 ms, or
 * as 171 ms: a 60-note batch at concurrency 64 then ended at 8.7 s where its server was done at 6 s).
 * So the order is only taken where it is proven (PROVEN_ORDER, `provenBefore`): a part is ahead of
 * another in the queue where its reply came back before the other was handed off. Graphiti replies
 * to add_memory right after it queued the episode, so the reply proves the queuing; two parts whose
 * requests were out at once are unordered, whichever went first.
 *
 * The order is the send's millisecond (`sentAt`) times ORDERS_PER_MS plus the hand-off's rank among
 * the parts whose send started in that millisecond: parts of different milliseconds compare by send
 * time, as before, and within one by hand-off (so a part a retry held back goes behind those of its
 * own millisecond, not behind later ones: drop evidence counts it from its send's start too). Where
 * a part stands (`sentPosition`) is its order read back as epoch ms, a fraction of its own millisecond added: a time as well as an order (the pace
 * compares it with processing starts), which no clock set back can move. A wait spans runs (the
 * hooks' worker lists what `sync --wait` sent, in another process, and the head a look found is kept
 * in the group's pace as its position), so each part keeps its order in the state; the counter need
 * not survive the run, as runs of one state take turns (its lock) and no two share a millisecond. A
 * part with no order (sent by a build before this one, or whose reply a killed run never recorded)
 * stands at the start of its millisecond.
 *
 * `sentAt` stays what it was, the send's start: drop evidence compares it with reply times.
 *
 * The reply gets a place in the same count (`EpisodeRef.queuedOrder`: the reply's millisecond times
 * ORDERS_PER_MS plus its rank among the hand-offs and replies counted in it), so a reply and a
 * hand-off within one millisecond (a fast server at concurrency 1) still tell which came first.
 * Where a part has none (a build before it, or a reply that was lost: mcp/errors.ts
 * MAY_HAVE_ARRIVED), its reply stands at the end of its `queuedAt` millisecond, the latest it can be
 * (for a lost reply, when the call gave up: a reset or a reply cut short comes after the server
 * took the request; a timeout on a stalled server is the one case where it may be queued later).
 */
import { queuedTime, sentTime, type EpisodeRef } from '../state/state.js';

/**
 * Ranks per millisecond, a power of two: an order read back as ms with a fraction (`sentPosition`) is
 * then exact in a double until the year 2248. Hand-offs past the last rank share it (a tie counts as
 * sent no later, the rule before send orders).
 */
export const ORDERS_PER_MS = 1024;

/**
 * Hand-offs and replies counted so far per millisecond, in this process (a hand-off counts in its
 * send's millisecond, which may lie long before it: a retry; a reply in its own).
 */
const counted = new Map<number, number>();
/** Milliseconds remembered: a send whose millisecond was forgotten ranks from 0 again, tied with the first of it. */
const REMEMBERED_MS = 4_096;

/** The next rank in millisecond `at` (epoch ms): after every hand-off and reply counted in it before. */
function nextOrder(at: number): number {
  const ms = Math.floor(at);
  const rank = counted.get(ms) ?? 0;
  counted.delete(ms);
  counted.set(ms, rank + 1);
  if (counted.size > REMEMBERED_MS) counted.delete(counted.keys().next().value as number);
  return ms * ORDERS_PER_MS + Math.min(rank, ORDERS_PER_MS - 1);
}

/** The send order of a part whose send started at `sentAt` (epoch ms), handed to the transport now: after every earlier hand-off of its millisecond. */
export function nextSendOrder(sentAt: number): number {
  return nextOrder(sentAt);
}

/**
 * The order of a reply received now, at `repliedAt` (epoch ms, the part's `queuedAt`): after every
 * hand-off and reply counted in its millisecond before it. A hand-off counted in the same
 * millisecond later stands after it, so the two compare exactly (`provenBefore`). A hand-off
 * counted in its send's earlier millisecond stands before it even where it came after: unproven,
 * never wrongly proven.
 */
export function nextReplyOrder(repliedAt: number): number {
  return nextOrder(repliedAt);
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

/**
 * Where a part's reply stands in the same count as the hand-offs, as epoch ms (a fraction for its
 * rank in its millisecond): its reply order, or without one the end of its `queuedAt` millisecond
 * (the latest the reply can have come in it). Infinity for a part sent with no reply recorded (a
 * run killed while it was out: it may be queued at any time yet); NaN for a part never sent.
 */
export function repliedPosition(ref: Pick<EpisodeRef, 'queuedOrder' | 'queuedAt' | 'sentAt'>): number {
  if (ref.queuedAt === undefined) return ref.sentAt === undefined ? Number.NaN : Number.POSITIVE_INFINITY;
  const replied = queuedTime(ref);
  const order = ref.queuedOrder;
  if (Number.isSafeInteger(order) && Math.floor((order as number) / ORDERS_PER_MS) === replied) return (order as number) / ORDERS_PER_MS;
  return replied + (ORDERS_PER_MS - 1) / ORDERS_PER_MS;
}

/** A sent part as the order rule sees it: when it was handed off and when its reply came back (positions, epoch ms). */
export interface Placed {
  /** Its send position (`sentPosition`). */
  sent: number;
  /** Its reply position (`repliedPosition`); Infinity where it is not known (a head kept by a build before reply orders). */
  replied: number;
}

/** A part's `Placed` from the state. */
export function placementOf(ref: Pick<EpisodeRef, 'sendOrder' | 'queuedOrder' | 'sentAt' | 'queuedAt'>): Placed {
  return { sent: sentPosition(ref), replied: repliedPosition(ref) };
}

/**
 * PROVEN_ORDER: `a` is ahead of `b` in the server's queue, as far as we can prove it: a's reply came
 * back before b was handed off (Graphiti queues an add_memory before it replies, one FIFO queue per
 * group). Parts in flight together are unordered either way, whichever was handed off first: the
 * server may take concurrent requests in any order (send-order.ts header). The only owner of that
 * rule: the head's parts behind it (schedule.ts `behindHead`) and a sample's spans (pace.ts
 * `spanTimes`) ask here.
 */
export function provenBefore(a: Placed, b: Placed): boolean {
  return a.replied < b.sent;
}
