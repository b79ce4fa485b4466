/**
 * The sync engine: memory files on disk → Graphiti episodes, exactly once. This file is the
 * orchestrator; each phase is a module of its own with typed inputs and outputs:
 *
 *   scan (memory/scan.ts) → plan (plan.ts, which prepares each file through prepare.ts; the MCP
 *     handshake runs meanwhile when the scan shows the run may go online: early-handshake.ts)
 *   → what the server's delete removes (graphiti/server-rules.ts: known, or probed and cached)
 *   → parts an earlier run left in flight count as queued (in-flight.ts `leftInFlight`, invariant 3)
 *   → reconcile with the graph (confirm.ts: listing.ts + the pure reconcile.ts; in the first
 *     listing, the madeinoz hook's notes are taken over: adopt-prior.ts `decidePriorTakeover`
 *     → `applyPriorTakeover`)
 *   → send (send.ts: `sendable` picks the files, `sendParts` returns a `SendResult` that
 *     `applySendResult` writes) and delete retired parts + the facts they left (retire.ts `retirePhase`,
 *     with fact-cleanup.ts, returns a `RetireResult` that `applyRetireResult` writes),
 *     in the order the server's semantics demand (`settle`: make before break, or break before make)
 *   → [wait: reconcile and settle again] → summary (summary.ts).
 *
 * Why it is shaped like this:
 * - `add_memory` only queues and Graphiti drops failures silently, so a reply proves nothing.
 *   Every episode carries a marker in its source_description; an episode counts as delivered only
 *   once `get_episodes` shows that marker (status `confirmed`).
 * - Graphiti never deduplicates episodes, so before anything is sent we list the group and adopt
 *   an episode that already carries the marker (crash after send, lost state), and when a marker
 *   shows up twice we keep the copy processed first (it created the facts) and delete the others.
 * - What the graph KNOWS (facts, summaries) must stay true, and what a delete takes differs by
 *   server generation: docs/semantics.md.
 * - The state is journaled before a request goes out (the part is "in flight") and after its reply
 *   (ledger.ts), so a kill at any moment leaves a state that the next run can finish.
 * - A server that is down leaves work `pending`: that is the outbox; nothing is dropped.
 * The invariants are numbered in docs/architecture.md.
 */
import { readFileSync } from 'node:fs';
import type { Config } from '../config/config.js';
import { GraphitiClient, NotGraphitiError, type ServerProfile } from '../graphiti/graphiti.js';
import { CAUTIOUS_SEMANTICS, editOrder } from '../graphiti/semantics.js';
import { cautiousUntilNeeded, cautiousWhileQueued, readSemantics, semanticsOptions, type ResolvedSemantics } from '../graphiti/server-rules.js';
import { McpError } from '../mcp/errors.js';
import { filterSources, resolveSources } from '../memory/sources.js';
import { scanSources } from '../memory/scan.js';
import { checkSourceRoots } from './source-roots.js';
import type { MemorySource, ScannedFile } from '../memory/types.js';
import { describeOwner, withLock, type Lock, type LockOwner } from '../state/lock.js';
import { everyPart, fileRecordId, loadState, saveState, type FileRecord, type SyncState } from '../state/state.js';
import { backoffDelay, sleep, type Backoff } from '../util/backoff.js';
import { nullLogger, type Logger } from '../util/log.js';
import { priorMigration } from './adopt-prior.js';
import { applyLeftInFlight, leftInFlight } from './in-flight.js';
import { clockMarkNow, jumpSince, requeueAfterJump, serverOnThisMachine, sleptMs, stampsAfterStepBack, stepBackSince, waitsAfterJump, type ClockMark } from './clock-jump.js';
import { forgetClockOffsets } from './pace.js';
import { Ledger } from './ledger.js';
import { reconcileWithGraph, type ReconcileRun } from './confirm.js';
import { waitingMarkers } from './listing.js';
import { applyPlan, planRun, type Plan } from './plan.js';
import { foldMirrorRecords, oneMountPerFile, type MountGroups } from './one-mount.js';
import { groupFor } from './prepare.js';
import { parseMemoryFile } from '../memory/parse.js';
import { mayNeedServer, startHandshake, type Handshake } from './early-handshake.js';
import { anythingRetired, anythingToDelete, applyRetireResult, readyToSend, retiredDue, retirePhase, retiredWaiting, type RetireInput } from './retire.js';
import { nextListingTime, scheduleSent } from './schedule.js';
import { applySendResult, sendable, sendParts } from './send.js';
import { restoreFailedBridges } from './restore.js';
import { keepText, pruneKeptText } from '../state/kept-text.js';
import { statusCounts, summarize } from './summary.js';
import { emptyCounts, ServerHealth, SyncError, type OnlineRun, type RunContext, type SyncOptions, type SyncSummary } from './types.js';
import { migrateStateOrigins } from './origin-migration.js';
import { sharedOriginsIn } from './shared.js';
import { loadNoteSigner } from './note-signing.js';
import { pulledFiles } from '../state/pulled.js';
import { ourOrigins } from '../util/origin.js';
import { copyWatchDue, takeUpState, type TakeUp } from './copy-hold.js';
import { forceLookParts } from './force-look.js';
import { anotherServer, lookOwed, lookOwedAfter, serverOfRecord } from '../state/server-of-record.js';
import { backOnServer, boundLeftLists, leaveServer, LEFT_LIST_DAYS, partsKnownHere } from './deleted-while-away.js';
import { writeMachineStamp } from '../state/machine-stamp.js';

