/**
 * The send phase: pending parts go out `concurrency` files at a time. Each part is journaled as
 * in flight (on disk) before its add_memory and again after the reply (with the next group
 * commit), so a kill at any moment leaves a state the next run's reconcile can finish without
 * sending anything twice blindly (invariant 2).
 * That journal is the record itself, so the parts' progress is written here, as it happens; what
 * the run as a whole learns (files rejected for good, a server that went down) comes back as a
 * `SendResult` that the orchestrator applies (`applySendResult`).
 */
import type { GraphitiClient } from '../graphiti/graphiti.js';
import { McpError, mayHaveArrived, refusesEndpoint } from '../mcp/errors.js';
import type { EpisodeRef, FileRecord } from '../state/state.js';
import type { Logger } from '../util/log.js';
import type { Ledger } from './ledger.js';
import { PartFeed, type FeedLane, type FeedPart } from './part-feed.js';
import { refreshStatus } from './status.js';
import type { Outgoing, RunContext, SyncOptions, SyncProblem } from './types.js';
import { FAILED_FILE_STEPS } from './failed-steps.js';
import { nextReplyOrder, nextSendOrder } from './send-order.js';
import { addCounts, type RedactionsByKind } from '../memory/redact.js';

/**
 * Parts each lane keeps journaled in flight ahead of the one it is sending. Under a loaded disk an
 * fsync can take longer than a request; two ahead per lane keep the lanes busy. A kill leaves at
 * most this many per lane journaled but unsent: the next run re-sends them once their group has
 * been quiet for its patience (reconcile.ts), as for any part in flight.
 */
const RESERVE_AHEAD = 2;

/** A file that failed to queue this often (non-transient errors) is marked failed. */
const MAX_SEND_ATTEMPTS = 3;

export interface SendInput {
  /** The files to send now, in order (`sendable`). */
  jobs: readonly Outgoing[];
  graphiti: GraphitiClient;
  /** Where each part is journaled before (durably) and after (group commit) its add_memory. */
  ledger: Pick<Ledger, 'journal' | 'journalSoon' | 'flush'>;
  concurrency: number;
  now: () => number;
  logger: Logger;
  /** False when the server was already found down this run: nothing is sent. */
  serverReachable: boolean;
  signal?: AbortSignal | undefined;
  onProgress?: SyncOptions['onProgress'];
}

export interface SendResult {
  /** Parts the server accepted (queued; confirmed later by a listing). */
  queued: number;
  /** Files rejected too often, now `failed`: problems to report. */
  rejected: SyncProblem[];
  /** The transient error that stopped sending (server down, overloaded); everything unsent stays in the outbox. */
  serverDown?: unknown;
  /**
   * REDACTIONS_SENT: the secrets redacted from the parts that went out (accepted, or a reply lost on
   * the way: it may have arrived), by kind. What the summary's "redacted N secret(s) before sending"
   * and `lastRun.redactions` count: a note planned but not sent (found in the graph already and
   * adopted, the same text under --force, the server down) had nothing of it sent by this run.
   */
  redactionsByKind: RedactionsByKind;
}

/** The outgoing files with parts still to send that `ready` lets go now (break-before-make holds a new version back: retire.ts), at most `max`. */
export function sendable(outgoing: ReadonlyMap<string, Outgoing>, ready: (record: FileRecord) => boolean, max: number | undefined): Outgoing[] {
  const jobs = [...outgoing.values()].filter((s) => s.record.status === 'pending' && s.record.episodes.some((e) => e.sentAt === undefined) && ready(s.record));
  return max === undefined ? jobs : jobs.slice(0, Math.max(0, max));
}

/**
 * Sends the jobs' unsent parts; stops at the first transient failure. A part's in-flight record is
 * on disk before its add_memory goes out (`journal`, awaited); its reply is journaled with the next
 * group commit (`journalSoon`): a kill before that leaves the part in flight, which the next run
 * confirms by its marker. Each lane journals its next part in flight while its current request is
 * out (RESERVE_AHEAD), so a part waits for no fsync of its own; a lane that stops releases the
 * parts it reserved.
 */
