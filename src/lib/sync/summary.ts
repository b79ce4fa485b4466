/** The summary phase: the run's counts plus the statuses of the files of its sources. */
import { totalRedactions } from '../memory/redact.js';
import { countByStatus, retiredParts } from '../state/state.js';
import type { Plan } from './plan.js';
import type { ResolvedSemantics } from '../graphiti/server-rules.js';
import { waitingMarkers } from './listing.js';
import { nextListingIn } from './schedule.js';
import type { RunContext, SyncSummary } from './types.js';

/** Status totals over the sources of this run (all of them unless --source narrowed it). */
export function statusCounts(ctx: RunContext): ReturnType<typeof countByStatus> {
  const names = new Set(ctx.sources.map((s) => s.name));
  return countByStatus(Object.values(ctx.state.files), (r) => names.has(r.source));
}

export function summarize(ctx: RunContext, plan: Plan, semantics?: ResolvedSemantics): SyncSummary {
  const byStatus = statusCounts(ctx);
  const dryRun = ctx.options.dryRun === true;
  const { counts } = ctx;
  return {
    ...counts,
    listing: { ...counts.listing },
    resentFor: { ...counts.resentFor },
    redactionsByKind: { ...counts.redactionsByKind },
    skipped: byStatus.skipped,
    failed: byStatus.failed,
    pending: byStatus.pending,
    queued: byStatus.queued,
    confirmed: byStatus.confirmed,
    awaitingGroup: retiredParts(ctx.state).filter((ref) => ref.awaitsGroupSince !== undefined).length,
    redactions: totalRedactions(counts.redactionsByKind),
    ...nextListingField(ctx),
    problems: ctx.problems,
    serverReachable: ctx.server.reachable,
    ...(ctx.server.error === undefined ? {} : { serverError: ctx.server.error }),
    ...(semantics === undefined ? {} : { semantics }),
    ...(ctx.lostSeen.size === 0 ? {} : { lostSeen: [...ctx.lostSeen].map(([group, parts]) => ({ group, notes: new Set(parts.map((p) => p.id)).size, parts })) }),
    dryRun,
    ...(dryRun ? { plannedActions: plan.actions } : {}),
  };
}

/** pace lane (issue 27): when the next listing is due, for watch's confirmation pass. */
function nextListingField(ctx: RunContext): { nextListingInMs?: number } {
  if (ctx.options.dryRun === true) return {};
  const groups = waitingMarkers(ctx.state, false, new Set(Object.values(ctx.config.sharedSources))).keys();
  const inMs = nextListingIn(ctx.state, groups, ctx.now());
  return inMs === undefined ? {} : { nextListingInMs: inMs };
}

/** True when a run left nothing failed and nothing unsent (the CLI's exit 0). */
export function isClean(summary: SyncSummary): boolean {
  return summary.failed === 0 && summary.pending === 0 && summary.serverReachable;
}
