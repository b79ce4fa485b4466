/**
 * Confirming against the graph: list the groups where something of ours waits (listing.ts decides
 * which, and how much), take over the madeinoz hook's notes on the first listing (adopt-prior.ts),
 * decide (the pure reconcile.ts) and write the decisions; tally what they mean for the run and
 * rebuild the bodies of parts the server dropped so they can be sent again.
 */
import { applyPriorTakeover, decidePriorTakeover, type PriorMigration } from './adopt-prior.js';
import { fetchListing } from './listing.js';
import { sampleDue, stepOf } from './pace.js';
import { rebuildDrafts } from './prepare.js';
import { applyReconciliation, reconcile } from './reconcile.js';
import { refreshStatus } from './status.js';
import { ourOrigins } from '../util/origin.js';
import { copyWatchDue, judgedByPull, recordCopyWatch, staleMayBeForeign } from './copy-hold.js';
import { forceLookParts, inPassingParts, pullWaitsOn, withForceLook } from './force-look.js';
import { resolveSources } from '../memory/sources.js';
import type { FileRecord } from '../state/state.js';
import type { OnlineRun } from './types.js';

export interface ReconcileRun {
  rebuilding: boolean;
  /** Origins of the shared sources (MADEINOZ_KNOWLEDGE_SHARED_SOURCES). */
  sharedOrigins: ReadonlySet<string>;
  /** Files this run's plan counted as added: one found already in the graph is adopted instead. */
  plannedAdds: Set<string>;
  ignoreBackoff: boolean;
  /** Notes the madeinoz hook sent before us, to take over from the first listing (adopt-prior.ts). */
  prior?: PriorMigration | undefined;
  /** `sync --force`'s first look (force-look.ts FORCE_LOOK): cleared once done, so `--wait`'s passes do not repeat it. */
  forceLook?: boolean;
  /** All the run's groups have been read in full once (listing.ts `coveredBefore`); set by the first pass that did. */
  covered?: boolean;
}

/**
 * Lists the groups where something of ours waits (listing.ts decides which, and how much) and
 * writes the reconciliation; a dropped part gets its body rebuilt. False when the server is unreachable.
 */