export { SyncError, type SyncOptions, type SyncProblem, type SyncSummary } from './types.js';
export { isClean } from './summary.js';

interface RunInput {
  config: Config;
  options: SyncOptions;
  logger: Logger;
  sources: MemorySource[];
  /** The configured sources this run leaves out (`--source`). */
  unscanned: ReadonlySet<string>;
  state: SyncState;
  /** State was lost or never existed: old versions of our files in the graph may be unknown to us. */
  rebuilding: boolean;
  /** Undefined for a dry run, which plans and writes nothing. */
  lock: Lock | undefined;
  /** Whether the state came from another machine (copy-hold.ts): stamp the folder as ours once it is saved. */
  takeUp?: TakeUp;
}

export async function runSync(config: Config, options: SyncOptions = {}): Promise<SyncSummary> {
  const logger = (options.logger ?? nullLogger).child({ component: 'sync' });
  const configured = resolveSources(config);
  const sources = filterSources(configured, options.source);
  // The configured sources `--source` leaves out: a mount of theirs the state follows stays the one synced (one-mount.ts MOUNT_OUTSIDE_THE_RUN).
  const unscanned = new Set(configured.filter((s) => !sources.includes(s)).map((s) => s.name));
  if (options.dryRun === true) {
    const { state } = await loadState(config.stateDir, { readOnly: true });
    return run({ config, options, logger, sources, unscanned, state, rebuilding: false, lock: undefined });
  }
  return withLock(
    config.stateDir,
    async (lock) => {
      const loaded = await loadState(config.stateDir);
      if (loaded.recovered !== undefined) logger.warn('state file was corrupt; kept aside and rebuilding from the server', { ...loaded.recovered });
      const takeUp = takeUpState(config, loaded.state, loaded.fresh, undefined, new Date((options.now ?? Date.now)()).toISOString());
      // The marks on disk before anything is journaled, in the format older builds refuse (state/format.ts HELD_NEEDS_NEWER_FORMAT).
      if (takeUp.marked > 0) await saveState(config.stateDir, loaded.state);
      if (takeUp.marked > 0) logger.warn('this state folder was made on another machine: what it names is held, not deleted, until you say what this machine is (graphiti-memory-sync origin)', { parts: takeUp.marked });
      return run({ config, options, logger, sources, unscanned, state: loaded.state, rebuilding: loaded.recovered !== undefined || loaded.fresh || anotherServer(loaded.state.server, serverOfRecord(config)), lock, takeUp });
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
  const { config, options, logger, sources, unscanned, state } = input;
  const now = options.now ?? Date.now;
  const startedAt = now();
  const clock = options.clockMark?.() ?? (options.now === undefined ? clockMarkNow() : undefined);
  const jumped = input.lock === undefined || clock === undefined ? { parts: 0, rebased: false } : requeueIfClockJumped(config, state, startedAt, clock, logger);
  const requeued = jumped.parts;
  // STAMPS_AFTER_STEP_BACK moves stamps by how far the clock moved since `lastRun`: the moved stamps
  // and the new base go to disk together, before anything is journaled, so that a run killed later
  // is not told the same step again (every stamp moved twice, one made after the step moved too).
  if (jumped.rebased) await saveState(config.stateDir, state);
  const migratedOrigins = migrateStateOrigins(state, config);
  const scanned = await scanSources(sources, {
    exclude: config.exclude,
    maxFileBytes: config.maxFileBytes,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
  // A source name given to another folder that is still there: held, nothing of it planned (source-roots.ts).
  const roots = checkSourceRoots(state, sources);
  const rooted = roots.held.size === 0 ? scanned : { ...scanned, files: scanned.files.filter((f) => !roots.held.has(f.source)), problems: [...scanned.problems, ...roots.problems] };
  for (const problem of roots.problems) logger.warn('source held: its name stood for another folder', { source: problem.source, message: problem.message });
  // A team file mounted in two project folders here is one note, synced from one path (one-mount.ts ONE_MOUNT_PER_FILE).
  const mounts = oneMountPerFile(rooted.files, sources, state, mountGroups(config), unscanned);
  const scan = mounts.mirrors.length === 0 ? rooted : { ...rooted, files: mounts.files };
  const folded = foldMirrorRecords(state, mounts, new Date(now()).toISOString());
  if (mounts.mirrors.length > 0) logger.info('files found at several paths: one path synced for each', { mirrors: mounts.mirrors.map((f) => fileRecordId(f.source, f.relPath)), folded });
  // The handshake overlaps the plan when the scan says the run may go online (early-handshake.ts).
  const connection = new RunConnection(config, options, logger);
  if (input.lock !== undefined && mayNeedServer({ state, scan, sources, force: options.force === true, stateNeedsServer: options.rulesWanted === true || stateNeedsServer(config, state, now(), input.rebuilding, options.releaseHeld === true) })) connection.startEarly();
  // A linked machine signs its notes (issue 42); a copy `pull` wrote, untouched, is not sent again.
  const signing = await loadNoteSigner(config).catch(async (error: unknown) => {
    await connection.close();
    throw error; // a pull ledger a newer build wrote (StateConflictError): nothing is sent
  });
  if (signing.problem !== undefined) logger.warn('notes are not signed: the note key is not usable', { error: signing.problem });
  const plan = await planRun({ config, state, scan, sources, force: options.force === true, nowIso: new Date(now()).toISOString(), signer: signing.signer, pulledFiles: pulledFiles(signing.pulled, ourOrigins(config)), now, ...(options.sleep === undefined ? {} : { sleep: options.sleep }), ...(options.signal === undefined ? {} : { signal: options.signal }) }).catch(async (error: unknown) => {
    await connection.close();
    throw error;
  });
  applyPlan(state, plan);
  for (const event of plan.events) logger.info(event.message, event.data);
  // After the plan: a note deleted in this run counts as deleted (what the list owes), online or not.
  const bounded = input.lock === undefined ? [] : boundLeftLists(state, now());
  for (const cut of bounded) {
    logger.warn(`this machine left ${cut.server} more than ${LEFT_LIST_DAYS} days ago: notes deleted from now on are no longer deleted there should it come back (the ${cut.owed} part(s) of notes deleted before still are); if you mean to go back to it, do so before deleting more notes (LEFT_LIST_BOUND)`, { left: cut.since, dropped: cut.dropped, owed: cut.owed });
  }
  const ctx: RunContext = {
    config,
    options,
    logger,
    sources,
    state,
    ledger: new Ledger(config.stateDir, state, now, input.lock, input.lock === undefined),
    server: new ServerHealth(logger),
    now,
    signer: signing.signer,
    counts: { ...emptyCounts(), ...plan.counts },
    problems: plan.problems,
    outgoing: plan.outgoing,
    slept: { toldMs: 0 },
    lostSeen: new Map(),
  };
  if (input.lock === undefined) return summarize(ctx, plan);
  const online = needsServer(ctx, input.rebuilding);
  const semantics = await (online ? onlinePhases({ ...ctx, graphiti: connection.client() }, input, plan, connection, startedAt) : Promise.resolve(undefined)).finally(() =>
    endRun(ctx, { changed: online || plan.changed || bounded.length > 0 || folded > 0 || migratedOrigins > 0 || requeued > 0 || roots.changed || (input.takeUp?.marked ?? 0) > 0, startedAt, clock, connection, ...(input.takeUp?.stamp === true ? { stampAs: config.machineKey } : {}) }),
  );
  return summarize(ctx, plan, semantics);
}

/**
 * The phases that need the server, once the plan says the run goes online: what the server
 * deletes, what earlier runs left in flight, reconcile, settle, and `--wait`. The server's rules
 * when they are known (undefined: the server could not be reached).
 */
async function onlinePhases(online: OnlineRun, input: RunInput, plan: Plan, connection: RunConnection, startedAt: number): Promise<ResolvedSemantics | undefined> {
  const { config, options, state } = online;
  const learned = await learnSemantics(online, connection.profile, () => oursInQueue(online));
  if (learned === undefined) return undefined;
  applyLeftInFlight(leftInFlight(state, startedAt));
  const plannedAdds = new Set(plan.actions.filter((a) => a.action === 'add').map((a) => a.id));
  const sharedOrigins = sharedOriginsIn(config, state);
  const order: SettleOrder = { semantics: learned.answer, sharedOrigins, sessions: learned.sessions, probing: learned.probing };
  // SERVER_OF_RECORD (state/server-of-record.ts): the first run on another server looks as --force does.
  const server = serverOfRecord(config);
  const moved = anotherServer(state.server, server);
  // A source an earlier `--source` run here left out is owed the same look (LOOK_OWED_TO_SOURCES_LEFT_OUT).
  const look = options.force === true || moved || lookOwed(state.serverLookOwed, input.sources);
  // DELETED_WHILE_AWAY (deleted-while-away.ts): what the state knew on the server it leaves, before the look forgets any of it.
  const leaving = moved ? partsKnownHere(state) : [];
  const first: ReconcileRun = { rebuilding: input.rebuilding, sharedOrigins, plannedAdds, ignoreBackoff: look, forceLook: look, prior: priorMigration(online, plannedAdds) };
  if (await reconcileWithGraph(online, first)) {
    if (moved && state.server !== undefined) leaveServer(state, state.server, leaving, new Date(online.now()).toISOString());
    const deleted = backOnServer(state, server, config.deleteRemoved);
    if (deleted > 0) online.logger.info('back on a server this machine left: the notes deleted meanwhile are deleted there too (DELETED_WHILE_AWAY)', { server, parts: deleted });
    const owed = lookOwedAfter(moved, state.serverLookOwed, input.sources, input.unscanned);
    if (owed === undefined) delete state.serverLookOwed;
    else state.serverLookOwed = owed;
    state.server = server;
    await online.ledger.save();
    await settle(online, order);
    // The wait's passes go on from the first one (what it covered), paced by the schedule.
    if ((options.waitMs ?? 0) > 0 && online.server.reachable) await waitForConfirmation(online, { ...first, ignoreBackoff: false }, order, options.waitMs ?? 0);
  }
  // A probe put off at the start runs once nothing of ours is left in the server's queue, in a run
  // that needs it (PROBE_WHEN_NEEDED: at its start, or found since, a duplicate); what
  // the cautious rules held or put off this run is then deleted by the rules it found.
  if (learned.deferred !== undefined && online.server.reachable && !oursQueued(online) && (learned.deleting || probeWanted(online))) {
    const found = await learned.deferred();
    if (found.source === 'probe' && anythingRetired(state)) applyRetireResult(online, await retirePhase(online, { semantics: found, sharedOrigins, releaseHeld: options.releaseHeld === true }));
    return found;
  }
  // A probe still running finishes (and is cached) before the run reports what the server deletes.
  return learned.answer;
}

/**
 * Something of ours may be in the server's queue: sent and not yet seen, or about to be sent.
 * The probe's scratch group is not processed beside it. On FalkorDB (one graph per group),
 * graphiti-core before 0.30.2 wrote an episode processed while another group's was into the other
 * group's graph (graphiti #1331, #1676): a note of ours in the scratch graph would read as dropped,
 * be sent again and be cleared with the group, and the probe's fact would be in the user's graph.
 * The servers we probe (1.1.x, graphiti-core 0.30.2 and later) scope a driver to each call and do
 * not cross (test/real-graphiti/killed-probe.test.ts, with 0.29.3 crossing), but the probe also
 * runs on builds we have not seen, so ours and the probe's are still kept apart.
 */
function oursQueued(ctx: OnlineRun): boolean {
  const unsent = Object.values(ctx.state.files).some((r) => r.status === 'pending');
  return unsent || oursInQueue(ctx);
}

/** Ours sent and not yet seen, in the server's queue (a rebuild's "list every group" is not a part in the queue). */
function oursInQueue(ctx: OnlineRun): boolean {
  return [...waitingMarkers(ctx.state, false, sharedOriginsIn(ctx.config, ctx.state)).values()].some((markers) => markers.size > 0);
}

/**
 * The group each mount of a file goes to (one-mount.ts ONE_MOUNT_PER_FILE), as prepare.ts `groupFor`
 * gives it: by the settings, then with the front matter read. A file that cannot be read or parsed,
 * or a group the plan will refuse, counts as the settings' group (the plan says what is wrong).
 */
function mountGroups(config: Config): MountGroups {
  const bySettings = (file: ScannedFile) => {
    try {
      return groupFor(config, file, undefined);
    } catch {
      return '';
    }
  };
  return {
    bySettings,
    withFrontMatter: (file) => {
      try {
        const parsed = parseMemoryFile(readFileSync(file.absPath), file.relPath);
        return groupFor(config, file, parsed.ok ? parsed.data.groupId : undefined);
      } catch {
        return bySettings(file);
      }
    },
  };
}

/**
 * CLOCK_JUMPED_FORWARD (clock-jump.ts): the wall clock jumped forward since the last run: what waits
 * counts as queued from now, and an absence a copy is timing (or a shared part's wait for a racing
 * copy) keeps only the real time it lasted (ABSENCE_AFTER_JUMP). Set back since: the stamps made
 * before count on the clock as it is now (STAMPS_AFTER_STEP_BACK). How many parts changed.
 */
function requeueIfClockJumped(config: Config, state: SyncState, startedAt: number, clock: ClockMark, logger: Logger): { parts: number; rebased: boolean } {
  const stepMs = stepBackSince(state.lastRun, startedAt, clock);
  if (stepMs > 0) {
    const parts = stampsAfterStepBack(state, stepMs);
    // The stamps are now on this run's clock: so is the base the next run measures a step from (`status`: did not finish, until it does).
    state.lastRun = { startedAt: new Date(startedAt).toISOString(), clock };
    logger.info('the clock was set back since the last run: what this machine stamped before counts on the clock as it is now (STAMPS_AFTER_STEP_BACK)', { stepMs, parts });
    return { parts, rebased: true };
  }
  const jumpMs = jumpSince(state.lastRun, startedAt, clock);
  // SLEPT_WITH_THE_SERVER: a server on this machine slept with it; its queue did not move meanwhile.
  const asleepMs = serverOnThisMachine(config.mcpUrl) ? sleptMs(state.lastRun?.clock, clock) : 0;
  if (jumpMs === 0 && asleepMs === 0) return { parts: 0, rebased: false };
  const parts = requeueAfterJump(state, startedAt);
  const absences = waitsAfterJump(state, jumpMs + asleepMs, startedAt, sharedOriginsIn(config, state));
  if (asleepMs > 0) logger.info('this machine slept since the last run, and the server on it with it: parts still waiting count as queued from now, absences count only the time it was awake (SLEPT_WITH_THE_SERVER)', { asleepMs, parts, absences });
  if (jumpMs === 0) return { parts: parts + absences, rebased: false };
  // The server's clock minus ours, as learnt before the jump, is that much off now (pace.ts SERVER_AHEAD_PROVEN).
  const offsets = forgetClockOffsets(state);
  logger.info('the clock jumped forward since the last run: parts still waiting count as queued from now (CLOCK_JUMPED_FORWARD), absences count the real time they lasted (ABSENCE_AFTER_JUMP), the server clock\'s offset is learnt again', { jumpMs, parts, absences, offsets });
  return { parts: parts + absences + offsets, rebased: false };
}

/** The end of every run that may write: the kept texts pruned, `lastRun` and the state written, the connection closed. */
async function endRun(ctx: RunContext, end: { changed: boolean; startedAt: number; clock: ClockMark | undefined; connection: RunConnection; stampAs?: string | undefined }): Promise<void> {
  const { config, state } = ctx;
  // By this run's state, so only while the lock is still ours: a run that lost it (stopped past the
  // stale age) would remove the texts the new holder keeps for the versions it sent (LOCK_PROVEN_AT_WRITE).
  if (end.changed && ctx.ledger.holdsLock()) await pruneKeptText(config.stateDir, keptMarkers(state)).catch(() => undefined);
  // A sleep told inside the wait counts as awake in the mark the next run measures from: told once.
  const clock = end.clock?.awakeMs === undefined || ctx.slept.toldMs === 0 ? end.clock : { ...end.clock, awakeMs: end.clock.awakeMs + ctx.slept.toldMs };
  state.lastRun = { startedAt: new Date(end.startedAt).toISOString(), finishedAt: new Date(ctx.now()).toISOString(), summary: statusCounts(ctx), redactions: { ...ctx.counts.redactionsByKind }, ...(clock === undefined ? {} : { clock }) };
  try {
    if (end.changed) await ctx.ledger.save();
    else await ctx.ledger.journalLastRun();
    await ctx.ledger.close();
    // Only once the marks are on disk: a kill before this makes the next run take the state up again (copy-hold.ts).
    if (end.stampAs !== undefined) {
      try {
        writeMachineStamp(config.stateDir, end.stampAs, new Date(ctx.now()));
      } catch (error) {
        ctx.logger.warn('could not record this machine in the state folder; the next run tries again', { error: (error as Error).message });
      }
    }
  } finally {
    // Also when the save threw (the lock lost to another process, a full disk): the journal's file
    // handle and the server's MCP session are this run's, and nothing is left to write through them
    // (the ledger writes nothing more once the lock is lost). The lock file is withLock's (a lost one
    // stays the new holder's). A handshake started early for a plan that found nothing for the server: no retries left behind.
    await ctx.ledger.close().catch(() => undefined);
    await end.connection.close();
  }
}

/**
 * The run's connection to the server: opened early when the scan says the run may go online
 * (early-handshake.ts), else when it does; closed once, if it is ours (not the caller's client).
 */
class RunConnection {
  #graphiti: GraphitiClient | undefined;
  #handshake: Handshake | undefined;

  constructor(
    private readonly config: Config,
    private readonly options: SyncOptions,
    private readonly logger: Logger,
  ) {}

  startEarly(): void {
    this.#handshake = startHandshake(this.client(), this.options.signal);
  }

  client(): GraphitiClient {
    this.#graphiti ??= this.options.graphiti ?? new GraphitiClient(this.config, { logger: this.logger });
    return this.#graphiti;
  }

  /** The early handshake's tool surface, when one was started. */
  get profile(): Promise<ServerProfile> | undefined {
    return this.#handshake?.profile;
  }

  async close(): Promise<void> {
    this.#handshake?.cancel();
    if (this.options.graphiti === undefined) await this.#graphiti?.close().catch(() => undefined);
  }
}

/**
 * One pass of the phases after a reconcile, in the order the server's delete rule demands
 * (graphiti/semantics.ts `editOrder`): break-before-make deletes older versions before their
 * replacements are sent; make-before-break sends first and deletes once they are confirmed.
 */
async function settle(ctx: OnlineRun, run: SettleOrder): Promise<void> {
  // A new version that failed after its old one was deleted first: the old one goes out again (restore.ts).
  await restoreFailedBridges(ctx);
  // Nothing retired: the delete rule cannot change what happens. A probe this run started is still
  // waited for before anything is sent: its episodes are never processed beside ours (`oursQueued`).
  const retired = anythingRetired(ctx.state);
  const rules = retired || run.probing ? await rulesNow(ctx, run) : undefined;
  const order: RetireInput | undefined = retired && rules !== undefined ? { semantics: rules, sharedOrigins: run.sharedOrigins, releaseHeld: ctx.options.releaseHeld === true } : undefined;
  if (order !== undefined && editOrder(order.semantics) === 'break-before-make') {
    applyRetireResult(ctx, await retirePhase(ctx, order));
    await sendPending(ctx, (record) => readyToSend(record, order));
    scheduleSent(ctx.state, ctx.now()); // pace lane (issue 27): the first listing for what was just sent
  } else {
    await sendPending(ctx, () => true);
    scheduleSent(ctx.state, ctx.now()); // pace lane (issue 27): the first listing for what was just sent
    if (order !== undefined) applyRetireResult(ctx, await retirePhase(ctx, order));
  }
}

/** The send phase over the outbox's files that may go now; its result (rejections, a server gone down) is written into the run. */
async function sendPending(ctx: OnlineRun, ready: (record: FileRecord) => boolean): Promise<void> {
  const { options } = ctx;
  const jobs = sendable(ctx.outgoing, ready, options.max);
  // The text as sent, so that a version deleted before its replacement is stored can be sent again (restore.ts).
  await keepText(ctx.config.stateDir, jobs.flatMap((job) => [...job.drafts.values()])).catch((error: unknown) => ctx.logger.warn('could not keep the text of the versions sent', { error: (error as Error).message }));
  const result = await sendParts({
    jobs,
    graphiti: ctx.graphiti,
    ledger: ctx.ledger,
    concurrency: ctx.config.concurrency,
    now: ctx.now,
    logger: ctx.logger,
    serverReachable: ctx.server.reachable,
    signal: options.signal,
    onProgress: options.onProgress,
  });
  applySendResult(ctx, result);
}

/** The settle phase's order: the server's delete rule (perhaps still being probed) and the shared origins. */
interface SettleOrder {
  semantics: Promise<ResolvedSemantics>;
  sharedOrigins: ReadonlySet<string>;
  /** MCP sessions opened when the rules were read: a later one means the server may have restarted since (as another build). */
  sessions: number;
  /** `semantics` is a probe this run started: nothing is sent before it ends. */
  probing: boolean;
}

/**
 * The rules for this settle: those read at the start of the run, unless the server forgot our
 * session since (a restart, perhaps as another build behind the same address): then the cautious
 * ones, as for a server whose rules are unknown (graphiti/server-rules.ts). A pinned setting stays.
 */
async function rulesNow(ctx: OnlineRun, run: SettleOrder): Promise<ResolvedSemantics> {
  const rules = await run.semantics;
  if (rules.source === 'setting' || ctx.graphiti.client.sessionsOpened <= run.sessions) return rules;
  ctx.logger.warn('the Graphiti server forgot our session during the run (a restart?); deleting by the cautious rules until its rules are known again');
  return { ...CAUTIOUS_SEMANTICS, source: 'assumed', why: 'the server restarted during the run and may be another build' };
}

/**
 * PROBE_WHEN_NEEDED: a run probes the server's rules (graphiti/server-rules.ts) only when someone
 * needs the answer: the run deletes or replaces something of ours (retire.ts `anythingToDelete`:
 * an edit's old version, a deleted note, a duplicate, a held deletion), or a reader asked for them
 * (`SyncOptions.rulesWanted`: the worker, when the context it just built left out entity summaries
 * only because the rules are not known, context/context.ts SUMMARIES_WANT_RULES); and never on the
 * session-start path (`SyncOptions.mayProbe`). The rules decide only deletions (the edit order, the
 * delete guard, the fact clean-up: retire.ts) and whether the context may show entity summaries;
 * sending, confirming and listing do not read them. A probe costs the user two small extractions,
 * and on 0.31.x an answer holds only while the server's session does (30 idle minutes: nothing
 * else tells a restarted server, perhaps another build, from the same one, docs/semantics.md), so
 * probing in every run that reaches the server probed after nearly every break between sessions,
 * mostly for runs that only added notes. Such a run probes at its start, and sends and deletes
 * once the probe has answered (settle waits for it), so an edit goes in the order the server's
 * rules allow; with ours still in the server's queue it goes by the cautious rules and probes at
 * its end (`oursQueued`). Until a probe answers, the cautious rules apply, which are safe on every
 * generation; the readers that never probe keep their cautious reading meanwhile (the context
 * leaves entity summaries out, `pull` allows for an edit's window). The session-start pass is
 * followed by the pull and the context refresh; a probe there would hold both up to its time
 * limit, so the worker asks for it after the context is written, only if that context needs it.
 */
function probeWanted(ctx: OnlineRun): boolean {
  return ctx.options.mayProbe !== false && (ctx.options.rulesWanted === true || anythingToDelete(ctx.state));
}

/**
 * What the server's delete removes (cached per server; probed once when its surface does not say).
 * Undefined: unreachable. A probe runs only in a run that needs it (PROBE_WHEN_NEEDED: it deletes or replaces, or a reader asked):
 * at its start when nothing of ours is in the server's queue (`probing`: reconcile runs beside it,
 * settle waits for it before sending), else by the cautious rules, and `deferred` probes at the
 * run's end once the queue is clear of ours (`oursQueued`). `deleting`: the run had something to
 * delete or replace (or a reader asked for the rules) when they were read.
 */
async function learnSemantics(ctx: OnlineRun, handshake: Promise<ServerProfile> | undefined, inQueue: () => boolean): Promise<{ answer: Promise<ResolvedSemantics>; sessions: number; deleting: boolean; probing: boolean; deferred?: () => Promise<ResolvedSemantics> } | undefined> {
  try {
    await handshake; // started during the plan: its failure is this step's, with the same message
    const read = await readSemantics(ctx.graphiti, { ...semanticsOptions(ctx.config, ctx.logger, ctx.options.signal), now: ctx.now });
    const sessions = ctx.graphiti.client.sessionsOpened;
    const deleting = probeWanted(ctx);
    if (!('probe' in read)) return { answer: Promise.resolve(read), sessions, deleting, probing: false };
    const needed = read;
    // The cautious rules for now (recorded, `status` says them), and perhaps a probe at the run's end.
    const cautious = async (rules: ResolvedSemantics, deferred: boolean) => ({ answer: needed.assume(rules), sessions, deleting, probing: false, ...(deferred ? { deferred: () => needed.probe() } : {}) });
    if (ctx.options.mayProbe === false) return cautious(cautiousUntilNeeded(), false);
    // Nothing to delete or replace yet, nobody asked: a probe at the end only if something turned up (a duplicate).
    if (!deleting) return cautious(cautiousUntilNeeded(), true);
    // Ours in the server's queue: the probe at the run's end if the queue is clear of ours by then.
    if (inQueue()) return cautious(cautiousWhileQueued(), true);
    const answer = read.probe();
    answer.catch(() => undefined); // awaited later (settle, the run's end); a run that fails first must not leave it unhandled
    return { answer, sessions, deleting, probing: true };
  } catch (error) {
    if (error instanceof NotGraphitiError) throw new SyncError(error.message, { cause: error });
    if (error instanceof McpError && !error.retryable && error.kind !== 'aborted') throw new SyncError(`Graphiti rejected tools/list: ${error.message}`, { cause: error });
    ctx.server.markDown(error);
    return undefined;
  }
}

/** After the plan: the run goes online when it has files to send or the state holds work for the server. */
function needsServer(ctx: RunContext, rebuilding: boolean): boolean {
  // A reader that asked for the server's rules (PROBE_WHEN_NEEDED) needs the server, whatever else waits.
  // `--force` looks whether the graph still holds what the state calls confirmed (force-look.ts FORCE_LOOK).
  // So does the first run on another server than the state last reached (state/server-of-record.ts SERVER_OF_RECORD).
  const look = ctx.options.force === true || anotherServer(ctx.state.server, serverOfRecord(ctx.config)) || lookOwed(ctx.state.serverLookOwed, ctx.sources);
  if (look && forceLookParts(ctx.state, sharedOriginsIn(ctx.config, ctx.state), ctx.sources).size > 0) return true;
  return ctx.outgoing.size > 0 || ctx.options.rulesWanted === true || stateNeedsServer(ctx.config, ctx.state, ctx.now(), rebuilding, ctx.options.releaseHeld === true);
}

/** Work the state holds for the server: retired parts due for deletion, parts not yet confirmed, groups to list, a copy's look due. */
function stateNeedsServer(config: Config, state: SyncState, now: number, rebuilding: boolean, releaseHeld: boolean): boolean {
  if (retiredDue(state, now, releaseHeld) || Object.values(state.files).some((r) => r.episodes.some((e) => e.uuid === undefined))) return true;
  const shared = sharedOriginsIn(config, state);
  // A copy's look at the episodes its unchanged notes rest on (copy-hold.ts COPY_WATCH), when due.
  return waitingMarkers(state, rebuilding, shared).size > 0 || copyWatchDue(state, now, shared).size > 0;
}

/** The parts whose sent text stays kept (state/kept-text.ts): every version the state still knows. */
function keptMarkers(state: SyncState): string[] {
  return [...everyPart(state), ...Object.values(state.files).flatMap((r) => r.bridgedFrom ?? [])].map((ref) => ref.marker);
}


/**
 * `sync --wait`: reconcile, send and delete again until nothing waits or the time is up. It sleeps
 * until the next group is due (schedule.ts: when our parts should be done, within the listing
 * budget), not on a clock; only work with no group to list is retried with back-off.
 */
async function waitForConfirmation(ctx: OnlineRun, run: ReconcileRun, order: SettleOrder, waitMs: number): Promise<void> {
  const deadline = ctx.now() + waitMs;
  // SLEPT_WITH_THE_SERVER inside the wait: the system's clocks around each pause, for a server on this machine.
  const mark = serverOnThisMachine(ctx.config.mcpUrl) ? (ctx.options.clockMark ?? (ctx.options.now === undefined ? clockMarkNow : undefined)) : undefined;
  for (let attempt = 1; ctx.now() < deadline && ctx.server.reachable && ctx.options.signal?.aborted !== true; attempt++) {
    const waiting = Object.values(ctx.state.files).some((r) => r.status === 'queued' || r.status === 'pending');
    if (!waiting && !retiredWaiting(ctx)) break;
    const groups = [...waitingMarkers(ctx.state, run.rebuilding, run.sharedOrigins).keys()];
    const wakeAt = groups.length === 0 ? ctx.now() + backoffDelay(WAIT_BACKOFF, attempt) : Math.max(ctx.now() + 10, nextListingTime(ctx.state, groups, ctx.now()));
    const before = mark?.();
    await (ctx.options.sleep ?? sleep)(Math.min(wakeAt - ctx.now(), Math.max(0, deadline - ctx.now())));
    if (mark !== undefined) wokeInTheWait(ctx, sleptMs(before, mark()));
    if (!(await reconcileWithGraph(ctx, run))) break;
    await settle(ctx, order);
  }
}

/**
 * SLEPT_WITH_THE_SERVER (clock-jump.ts) inside `sync --wait`: the laptop closed (or the process
 * stopped, SIGSTOP, and the machine suspended) while the wait slept, with the server on this machine.
 * Its queue slept too, but the look after the pause judged the parts still waiting on the wall
 * clock, which counted the sleep: a part still queued looked stalled for hours and was sent again
 * beside it. The same rule as between runs: what waits counts as queued from now, absences gain
 * none of the sleep. A stop without a suspend (the machine awake, the server working) is judged on
 * the wall clock, as the server worked meanwhile.
 */
function wokeInTheWait(ctx: OnlineRun, asleepMs: number): void {
  if (asleepMs === 0) return;
  ctx.slept.toldMs += asleepMs;
  const now = ctx.now();
  const parts = requeueAfterJump(ctx.state, now);
  const absences = waitsAfterJump(ctx.state, asleepMs, now, sharedOriginsIn(ctx.config, ctx.state));
  ctx.logger.info('this machine slept during the wait, and the server on it with it: parts still waiting count as queued from now, absences count only the time it was awake (SLEPT_WITH_THE_SERVER)', { asleepMs, parts, absences });
}

/** `sync --wait` with nothing to list looks again after 50 ms, then twice as long each time, at most every 2 s. */
const WAIT_BACKOFF: Backoff = { initialMs: 50, maxMs: 2000, low: 1, high: 1 };
