/**
 * The detached background worker started by the SessionStart and Stop hooks.
 *
 *   node dist/hooks/worker.js --cwd <project dir> [--reason <why>] [--lock-token-on-stdin]
 *
 * The spawning hook hands over its lease's token on stdin, never in the arguments (worker/spawn.ts
 * TOKEN_ON_STDIN).
 *
 * Runs a sync pass (`runSync`) and refreshes the context cache of the requested projects
 * (`refreshProjectContext`), sharing one Graphiti client, under the worker lock (see
 * src/lib/worker/loop.ts). Everything goes to the log file; stdio is ignored by the
 * spawner. A hard timer ends the process after the time limit even if a socket hangs.
 * GMS_WORKER_TIMEOUT_MS can shorten the 5-minute limit (tests).
 */
import { parseArgs } from 'node:util';
import { loadConfig, type Config } from '../lib/config/config.js';
import { workerTimeoutMs } from '../lib/config/switches.js';
import { readContextCache } from '../lib/context/cache.js';
import { recordEmptiedGraph, recordGraphProblem, refreshEndsProblem, refreshShowed } from '../lib/context/graph-problem.js';
import { McpNetworkError, McpTimeoutError, NotGraphitiError } from '../lib/mcp/errors.js';
import { createLogger, logFilePath, type Logger } from '../lib/util/log.js';
import { detectProject } from '../lib/context/project.js';
import { runWorker, type StepContext, type WorkerSteps } from '../lib/worker/loop.js';
import { leaseTokenFromStdin, releaseLock, WORKER_TIMEOUT_MS, type WorkRequest } from '../lib/worker/spawn.js';
import { fallbackStateDir } from './hook-io.js';

/** Lets the sync engine wait this long for its own state lock (CLI or watch mode running). */
const SYNC_LOCK_TIMEOUT_MS = 30_000;

