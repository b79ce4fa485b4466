/**
 * The world of the tests that run our hooks end to end with their detached worker: per test, a
 * Graphiti test server, a hook sandbox pointing at it (one retry, 5 s timeouts, no PAI folder), a
 * git checkout and its Claude Code auto-memory folder; after the test, a worker still running is
 * let finish before its server and folder disappear.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { claudeProjectKey } from '../../src/lib/context/project.js';
import { workerFiles } from '../../src/lib/worker/spawn.js';
import { startGraphitiServer, type GraphitiTestServer } from '../support/graphiti-server.js';
import { makeHookSandbox, type HookSandbox } from './hook-runner.js';
import { waitForCondition } from './wait-for-condition.js';

export interface HookWorkerWorld {
  server: GraphitiTestServer;
  sb: HookSandbox;
  /** A git checkout: `<sandbox>/code/webapp`. */
  project: string;
  /** The checkout's Claude Code auto-memory folder (made, empty). */
  memory: string;
}

/** The log lines of the worker runs of this build that have finished so far. */
export function finishedWorkerRuns(sb: HookSandbox): Array<Record<string, unknown>> {
  return sb.logs().filter((l) => l.msg === 'worker finished');
}

/** Resolves when `n` worker runs of this build have finished and none holds the worker lease. */
export async function waitForWorkers(sb: HookSandbox, n: number, timeoutMs = 30_000): Promise<void> {
  await waitForCondition(join(sb.stateDir, 'logs'), () => finishedWorkerRuns(sb).length >= n && !existsSync(workerFiles(sb.stateDir).pidFile), timeoutMs, `${n} worker run(s) of this build to finish`);
}

/**
 * Gives every test of the calling file a fresh HookWorkerWorld (registered as beforeEach/afterEach);
 * `use` receives it for the file's own variables. Register it before the file's own beforeEach.
 */
export function useHookWorker(use: (world: HookWorkerWorld) => void): void {
  let world: HookWorkerWorld | undefined;
  beforeEach(async () => {
    const server = await startGraphitiServer({ processingDelayMs: 0 });
    const sb = makeHookSandbox({
      MADEINOZ_KNOWLEDGE_MCP_URL: server.url,
      MADEINOZ_KNOWLEDGE_RETRIES: '1',
      MADEINOZ_KNOWLEDGE_TIMEOUT: '5000',
      MADEINOZ_KNOWLEDGE_RETRY_DEADLINE: '5000',
      MADEINOZ_KNOWLEDGE_SYNC_PAI: 'false',
    });
    const project = join(sb.root, 'code', 'webapp');
    mkdirSync(join(project, '.git'), { recursive: true });
    const memory = join(sb.claudeDir, 'projects', claudeProjectKey(project), 'memory');
    mkdirSync(memory, { recursive: true });
    world = { server, sb, project, memory };
    use(world);
  });
  afterEach(async () => {
    if (world === undefined) return;
    const { server, sb } = world;
    world = undefined;
    if (existsSync(workerFiles(sb.stateDir).pidFile)) await waitForWorkers(sb, 1).catch(() => undefined);
    await server.close();
    sb.cleanup();
  });
}
