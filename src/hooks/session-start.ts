/**
 * SessionStart hook: inject the cached knowledge block, start the background worker, exit.
 *
 * It never touches the network: the context comes from a local cache file the worker
 * wrote earlier, and the sync + cache refresh happen in a detached worker process this
 * hook only spawns. `resume`/`fork` do not re-inject by default (the transcript already
 * holds the block; MADEINOZ_KNOWLEDGE_CONTEXT_ON_RESUME=true changes that).
 *
 * Import graph on purpose: config-snapshot (config.ts with zod and dotenv only when the settings
 * changed), log, project, context-cache, worker-spawn, hook-io and node built-ins only (no MCP client, gray-matter, sync engine, chokidar or TOON encoder);
 * test/hooks/import-graph.test.ts enforces it.
 *
 * Test/ops switches: GMS_WORKER_DISABLED=1 (do not spawn the worker), GMS_WORKER_SCRIPT
 * (spawn this script instead of worker.js).
 */
import { loadHookConfig, PackageIncompleteError, type HookConfig } from '../lib/config/snapshot.js';
import { configErrorVariable } from '../lib/config/env-file.js';
import { readContextCache } from '../lib/context/cache.js';
import { claimInjection } from '../lib/context/injection-claim.js';
import { takeGraphProblemNote } from '../lib/context/graph-problem.js';
import { takeOriginNote } from '../lib/context/origin-note.js';
import { takeSetAsideNote } from '../lib/context/set-aside-note.js';
import { createLogger, logFilePath, type Logger } from '../lib/util/log.js';
import { detectProject } from '../lib/context/project.js';
import { triggerWorker } from '../lib/worker/spawn.js';
import {
  clearConfigErrorNote,
  fallbackStateDir,
  firstTimeForConfigError,
  misconfiguredNote,
  parseHookInput,
  readStdin,
  runHook,
  sessionStartOutput,
  shouldInject,
  writeStdout,
} from './hook-io.js';

async function sessionStart(setLogger: (l: Logger) => void): Promise<void> {
  const started = Date.now();
  const raw = await readStdin();
  const hook = parseHookInput(raw);

  let config: HookConfig;
  try {
    config = await loadHookConfig();
  } catch (error) {
    const stateDir = fallbackStateDir();
    const logger = createLogger({ file: logFilePath(stateDir), level: 'info' }).child({ component: 'session-start' });
    setLogger(logger);
    const message = error instanceof Error ? error.message : String(error);
    if (error instanceof PackageIncompleteError) {
      // An upgrade replacing our files right now: nothing is misconfigured, so nothing is said.
      logger.warn('hook skipped: the package is incomplete', { error: message });
      return;
    }
    const notify = firstTimeForConfigError(stateDir, message);
    logger.error('configuration error', { error: message, variable: configErrorVariable(error), notified: notify });
    if (notify) await writeStdout(sessionStartOutput(misconfiguredNote(error, stateDir)));
    return;
  }

  const logger = createLogger({ file: logFilePath(config.stateDir), level: config.logLevel }).child({ component: 'session-start' });
  setLogger(logger);
  if (hook.problem !== undefined) logger.warn('hook input not usable as given', { problem: hook.problem });
  if (clearConfigErrorNote(config.stateDir)) logger.info('configuration fixed');

  const project = detectProject(hook.cwd, config);
  let injected = 0;
  let cacheAge: number | undefined;
  // The plugin's copy runs from a .cjs bundle (.mjs before); install's from dist/ (.js) or src/.
  const registration = /\.[cm]js$/.test(import.meta.url) ? 'plugin' : 'settings hooks';
  const claim = claimInjection(config.stateDir, hook.input.session_id, hook.source, registration);
  if (!claim.claimed) {
    logger.info('our SessionStart hook is registered twice (settings hooks from `install` and the plugin); the other copy injects, this one does not', { self: registration, other: claim.by });
  }
  if (claim.claimed && shouldInject(hook.source, config.contextOnResume) && config.contextBudget > 0) {
    const entry = readContextCache(config.stateDir, project.key);
    // A graph the worker found down or broken is said once, first, so the budget never cuts it.
    const note = takeGraphProblemNote(config.stateDir);
    // A copy's question (sync/copy-hold.ts): deletions held until the user says what this machine is.
    const question = takeOriginNote(config.stateDir);
    // A note pull removed while its group listed nothing at all, its text kept aside (state/set-aside.ts SET_ASIDE_WHEN_GROUP_EMPTY).
    const aside = takeSetAsideNote(config.stateDir);
    const ours = [note ?? '', question ?? '', aside ?? ''].filter((t) => t !== '').join('\n\n');
    const text = [ours, entry?.text ?? ''].filter((t) => t !== '').join('\n\n');
    if (text !== '') {
      // The budget may have been lowered since the worker built the block. NOTE_NOT_CUT: it cuts the knowledge, never
      // our notes, which are told once (marked told above): a budget smaller than a note (a loss in groups with long
      // names, DETAIL_NAMES_FEW) gave the session nothing and the warning was never said. The hook's cap still holds.
      const out = sessionStartOutput(text, Math.max(config.contextBudget, ours.length));
      // The characters the model gets (after any cut), not the JSON line's length.
      injected = out === '' ? 0 : (JSON.parse(out) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext.length;
      if (entry !== undefined) cacheAge = Date.now() - Date.parse(entry.builtAt);
      await writeStdout(out);
    }
    if (note !== undefined) logger.info('told the session about a graph problem', { note });
    if (question !== undefined) logger.info('told the session about the copy question');
    if (aside !== undefined) logger.info('told the session about notes pull set aside');
  }
  const worker = triggerWorker({ stateDir: config.stateDir, cwd: project.root, logger, reason: `session-start:${hook.source}` });
  logger.info('session start', {
    source: hook.source,
    session: hook.input.session_id,
    project: project.name,
    key: project.key,
    injectedChars: injected,
    cacheAgeMs: cacheAge,
    worker: worker.action,
    ms: Date.now() - started,
  });
}

let hookLogger: Logger | undefined;
// Not awaited at the top level: the hooks are bundled as CommonJS (scripts/build/bundle-hooks.mjs);
// runHook contains every failure and ends the process itself.
void runHook(
  'session-start',
  () =>
    sessionStart((l) => {
      hookLogger = l;
    }),
  () => hookLogger,
);
