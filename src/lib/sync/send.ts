/**
 * The send phase: pending parts go out `concurrency` files at a time. Each part is journaled as
 * in flight before its add_memory and again after the reply, so a kill at any moment leaves a
 * state the next run's reconcile can finish without sending anything twice blindly.
 */
import { McpError, McpNetworkError } from '../mcp/errors.js';
import type { FileRecord } from '../state/state.js';
import { runPool } from '../util/pool.js';
import { refreshStatus } from './status.js';
import type { OnlineRun, RunContext } from './types.js';

/** A file that failed to queue this often (non-transient errors) is marked failed. */
const MAX_SEND_ATTEMPTS = 3;

/** Sends the outgoing files that `ready` lets go now (break-before-make holds a new version back: retire.ts). */
export async function sendPending(ctx: OnlineRun, ready: (record: FileRecord) => boolean): Promise<void> {
  const { options, server } = ctx;
  const iso = () => new Date(ctx.now()).toISOString();
  let jobs = [...ctx.outgoing.values()].filter((s) => s.record.status === 'pending' && s.record.episodes.some((e) => e.sentAt === undefined) && ready(s.record));
  if (options.max !== undefined) jobs = jobs.slice(0, Math.max(0, options.max));
  const total = jobs.length;
  let done = 0;
  options.onProgress?.({ done, total });
  const stopped = () => !server.reachable || options.signal?.aborted === true;
  await runPool(
    jobs,
    ctx.config.concurrency,
    async ({ record, drafts }) => {
      for (const ref of record.episodes) {
        if (ref.sentAt !== undefined || stopped()) continue;
        const draft = drafts.get(ref.marker);
        if (draft === undefined) continue;
        ref.sentAt = iso();
        record.status = 'pending'; // a part in flight counts as not yet accepted until its reply (status.ts derives the rest)
        await ctx.ledger.journal([record]); // in flight: a kill from here on is resolved by the next run's reconcile
        try {
          await ctx.graphiti.addMemory(
            { name: draft.name, episodeBody: draft.body, groupId: draft.groupId, source: 'text', sourceDescription: draft.sourceDescription, referenceTime: draft.referenceTime },
            options.signal,
          );
          ref.queuedAt = iso();
          record.queuedAt = ref.queuedAt;
          delete record.lastError;
        } catch (error) {
          // The request may have been queued (timeout, reset, abort mid-flight): treat it as in
          // flight; reconcile confirms it or, on FIFO/age evidence, sends it again.
          if (mayHaveArrived(error)) ref.queuedAt = iso();
          else delete ref.sentAt;
          onSendError(ctx, record, error);
        }
        refreshStatus(record, iso());
        record.updatedAt = iso();
        await ctx.ledger.journal([record]);
      }
      done++;
      options.onProgress?.({ done, total, file: record.id });
    },
    stopped,
  );
}

function onSendError(ctx: RunContext, record: FileRecord, error: unknown): void {
  const message = error instanceof Error ? error.message : String(error);
  record.lastError = message;
  if (error instanceof McpError && (error.retryable || error.kind === 'aborted')) {
    // Transient after all retries (server down, overloaded, …): stop sending; all stays in the outbox.
    if (error.kind !== 'aborted') ctx.server.markDown(error);
    return;
  }
  record.attempts++;
  if (record.attempts >= MAX_SEND_ATTEMPTS) {
    record.status = 'failed';
    ctx.problems.push({ id: record.id, reason: 'rejected', message });
  }
  ctx.logger.warn('episode rejected by the server', { id: record.id, attempts: record.attempts, error: message });
}

/** Errors after which the server may still have queued the episode; a refused connection or an HTTP answer says it did not. */
function mayHaveArrived(error: unknown): boolean {
  if (!(error instanceof McpError)) return false;
  if (error.kind === 'timeout' || error.kind === 'aborted') return true;
  if (error instanceof McpNetworkError) return !['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH'].includes(error.code ?? '');
  return false;
}
