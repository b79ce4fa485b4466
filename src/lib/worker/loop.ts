/**
 * The background worker's loop, separate from its entry point so it can be tested with
 * injected steps (no server, no sync engine).
 *
 * One run: own the worker lock → repeat { take pending requests; sync; refresh the context
 * cache of the requested projects } while new requests arrived (at most `maxPasses`) →
 * release the lock → if a request slipped in meanwhile, re-take the lock and go on. The
 * whole run is bounded by `timeoutMs` (the signal given to the steps is aborted then).
 * Errors of a step are logged and never escape.
 */
import type { Config } from '../config/config.js';
import type { Logger } from '../util/log.js';
import { consumeDirty, isDirty, isProcessAlive, markDirty, readLock, leasesOfOlderBuilds, releaseLock, takeLock, transferLock, workerFiles, WORKER_TIMEOUT_MS, type WorkRequest } from './spawn.js';
import { cli } from '../util/install-route.js';

export interface StepContext {
  logger: Logger;
  signal: AbortSignal;
}

/**
 * What a refresh that worked saw of the graph: the groups whose knowledge its block shows, and, when
 * it showed nothing, what EMPTIED_GRAPH's look found (sync/force-look.ts): the groups where this
 * machine has confirmed notes and the graph lists no episode at all, and those it found listing one.
 * Each warning is the groups' own (context/graph-problem.ts EMPTIED_WARNING_OWNS_ITS_GROUPS): one
 * project's refresh says nothing of another's groups.
 */
export interface RefreshSeen {
  shown: readonly string[];
  listed: readonly string[];
  emptied: Array<{ group: string; notes: number }>;
}

export interface WorkerSteps {
  /** One sync pass; returns how many files changed (added/updated/deleted/renamed), if known. */
  /** `serverReachable: false` when the sync could not reach Graphiti (then no context search is tried). */
  /** `pass.sessionStart`: the pass serves a session start (its sync never probes the server's rules: sync.ts PROBE_WHEN_NEEDED). */
  sync(config: Config, ctx: StepContext, pass?: { sessionStart: boolean }): Promise<{ changed: number; serverReachable?: boolean } | undefined>;
  /** Rebuilds the context cache of the project at `cwd`; what it found of the graph when that is worth telling (sync/force-look.ts EMPTIED_GRAPH). */
  refreshContext(config: Config, cwd: string, ctx: StepContext): Promise<RefreshSeen | void>;
  /** Age of the project's context cache in ms, or undefined when there is none. */
  contextAgeMs(config: Config, cwd: string): number | undefined;
  /** A recorded graph problem that only a refresh that works ends: every requested context is refreshed, fresh or not (context/graph-problem.ts OUTAGE_WANTS_REFRESH). */
  problemWantsRefresh?(config: Config): boolean;
  /**
   * What this pass found of the graph, for the next session to be told once
   * (context/graph-problem.ts): unreachable, a context refresh that failed, or what a refresh that
   * worked saw (a step that returned nothing: it showed nothing, and found nothing emptied).
   */
  graphSeen?(config: Config, seen: { unreachable: true } | { refreshFailed: unknown } | RefreshSeen): void;
  /**
   * Brings the person's notes from their other machines into this machine's memory (issue 42,
   * `pull`), mapping the projects at `cwds` too. Run after a session start's sync, never by the hook.
   */
  pull?(config: Config, cwds: string[], ctx: StepContext): Promise<void>;
}

export interface RunWorkerOptions {
  config: Config;
  logger: Logger;
  steps: WorkerSteps;
  /** Requests from argv (the hook also wrote them to worker.dirty). */
  initial?: WorkRequest[];
  /** The token of the lock the spawning hook took for us; without it we take the lock ourselves. */
  lockToken?: string | undefined;
  maxPasses?: number;
  timeoutMs?: number;
  /** Refresh a context after a Stop only when it is older than this (ms) or the sync changed files. */
  refreshAfterMs?: number;
}

export interface RunWorkerResult {
  /** `state-conflict`: the state folder is another tool's or a newer version's (the sync refused it): nothing else ran. */
  outcome: 'done' | 'busy' | 'lock-lost' | 'timeout' | 'state-conflict';
  passes: number;
  syncs: number;
  refreshed: string[];
  errors: number;
}