/** The real steps: the sync engine and Graphiti, loaded only here (never on the hook path). */
export function realSteps(config: Config, logger: Logger): WorkerSteps & { close(): Promise<void> } {
  let client: import('../lib/graphiti/graphiti.js').GraphitiClient | undefined;
  const graphiti = async () => {
    if (client === undefined) {
      const { GraphitiClient } = await import('../lib/graphiti/graphiti.js');
      client = new GraphitiClient(config, { logger: logger.child({ component: 'graphiti' }) });
    }
    return client;
  };
  /**
   * SUMMARIES_WANT_RULES (context/context.ts) asks for the server's rules after a context is
   * written: a sync run that probes them (sync.ts PROBE_WHEN_NEEDED, with its budgets and its
   * queue rule). Once per worker: a probe that could not run now is not tried for each project.
   */
  let rulesAsked = false;
  const askRules = async (cfg: Config, ctx: StepContext): Promise<boolean> => {
    if (rulesAsked) return false;
    rulesAsked = true;
    const { runSync } = await import('../lib/sync/sync.js');
    const learnt = await runSync(cfg, { logger: ctx.logger.child({ component: 'sync' }), signal: ctx.signal, lockTimeoutMs: SYNC_LOCK_TIMEOUT_MS, lockLabel: 'hook worker', graphiti: await graphiti(), rulesWanted: true });
    ctx.logger.info('server rules asked for the context\'s entity summaries', { source: learnt.semantics?.source, deleteRemoves: learnt.semantics?.deleteRemoves });
    return learnt.semantics !== undefined && learnt.semantics.source !== 'assumed';
  };
  return {
    async sync(cfg, ctx, pass) {
      const { runSync } = await import('../lib/sync/sync.js');
      // A session start's pass goes on to the pull and the context refresh: no rules probe before them (sync.ts PROBE_WHEN_NEEDED).
      const summary = await runSync(cfg, { logger: ctx.logger.child({ component: 'sync' }), signal: ctx.signal, lockTimeoutMs: SYNC_LOCK_TIMEOUT_MS, lockLabel: 'hook worker', graphiti: await graphiti(), mayProbe: pass?.sessionStart !== true });
      ctx.logger.info('sync done', {
        added: summary.added,
        updated: summary.updated,
        deleted: summary.deleted,
        failed: summary.failed,
        pending: summary.pending,
        serverReachable: summary.serverReachable,
      });
      await recordCopyQuestion(cfg, ctx.logger);
      // What a listing of the pass no longer showed: the next session is told the step (sync/force-look.ts LOST_SEEN_IN_PASSING),
      // while those notes are there and not sent again (graph-problem.ts LOST_OWNS_ITS_NOTES).
      await (await import('../lib/context/lost-notes.js')).recordLostAfterSync(cfg.stateDir, summary.lostSeen, ctx.logger);
      return { changed: summary.added + summary.updated + summary.deleted + (summary.renamed ?? 0), serverReachable: summary.serverReachable };
    },
    async refreshContext(cfg, cwd, ctx) {
      const { refreshProjectContext } = await import('../lib/context/context.js');
      const { contextFrozen } = await import('../lib/context/frozen.js');
      const project = detectProject(cwd, cfg);
      // An edit of this project's between its old and new version (break-before-make, sync/retire.ts): the graph
      // lacks that note for now, so the last good context keeps being served until the new one is in.
      const between = await contextFrozen(cfg, project);
      if (between > 0 && readContextCache(cfg.stateDir, project.key) !== undefined) {
        ctx.logger.info('context kept: an edited note is between its old and its new version in the graph', { notes: between });
        return;
      }
      // Whether entity summaries can be shown current is the refresh's own question (the server's
      // known or cached semantics, context/context.ts), as for `context --refresh`.
      const { entry, built } = await refreshProjectContext(cfg, project, { graphiti: await graphiti(), logger: ctx.logger.child({ component: 'context' }), signal: ctx.signal, askRules: () => askRules(cfg, ctx) });
      // Which groups' knowledge it showed: only those may end an emptied-graph warning (graph-problem.ts EMPTIED_WARNING_OWNS_ITS_GROUPS).
      if (entry.facts > 0 || entry.nodes > 0) return { shown: built.shownGroups, listed: [], emptied: [] };
      // Nothing at all: has the graph lost what this machine sent? (sync/force-look.ts EMPTIED_GRAPH)
      const { emptied, listed } = await graphEmptied(cfg, await graphiti(), ctx);
      if (emptied.length > 0) ctx.logger.warn('the graph lists no episode in groups that held notes of this machine (a server restarted without its data?): sync --force sends them again', { emptied });
      return { shown: [], listed, emptied };
    },
    async pull(cfg, cwds, ctx) {
      const { pullDue, runPull } = await import('../lib/pull/pull.js');
      // At most once a minute: a pull lists the whole group (sessions started in a row need one).
      if (!pullDue(cfg.stateDir, Date.now(), 60_000)) return;
      const report = await runPull(cfg, { projectDirs: cwds, graphiti: await graphiti(), logger: ctx.logger.child({ component: 'pull' }), signal: ctx.signal, lockTimeoutMs: SYNC_LOCK_TIMEOUT_MS });
      if (report.linked) ctx.logger.info('pull done', { written: report.written.length, conflicts: report.conflicts.length, removed: report.removed.length, held: report.held.length, unverified: report.unverified });
      // Removed while its group listed nothing at all, its text kept aside: the next session is told (state/set-aside.ts SET_ASIDE_WHEN_GROUP_EMPTY).
      if (report.setAside.length > 0) {
        const { recordSetAsideNote } = await import('../lib/context/set-aside-record.js');
        recordSetAsideNote(cfg.stateDir, report.setAside);
      }
    },
    contextAgeMs(cfg, cwd) {
      const entry = readContextCache(cfg.stateDir, detectProject(cwd, cfg).key);
      if (entry === undefined) return undefined;
      const t = Date.parse(entry.builtAt);
      return Number.isFinite(t) ? Date.now() - t : undefined;
    },
    problemWantsRefresh: (cfg) => refreshEndsProblem(cfg.stateDir),
    graphSeen(cfg, seen) {
      try {
        if ('shown' in seen) {
          refreshShowed(cfg.stateDir, [...seen.shown, ...seen.listed]);
          if (seen.emptied.length > 0) recordEmptiedGraph(cfg.stateDir, seen.emptied);
        }
        else if ('unreachable' in seen || seen.refreshFailed instanceof McpNetworkError || seen.refreshFailed instanceof McpTimeoutError) recordGraphProblem(cfg.stateDir, 'unreachable', '');
        else if (seen.refreshFailed instanceof NotGraphitiError) recordGraphProblem(cfg.stateDir, 'not-graphiti', '');
        else recordGraphProblem(cfg.stateDir, 'searches-failing', seen.refreshFailed instanceof Error ? seen.refreshFailed.message : String(seen.refreshFailed));
      } catch (error) {
        logger.warn('could not record what was seen of the graph', { error: error instanceof Error ? error.message : String(error) });
      }
    },
    async close() {
      await client?.close().catch(() => undefined);
    },
  };
}

/**
 * The groups where this machine has confirmed notes and the graph lists none (sync/force-look.ts
 * EMPTIED_GRAPH), and those of them asked that list an episode again (`listed`: their warning is over,
 * context/graph-problem.ts EMPTIED_WARNING_OWNS_ITS_GROUPS); none when the state cannot be read.
 */
