/**
 * The send phase: pending parts go out `concurrency` files at a time. Each part is journaled as
 * in flight before its add_memory and again after the reply, so a kill at any moment leaves a
 * state the next run's reconcile can finish without sending anything twice blindly (invariant 2).
 * That journal is the record itself, so the parts' progress is written here, as it happens; what
 * the run as a whole learns (files rejected for good, a server that went down) comes back as a
 * `SendResult` that the orchestrator applies (`applySendResult`).
 */
import type { GraphitiClient } from '../graphiti/graphiti.js';
import { McpError, McpNetworkError } from '../mcp/errors.js';
import type { FileRecord } from '../state/state.js';
import type { Logger } from '../util/log.js';
import { runPool } from '../util/pool.js';
import type { Ledger } from './ledger.js';
import { refreshStatus } from './status.js';
import type { Outgoing, RunContext, SyncOptions, SyncProblem } from './types.js';

/** A file that failed to queue this often (non-transient errors) is marked failed. */
const MAX_SEND_ATTEMPTS = 3;

export interface SendInput {
  /** The files to send now, in order (`sendable`). */
  jobs: readonly Outgoing[];
  graphiti: GraphitiClient;
  /** Where each part is journaled before and after its add_memory. */
  ledger: Pick<Ledger, 'journal'>;
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
}

/** The outgoing files with parts still to send that `ready` lets go now (break-before-make holds a new version back: retire.ts), at most `max`. */
export function sendable(outgoing: ReadonlyMap<string, Outgoing>, ready: (record: FileRecord) => boolean, max: number | undefined): Outgoing[] {
  const jobs = [...outgoing.values()].filter((s) => s.record.status === 'pending' && s.record.episodes.some((e) => e.sentAt === undefined) && ready(s.record));
  return max === undefined ? jobs : jobs.slice(0, Math.max(0, max));
}

/** Sends the jobs' unsent parts, journaling each before and after its add_memory; stops at the first transient failure. */
export async function sendParts(input: SendInput): Promise<SendResult> {
  const { jobs, graphiti, ledger, logger, signal, onProgress } = input;
  const iso = () => new Date(input.now()).toISOString();
  const result: SendResult = { queued: 0, rejected: [] };
  let reachable = input.serverReachable;
  const total = jobs.length;
  let done = 0;
  onProgress?.({ done, total });
  const stopped = () => !reachable || signal?.aborted === true;
  await runPool(
    [...jobs],
    input.concurrency,
    async ({ record, drafts }) => {
      for (const ref of record.episodes) {
        if (ref.sentAt !== undefined || stopped()) continue;
        const draft = drafts.get(ref.marker);
        if (draft === undefined) continue;
        ref.sentAt = iso();
        record.status = 'pending'; // a part in flight counts as not yet accepted until its reply (status.ts derives the rest)
        await ledger.journal([record]); // in flight: a kill from here on is resolved by the next run's reconcile
        try {
          await graphiti.addMemory(
            { name: draft.name, episodeBody: draft.body, groupId: draft.groupId, source: 'text', sourceDescription: draft.sourceDescription, referenceTime: draft.referenceTime },
            signal,
          );
          ref.queuedAt = iso();
          record.queuedAt = ref.queuedAt;
          delete record.lastError;
          result.queued++;
        } catch (error) {
          // The request may have been queued (timeout, reset, abort mid-flight): treat it as in
          // flight; reconcile confirms it or, on FIFO/age evidence, sends it again.
          if (mayHaveArrived(error)) ref.queuedAt = iso();
          else delete ref.sentAt;
          const outcome = onSendError(record, error, logger);
          if (outcome === 'server-down' && reachable) {
            reachable = false;
            result.serverDown = error;
          } else if (outcome !== undefined && outcome !== 'server-down') result.rejected.push(outcome);
        }
        refreshStatus(record, iso());
        record.updatedAt = iso();
        await ledger.journal([record]);
      }
      done++;
      onProgress?.({ done, total, file: record.id });
    },
    stopped,
  );
  return result;
}

/** What a send tells the run: failed files become problems, and a server that went down stops all sending. */
export function applySendResult(ctx: RunContext, result: SendResult): void {
  ctx.problems.push(...result.rejected);
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
  record.attempts++;
  logger.warn('episode rejected by the server', { id: record.id, attempts: record.attempts, error: message });
  if (record.attempts >= MAX_SEND_ATTEMPTS) {
    record.status = 'failed';
    return { id: record.id, reason: 'rejected', message };
  }
  return undefined;
}

/** Errors after which the server may still have queued the episode; a refused connection or an HTTP answer says it did not. */
function mayHaveArrived(error: unknown): boolean {
  if (!(error instanceof McpError)) return false;
  if (error.kind === 'timeout' || error.kind === 'aborted') return true;
  if (error instanceof McpNetworkError) return !['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH'].includes(error.code ?? '');
  return false;
}
