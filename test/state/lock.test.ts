import { existsSync } from 'node:fs';
import { readFile, readdir, stat, utimes, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LockLostError, LockTimeoutError, acquireLock, inspectLock, lockFilePath, lockInternals, tryAcquireLock, withLock, withLockIfFree, type LockOwner } from '../../src/lib/state/lock.js';
import { deadPid, startChild } from '../helpers/child-process.js';
import { srcUrl } from '../support/paths.js';
import { useTempDir } from '../helpers/use-temp-dir.js';

let dir: string;
useTempDir('gms-lock-', (d) => (dir = d));

function ownerRecord(patch: Partial<LockOwner>): LockOwner {
  return { tool: 'graphiti-memory-sync', pid: process.pid, hostname: hostname(), startedAt: new Date().toISOString(), token: 'fake-token', ...patch };
}

async function writeFakeLock(owner: LockOwner, ageMs = 0): Promise<void> {
  const path = lockFilePath(dir);
  await writeFile(path, JSON.stringify(owner));
  if (ageMs > 0) {
    const t = new Date(Date.now() - ageMs);
    await utimes(path, t, t);
  }
}

describe('lock basics', () => {
  it('acquires, blocks others, releases; release is idempotent and leaves no files', async () => {
    const lock = await acquireLock(dir, { timeoutMs: 1000, label: 'test' });
    expect(lock.owner.pid).toBe(process.pid);
    const onDisk = JSON.parse(await readFile(lockFilePath(dir), 'utf8')) as LockOwner;
    expect(onDisk.token).toBe(lock.owner.token);
    expect(onDisk.label).toBe('test');
    expect((await stat(lockFilePath(dir))).mode & 0o777).toBe(0o600);
    expect(await tryAcquireLock(dir)).toBeUndefined();
    await lock.release();
    await lock.release();
    expect(lock.released).toBe(true);
    expect(await readdir(dir)).toEqual([]);
    const again = await tryAcquireLock(dir);
    expect(again).toBeDefined();
    await again?.release();
  });

  it('withLockIfFree runs its write under the lock when no one holds it, and neither runs it nor waits while someone does', async () => {
    const ran: string[] = [];
    const holder = await acquireLock(dir, { timeoutMs: 1000, label: 'cli sync' });
    // The holder lets go only after this returns: a version that waited would wait for itself.
    expect(await withLockIfFree(dir, async () => void ran.push('held'))).toBeUndefined();
    expect(ran).toEqual([]);
    expect((JSON.parse(await readFile(lockFilePath(dir), 'utf8')) as LockOwner).token).toBe(holder.owner.token);
    await holder.release();
    expect(await withLockIfFree(dir, async () => (ran.push(existsSync(lockFilePath(dir)) ? 'under the lock' : 'unlocked'), 'done'))).toBe('done');
    expect(ran).toEqual(['under the lock']);
    expect(await readdir(dir)).toEqual([]);
  });

  it('creates the state dir (0700) if missing', async () => {
    const nested = join(dir, 'a', 'b');
    const lock = await acquireLock(nested, { timeoutMs: 1000 });
    expect((await stat(nested)).mode & 0o777).toBe(0o700);
    await lock.release();
  });

  it('release() never removes a lock that is no longer ours', async () => {
    const lock = await acquireLock(dir, { timeoutMs: 1000, heartbeatMs: 0 });
    // Someone took it over (simulated by replacing the file).
    await writeFakeLock(ownerRecord({ token: 'someone-else' }));
    await lock.release();
    const onDisk = JSON.parse(await readFile(lockFilePath(dir), 'utf8')) as LockOwner;
    expect(onDisk.token).toBe('someone-else');
  });

  it('withLock releases after the function, also when it throws', async () => {
    await expect(withLock(dir, async () => 42, { timeoutMs: 1000 })).resolves.toBe(42);
    expect(existsSync(lockFilePath(dir))).toBe(false);
    await expect(
      withLock(dir, async () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(existsSync(lockFilePath(dir))).toBe(false);
  });

  it('times out with a LockTimeoutError that names the holder', async () => {
    const holder = await acquireLock(dir, { label: 'watch mode' });
    const waits: Array<LockOwner | undefined> = [];
    const error = await acquireLock(dir, { timeoutMs: 200, onWait: (h) => waits.push(h) }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LockTimeoutError);
    const e = error as LockTimeoutError;
    expect(e.holder?.token).toBe(holder.owner.token);
    expect(e.message).toContain(`pid ${process.pid}`);
    expect(e.message).toContain(hostname());
    expect(e.message).toContain('watch mode');
    expect(e.waitedMs).toBeGreaterThanOrEqual(200);
    expect(waits).toHaveLength(1);
    expect(waits[0]?.token).toBe(holder.owner.token);
    await holder.release();
  });

  it('timeoutMs 0 makes exactly one attempt', async () => {
    const holder = await acquireLock(dir);
    await expect(acquireLock(dir, { timeoutMs: 0 })).rejects.toBeInstanceOf(LockTimeoutError);
    await holder.release();
  });

  it('an aborted signal stops waiting with the signal reason', async () => {
    const holder = await acquireLock(dir);
    const controller = new AbortController();
    const reason = new Error('user pressed ctrl-c');
    const waiting = acquireLock(dir, { timeoutMs: 10_000, signal: controller.signal, onWait: () => controller.abort(reason) });
    await expect(waiting).rejects.toBe(reason);
    await holder.release();
  });

  it('a waiter gets the lock as soon as the holder releases', async () => {
    const holder = await acquireLock(dir);
    let waited = false;
    const waiting = acquireLock(dir, {
      timeoutMs: 5000,
      onWait: () => {
        waited = true;
        void holder.release();
      },
    });
    const lock = await waiting;
    expect(waited).toBe(true);
    await lock.release();
  });

  it('inspectLock reports the holder and whether it is stale', async () => {
    expect(await inspectLock(dir)).toBeUndefined();
    const lock = await acquireLock(dir, { label: 'cli' });
    const seen = await inspectLock(dir);
    expect(seen?.owner?.label).toBe('cli');
    expect(seen?.stale).toBeUndefined();
    await lock.release();
  });
});

describe('stale locks', () => {
  it('takes over a lock whose owner pid is dead on this host, at once', async () => {
    await writeFakeLock(ownerRecord({ pid: await deadPid(), token: 'dead' }));
    const started = Date.now();
    const lock = await acquireLock(dir, { timeoutMs: 2000 });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(JSON.parse(await readFile(lockFilePath(dir), 'utf8')).token).toBe(lock.owner.token);
    await lock.release();
    expect(await readdir(dir)).toEqual([]);
  });

  it('takes over a lock whose heartbeat is older than staleMs (owner on another host)', async () => {
    await writeFakeLock(ownerRecord({ hostname: 'some-other-host', pid: 1, token: 'remote' }), 60_000);
    const lock = await tryAcquireLock(dir, { staleMs: 30_000 });
    expect(lock).toBeDefined();
    await lock?.release();
  });

  it('does not take over a fresh lock of another host, even with an unknown pid', async () => {
    await writeFakeLock(ownerRecord({ hostname: 'some-other-host', pid: 999_999, token: 'remote' }));
    expect(await tryAcquireLock(dir)).toBeUndefined();
  });

  it('honours the holder staleMs when it is larger than the waiter one', async () => {
    await writeFakeLock(ownerRecord({ hostname: 'some-other-host', token: 'remote', staleMs: 120_000 }), 60_000);
    expect(await tryAcquireLock(dir, { staleMs: 30_000 })).toBeUndefined();
  });

  it('treats a lock with our own pid but a token we never issued as left by an earlier process', async () => {
    // Containers reuse small pids: a killed earlier worker may have had the pid we have now.
    const beforeUs = new Date(Date.now() - process.uptime() * 1000 - 60_000).toISOString();
    await writeFakeLock(ownerRecord({ token: 'previous-incarnation', startedAt: beforeUs }));
    const lock = await tryAcquireLock(dir);
    expect(lock).toBeDefined();
    await lock?.release();
  });

  it('does not take over a fresh lock with our pid taken after we started (e.g. a worker thread)', async () => {
    await writeFakeLock(ownerRecord({ token: 'worker-thread', startedAt: new Date().toISOString() }));
    expect(await tryAcquireLock(dir)).toBeUndefined();
  });

  it('treats an unparseable lock file as live until its mtime is stale', async () => {
    await writeFile(lockFilePath(dir), '');
    expect(await tryAcquireLock(dir, { staleMs: 1000 })).toBeUndefined();
    const old = new Date(Date.now() - 5000);
    await utimes(lockFilePath(dir), old, old);
    const lock = await tryAcquireLock(dir, { staleMs: 1000 });
    expect(lock).toBeDefined();
    await lock?.release();
  });

  it('exactly one of many concurrent waiters wins the takeover of a stale lock (in-process)', async () => {
    await writeFakeLock(ownerRecord({ pid: await deadPid(), token: 'dead' }));
    const results = await Promise.all(Array.from({ length: 12 }, () => tryAcquireLock(dir)));
    const winners = results.filter((l) => l !== undefined);
    expect(winners).toHaveLength(1);
    expect(JSON.parse(await readFile(lockFilePath(dir), 'utf8')).token).toBe(winners[0]?.owner.token);
    await winners[0]?.release();
    expect(await readdir(dir)).toEqual([]);
  });

  it('exactly one of several processes wins the takeover of a stale lock', async () => {
    await writeFakeLock(ownerRecord({ pid: await deadPid(), token: 'dead' }));
    const script = `
      import { tryAcquireLock } from ${JSON.stringify(srcUrl('src/lib/state/lock.ts'))};
      import { createInterface } from 'node:readline';
      const rl = createInterface({ input: process.stdin });
      const lines = rl[Symbol.asyncIterator]();
      console.log('ready');
      await lines.next(); // "go": all children start the race together
      const lock = await tryAcquireLock(process.argv[2]);
      console.log(lock ? 'won' : 'lost');
      await lines.next(); // hold (a winner must not release before the others tried)
      process.exit(0);
    `;
    const children = await Promise.all(Array.from({ length: 4 }, (_, i) => startChild(dir, `race${i}`, script, [dir])));
    for (const c of children) expect(await c.nextLine()).toBe('ready');
    for (const c of children) c.proc.stdin?.write('go\n');
    const outcomes = await Promise.all(children.map((c) => c.nextLine()));
    for (const c of children) c.proc.stdin?.end('done\n');
    await Promise.all(children.map((c) => c.exited));
    expect(outcomes.filter((o) => o === 'won')).toHaveLength(1);
    expect(outcomes.filter((o) => o === 'lost')).toHaveLength(3);
  });

  it('a takeover that finds a fresh lock in place of the stale one puts it back', async () => {
    // Waiter observed the stale lock "old"; meanwhile another waiter replaced it with "fresh".
    const path = lockFilePath(dir);
    await writeFakeLock(ownerRecord({ pid: await deadPid(), token: 'old' }));
    const seenStale = await lockInternals.observe(path);
    await writeFile(`${path}.new`, JSON.stringify(ownerRecord({ token: 'fresh' })));
    const { rename } = await import('node:fs/promises');
    await rename(`${path}.new`, path);
    expect(seenStale).toBeDefined();
    const removed = await lockInternals.takeOver(path, seenStale!, 'waiter-token');
    expect(removed).toBe(false);
    expect(JSON.parse(await readFile(path, 'utf8')).token).toBe('fresh');
    expect((await readdir(dir)).sort()).toEqual(['sync.lock']);
  });

  it('a takeover that finds the judged lock heartbeating again leaves it (the judgement was of the old heartbeat)', async () => {
    // Judged stale by its heartbeat (another host's holder, silent for a minute); before the waiter
    // removes it, the slow holder's heartbeat lands: same token, but the holder is proven alive.
    const path = lockFilePath(dir);
    await writeFakeLock(ownerRecord({ hostname: 'some-other-host', token: 'slow-holder' }), 60_000);
    const seenStale = await lockInternals.observe(path);
    expect(lockInternals.staleReason(seenStale!, 30_000)).toMatch(/no heartbeat/);
    const now = new Date();
    await utimes(path, now, now);
    expect(await lockInternals.takeOver(path, seenStale!, 'waiter-token')).toBe(false);
    expect(JSON.parse(await readFile(path, 'utf8')).token).toBe('slow-holder');
  });

  it('recovers a lock left by a SIGKILLed process without waiting for staleMs', async () => {
    const script = `
      import { acquireLock } from ${JSON.stringify(srcUrl('src/lib/state/lock.ts'))};
      await acquireLock(process.argv[2], { timeoutMs: 5000, label: 'victim' });
      console.log('locked');
      setInterval(() => {}, 1000); // stay alive holding the lock until killed
    `;
    const child = await startChild(dir, 'victim', script, [dir]);
    expect(await child.nextLine()).toBe('locked');
    expect(await tryAcquireLock(dir)).toBeUndefined();
    child.proc.kill('SIGKILL');
    const exit = await child.exited;
    expect(exit.signal).toBe('SIGKILL');
    const holder = JSON.parse(await readFile(lockFilePath(dir), 'utf8')) as LockOwner;
    expect(holder.label).toBe('victim');
    const started = Date.now();
    const lock = await acquireLock(dir, { timeoutMs: 5000, staleMs: 30_000 });
    expect(Date.now() - started).toBeLessThan(5000);
    await lock.release();
  });
});

describe('heartbeat', () => {
  it('keeps a long-held lock from being stolen', async () => {
    const holder = await acquireLock(dir, { staleMs: 600, heartbeatMs: 50 });
    // The waiter keeps trying for > 3 × staleMs; a heartbeat-less lock would be stale after 600 ms
    // (see the next test). The 12× margin between heartbeat and staleMs absorbs CI load.
    const error = await acquireLock(dir, { staleMs: 600, timeoutMs: 2000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LockTimeoutError);
    expect(holder.lost).toBe(false);
    await expect(holder.refresh()).resolves.toBeUndefined();
    await holder.release();
  });

  it('without a heartbeat the lock goes stale and is taken; the old holder learns it lost it', async () => {
    const lost: LockLostError[] = [];
    const holder = await acquireLock(dir, { staleMs: 200, heartbeatMs: 0, onLost: (e) => lost.push(e) });
    const thief = await acquireLock(dir, { staleMs: 200, timeoutMs: 3000 });
    await expect(holder.refresh()).rejects.toBeInstanceOf(LockLostError);
    expect(holder.lost).toBe(true);
    expect(lost).toHaveLength(1);
    expect(lost[0]?.message).toContain(`pid ${process.pid}`);
    // The old holder's release must not remove the thief's lock.
    await holder.release();
    expect(JSON.parse(await readFile(lockFilePath(dir), 'utf8')).token).toBe(thief.owner.token);
    await thief.release();
  });

  it('refresh() moves the mtime forward', async () => {
    const lock = await acquireLock(dir, { heartbeatMs: 0 });
    const old = new Date(Date.now() - 10_000);
    await utimes(lockFilePath(dir), old, old);
    await lock.refresh();
    expect(Date.now() - (await stat(lockFilePath(dir))).mtimeMs).toBeLessThan(5000);
    await lock.release();
  });
});

describe('cross-process', () => {
  it('two processes incrementing a counter 200 times each under the lock end at exactly 400', async () => {
    const counter = join(dir, 'counter.txt');
    await writeFile(counter, '0');
    const script = `
      import { withLock } from ${JSON.stringify(srcUrl('src/lib/state/lock.ts'))};
      import { readFile, writeFile } from 'node:fs/promises';
      import { setImmediate as yieldNow } from 'node:timers/promises';
      import { createInterface } from 'node:readline';
      const [stateDir, counter] = process.argv.slice(2);
      const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
      console.log('ready');
      await lines.next(); // start together so the two really contend
      for (let i = 0; i < 200; i++) {
        await withLock(stateDir, async () => {
          const n = Number(await readFile(counter, 'utf8'));
          await yieldNow(); // widen the read-modify-write window: without the lock, updates get lost
          await writeFile(counter, String(n + 1));
        }, { timeoutMs: 60_000 });
      }
      console.log('done');
      process.exit(0);
    `;
    const a = await startChild(dir, 'inc-a', script, [dir, counter]);
    const b = await startChild(dir, 'inc-b', script, [dir, counter]);
    expect(await a.nextLine()).toBe('ready');
    expect(await b.nextLine()).toBe('ready');
    a.proc.stdin?.write('go\n');
    b.proc.stdin?.write('go\n');
    const [ea, eb] = await Promise.all([a.exited, b.exited]);
    expect(ea.code, ea.stderr).toBe(0);
    expect(eb.code, eb.stderr).toBe(0);
    expect(Number(await readFile(counter, 'utf8'))).toBe(400);
    expect(existsSync(lockFilePath(dir))).toBe(false);
  });

  it('a process that exits without releasing removes its lock on exit', async () => {
    const script = `
      import { acquireLock } from ${JSON.stringify(srcUrl('src/lib/state/lock.ts'))};
      await acquireLock(process.argv[2], { timeoutMs: 5000 });
      console.log('locked');
      // no release: the exit handler must clean up (the heartbeat timer is unref'd, so we exit)
    `;
    const child = await startChild(dir, 'forgetful', script, [dir]);
    expect(await child.nextLine()).toBe('locked');
    const exit = await child.exited;
    expect(exit.code, exit.stderr).toBe(0);
    expect(existsSync(lockFilePath(dir))).toBe(false);
  });
});

describe('the clock stepping (identity and a heartbeat judged on our monotonic clock)', () => {
  const DAY = 24 * 60 * 60_000;

  /** A live process that idles until killed: a lock holder, or what a reused pid belongs to. */
  async function idleProcess(): Promise<{ pid: number; kill(): Promise<void> }> {
    const { spawn } = await import('node:child_process');
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1e9)'], { stdio: 'ignore' });
    return {
      pid: child.pid as number,
      kill: () =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGKILL');
        }),
    };
  }

  async function observedLock(owner: LockOwner, mtime: Date) {
    const path = lockFilePath(dir);
    await writeFile(path, JSON.stringify(owner));
    await utimes(path, mtime, mtime);
    return (await lockInternals.observe(path)) as NonNullable<Awaited<ReturnType<typeof lockInternals.observe>>>;
  }

  it('a takeover guard left by a remover killed mid-step, stamped a day ahead (the clock set back since): cleared, so the dead lock is still taken over', async () => {
    await writeFakeLock(ownerRecord({ pid: await deadPid(), token: 'dead-holder' }));
    const guard = `${lockFilePath(dir)}.takeover`;
    await writeFile(guard, 'killed-remover');
    const future = new Date(Date.now() + DAY);
    await utimes(guard, future, future);
    const lock = await acquireLock(dir, { timeoutMs: 5_000, heartbeatMs: 0 });
    expect(lock.owner.pid).toBe(process.pid);
    await lock.release();
  });

  it('a lock whose heartbeat lies in the future (clock set back), its pid now another process: taken over at once', async () => {
    const other = await idleProcess();
    try {
      await writeFakeLock(ownerRecord({ pid: other.pid, token: 'killed-holder', start: 'an-earlier-process:1' }));
      const future = new Date(Date.now() + DAY);
      await utimes(lockFilePath(dir), future, future);
      const lock = await tryAcquireLock(dir);
      expect(lock).toBeDefined();
      await lock?.release();
    } finally {
      await other.kill();
    }
  });

  it("a live holder's lock is not broken when the clock jumps forward a day: stale only once its heartbeat stops moving", async () => {
    const holder = await idleProcess();
    try {
      const { processStartTime } = await import('../../src/lib/util/process-identity.js');
      const owner = ownerRecord({ pid: holder.pid, token: 'live-holder', start: processStartTime(holder.pid) as string });
      const seen = await observedLock(owner, new Date());
      const jumped = Date.now() + DAY;
      expect(lockInternals.staleReason(seen, 30_000, jumped, 1_000)).toBeUndefined();
      expect(lockInternals.staleReason(seen, 30_000, jumped, 10_000)).toBeUndefined();
      // Its heartbeat moved (a new mtime): judged afresh.
      const beat = await observedLock(owner, new Date(Date.now() + 1000));
      expect(lockInternals.staleReason(beat, 30_000, jumped, 20_000)).toBeUndefined();
      // Not moving for half the stale age on our monotonic clock: hung, stale.
      expect(lockInternals.staleReason(beat, 30_000, jumped, 36_000)).toMatch(/no heartbeat/);
    } finally {
      await holder.kill();
    }
  });

  it("a hung live holder's heartbeat a day in the future (clock set back): stale once it does not move, not a day later", async () => {
    const holder = await idleProcess();
    try {
      const { processStartTime } = await import('../../src/lib/util/process-identity.js');
      const seen = await observedLock(ownerRecord({ pid: holder.pid, token: 'hung-holder', start: processStartTime(holder.pid) as string }), new Date(Date.now() + DAY));
      expect(lockInternals.staleReason(seen, 30_000, Date.now(), 5_000)).toBeUndefined();
      expect(lockInternals.staleReason(seen, 30_000, Date.now(), 21_000)).toMatch(/in the future \(the clock was set back\)/);
    } finally {
      await holder.kill();
    }
  });

  it('a lock records its holder start time', async () => {
    const lock = await acquireLock(dir, { timeoutMs: 1000 });
    expect(JSON.parse(await readFile(lockFilePath(dir), 'utf8')).start).toEqual(expect.any(String));
    await lock.release();
  });
});
