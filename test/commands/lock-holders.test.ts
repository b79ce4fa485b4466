/**
 * commands/lock-holders.ts WHO_HOLDS_IT: `status` names who holds the state lock and the hooks'
 * worker's lease, how each stands and what to do, never their token. The holders are real
 * processes (a child that takes the lock as a `sync` does), stopped and continued with real signals.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { holderLines, lockHolders } from '../../src/commands/lock-holders.js';
import { formatStatus, type StatusReport } from '../../src/commands/reports.js';
import { lockFilePath } from '../../src/lib/state/lock.js';
import { processStopped } from '../../src/lib/util/process-identity.js';
import { takeLock } from '../../src/lib/worker/spawn.js';
import { startChild, type Child } from '../helpers/child-process.js';
import { useTempDir } from '../helpers/use-temp-dir.js';
import { srcUrl } from '../support/paths.js';

let dir: string;
useTempDir('gms-holders-', (d) => (dir = d));

const children: Child[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) {
    child.proc.kill('SIGCONT');
    child.proc.kill('SIGKILL');
    await child.exited;
  }
});

/** A process that takes the state lock as `sync` does (label `cli sync`) and holds it; its token on its first line. */
async function syncHolding(): Promise<{ child: Child; pid: number; token: string }> {
  const script = `
    import { acquireLock } from ${JSON.stringify(srcUrl('src/lib/state/lock.ts'))};
    const lock = await acquireLock(process.argv[2], { label: 'cli sync' });
    console.log(lock.owner.token);
    setInterval(() => {}, 1000);
  `;
  const child = await startChild(dir, 'holder', script, [join(dir, 'state')]);
  children.push(child);
  const token = await child.nextLine();
  return { child, pid: child.proc.pid as number, token };
}

/** A process that stands in for the hooks' worker (any live process: the lease names it by pid, start and command line). */
async function workerStandIn(): Promise<Child> {
  const child = await startChild(dir, 'worker', `console.log('up'); setInterval(() => {}, 1000);`);
  children.push(child);
  await child.nextLine();
  return child;
}

async function stop(pid: number): Promise<void> {
  process.kill(pid, 'SIGSTOP');
  await vi.waitFor(() => expect(processStopped(pid)).toBe(true));
}

const text = async (stateDir: string) => holderLines(await lockHolders(stateDir)).join('\n');

describe.runIf(process.platform === 'linux')('status names who holds the state lock (WHO_HOLDS_IT)', () => {
  it('a sync at work: its pid, its kind, since when, this machine, and that waiting is all there is to do; no token', async () => {
    const { pid, token } = await syncHolding();
    const stateDir = join(dir, 'state');
    const [holder] = await lockHolders(stateDir);
    expect(holder).toMatchObject({ what: 'state lock', pid, kind: 'cli sync', host: 'this machine', standing: 'running', since: expect.any(String) });
    const line = await text(stateDir);
    expect(line).toMatch(new RegExp(`^State lock: a cli sync \\(pid ${pid}, this machine, since \\d{4}-.*is at work: .*nothing to do`));
    expect(line).not.toContain(token);
    expect(JSON.stringify(await lockHolders(stateDir))).not.toContain(token);
    expect(line).not.toMatch(/\brm\b|delete/);
  });

  it('a sync stopped (SIGSTOP, Ctrl-Z): said so, with `kill -CONT <pid>`, and when a waiting sync takes it over', async () => {
    const { pid } = await syncHolding();
    const stateDir = join(dir, 'state');
    await stop(pid);
    const [holder] = await lockHolders(stateDir);
    expect(holder).toMatchObject({ pid, standing: 'stopped' });
    const line = await text(stateDir);
    expect(line).toContain(`is stopped (Ctrl-Z or SIGSTOP`);
    expect(line).toContain(`\`kill -CONT ${pid}\``);
    expect(line).toMatch(/takes the lock over about 45 s after that heartbeat/);
  });

  it('a sync that ended without releasing it (killed): ended, taken over at once, nothing to do', async () => {
    const { child, pid } = await syncHolding();
    child.proc.kill('SIGKILL');
    await child.exited;
    const [holder] = await lockHolders(join(dir, 'state'));
    expect(holder).toMatchObject({ pid, standing: 'gone' });
    expect(holder?.line).toContain('takes it over at once; nothing to do');
  });

  it('a lock of another machine sharing the state folder: named with its host, taken over once its heartbeat is 30 s old', async () => {
    const stateDir = join(dir, 'state');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(stateDir, { recursive: true });
    const token = 'f'.repeat(24);
    writeFileSync(lockFilePath(stateDir), `${JSON.stringify({ tool: 'graphiti-memory-sync', pid: 4242, hostname: 'desk-at-work', startedAt: '2026-12-07T10:00:00.000Z', token, label: 'watch' })}\n`);
    const [holder] = await lockHolders(stateDir);
    expect(holder).toMatchObject({ pid: 4242, kind: 'watch', host: 'desk-at-work', standing: 'elsewhere' });
    expect(holder?.line).toContain('once its heartbeat is 30 s old');
    expect(await text(stateDir)).not.toContain(token);
  });

  it('nothing held: no line', async () => {
    expect(await lockHolders(join(dir, 'state'))).toEqual([]);
  });
});

describe.runIf(process.platform === 'linux')("status names the hooks' worker holding its lease (WHO_HOLDS_IT)", () => {
  it('at work, then stopped (hooks only leave requests: `kill -CONT` or `kill`), then ended; never its token', async () => {
    const stateDir = join(dir, 'state');
    const worker = await workerStandIn();
    const pid = worker.proc.pid as number;
    const taken = takeLock(stateDir, { pid });
    if (!taken.acquired) throw new Error('lease not taken');
    const running = (await lockHolders(stateDir)).find((h) => h.what === 'worker lease');
    expect(running).toMatchObject({ pid, kind: 'hook worker', standing: 'running' });
    await stop(pid);
    const stopped = (await lockHolders(stateDir)).find((h) => h.what === 'worker lease');
    expect(stopped).toMatchObject({ pid, standing: 'stopped' });
    expect(stopped?.line).toContain(`\`kill -CONT ${pid}\``);
    expect(stopped?.line).toContain(`\`kill ${pid}\` ends it`);
    worker.proc.kill('SIGKILL');
    await worker.exited;
    const gone = (await lockHolders(stateDir)).find((h) => h.what === 'worker lease');
    expect(gone).toMatchObject({ pid, standing: 'gone' });
    for (const h of [running, stopped, gone]) expect(JSON.stringify(h)).not.toContain(taken.lock.token);
    expect(await text(stateDir)).not.toContain(taken.lock.token);
  });
});

describe('formatStatus prints the holders', () => {
  it('one line each, after the last run', () => {
    const report = {
      stateDir: '/s',
      counts: { confirmed: 0, queued: 0, pending: 0, failed: 0, skipped: 0 },
      total: 0,
      failures: [],
      skipped: [],
      orphansToDelete: 0,
      server: { ok: true, message: 'ok', url: 'http://127.0.0.1:1/mcp' },
      serverUrlFrom: 'default',
      holders: [{ what: 'state lock', pid: 7, kind: 'cli sync', standing: 'running', line: 'a cli sync (pid 7 …) is at work' }],
    } as unknown as StatusReport;
    expect(formatStatus(report)).toContain('\nState lock: a cli sync (pid 7 …) is at work\n');
  });
});
