import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { isProcessAlive, procState } from '../../src/lib/util/process-alive.js';

describe.runIf(process.platform === 'linux')('isProcessAlive', () => {
  it('a zombie (exited, not reaped, as in a container without init) counts as exited', async () => {
    // The background `sleep 60` is a child of the exec'd `sleep 30`, which never reaps it. It is
    // killed only once the shell has become `sleep 30` (a shell would have reaped it): a zombie.
    const parent = spawn('sh', ['-c', 'sleep 60 & echo $!; exec sleep 30'], { stdio: ['ignore', 'pipe', 'ignore'] });
    try {
      const pid = await new Promise<number>((done) => parent.stdout.once('data', (d: Buffer) => done(Number(String(d).trim()))));
      await vi.waitFor(() => expect(readFileSync(`/proc/${parent.pid as number}/comm`, 'utf8').trim()).toBe('sleep'), { timeout: 10_000, interval: 20 });
      process.kill(pid, 'SIGKILL');
      await vi.waitFor(() => expect(procState(pid)).toBe('Z'), { timeout: 10_000, interval: 20 });
      // kill(pid, 0) still succeeds for it…
      expect(() => process.kill(pid, 0)).not.toThrow();
      // …but it is not a running process.
      expect(isProcessAlive(pid)).toBe(false);
      expect(isProcessAlive(parent.pid as number)).toBe(true);
    } finally {
      parent.kill('SIGKILL');
    }
  });

  it('a pid that does not exist, and nonsense pids, are not alive', () => {
    expect(isProcessAlive(2 ** 22 + 12345)).toBe(false);
    expect(isProcessAlive(0)).toBe(false);
    expect(isProcessAlive(-1)).toBe(false);
    expect(isProcessAlive(process.pid)).toBe(true);
  });
});
