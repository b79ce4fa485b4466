/**
 * Deleting retired parts: a "retired" part is an episode of ours to delete from the graph. The
 * state keeps them in two lists (names of the on-disk format): `record.superseded`, older versions
 * of a file that still exists, and `state.orphans`, parts of deleted files and duplicate copies.
 * A retired part is deleted once its uuid is known; until then it waits for a later reconcile.
 *
 * When an older version goes follows from what the server's delete removes
 * (graphiti/semantics.ts, docs/semantics.md):
 * - make-before-break (graphiti-core 0.28.2 with our fact clean-up, 0.31.2; and every shared
 *   source, whose replacement must be confirmed first): an older version is deleted only once every
 *   part of the current version is confirmed, so the graph always holds the note;
 * - break-before-make (0.29.3 – 0.31.1, own notes): the older version is deleted BEFORE the new
 *   one is sent (send.ts waits for it, `readyToSend`). Deleting it afterwards would take every fact
 *   the new version restates: they were merged into facts the old version created. The record is
 *   marked `bridgingSince` until the new version is confirmed; the context cache keeps serving the
 *   last good facts meanwhile (hooks/worker.ts).
 * On 0.29.3 – 0.31.1 every delete is guarded: an episode that created a fact another live episode
 * still states (a teammate's note, another of ours, or a newer version already merged into it) is
 * not deleted but HELD, its own facts removed one by one; `status` says so. A held part is checked
 * again after `HELD_RECHECK_MS`. A file with no current parts (deleted, opted out, skipped) has
 * nothing to wait for: its old episodes go at once.
 *
 * On a server that deletes only in the group it last wrote to (before 1.1 on FalkorDB:
 * group-reach.ts) a part is deleted only while the server is on its group; otherwise it waits
 * (`awaitsGroupSince`) for a run that finds the server there, which a write to that group brings.
 * A new version is not held back by such a wait (`readyToSend`): sending it is what brings the
 * server back to the group, and its older version then goes by the rules above (guarded).
 */
import { factRestsOnlyOn, type Fact } from '../graphiti/graphiti.js';
import { deleteGuard, editOrder, factsLostByDeleting, needsFactCleanup, type ServerSemantics } from '../graphiti/semantics.js';
import { serverUnusable } from '../mcp/errors.js';
import type { EpisodeRef, FileRecord, SyncState } from '../state/state.js';
import { retiredEpisodeUuids } from '../state/retired.js';
import { partMarker } from '../memory/episode.js';
import { backoffDelay, type Backoff } from '../util/backoff.js';
import { cleanupFacts, rememberDeleted } from './fact-cleanup.js';
import { groupReach, type GroupReach } from './group-reach.js';
import { isSharedRecord } from './shared.js';
import { heldAsCopy } from './copy-hold.js';
import type { OnlineRun, RunContext } from './types.js';

/** A held part is checked again (has the other support gone?) after this long. */
export const HELD_RECHECK_MS = 60 * 60_000;
/** The longest wait between two re-checks of a held part (the bound on what holding costs the server). */
export const HELD_RECHECK_MAX_MS = 7 * 24 * 60 * 60_000;
const HELD_RECHECKS: Backoff = { initialMs: HELD_RECHECK_MS, maxMs: HELD_RECHECK_MAX_MS, low: 1, high: 1 };
/** Facts asked for per part when the server has no get_episode_entities. */
const FACTS_PER_SEARCH = 50;

export interface RetireInput {
  semantics: ServerSemantics;
  /** Origins of shared sources: their older versions always wait for the replacement. */
  sharedOrigins: ReadonlySet<string>;
  /** `sync --release-held`: held parts are deleted now, unguarded (the user asked). */
  releaseHeld?: boolean;
}

export interface Retired {
  /** Parts deleted now (or found already gone): their leftover facts are fact-cleanup.ts's. */
  deleted: EpisodeRef[];
  /** Parts held this time (see above). */
  held: EpisodeRef[];
  /** Facts removed one by one from held parts. */
  factsRemoved: number;
}

/** What the delete phase tells the run: the counters it adds (the parts themselves are already written into the state). */
export interface RetireResult {
  /** Parts held this time instead of deleted. */
  held: number;
  /** Facts removed: one by one from held parts, plus those fact-cleanup.ts found left behind by deleted parts. */
  factsRemoved: number;
}

