/**
 * A laptop opened on another network, where the Graphiti server cannot be reached, then back home
 * (context/graph-problem.ts OUTAGE_WANTS_REFRESH). The worker's sync on the other network
 * records the outage for the next session; back home, the worker's sync reaches the server again,
 * but a Stop's pass refreshes no context when nothing changed and the cache is younger than 30
 * minutes, and only a refresh ended the outage: the next session at home, with the server answering,
 * was told it "could not be reached since …", naming `health` for a cause there no longer was.
 */
import { mkdirSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readContextCache } from '../../src/lib/context/cache.js';
import { readGraphProblem, takeGraphProblemNote } from '../../src/lib/context/graph-problem.js';
import { detectProject } from '../../src/lib/context/project.js';
import { nullLogger } from '../../src/lib/util/log.js';
import { realSteps } from '../../src/hooks/worker.js';
import { runWorker } from '../../src/lib/worker/loop.js';
import { startGraphitiServer, type GraphitiTestServer } from '../support/graphiti-server.js';
import { learning, makeSandbox, type Sandbox } from '../support/sandbox.js';

let server: GraphitiTestServer;
let box: Sandbox;
beforeEach(async () => {
  server = await startGraphitiServer({ processingDelayMs: 0 });
  box = makeSandbox(server.url, { MADEINOZ_KNOWLEDGE_RETRIES: '0' });
});
afterEach(async () => {
  await server.close();
  box.cleanup();
});

/** One detached worker's run for a request, in the test's process (hooks/worker.ts realSteps). */
async function worker(cwd: string, reason: string) {
  const config = box.config();
  const steps = realSteps(config, nullLogger);
  try {
    return await runWorker({ config, logger: nullLogger, steps, initial: [{ cwd, reason }] });
  } finally {
    await steps.close();
  }
}

/** At home: a session starts in a project, its worker syncs a note and builds the project's context. */
async function sessionAtHome() {
  const config = box.config();
  const cwd = box.path('code', 'zephyr');
  mkdirSync(cwd, { recursive: true });
  box.pai('LEARNING/SYSTEM/z.md', learning('Zephyr bus', 'Zephyr uses Kafka for the event bus.'));
  await worker(cwd, 'session-start:startup');
  expect(readContextCache(config.stateDir, detectProject(cwd, config).key)).toBeDefined();
  return { config, cwd };
}

describe('back home after a session on a network where the server cannot be reached (OUTAGE_WANTS_REFRESH)', () => {
  it('a Stop\'s worker back home refreshes the fresh cache while an outage is recorded: the outage ends, the next session is not told of it', async () => {
    const { config, cwd } = await sessionAtHome();

    // On the other network (a turn's Stop): the server cannot be reached.
    await server.stop();
    expect(await worker(cwd, 'stop')).toMatchObject({ syncs: 1, refreshed: [] });
    expect(readGraphProblem(config.stateDir)).toMatchObject({ kind: 'unreachable', told: false });

    // Back home, minutes later (a turn's Stop): the server answers; nothing changed, the cache is fresh.
    await server.start();
    expect(await worker(cwd, 'stop')).toMatchObject({ syncs: 1, errors: 0 });
    expect(takeGraphProblemNote(config.stateDir)).toBeUndefined();
    expect(readGraphProblem(config.stateDir)).toBeUndefined();
  });

  it('control: the server still unreachable: the next session is told once', async () => {
    const { config, cwd } = await sessionAtHome();
    await server.stop();
    await worker(cwd, 'stop');
    await worker(cwd, 'stop');
    expect(takeGraphProblemNote(config.stateDir)).toMatch(/could not be reached since .* UTC.*health/);
    expect(takeGraphProblemNote(config.stateDir)).toBeUndefined();
  });
});
