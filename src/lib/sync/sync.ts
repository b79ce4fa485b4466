/**
 * The sync engine: memory files on disk → Graphiti episodes, exactly once. This file is the
 * orchestrator; each phase is a module of its own with typed inputs and outputs:
 *
 *   scan (memory/scan.ts) → plan (plan.ts, which prepares each file through prepare.ts)
 *   → reconcile with the graph (listing.ts + the pure reconcile.ts; in the first listing, the
 *     madeinoz hook's notes are taken over: adopt-prior.ts) → send (send.ts)
 *   → delete retired parts (retire.ts) → remove the facts they left (fact-cleanup.ts)
 *   → [wait: reconcile, send, delete again] → summary (summary.ts).
 *
 * Why it is shaped like this:
 * - `add_memory` only queues and Graphiti drops failures silently, so a reply proves nothing.
 *   Every episode carries a marker in its source_description; an episode counts as delivered only
 *   once `get_episodes` shows that marker (status `confirmed`).
 * - Graphiti never deduplicates episodes, so before anything is sent we list the group and adopt
 *   an episode that already carries the marker (crash after send, lost state), and when a marker
 *   shows up twice we delete the extra copies.
 * - The state is journaled before a request goes out (the part is "in flight") and after its reply
 *   (ledger.ts), so a kill at any moment leaves a state that the next run can finish.
 * - A server that is down leaves work `pending`: that is the outbox; nothing is dropped.
 * The invariants are numbered in docs/architecture.md.
 */
import type { Config } from '../config/config.js';
import { GraphitiClient } from '../graphiti/graphiti.js';
import { parseMarker } from '../memory/episode.js';
import { filterSources, resolveSources, sharedOriginsOf } from '../memory/sources.js';
import { scanSources } from '../memory/scan.js';
import type { MemorySource } from '../memory/types.js';
import { describeOwner, withLock, type Lock, type LockOwner } from '../state/lock.js';
import { loadState, type EpisodeRef, type SyncState } from '../state/state.js';
import { backoffDelay, sleep } from '../util/backoff.js';
import { nullLogger, type Logger } from '../util/log.js';
import { adoptPriorEpisodes, priorMigration, type PriorMigration } from './adopt-prior.js';
import { Ledger } from './ledger.js';
import { fetchListing, waitingMarkers } from './listing.js';
import { applyPlan, planRun } from './plan.js';
import { rebuildDrafts } from './prepare.js';
import { applyReconciliation, reconcile } from './reconcile.js';
import { cleanupFacts } from './fact-cleanup.js';
import { deleteRetired, retiredWaiting } from './retire.js';
import { sendPending } from './send.js';
import { refreshStatus } from './status.js';
import { statusCounts, summarize } from './summary.js';
import { migrateStateOrigins } from './origin-migration.js';
import { ServerHealth, type OnlineRun, type RunContext, type SyncOptions, type SyncSummary } from './types.js';

export { SyncError, type SyncOptions, type SyncProblem, type SyncSummary } from './types.js';
export { isClean } from './summary.js';

interface RunInput {
  config: Config;
  options: SyncOptions;
  logger: Logger;
  sources: MemorySource[];
  state: SyncState;
  /** State was lost or never existed: old versions of our files in the graph may be unknown to us. */
  rebuilding: boolean;
  /** Undefined for a dry run, which plans and writes nothing. */
  lock: Lock | undefined;
}

export async function runSync(config: Config, options: SyncOptions = {}): Promise<SyncSummary> {
  const logger = (options.logger ?? nullLogger).child({ component: 'sync' });
  const sources = filterSources(resolveSources(config), options.source);
  if (options.dryRun === true) {
    const { state } = await loadState(config.stateDir, { readOnly: true });
    return run({ config, options, logger, sources, state, rebuilding: false, lock: undefined });
  }
  return withLock(
    config.stateDir,
    async (lock) => {
      const loaded = await loadState(config.stateDir);
      if (loaded.recovered !== undefined) logger.warn('state file was corrupt; kept aside and rebuilding from the server', { ...loaded.recovered });
      return run({ config, options, logger, sources, state: loaded.state, rebuilding: loaded.recovered !== undefined || loaded.fresh, lock });
    },
    {
      timeoutMs: options.lockTimeoutMs ?? 120_000,
      label: options.lockLabel ?? 'sync',
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      ...(options.onLockWait === undefined ? {} : { onWait: (holder: LockOwner | undefined) => options.onLockWait?.(describeOwner(holder)) }),
    },
  );
}