/**
 * The delete phase: deletes what is retired, then removes the facts the server leaves behind. Like
 * the send phase it journals each record as it goes (the state is the progress); what the run
 * learns comes back as a `RetireResult`, which the orchestrator writes (`applyRetireResult`).
 */
export async function retirePhase(ctx: OnlineRun, input: RetireInput): Promise<RetireResult> {
  const retired = await deleteRetired(ctx, input);
  const leftBehind = needsFactCleanup(input.semantics) ? await cleanupFacts(ctx, retired.deleted) : 0;
  return { held: retired.held.length, factsRemoved: retired.factsRemoved + leftBehind };
}

/** Adds the delete phase's counters to the run's. */
export function applyRetireResult(ctx: RunContext, result: RetireResult): void {
  ctx.counts.held += result.held;
  ctx.counts.factsRemoved += result.factsRemoved;
}

export async function deleteRetired(ctx: OnlineRun, input: RetireInput): Promise<Retired> {
  const { state, options } = ctx;
  const out: Retired = { deleted: [], held: [], factsRemoved: 0 };
  const iso = new Date(ctx.now()).toISOString();
  // An episode a current part holds is never deleted: after a revert (A → B → A before A's old
  // episode was deleted) or a re-created file, reconcile adopts the old episode for the current
  // part, and deleting it as retired would lose the content while the state says "confirmed".
  const current = new Set<string>();
  for (const record of Object.values(state.files)) for (const ref of record.episodes) if (ref.uuid !== undefined) current.add(ref.uuid);
  const retired = retiredEpisodeUuids(state, { evenBeforeReplacement: true });
  const existing = supportChecker(ctx);
  // Asked on the first delete only: a run with nothing retired asks the server nothing.
  let reach: Promise<GroupReach> | undefined;
  const inReach = async (ref: EpisodeRef, lookAgain = false) => (await (reach ??= groupReach({ graphiti: ctx.graphiti, db: ctx.config.db, signal: options.signal, logger: ctx.logger }))).inReach(ref.groupId, lookAgain);
  // The state is the count (sync/summary.ts `awaitingGroup`).
  const awaitGroup = (ref: EpisodeRef) => {
    ref.awaitsGroupSince ??= iso;
  };
  const remove = async (refs: EpisodeRef[]): Promise<EpisodeRef[]> => {
    const keep: EpisodeRef[] = [];
    for (const ref of refs) {
      if (ref.uuid !== undefined && current.has(ref.uuid)) continue;
      // Another machine's, as far as this one knows (copy-hold.ts COPY_HOLD): kept until the user says what this machine is.
      if (heldAsCopy(ref)) {
        keep.push(ref);
        continue;
      }
      // A held part waits for its re-check only while the rules still guard deletes: rules learnt since (0.31.2) let it go now.
      if (ref.uuid === undefined || !ctx.server.reachable || options.signal?.aborted === true || (deleteGuard(input.semantics) && input.releaseHeld !== true && heldRecently(ref, ctx.now()))) {
        keep.push(ref);
        continue;
      }
      try {
        const release = input.releaseHeld === true && ref.heldAt !== undefined;
        if (release) ctx.logger.info('letting a held episode go on request (sync --release-held)', { uuid: ref.uuid, facts: ref.heldFacts });
        // Before the guard: off its group the server would show the guard no facts either.
        if (!(await inReach(ref))) {
          awaitGroup(ref);
          keep.push(ref);
          continue;
        }
        delete ref.awaitsGroupSince;
        if (!release && (await hold(ctx, input.semantics, ref, retired, iso, out, existing))) {
          keep.push(ref);
          continue;
        }
        const { notFound } = await ctx.graphiti.deleteEpisode(ref.uuid, ref.groupId, options.signal);
        // "Not found" is "already gone" only if the server was on the group when it answered.
        if (notFound && !(await inReach(ref, true))) {
          ctx.logger.info('delete_episode answered "not found" after the server moved to another group; it waits for the server to be on its group again', { uuid: ref.uuid, group: ref.groupId });
          awaitGroup(ref);
          keep.push(ref);
          continue;
        }
        // Gone (deleted now, or already): its facts may not be (fact-cleanup.ts).
        rememberDeleted(state, ref.uuid, ref.groupId, iso);
        out.deleted.push(ref);
      } catch (error) {
        // A server gone for now, or one refusing the endpoint (our local server stopping: no token
        // from then on): every further delete would meet the same, so the run stops using it.
        if (serverUnusable(error)) ctx.server.markDown(error);
        ctx.logger.warn('delete_episode failed; will retry next run', { uuid: ref.uuid, error: (error as Error).message });
        keep.push(ref);
      }
    }
    return keep;
  };
  const breakFirst = editOrder(input.semantics) === 'break-before-make';
  for (const record of Object.values(state.files)) {
    if (record.superseded.length === 0) continue;
    const confirmed = currentVersionConfirmed(record);
    if (!confirmed && !(breakFirst && !isSharedRecord(record, input.sharedOrigins))) continue;
    const before = record.superseded;
    record.superseded = await remove(record.superseded);
    if (!confirmed && record.superseded.length < before.length) {
      record.bridgingSince ??= iso;
      keepBridge(record, before.filter((ref) => out.deleted.includes(ref)));
    }
    await ctx.ledger.journal([record]);
  }
  if (state.orphans.length > 0) {
    state.orphans = await remove(state.orphans);
    await ctx.ledger.journal([], true);
  }
  return out;
}

