import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildConfig, type Config } from '../../src/lib/config/config.js';
import { nullLogger } from '../../src/lib/util/log.js';
import { runWorker, type WorkerSteps } from '../../src/lib/worker/loop.js';
import { isDirty, markDirty, readLock, takeLock, workerFiles } from '../../src/lib/worker/spawn.js';
import { makeHookSandbox, type HookSandbox } from '../helpers/hook-runner.js';

let sb: HookSandbox;
let config: Config;

beforeEach(() => {
  sb = makeHookSandbox();
  config = buildConfig(sb.env);
});
afterEach(() => sb.cleanup());

interface Calls {
  syncs: number;
  refreshed: string[];
  lockHeldDuringSync: boolean[];
}

function steps(calls: Calls, overrides: Partial<WorkerSteps> = {}): WorkerSteps {
  return {
    async sync() {
      calls.syncs++;
      calls.lockHeldDuringSync.push(readLock(workerFiles(config.stateDir).pidFile)?.pid === process.pid);
      return { changed: 0 };
    },
    async refreshContext(_c, cwd) {
      calls.refreshed.push(cwd);
    },
    contextAgeMs: () => undefined,
    ...overrides,
  };
}

const fresh = (): Calls => ({ syncs: 0, refreshed: [], lockHeldDuringSync: [] });

