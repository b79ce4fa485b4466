/** The worker's pass for a session start, run in the test's process (hooks/worker.ts realSteps). */
import type { Config } from '../../src/lib/config/config.js';
import { readContextCache } from '../../src/lib/context/cache.js';
import { detectProject } from '../../src/lib/context/project.js';
import { nullLogger } from '../../src/lib/util/log.js';
import { realSteps } from '../../src/hooks/worker.js';
import { runWorker } from '../../src/lib/worker/loop.js';

/** Its sync (which never probes), then the context refresh of `cwd`, as the loop runs them; the block it leaves. */
export async function workerSessionStart(config: Config, cwd: string): Promise<string> {
  const steps = realSteps(config, nullLogger);
  const step = { logger: nullLogger, signal: new AbortController().signal };
  try {
    await steps.sync(config, step, { sessionStart: true });
    await steps.refreshContext(config, cwd, step);
  } finally {
    await steps.close();
  }
  return readContextCache(config.stateDir, detectProject(cwd, config).key)?.text ?? '';
}

/**
 * The whole detached worker a session start in `cwd` triggers, in the test's process: its loop, with what it records of the graph (context/graph-problem.ts).
 * Several folders: session starts in each, in that order, taken by one pass (one sync, then each project's refresh).
 */
export async function sessionStartWorker(config: Config, cwd: string | readonly string[]): Promise<void> {
  const steps = realSteps(config, nullLogger);
  try {
    await runWorker({ config, logger: nullLogger, steps, initial: (typeof cwd === 'string' ? [cwd] : cwd).map((dir) => ({ cwd: dir, reason: 'session-start:startup' })) });
  } finally {
    await steps.close();
  }
}