export async function sendParts(input: SendInput): Promise<SendResult> {
  const { jobs, graphiti, ledger, logger, signal, onProgress } = input;
  const iso = () => new Date(input.now()).toISOString();
  const result: SendResult = { queued: 0, rejected: [], redactionsByKind: {} };
  let reachable = input.serverReachable;
  const total = jobs.length;
  let done = 0;
  onProgress?.({ done, total });
  const stopped = () => !reachable || signal?.aborted === true;
  const fileDone = (job: Outgoing) => {
    done++;
    onProgress?.({ done, total, file: job.record.id });
  };
  /**
   * ONE_LOST_REPLY: the run's first add_memory whose reply was lost (MAY_HAVE_ARRIVED; the call did
   * not send it again, graphiti/graphiti.ts ADD_ONCE) counts against that part, not the server: the
   * part goes in flight and sending goes on (one reset socket or reply cut short must not leave
   * the rest of the run's notes for the next run). A second one says the server is not answering
   * (restarting, hung): sending stops, as after any transient failure.
   */
  let lostReplies = 0;
  /** Parts journaled in flight and not yet answered: their file counts as not yet accepted. */
  const inFlight = new Set<EpisodeRef>();
  const settleStatus = (record: FileRecord) => {
    refreshStatus(record, iso());
    if (record.status === 'queued' && record.episodes.some((ref) => inFlight.has(ref))) record.status = 'pending';
    record.updatedAt = iso();
  };

  /** The lane's next part, journaled in flight: resolves once that is on disk (undefined: nothing more to send). */
  const reserve = async (lane: FeedLane): Promise<FeedPart | undefined> => {
    if (stopped()) return undefined;
    const part = lane.take();
    if (part === undefined) return undefined;
    part.ref.sentAt = iso();
    delete part.ref.sendOrder; // an earlier send's (a re-send): this send gets its own as it goes out
    delete part.ref.queuedOrder;
    inFlight.add(part.ref);
    part.job.record.status = 'pending';
    await ledger.journal([part.job.record]); // in flight: a kill from here on is resolved by the next run's reconcile
    return part;
  };

  /** A reserved part that will not go out after all: unsent again (a kill before this is on disk leaves it in flight: still safe). */
  const release = (part: FeedPart) => {
    delete part.ref.sentAt;
    inFlight.delete(part.ref);
    settleStatus(part.job.record);
    ledger.journalSoon([part.job.record]);
  };

  const send = async ({ job: { record }, ref, draft }: FeedPart): Promise<void> => {
    const sentAt = input.now();
    ref.sentAt = new Date(sentAt).toISOString(); // when it really went out: FIFO drop evidence compares send times (on disk with the reply)
    try {
      await graphiti.addMemory(
        { name: draft.name, episodeBody: draft.body, groupId: draft.groupId, source: 'text', sourceDescription: draft.sourceDescription, referenceTime: draft.referenceTime },
        signal,
        // Where the queue takes it (send-order.ts): stamped as the request is handed over, each attempt.
        () => {
          ref.sendOrder = nextSendOrder(sentAt);
        },
      );
      const repliedAt = input.now();
      ref.queuedAt = new Date(repliedAt).toISOString();
      // Where the reply came among the hand-offs (send-order.ts PROVEN_ORDER): the parts handed off after it are queued after it.
      ref.queuedOrder = nextReplyOrder(repliedAt);
      record.queuedAt = ref.queuedAt;
      delete record.lastError;
      result.queued++;
      addCounts(result.redactionsByKind, draft.redactionsByKind);
    } catch (error) {
      // The request may have been queued (mcp/errors.ts MAY_HAVE_ARRIVED: a timeout, a reset, a
      // reply cut short, a proxy's 502/504): treat it as in flight; reconcile confirms it or, on
      // FIFO/age evidence, sends it again.
      const lost = mayHaveArrived(error);
      // A lost reply has no reply order: the part counts as queued, if at all, by the time the call gave up (send-order.ts `repliedPosition`).
      if (lost) {
        ref.queuedAt = iso();
        addCounts(result.redactionsByKind, draft.redactionsByKind);
      } else {
        delete ref.sentAt;
        delete ref.sendOrder;
      }
      const outcome = onSendError(record, error, logger);
      const forgiven = outcome === 'server-down' && lost && ++lostReplies === 1;
      if (forgiven) logger.warn('add_memory reply lost; the part counts as in flight and sending goes on (ONE_LOST_REPLY)', { id: record.id, error: error instanceof Error ? error.message : String(error) });
      else if (outcome === 'server-down' && reachable) {
        reachable = false;
        result.serverDown = error;
      } else if (outcome !== undefined && outcome !== 'server-down') result.rejected.push(outcome);
    }
    inFlight.delete(ref);
    settleStatus(record);
    ledger.journalSoon([record]); // the reply: a kill before this is on disk leaves the part in flight, confirmed next run by its marker
  };

  const lane = async (cursor: FeedLane): Promise<void> => {
    // The lane's next parts, each being journaled in flight (in order: `take` runs when reserve is called).
    const ahead: Array<Promise<FeedPart | undefined>> = [];
    const topUp = () => {
      while (ahead.length < RESERVE_AHEAD) {
        const reserving = reserve(cursor);
        reserving.catch(() => undefined); // awaited in turn; no unhandled rejection meanwhile
        ahead.push(reserving);
      }
    };
    topUp();
    let last: FeedPart | undefined;
    try {
      for (;;) {
        const part = await ahead.shift();
        if (part === undefined) break;
        if (stopped()) {
          release(part);
          break;
        }
        topUp(); // the next in-flight writes overlap this request
        last = part;
        await send(part);
        if (part.last) fileDone(part.job);
      }
    } finally {
      // Stopped (or out of parts): what this lane reserved and will not send is unsent again.
      for (const reserving of ahead.splice(0)) {
        const part = await reserving.catch(() => undefined);
        if (part !== undefined) release(part);
      }
    }
    if (last !== undefined && !last.last) fileDone(last.job); // stopped within a file
  };

  const feed = new PartFeed(jobs, fileDone);
  await Promise.all(Array.from({ length: Math.max(1, Math.min(input.concurrency, jobs.length)) }, () => lane(feed.lane())));
  await ledger.flush(); // every reply on disk before the run goes on (a snapshot, the next phase)
  return result;
}

