/**
 * No gap the user sees (issue 24): on servers where an edit must delete the old version before the
 * new one is processed (graphiti-core 0.29.3 – 0.31.1, the test server's `cascade` delete), the
 * worker keeps serving the last good SessionStart context while the note is between versions, and
 * rebuilds it once the new version is confirmed.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readContextCache } from '../../src/lib/context/cache.js';
import { detectProject } from '../../src/lib/context/project.js';
import { runSync } from '../../src/lib/sync/sync.js';
import { nullLogger } from '../../src/lib/util/log.js';
import { realSteps } from '../../src/hooks/worker.js';
import { startGraphitiServer, type GraphitiTestServer } from '../support/graphiti-server.js';
import { learning, makeSandbox, type Sandbox } from '../support/sandbox.js';

let server: GraphitiTestServer;
let box: Sandbox;
beforeEach(async () => {
  server = await startGraphitiServer({ processingDelayMs: 0, deleteMode: 'cascade', mainParams: true });
  box = makeSandbox(server.url);
});
afterEach(async () => {
  await server.close();
  box.cleanup();
});

describe('the worker bridges a break-before-make edit', () => {
  it('keeps the last good context while the note is between versions, and rebuilds it once the new version is in', async () => {
    const config = box.config();
    const cwd = box.path('code', 'zephyr');
    mkdirSync(cwd, { recursive: true });
    const key = detectProject(cwd, config).key;
    const steps = realSteps(config, nullLogger);
    const step = { logger: nullLogger, signal: new AbortController().signal };
    try {
      box.pai('LEARNING/SYSTEM/z.md', learning('Zephyr bus', 'Zephyr uses Kafka for the event bus.'));
      await runSync(config, { waitMs: 5000 });
      await server.whenIdle();
      await steps.refreshContext(config, cwd, step);
      const good = readContextCache(config.stateDir, key);
      expect(good?.text).toContain('Zephyr uses Kafka for the event bus.');

      // The edit: the old version is deleted first, the new one waits in the server's queue.
      server.pauseProcessing();
      box.pai('LEARNING/SYSTEM/z.md', learning('Zephyr bus', 'Zephyr moved to Pulsar for the event bus.'));
      expect(await runSync(config)).toMatchObject({ updated: 1, queued: 1 });
      expect(server.episodes('main')).toEqual([]);
      await steps.refreshContext(config, cwd, step);
      expect(readContextCache(config.stateDir, key)).toEqual(good);

      server.resumeProcessing();
      await server.whenIdle();
      expect(await runSync(config, { waitMs: 5000 })).toMatchObject({ confirmed: 1, queued: 0 });
      await steps.refreshContext(config, cwd, step);
      const fresh = readContextCache(config.stateDir, key);
      expect(fresh?.text).toContain('Zephyr moved to Pulsar for the event bus.');
      expect(fresh?.text).not.toContain('Zephyr uses Kafka for the event bus.');
    } finally {
      await steps.close();
    }
  });

  it('shows entity summaries only where the server rebuilds them (0.31.2), learned from the semantics the sync cached', async () => {
    for (const deleteMode of ['detach', 'cascade'] as const) {
      await server.close();
      server = await startGraphitiServer({ processingDelayMs: 0, deleteMode, mainParams: true, graphPerGroup: true });
      box.cleanup();
      box = makeSandbox(server.url);
      const config = box.config();
      const cwd = box.path('code', 'zephyr');
      mkdirSync(cwd, { recursive: true });
      const steps = realSteps(config, nullLogger);
      try {
        box.pai('LEARNING/SYSTEM/z.md', learning('Zephyr bus', 'Zephyr uses Kafka for the event bus.'));
        await runSync(config, { waitMs: 5000 });
        await server.whenIdle();
        await steps.refreshContext(config, cwd, { logger: nullLogger, signal: new AbortController().signal });
        const text = readContextCache(config.stateDir, detectProject(cwd, config).key)?.text ?? '';
        expect(text).toContain('Zephyr uses Kafka for the event bus.');
        if (deleteMode === 'detach') expect(text).toContain('Related entities:');
        else expect(text).not.toContain('Related entities:');
      } finally {
        await steps.close();
      }
    }
  });
});

describe('`context --refresh` asks the same question as the worker', () => {
  it('shows entity summaries only where the server rebuilds them (0.31.2), once a sync that replaces has learnt its rules', async () => {
    const { main } = await import('../../src/cli-main.js');
    for (const deleteMode of ['detach', 'cascade'] as const) {
      await server.close();
      server = await startGraphitiServer({ processingDelayMs: 0, deleteMode, mainParams: true, graphPerGroup: true });
      box.cleanup();
      box = makeSandbox(server.url);
      const config = box.config();
      const cwd = box.path('code', 'zephyr');
      mkdirSync(join(cwd, '.git'), { recursive: true });
      box.pai('LEARNING/SYSTEM/z.md', learning('Zephyr bus', 'Zephyr uses Kafka for the event bus.'));
      await runSync(config, { waitMs: 5000 });
      await server.whenIdle();
      const refresh = async () => {
        let text = '';
        const code = await main(['context', '--cwd', cwd, '--refresh'], { stdout: (t) => void (text += t), stderr: () => undefined, isTTY: false, env: box.env, cwd });
        expect(code).toBe(0);
        return text;
      };
      // Only added: not probed (sync.ts PROBE_WHEN_NEEDED), and the context never probes: no summaries yet.
      expect(await refresh()).not.toContain('Related entities:');
      box.pai('LEARNING/SYSTEM/z.md', learning('Zephyr bus', 'Zephyr uses Kafka for the event bus. Zephyr archives to Glacier.'));
      await runSync(config, { waitMs: 5000 });
      await server.whenIdle();
      const out = await refresh();
      expect(out).toContain('Zephyr uses Kafka for the event bus.');
      if (deleteMode === 'detach') expect(out).toContain('Related entities:');
      else expect(out).not.toContain('Related entities:');
    }
  });
});