/**
 * On servers whose delete takes the facts an episode created first: holds `ref` when that would
 * take a fact another live episode states, and removes the facts that rest only on retired
 * episodes instead. False: nothing to protect, delete it.
 */
async function hold(ctx: OnlineRun, semantics: ServerSemantics, ref: EpisodeRef, retired: ReadonlySet<string>, iso: string, out: Retired, supports: SupportChecker): Promise<boolean> {
  const uuid = ref.uuid as string;
  if (!deleteGuard(semantics)) return false;
  const facts = await factsOf(ctx, ref);
  // Support counts only from episodes that still exist: 0.29.3 and 0.31.1 keep a deleted episode's uuid in `episodes`.
  const lost: Fact[] = [];
  for (const fact of factsLostByDeleting(semantics, uuid, facts, retired)) {
    for (const other of fact.episodes ?? []) {
      if (other === uuid || retired.has(other) || !(await supports(other, fact.uuid, ref.groupId))) continue;
      lost.push(fact);
      break;
    }
  }
  if (lost.length === 0) {
    delete ref.heldAt;
    delete ref.heldSince;
    delete ref.heldFacts;
    delete ref.heldChecks;
    return false;
  }
  for (const fact of facts) {
    if (!(fact.episodes ?? []).includes(uuid) || !factRestsOnlyOn(fact, retired)) continue;
    await ctx.graphiti.deleteEntityEdge(fact.uuid, ref.groupId, ctx.options.signal);
    out.factsRemoved++;
  }
  ref.heldChecks = ref.heldAt === undefined ? 0 : (ref.heldChecks ?? 0) + 1;
  ref.heldSince ??= iso;
  ref.heldAt = iso;
  ref.heldFacts = lost.length;
  out.held.push(ref);
  ctx.logger.info('kept a retired episode: deleting it would delete facts another episode still states', { uuid, facts: lost.length });
  return true;
}

/** The facts resting on a part: get_episode_entities where the server has it, else a search by its words. */
async function factsOf(ctx: OnlineRun, ref: EpisodeRef): Promise<Fact[]> {
  const exact = await ctx.graphiti.episodeFacts(ref.uuid as string, ref.groupId, ctx.options.signal);
  if (exact !== undefined) return exact;
  const query = [ref.name, ref.probe ?? ''].join(' ').trim();
  return (await ctx.graphiti.searchFacts(query, [ref.groupId], FACTS_PER_SEARCH, ctx.options.signal)).filter((f) => (f.episodes ?? []).includes(ref.uuid as string));
}

/**
 * Whether `episode` exists and still states `fact`: get_episode_entities reads the episode node
 * (a deleted one has none). Asked once per episode and run; where the server has no such tool,
 * the episode counts as there (holding is the safe side).
 */
type SupportChecker = (episode: string, fact: string, groupId: string) => Promise<boolean>;