/** What a send tells the run: failed files become problems, and a server that went down stops all sending. */
export function applySendResult(ctx: RunContext, result: SendResult): void {
  ctx.problems.push(...result.rejected);
  addCounts(ctx.counts.redactionsByKind, result.redactionsByKind);
  if (result.serverDown !== undefined) ctx.server.markDown(result.serverDown);
}

/** Records a failed add_memory on the file: the server is down (transient), the file failed for good (a problem), or it will be tried again. */
function onSendError(record: FileRecord, error: unknown, logger: Logger): 'server-down' | SyncProblem | undefined {
  const message = error instanceof Error ? error.message : String(error);
  record.lastError = message;
  if (error instanceof McpError && (error.retryable || error.kind === 'aborted')) {
    // Transient after all retries (server down, overloaded, …): stop sending; all stays in the outbox.
    return error.kind === 'aborted' ? undefined : 'server-down';
  }
  // Refused whatever we send (no authorization: our local server stopping; a wrong path): the
  // server cannot be used now, and the note did nothing wrong. Three such answers (three stops
  // during syncs) would otherwise fail every note that met them.
  if (refusesEndpoint(error)) return 'server-down';
  record.attempts++;
  logger.warn('episode rejected by the server', { id: record.id, attempts: record.attempts, error: message });
  if (record.attempts >= MAX_SEND_ATTEMPTS) {
    record.status = 'failed';
    record.lastError = `${message}; ${FAILED_FILE_STEPS.serverSide}`;
    return { id: record.id, reason: 'rejected', message: record.lastError };
  }
  return undefined;
}