async function run(input: RunInput): Promise<SyncSummary> {
  const { config, options, logger, sources, state } = input;
  const now = options.now ?? Date.now;
  const startedAt = now();
  const migratedOrigins = migrateStateOrigins(state, config);
  const scan = await scanSources(sources, {
    exclude: config.exclude,
    maxFileBytes: config.maxFileBytes,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
  const plan = await planRun({ config, state, scan, sources, force: options.force === true, nowIso: new Date(now()).toISOString() });
  applyPlan(state, plan);
  for (const event of plan.events) logger.info(event.message, event.data);
  const ctx: RunContext = {
    config,
    options,
    logger,
    sources,
    state,
    ledger: new Ledger(config.stateDir, state, now, input.lock, input.lock === undefined),
    graphiti: undefined,
    server: new ServerHealth(logger),
    now,
    counts: { ...plan.counts, adopted: 0, resent: 0, duplicatesRemoved: 0, factsRemoved: 0, listRequests: 0, listedEpisodes: 0 },
    problems: plan.problems,
    outgoing: plan.outgoing,
    deletedThisRun: [],
  };
  if (input.lock === undefined) return summarize(ctx, plan);

  let changed = plan.changed || migratedOrigins > 0;
  try {
    if (needsServer(ctx, input.rebuilding)) {
      changed = true;
      ctx.graphiti = options.graphiti ?? new GraphitiClient(config, { logger });
      const online = ctx as OnlineRun;
      // Parts found in flight from an earlier run were enqueued, if at all, before now.
      for (const ref of allParts(state)) if (ref.sentAt !== undefined && ref.uuid === undefined && ref.queuedAt === undefined) ref.queuedAt = new Date(startedAt).toISOString();
      const plannedAdds = new Set(plan.actions.filter((a) => a.action === 'add').map((a) => a.id));
      const sharedOrigins = sharedOriginsIn(config, state);
      const prior = priorMigration(ctx, plannedAdds);
      if (await reconcileWithGraph(online, { rebuilding: input.rebuilding, sharedOrigins, plannedAdds, ignoreBackoff: options.force === true, prior })) {
        await ctx.ledger.save();
        await sendPending(online);
        await deleteRetired(online);
        await cleanupFacts(online);
        if ((options.waitMs ?? 0) > 0 && ctx.server.reachable) await waitForConfirmation(online, { rebuilding: input.rebuilding, sharedOrigins, plannedAdds, ignoreBackoff: true }, options.waitMs ?? 0);
      }
    }
  } finally {
    state.lastRun = { startedAt: new Date(startedAt).toISOString(), finishedAt: new Date(now()).toISOString(), summary: statusCounts(ctx), redactions: { ...ctx.counts.redactions } };
    if (changed) await ctx.ledger.save();
    else await ctx.ledger.journalLastRun();
    await ctx.ledger.close();
    if (options.graphiti === undefined) await ctx.graphiti?.close().catch(() => undefined);
  }
  return summarize(ctx, plan);
}

function needsServer(ctx: RunContext, rebuilding: boolean): boolean {
  if (ctx.outgoing.size > 0 || ctx.state.orphans.length > 0 || Object.values(ctx.state.files).some((r) => r.superseded.length > 0 || r.episodes.some((e) => e.uuid === undefined))) return true;
  return waitingMarkers(ctx.state, rebuilding, sharedOriginsIn(ctx.config, ctx.state)).size > 0;
}

/** Origins owned together: declared shared sources, and the team-memory stores of the files in the state. */
function sharedOriginsIn(config: Config, state: SyncState): Set<string> {
  return sharedOriginsOf(config.sharedSources, allParts(state).map((ref) => parseMarker(ref.marker)?.origin));
}

function allParts(state: SyncState): EpisodeRef[] {
  return [...Object.values(state.files).flatMap((r) => [...r.episodes, ...r.superseded]), ...state.orphans];
}

interface ReconcileRun {
  rebuilding: boolean;
  /** Origins of the shared sources (MADEINOZ_KNOWLEDGE_SHARED_SOURCES). */
  sharedOrigins: ReadonlySet<string>;
  /** Files this run's plan counted as added: one found already in the graph is adopted instead. */
  plannedAdds: Set<string>;
  ignoreBackoff: boolean;
  /** Notes the madeinoz hook sent before us, to take over from the first listing (adopt-prior.ts). */
  prior?: PriorMigration | undefined;
}

/**
 * Lists the groups where something of ours waits (listing.ts decides which, and how much) and
 * writes the reconciliation; a dropped part gets its body rebuilt. False when the server is unreachable.
 */
async function reconcileWithGraph(ctx: OnlineRun, run: ReconcileRun): Promise<boolean> {
  const listing = await fetchListing(ctx, { ...run, listInFull: run.prior?.groups });
  if (listing === undefined) return false;
  const { config, state, logger } = ctx;
  if (run.prior !== undefined) {
    // Once, before anything is sent: what the prior hook sent is taken over, not sent again.
    await adoptPriorEpisodes(ctx, listing, run.prior);
    for (const { record } of run.prior.candidates) if (!ctx.outgoing.has(record.id)) run.plannedAdds.delete(record.id);
    run.prior = undefined;
  }
  for (const listed of listing.values()) {
    ctx.counts.listRequests += listed.requests;
    ctx.counts.listedEpisodes += listed.listed;
  }
  const r = reconcile({ state, listing, now: ctx.now(), confirmMaxAgeMs: config.confirmMaxAgeMs, maxResends: config.maxResends, rebuilding: run.rebuilding, sharedOrigins: run.sharedOrigins });
  applyReconciliation(state, r, new Date(ctx.now()).toISOString());
  for (const c of r.confirmations) {
    if (!c.adopted) continue;
    ctx.counts.adopted++;
    if (run.plannedAdds.delete(c.record.id)) ctx.counts.added--;
  }
  ctx.counts.duplicatesRemoved += r.duplicates.length;
  for (const { record, message } of r.drops) ctx.problems.push({ id: record.id, reason: 'dropped', message });
  for (const { record, ref, evidence } of r.resends) {
    logger.warn('episode was dropped by the server; re-sending', { id: record.id, marker: ref.marker, evidence, resends: ref.resends - 1 });
    ctx.counts.resent++;
    if (ctx.outgoing.has(record.id)) continue;
    const drafts = await rebuildDrafts(config, ctx.sources, record, logger);
    if (drafts !== undefined) ctx.outgoing.set(record.id, { record, drafts });
  }
  const nowIso = new Date(ctx.now()).toISOString();
  for (const record of Object.values(state.files)) refreshStatus(record, nowIso);
  return true;
}

/** `sync --wait`: reconcile, send and delete again with back-off until nothing waits or the time is up. */
async function waitForConfirmation(ctx: OnlineRun, run: ReconcileRun, waitMs: number): Promise<void> {
  const deadline = ctx.now() + waitMs;
  // 50 ms doubling to 2 s, no jitter: one waiter, its own server (util/backoff.ts owns the formula).
  const poll = { initialMs: 50, maxMs: 2000, low: 1, high: 1 };
  let round = 1;
  while (ctx.now() < deadline && ctx.server.reachable && ctx.options.signal?.aborted !== true) {
    const waiting = Object.values(ctx.state.files).some((r) => r.status === 'queued' || r.status === 'pending');
    if (!waiting && !retiredWaiting(ctx)) break;
    await sleep(Math.min(backoffDelay(poll, round++), Math.max(0, deadline - ctx.now())));
    if (!(await reconcileWithGraph(ctx, run))) break;
    await sendPending(ctx);
    await deleteRetired(ctx);
    await cleanupFacts(ctx);
  }
}