export async function runWorker(options: RunWorkerOptions): Promise<RunWorkerResult> {
  const { config, logger, steps } = options;
  const stateDir = config.stateDir;
  const maxPasses = options.maxPasses ?? 3;
  const refreshAfterMs = options.refreshAfterMs ?? 30 * 60_000;
  const result: RunWorkerResult = { outcome: 'done', passes: 0, syncs: 0, refreshed: [], errors: 0 };

  // 1. Own the lock.
  let token: string;
  const current = readLock(workerFiles(stateDir).pidFile);
  if (options.lockToken !== undefined && current?.token === options.lockToken) {
    token = current.token;
    if (current.pid !== process.pid) {
      try {
        transferLock(stateDir, current, process.pid);
      } catch (error) {
        logger.warn('could not write our pid into the worker lock', { error });
      }
    }
  } else {
    const taken = takeLock(stateDir);
    if (!taken.acquired) {
      // Someone else is working: leave our request for them.
      for (const r of options.initial ?? []) markDirty(stateDir, r);
      logger.info('another worker holds the lock; request left for it', { holderPid: taken.holder?.pid });
      result.outcome = options.lockToken === undefined ? 'busy' : 'lock-lost';
      return result;
    }
    token = taken.lock.token;
  }

  // A copy of the tool of an older build runs its worker beside this one (worker/spawn.ts: no lease is
  // shared across state formats); the log says so, and `status` names the copy and how to update it.
  const older = leasesOfOlderBuilds(stateDir)
    .map((files) => readLock(files.pidFile))
    .find((lock) => lock !== undefined && isProcessAlive(lock.pid));
  if (older !== undefined) {
    logger.info(`a worker of an older build runs beside this one (a copy older than the state syncs nothing): "${cli()} status" names the copy and how to update it`, { pid: older.pid, command: older.command });
  }

  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new Error(`worker time limit of ${options.timeoutMs ?? WORKER_TIMEOUT_MS} ms reached`)), options.timeoutMs ?? WORKER_TIMEOUT_MS);
  timer.unref();
  const ctx: StepContext = { logger, signal: controller.signal };
  let pending: WorkRequest[] = [...(options.initial ?? [])];

  try {
    for (;;) {
      while (result.passes < maxPasses && !controller.signal.aborted) {
        const requests = consumeDirty(stateDir);
        if (requests === undefined && result.passes > 0 && pending.length === 0) break;
        for (const r of requests ?? []) if (!pending.some((p) => p.cwd === r.cwd && p.reason === r.reason)) pending.push(r);
        const batch = pending;
        pending = [];
        result.passes++;
        logger.info('worker pass', { pass: result.passes, requests: batch.length });

        let changed = 0;
        let unreachable = false;
        // A session started: the notes written on the person's other machines come in now (pull,
        // below), so the next session here (or this one, when it reads its memory folder) has them.
        const started = [...new Set(batch.filter((r) => r.reason.startsWith('session-start')).map((r) => r.cwd))];
        try {
          const summary = await steps.sync(config, ctx, { sessionStart: started.length > 0 });
          result.syncs++;
          changed = summary?.changed ?? 0;
          unreachable = summary?.serverReachable === false;
        } catch (error) {
          result.errors++;
          logger.error('sync failed', { error: errorFields(error) });
          if (isStateConflict(error)) {
            // A newer version (or another tool) owns this state folder: an older worker's pull would
            // write notes its ledger cannot record, and its refresh a cache from a state it cannot
            // read. Everything stops until the newer version runs (the error says: upgrade).
            result.outcome = 'state-conflict';
            break;
          }
        }

        const cwds = [...new Set(batch.map((r) => r.cwd))];
        if (!unreachable && started.length > 0 && steps.pull !== undefined && !controller.signal.aborted) {
          try {
            await steps.pull(config, started, ctx);
          } catch (error) {
            result.errors++;
            logger.warn('pull failed', { error: errorFields(error) });
          }
        }
        if (unreachable) {
          // The sync just found the server down: searching now would only knock again.
          logger.info('Graphiti unreachable; context refresh skipped, previous cache kept', { projects: cwds.length });
          cwds.length = 0;
          steps.graphSeen?.(config, { unreachable: true });
        }
        const problemOpen = cwds.length > 0 && (steps.problemWantsRefresh?.(config) ?? false);
        for (const cwd of cwds) {
          if (controller.signal.aborted) break;
          const fromSessionStart = batch.some((r) => r.cwd === cwd && r.reason.startsWith('session-start'));
          const age = steps.contextAgeMs(config, cwd);
          // By its distance from now either way: a cache dated in the future (the clock set back
          // since it was built) is as old as that distance, at least; it does not stay fresh for hours.
          if (!fromSessionStart && !problemOpen && changed === 0 && age !== undefined && Math.abs(age) < refreshAfterMs) {
            logger.debug('context fresh enough', { cwd, ageMs: age });
            continue;
          }
          try {
            const seen = await steps.refreshContext(config, cwd, ctx);
            result.refreshed.push(cwd);
            steps.graphSeen?.(config, seen ?? { shown: [], listed: [], emptied: [] });
          } catch (error) {
            result.errors++;
            logger.warn('context refresh failed; keeping the previous cache', { cwd, error: errorFields(error) });
            if (!controller.signal.aborted) steps.graphSeen?.(config, { refreshFailed: error });
          }
        }
      }
      // 2. Release, then look once more: a request written after our last check must not be lost.
      releaseLock(stateDir, token);
      if (controller.signal.aborted || result.outcome === 'state-conflict' || result.passes >= maxPasses || !isDirty(stateDir)) break;
      const again = takeLock(stateDir);
      if (!again.acquired) break; // the new holder will handle it
      token = again.lock.token;
    }
  } finally {
    clearTimeout(timer);
    releaseLock(stateDir, token);
  }
  if (controller.signal.aborted) result.outcome = 'timeout';
  logger.info('worker finished', { ...result });
  return result;
}

/** The sync refused the state folder (state/types.ts StateConflictError, known here by name: worker/ does not import state/). */
function isStateConflict(error: unknown): boolean {
  return error instanceof Error && error.name === 'StateConflictError';
}

function errorFields(error: unknown): Record<string, unknown> | string {
  if (error instanceof Error) return { name: error.name, message: error.message };
  return String(error);
}
