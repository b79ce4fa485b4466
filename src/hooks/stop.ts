/**
 * Stop hook (registered WITHOUT `async`, see STOP_TIMEOUT_S in install.ts): after each assistant turn, ask the background
 * worker to sync the memory files Claude may just have written. It only marks the work and
 * spawns the detached worker when none is running; it never waits, prints nothing to
 * stdout and always exits 0. When `stop_hook_active` is true (Claude is already continuing
 * because of a stop hook) it does nothing.
 */
import { loadHookConfig, PackageIncompleteError } from '../lib/config/snapshot.js';
import { createLogger, logFilePath, type Logger } from '../lib/util/log.js';
import { findGitRoot } from '../lib/context/project.js';
import { triggerWorker } from '../lib/worker/spawn.js';
import { fallbackStateDir, parseHookInput, readStdin, runHook } from './hook-io.js';

async function stop(setLogger: (l: Logger) => void): Promise<void> {
  const raw = await readStdin();
  const hook = parseHookInput(raw);
  if (hook.input.stop_hook_active === true) return;

  let stateDir: string;
  let logger: Logger;
  try {
    const config = await loadHookConfig();
    stateDir = config.stateDir;
    logger = createLogger({ file: logFilePath(stateDir), level: config.logLevel }).child({ component: 'stop' });
  } catch (error) {
    // The SessionStart hook reports configuration errors; here we only log.
    logger = createLogger({ file: logFilePath(fallbackStateDir()), level: 'info' }).child({ component: 'stop' });
    setLogger(logger);
    if (error instanceof PackageIncompleteError) logger.warn('hook skipped: the package is incomplete', { error: error.message });
    else logger.error('configuration error', { error: error instanceof Error ? error.message : String(error) });
    return;
  }
  setLogger(logger);
  if (hook.problem !== undefined) logger.warn('hook input not usable as given', { problem: hook.problem });
  const root = findGitRoot(hook.cwd)?.mainRoot ?? hook.cwd;
  const worker = triggerWorker({ stateDir, cwd: root, logger, reason: 'stop' });
  logger.debug('stop', { session: hook.input.session_id, worker: worker.action });
}

let hookLogger: Logger | undefined;
// Not awaited at the top level: the hooks are bundled as CommonJS (scripts/build/bundle-hooks.mjs);
// runHook contains every failure and ends the process itself.
void runHook(
  'stop',
  () =>
    stop((l) => {
      hookLogger = l;
    }),
  () => hookLogger,
);