describe('runWorker', () => {
  it('a sync that found Graphiti down: no context search is tried (the previous cache stays)', async () => {
    const calls = fresh();
    const result = await runWorker({
      config,
      logger: nullLogger,
      steps: steps(calls, {
        async sync() {
          calls.syncs++;
          return { changed: 0, serverReachable: false };
        },
      }),
      initial: [{ cwd: '/p', reason: 'session-start:startup' }],
    });
    expect(result).toMatchObject({ outcome: 'done', syncs: 1, refreshed: [] });
    expect(calls.refreshed).toEqual([]);
  });

  it('tells the sync whether its pass serves a session start (that sync never probes the server\'s rules: sync.ts PROBE_WHEN_NEEDED)', async () => {
    const passes: unknown[] = [];
    const calls = fresh();
    const recording = steps(calls, {
      async sync(_c, _ctx, pass) {
        passes.push(pass);
        return { changed: 0 };
      },
    });
    await runWorker({ config, logger: nullLogger, steps: recording, initial: [{ cwd: '/p', reason: 'session-start:startup' }] });
    await runWorker({ config, logger: nullLogger, steps: recording, initial: [{ cwd: '/p', reason: 'stop' }] });
    markDirty(config.stateDir, { cwd: '/q', reason: 'session-start:resume' });
    await runWorker({ config, logger: nullLogger, steps: recording, initial: [{ cwd: '/p', reason: 'stop' }] });
    expect(passes).toEqual([{ sessionStart: true }, { sessionStart: false }, { sessionStart: true }]);
  });

  it('without a token takes the lock itself, syncs once, refreshes the requested project, releases the lock', async () => {
    const calls = fresh();
    const result = await runWorker({ config, logger: nullLogger, steps: steps(calls), initial: [{ cwd: '/p', reason: 'session-start:startup' }] });
    expect(result).toMatchObject({ outcome: 'done', passes: 1, syncs: 1, refreshed: ['/p'], errors: 0 });
    expect(calls.lockHeldDuringSync).toEqual([true]);
    expect(readLock(workerFiles(config.stateDir).pidFile)).toBeUndefined();
  });

  it('with the token of the lock the hook took: adopts it (writes its own pid)', async () => {
    const taken = takeLock(config.stateDir, { pid: 999_999 });
    if (!taken.acquired) throw new Error('lock');
    const calls = fresh();
    const result = await runWorker({ config, logger: nullLogger, steps: steps(calls), lockToken: taken.lock.token, initial: [{ cwd: '/p', reason: 'stop' }] });
    expect(result.outcome).toBe('done');
    expect(calls.lockHeldDuringSync).toEqual([true]);
    expect(readLock(workerFiles(config.stateDir).pidFile)).toBeUndefined();
  });

  it('a hook killed between spawning its worker and handing it the lease: the next hook takes the lease and starts its own; the first worker, starting late, does nothing but leave its request (a guard: no work twice)', async () => {
    const killedHook = takeLock(config.stateDir, { pid: 999_999 }); // its pid gone: killed before transferLock
    if (!killedHook.acquired) throw new Error('lock');
    expect(takeLock(config.stateDir).acquired).toBe(true); // the next hook judged the lease stale and took it
    const calls = fresh();
    const late = await runWorker({ config, logger: nullLogger, steps: steps(calls), lockToken: killedHook.lock.token, initial: [{ cwd: '/p', reason: 'stop' }] });
    expect(late.outcome).toBe('lock-lost');
    expect(calls.syncs).toBe(0);
    expect(isDirty(config.stateDir)).toBe(true);
  });

  it('another live worker holds the lock: leaves the request as dirty work and does nothing', async () => {
    takeLock(config.stateDir); // held by this (live) process with another token
    const calls = fresh();
    const result = await runWorker({ config, logger: nullLogger, steps: steps(calls), initial: [{ cwd: '/p', reason: 'stop' }] });
    expect(result.outcome).toBe('busy');
    expect(calls.syncs).toBe(0);
    expect(isDirty(config.stateDir)).toBe(true);
  });

  it('work marked dirty during a pass causes another pass, bounded by maxPasses', async () => {
    const calls = fresh();
    const s = steps(calls, {
      async sync() {
        calls.syncs++;
        markDirty(config.stateDir, { cwd: `/p${calls.syncs}`, reason: 'session-start:compact' });
        return { changed: 0 };
      },
    });
    const result = await runWorker({ config, logger: nullLogger, steps: s, initial: [], maxPasses: 3 });
    expect(result.passes).toBe(3);
    expect(calls.syncs).toBe(3);
    // pass 2 refreshes /p1 (marked during pass 1), pass 3 refreshes /p2; /p3 stays pending for the next worker
    expect(calls.refreshed).toEqual(['/p1', '/p2']);
    expect(isDirty(config.stateDir)).toBe(true);
    expect(readLock(workerFiles(config.stateDir).pidFile)).toBeUndefined();
  });

  it('dirty work already waiting is picked up in the same pass', async () => {
    markDirty(config.stateDir, { cwd: '/a', reason: 'stop' });
    markDirty(config.stateDir, { cwd: '/b', reason: 'session-start:startup' });
    const calls = fresh();
    const result = await runWorker({ config, logger: nullLogger, steps: steps(calls), initial: [{ cwd: '/a', reason: 'stop' }] });
    expect(result.passes).toBe(1);
    expect(calls.refreshed.sort()).toEqual(['/a', '/b']);
    expect(isDirty(config.stateDir)).toBe(false);
  });

  it('after a Stop, a fresh context is not rebuilt unless the sync changed files', async () => {
    const calls = fresh();
    const s = steps(calls, { contextAgeMs: () => 1000 });
    await runWorker({ config, logger: nullLogger, steps: s, initial: [{ cwd: '/p', reason: 'stop' }] });
    expect(calls.refreshed).toEqual([]);
    const changed = steps(calls, { contextAgeMs: () => 1000, sync: async () => ({ changed: 2 }) });
    await runWorker({ config, logger: nullLogger, steps: changed, initial: [{ cwd: '/p', reason: 'stop' }] });
    expect(calls.refreshed).toEqual(['/p']);
    const old = steps(calls, { contextAgeMs: () => 3 * 60 * 60_000 });
    await runWorker({ config, logger: nullLogger, steps: old, initial: [{ cwd: '/q', reason: 'stop' }] });
    expect(calls.refreshed).toEqual(['/p', '/q']);
  });

  it('after a Stop, a context built "in the future" (the clock set back since) counts by its distance from now: hours off is rebuilt, seconds off is fresh', async () => {
    const calls = fresh();
    const ahead = steps(calls, { contextAgeMs: () => -3 * 60 * 60_000 });
    await runWorker({ config, logger: nullLogger, steps: ahead, initial: [{ cwd: '/r', reason: 'stop' }] });
    expect(calls.refreshed).toEqual(['/r']);
    const jitter = steps(calls, { contextAgeMs: () => -10_000 });
    await runWorker({ config, logger: nullLogger, steps: jitter, initial: [{ cwd: '/s', reason: 'stop' }] });
    expect(calls.refreshed).toEqual(['/r']);
  });

  it('errors in the steps never escape; the lock is released', async () => {
    const s: WorkerSteps = {
      sync: () => Promise.reject(new Error('server down')),
      refreshContext: () => Promise.reject(new Error('search failed')),
      contextAgeMs: () => undefined,
    };
    const result = await runWorker({ config, logger: nullLogger, steps: s, initial: [{ cwd: '/p', reason: 'session-start:startup' }] });
    expect(result).toMatchObject({ outcome: 'done', errors: 2, syncs: 0, refreshed: [] });
    expect(readLock(workerFiles(config.stateDir).pidFile)).toBeUndefined();
  });

  it('a step that hangs is cut off by the time limit (its signal is aborted); the lock is released', async () => {
    const s: WorkerSteps = {
      sync: (_c, ctx) =>
        new Promise((_resolve, reject) => {
          ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason as Error));
        }),
      refreshContext: () => Promise.resolve(),
      contextAgeMs: () => undefined,
    };
    const result = await runWorker({ config, logger: nullLogger, steps: s, initial: [{ cwd: '/p', reason: 'session-start:startup' }], timeoutMs: 200 });
    expect(result.outcome).toBe('timeout');
    expect(result.refreshed).toEqual([]);
    expect(readLock(workerFiles(config.stateDir).pidFile)).toBeUndefined();
  });
});

