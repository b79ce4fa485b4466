/**
 * The worker lease handed on under its token (worker/spawn.ts transferLock) and a second hook that
 * judged the first hand: the interleaving behind the flaky "two concurrent session starts start
 * exactly one worker" (hooks from dist, under load), made deterministic.
 *
 * Hook B reads the lease while it still names hook A; A spawns its worker, writes the worker's pid
 * into the lease (same token) and exits; only then does B ask whether A lives. The seam is the one
 * question B asks the kernel (util/process-alive.ts): the first time B asks about A, A hands over and
 * is gone, exactly as when B is descheduled between its read and its judgement.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { readLock, takeLock, transferLock, workerFiles } from '../../src/lib/worker/spawn.js';
import { useTempDir } from '../helpers/use-temp-dir.js';

const kernel = vi.hoisted(() => ({
  /** Runs once, at the first "is this pid alive?" about it: what happens while the asker is descheduled. */
  meanwhile: new Map<number, () => void>(),
  /** Processes that have exited by now, as the kernel would say. */
  exited: new Set<number>(),
}));

vi.mock('../../src/lib/util/process-alive.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/lib/util/process-alive.js')>();
  return {
    ...real,
    isProcessAlive(pid: number): boolean {
      const step = kernel.meanwhile.get(pid);
      kernel.meanwhile.delete(pid);
      step?.();
      return !kernel.exited.has(pid) && real.isProcessAlive(pid);
    },
  };
});

let stateDir: string;
useTempDir('gms-lease-handover-', (d) => (stateDir = d));

const children: ChildProcess[] = [];
/** A live process (a hook, a worker): the lease records its real start time and command line. */
function liveProcess(): number {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1e9)'], { stdio: 'ignore' });
  children.push(child);
  return child.pid as number;
}

beforeEach(() => {
  kernel.meanwhile.clear();
  kernel.exited.clear();
});

afterEach(async () => {
  await Promise.all(
    children.splice(0).map(
      (c) =>
        new Promise<void>((resolve) => {
          if (c.exitCode !== null || c.signalCode !== null) return resolve();
          c.once('exit', () => resolve());
          c.kill('SIGKILL');
        }),
    ),
  );
});

it('a hook that read the lease of a hook which then handed it to its worker and exited leaves the live worker its lease', () => {
  const hookA = liveProcess();
  const worker = liveProcess();
  const a = takeLock(stateDir, { pid: hookA });
  if (!a.acquired) throw new Error('hook A did not get the lease');
  kernel.meanwhile.set(hookA, () => {
    transferLock(stateDir, a.lock, worker);
    kernel.exited.add(hookA);
  });

  const b = takeLock(stateDir);

  expect(kernel.meanwhile.size, 'the handover happened between B reading the lease and judging it').toBe(0);
  expect(b.acquired, 'B would start a second worker beside the live one').toBe(false);
  expect(b.acquired ? undefined : b.holder?.pid).toBe(worker);
  expect(readLock(workerFiles(stateDir).pidFile)).toMatchObject({ pid: worker, token: a.lock.token });
});

it('the lease of a hook that exited without handing it on is still taken over (the judgement stands for an unchanged lease)', () => {
  const hookA = liveProcess();
  const a = takeLock(stateDir, { pid: hookA });
  if (!a.acquired) throw new Error('hook A did not get the lease');
  kernel.meanwhile.set(hookA, () => kernel.exited.add(hookA));

  const b = takeLock(stateDir);

  expect(kernel.meanwhile.size).toBe(0);
  expect(b.acquired).toBe(true);
  expect(readLock(workerFiles(stateDir).pidFile)?.token).toBe(b.acquired ? b.lock.token : undefined);
});