function supportChecker(ctx: OnlineRun): SupportChecker {
  const known = new Map<string, Promise<string[] | undefined>>();
  return async (episode, fact, groupId) => {
    const key = `${groupId}\u0000${episode}`;
    let facts = known.get(key);
    if (facts === undefined) {
      facts = ctx.graphiti.episodeFactUuids(episode, groupId, ctx.options.signal);
      known.set(key, facts);
    }
    const uuids = await facts;
    return uuids === undefined || uuids.includes(fact);
  };
}

/** A held part is checked again after HELD_RECHECK_MS, twice as long after each check that kept it, at most HELD_RECHECK_MAX_MS. */
function heldRecently(ref: EpisodeRef, now: number): boolean {
  if (ref.heldAt === undefined) return false;
  return now - Date.parse(ref.heldAt) < backoffDelay(HELD_RECHECKS, (ref.heldChecks ?? 0) + 1);
}

/**
 * Remembers the newest of the older versions deleted before this one is in (`bridgedFrom`): if
 * this one cannot be stored, that one is sent again (sync/restore.ts). Its parts share a content
 * hash in their marker; the newest is last (plan.ts appends each replaced version).
 */
function keepBridge(record: FileRecord, deleted: EpisodeRef[]): void {
  const versionOf = (ref: EpisodeRef) => partMarker(ref)?.hash;
  const newest = versionOf(deleted.at(-1) as EpisodeRef);
  const parts = deleted.filter((ref) => versionOf(ref) === newest && ref.uuid !== undefined);
  if (parts.length === 0) return;
  const kept = record.bridgedFrom ?? [];
  // A newer deleted version replaces an older one kept before.
  const same = kept.length > 0 && versionOf(kept[0] as EpisodeRef) === newest;
  record.bridgedFrom = [...(same ? kept : []), ...parts.map((ref) => ({ ...ref }))];
}

/** Every part of the record's current version is in the graph (or it has none to wait for). */
export function currentVersionConfirmed(record: FileRecord): boolean {
  return record.episodes.every((ref) => ref.uuid !== undefined);
}

/**
 * Whether a record's new version may be sent now. Break-before-make (own notes on 0.29.3 –
 * 0.31.1): only once its older versions are gone, held, or waiting for the server to be on their
 * group (only a write to the group brings it there: this one); else always.
 */
export function readyToSend(record: FileRecord, input: RetireInput): boolean {
  if (editOrder(input.semantics) !== 'break-before-make' || isSharedRecord(record, input.sharedOrigins)) return true;
  return record.superseded.every((ref) => ref.heldAt !== undefined || ref.awaitsGroupSince !== undefined || heldAsCopy(ref));
}

/** Any retired part at all (waiting, due or held): only then does the server's delete rule matter to a run. */
export function anythingRetired(state: SyncState): boolean {
  return state.orphans.length > 0 || Object.values(state.files).some((r) => r.superseded.length > 0);
}

/**
 * Any retired part this machine deletes some day: the old version of an edit, a deleted note's, a
 * duplicate, one held back (its deletion waits on the server's rules). Not a part held as another
 * machine's (copy-hold.ts: `origin --keep` decides it, not the rules). What the server's rules
 * decide, so what a rules probe is run for (sync.ts PROBE_WHEN_NEEDED).
 */
export function anythingToDelete(state: SyncState): boolean {
  const ours = (ref: EpisodeRef) => !heldAsCopy(ref);
  return state.orphans.some(ours) || Object.values(state.files).some((r) => r.superseded.some(ours));
}

/** Any part whose deletion still waits (its uuid, or its turn). Held parts do not wait. */
export function retiredWaiting(ctx: RunContext): boolean {
  return Object.values(ctx.state.files).some((r) => r.superseded.some((s) => s.uuid === undefined)) || ctx.state.orphans.some((o) => o.uuid === undefined);
}

/** Retired parts that need the server this run (held ones only when due for a re-check). */
export function retiredDue(state: SyncState, now: number, releaseHeld = false): boolean {
  // A part held as another machine's is not due until `origin --keep` (copy-hold.ts): no run goes online for it.
  const due = (ref: EpisodeRef) => !heldAsCopy(ref) && (releaseHeld || !heldRecently(ref, now));
  return state.orphans.some(due) || Object.values(state.files).some((r) => r.superseded.some(due));
}