describe('runWorker: pull (issue 42)', () => {
  it('after a session start the worker pulls for that project, after the sync and before the context refresh; not after a Stop, not with the server down, and a failing pull is logged, never thrown', async () => {
    const order: string[] = [];
    const calls = fresh();
    const pulling = (fail = false): Partial<WorkerSteps> => ({
      async sync() {
        order.push('sync');
        return { changed: 0 };
      },
      async pull(_c, cwds) {
        order.push(`pull ${cwds.join(',')}`);
        if (fail) throw new Error('listing failed');
      },
      async refreshContext(_c, cwd) {
        order.push(`refresh ${cwd}`);
      },
    });
    await runWorker({ config, logger: nullLogger, steps: steps(calls, pulling()), initial: [{ cwd: '/p', reason: 'session-start:startup' }] });
    expect(order).toEqual(['sync', 'pull /p', 'refresh /p']);
    order.length = 0;
    await runWorker({ config, logger: nullLogger, steps: steps(calls, pulling()), initial: [{ cwd: '/p', reason: 'stop' }] });
    expect(order.filter((o) => o.startsWith('pull'))).toEqual([]);
    order.length = 0;
    await runWorker({ config, logger: nullLogger, steps: steps(calls, { ...pulling(), async sync() { order.push('sync'); return { changed: 0, serverReachable: false }; } }), initial: [{ cwd: '/p', reason: 'session-start:startup' }] });
    expect(order).toEqual(['sync']);
    order.length = 0;
    const failed = await runWorker({ config, logger: nullLogger, steps: steps(calls, pulling(true)), initial: [{ cwd: '/p', reason: 'session-start:startup' }] });
    expect(order).toEqual(['sync', 'pull /p', 'refresh /p']);
    expect(failed).toMatchObject({ outcome: 'done', errors: 1 });
  });
});

describe('runWorker: a state folder a newer version owns', () => {
  it('the sync refuses the state (StateConflictError): no pull, no context refresh, no second pass, the lock released', async () => {
    const order: string[] = [];
    const calls = fresh();
    const refused = Object.assign(new Error('State file … has format version 3, newer than this build understands (2) … upgrade graphiti-memory-sync'), { name: 'StateConflictError' });
    markDirty(config.stateDir, { cwd: '/q', reason: 'stop' });
    const result = await runWorker({
      config,
      logger: nullLogger,
      steps: steps(calls, {
        async sync() {
          order.push('sync');
          markDirty(config.stateDir, { cwd: '/r', reason: 'stop' });
          throw refused;
        },
        async pull() {
          order.push('pull');
        },
        async refreshContext(_c, cwd) {
          order.push(`refresh ${cwd}`);
        },
      }),
      initial: [{ cwd: '/p', reason: 'session-start:startup' }],
    });
    expect(order).toEqual(['sync']);
    expect(result).toMatchObject({ outcome: 'state-conflict', passes: 1, refreshed: [] });
    expect(readLock(workerFiles(config.stateDir).pidFile)).toBeUndefined();
  });
});