export async function reconcileWithGraph(ctx: OnlineRun, run: ReconcileRun): Promise<boolean> {
  const watch = copyWatchDue(ctx.state, ctx.now(), run.sharedOrigins);
  const forced = run.forceLook === true ? forceLookParts(ctx.state, run.sharedOrigins, ctx.sources) : new Map<string, Set<string>>();
  const fetched = await fetchListing(ctx, { ...run, listInFull: run.prior?.groups, coveredBefore: run.covered === true, watch: withForceLook(watch, forced) });
  if (fetched === undefined) return false;
  run.forceLook = false;
  const { listing } = fetched;
  if (fetched.coveredAll) run.covered = true;
  const { config, state, logger } = ctx;
  if (run.prior !== undefined) {
    // Once, before anything is sent: what the prior hook sent is taken over, not sent again.
    await applyPriorTakeover(ctx, await decidePriorTakeover({ migration: run.prior, listing, outgoing: ctx.outgoing }));
    for (const { record } of run.prior.candidates) if (!ctx.outgoing.has(record.id)) run.plannedAdds.delete(record.id);
    run.prior = undefined;
  }
  for (const listed of listing.values()) {
    ctx.counts.listing.requests += listed.requests;
    ctx.counts.listing.episodes += listed.listed;
    if (listed.sample === true) ctx.counts.listing.samples += listed.requests;
  }
  // What pull judges, in every source: a `--source` run's own list would leave another source's notes unjudged (and sent back).
  const everySource = resolveSources(config);
  // LOST_SEEN_IN_PASSING (force-look.ts): a complete get_episodes listing made anyway also judges this machine's confirmed parts.
  const inPassing = [...listing.values()].some((l) => l.complete && l.direct !== true && l.sample !== true) ? inPassingParts(ctx.state, run.sharedOrigins, ctx.sources, judgedByPull(state, ctx.signer?.pulled, everySource)) : new Map<string, Set<string>>();
  const r = reconcile({ state, listing, now: ctx.now(), confirmMaxAgeMs: config.confirmMaxAgeMs, maxResends: config.maxResends, rebuilding: run.rebuilding, sharedOrigins: run.sharedOrigins, ourOrigins: ourOrigins(config), staleMayBeForeign: staleMayBeForeign(config), watched: watch, pullJudges: watch.size === 0 ? undefined : judgedByPull(state, ctx.signer?.pulled, everySource), forced, inPassing, pullWaits: forced.size === 0 && inPassing.size === 0 ? undefined : pullWaitsOn(state, ctx.signer?.pulled, everySource) });
  applyReconciliation(state, r, new Date(ctx.now()).toISOString());
  recordCopyWatch(state, watch, listing, r.goneElsewhere.length + r.goneWaiting.length, new Date(ctx.now()).toISOString(), { ours: ourOrigins(config), shared: run.sharedOrigins });
  // What the schedule made of this look (schedule.ts): why the next one comes when it does.
  for (const [group, pace] of r.paces) {
    if (pace.nextListingAt === undefined) continue;
    logger.debug('next look at the group', { group, inMs: pace.nextListingAt - ctx.now(), kind: sampleDue(pace, pace.nextListingAt) ? 'sample' : 'full', predictedEndInMs: pace.sampleUntil === undefined ? undefined : pace.sampleUntil - ctx.now(), stepMs: stepOf(pace), headAgoMs: pace.headAt === undefined ? undefined : ctx.now() - pace.headAt });
  }
  for (const c of r.confirmations) {
    if (!c.adopted) continue;
    ctx.counts.adopted++;
    if (run.plannedAdds.delete(c.record.id)) ctx.counts.added--;
  }
  ctx.counts.duplicatesRemoved += r.duplicates.length + r.stale.length;
  for (const { record, message } of r.drops) ctx.problems.push({ id: record.id, reason: 'dropped', message });
  const again: FileRecord[] = [];
  for (const { record, ref, why } of r.leftDeleted) logger.info(why === 'cleared' ? 'the group was cleared: this note is not sent again (copy-hold.ts DELETED_ON_PURPOSE)' : 'the note was deleted on another of your machines: not sent again; pull removes the untouched copy here (copy-hold.ts DELETED_ON_PURPOSE)', { id: record.id, marker: ref.marker });
  for (const { record, ref } of r.goneElsewhere) {
    logger.warn('another machine with this origin deleted the episode this note rests on (copy-hold.ts COPY_WATCH); sending it again as this machine\'s own', { id: record.id, marker: ref.marker });
    ctx.counts.resent++;
    again.push(record);
  }
  for (const { record, ref } of r.lost) {
    logger.warn('the graph no longer holds this note\'s episode (a server restarted without its data?); sending it again (force-look.ts FORCE_LOOK)', { id: record.id, marker: ref.marker });
    ctx.counts.resent++;
    again.push(record);
  }
  for (const { record, ref } of r.unseen) {
    logger.warn('a listing of the group no longer shows this note\'s episode (the graph lost it: a server started again without its data?); sync --force sends it again (force-look.ts LOST_SEEN_IN_PASSING)', { id: record.id, marker: ref.marker });
    // With the episode it rested on (reconcile judges only parts that have one): the warning lets it go once it no longer does (LOST_OWNS_ITS_NOTES).
    if (ref.uuid !== undefined) ctx.lostSeen.set(ref.groupId, [...(ctx.lostSeen.get(ref.groupId) ?? []), { id: record.id, uuid: ref.uuid }]);
  }
  // Notes, not parts, for what the person sees as notes gone (types.ts RESENT_WHY).
  ctx.counts.resentFor.goneElsewhere += new Set(r.goneElsewhere.map(({ record }) => record.id)).size;
  ctx.counts.resentFor.lost += new Set(r.lost.map(({ record }) => record.id)).size;
  for (const { record, ref, evidence } of r.resends) {
    again.push(record);
    if (evidence === 'restart') logger.info('episode was queued with a server that has stopped since (its queue is gone); re-sending', { id: record.id, marker: ref.marker, evidence });
    else logger.warn('episode was dropped by the server; re-sending', { id: record.id, marker: ref.marker, evidence, resends: ref.resends - 1 });
    ctx.counts.resent++;
    ctx.counts.resentFor.dropped++;
  }
  for (const record of again) {
    if (ctx.outgoing.has(record.id)) continue;
    const drafts = await rebuildDrafts(config, ctx.sources, record, logger, ctx.signer);
    if (drafts !== undefined) ctx.outgoing.set(record.id, { record, drafts });
  }
  const nowIso = new Date(ctx.now()).toISOString();
  for (const record of Object.values(state.files)) refreshStatus(record, nowIso);
  return true;
}