async function graphEmptied(cfg: Config, client: import('../lib/graphiti/graphiti.js').GraphitiClient, ctx: StepContext): Promise<{ emptied: Array<{ group: string; notes: number }>; listed: string[] }> {
  const { loadState } = await import('../lib/state/state.js');
  const { emptiedGroups, pullWaitsOn } = await import('../lib/sync/force-look.js');
  const { sharedOriginsIn } = await import('../lib/sync/shared.js');
  const none = { emptied: [], listed: [] };
  const loaded = await loadState(cfg.stateDir, { readOnly: true }).catch(() => undefined);
  if (loaded === undefined) return none;
  try {
    // A server before 1.1 on FalkorDB lists only the group it last wrote to: after any restart, none of ours (graphiti/semantics.ts).
    const { listsInLastWrittenGroup } = await import('../lib/graphiti/semantics.js');
    if (listsInLastWrittenGroup({ deleteEpisodeTakesGroup: await client.deleteEpisodeTakesGroup(ctx.signal), db: cfg.db })) return none;
    // What `sync --force` leaves to pull is not named as what it sends again (PULL_WAITS_ON_IT).
    const { readPulled } = await import('../lib/state/pulled.js');
    const { resolveSources } = await import('../lib/memory/sources.js');
    const leftToPull = pullWaitsOn(loaded.state, await readPulled(cfg.stateDir), resolveSources(cfg));
    const listed: string[] = [];
    const listsAny = async (group: string) => {
      const any = (await client.getEpisodes([group], 1, ctx.signal)).length > 0;
      if (any) listed.push(group);
      return any;
    };
    return { emptied: await emptiedGroups(loaded.state, sharedOriginsIn(cfg, loaded.state), listsAny, leftToPull), listed };
  } catch (error) {
    // Only a hint: a server that cannot list now is not a refresh that failed.
    ctx.logger.warn('could not ask the graph whether it still holds this machine\'s notes', { error: error instanceof Error ? error.message : String(error) });
    return none;
  }
}

/** After a sync: the copy question for the next session (context/origin-note.ts), or none once it is settled. */
async function recordCopyQuestion(cfg: Config, logger: Logger): Promise<void> {
  try {
    const { originQuestion, originStanding } = await import('../lib/sync/origin-choice.js');
    const { recordOriginQuestion } = await import('../lib/context/origin-note.js');
    recordOriginQuestion(cfg.stateDir, originQuestion(await originStanding(cfg)));
  } catch (error) {
    logger.warn('could not record the copy question for the next session', { error: error instanceof Error ? error.message : String(error) });
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: { cwd: { type: 'string' }, reason: { type: 'string' } },
    strict: false,
  });
  const cwd = typeof values.cwd === 'string' && values.cwd !== '' ? values.cwd : process.cwd();
  const token = leaseTokenFromStdin(process.argv.slice(2));
  const reason = typeof values.reason === 'string' ? values.reason : 'manual';

  let config: Config;
  let timeoutOverride: number | undefined;
  try {
    config = await loadConfig();
    timeoutOverride = workerTimeoutMs(process.env);
  } catch (error) {
    const stateDir = fallbackStateDir();
    createLogger({ file: logFilePath(stateDir) })
      .child({ component: 'worker' })
      .error('configuration error; worker not started', { error: error instanceof Error ? error.message : String(error) });
    // The hook took the lock in the configured state dir, which we cannot know: it goes stale when we exit.
    return;
  }
  const logger = createLogger({ file: logFilePath(config.stateDir), level: config.logLevel }).child({ component: 'worker' });
  // GMS_WORKER_TIMEOUT_MS may only shorten the limit (tests use it for hung servers).
  const timeoutMs = timeoutOverride !== undefined ? Math.min(timeoutOverride, WORKER_TIMEOUT_MS) : WORKER_TIMEOUT_MS;
  const hard = setTimeout(() => {
    logger.error('worker hard time limit reached; exiting');
    if (token !== undefined) releaseLock(config.stateDir, token);
    process.exit(0);
  }, timeoutMs + Math.min(15_000, timeoutMs));
  hard.unref();
  const guard = (error: unknown) => {
    logger.error('worker crashed', { error: error instanceof Error ? { name: error.name, message: error.message, stack: error.stack } : String(error) });
    if (token !== undefined) releaseLock(config.stateDir, token);
    process.exit(0);
  };
  process.on('uncaughtException', guard);
  process.on('unhandledRejection', guard);

  const steps = realSteps(config, logger);
  const initial: WorkRequest[] = [{ cwd, reason }];
  try {
    await runWorker({ config, logger, steps, initial, lockToken: token, timeoutMs });
  } finally {
    await steps.close();
  }
}

// A promise chain, not a top-level await: the worker is bundled as CommonJS (scripts/build/bundle-hooks.mjs).
void main()
  .catch(() => undefined) // errors are logged inside; a detached worker has nowhere else to report
  .finally(() => {
    process.exitCode = 0;
  });
