/**
 * A process is named by its pid and its start time, read from /proc on Linux and from `ps` on
 * macOS and the BSDs. Both readings are checked here (the `ps` one with this machine's ps, which
 * takes the same options): the same process reads the same, another process with the same
 * command line does not, and a gone process reads as nothing.
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { identifyProcess, isSameProcess, processCommandLine, processStartTime, ps } from '../../src/lib/util/process-identity.js';

function sleeper(mark: string) {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)', mark], { stdio: 'ignore' });
  const exited = new Promise((r) => child.once('exit', r));
  return { child, exited };
}

async function commandLineOf(pid: number, mark: string): Promise<string> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const cmd = processCommandLine(pid);
    if (cmd?.includes(mark)) return cmd;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`no command line with ${mark} for ${pid}`);
}

describe('process identity', () => {
  it('the same process has the same identity; a second one with the same command line does not; a gone one has none', async () => {
    const a = sleeper('gms-identity-mark');
    const b = sleeper('gms-identity-mark');
    try {
      await commandLineOf(a.child.pid as number, 'gms-identity-mark');
      await commandLineOf(b.child.pid as number, 'gms-identity-mark');
      const idA = identifyProcess(a.child.pid) as { pid: number; start: string };
      expect(idA.start).toBe(processStartTime(idA.pid));
      expect(isSameProcess(idA, 'gms-identity-mark')).toBe(true);
      expect(isSameProcess(idA, 'something-else')).toBe(false);
      // b alive with the same command line, recorded with another start: a pid reused by a lookalike.
      expect(isSameProcess(identifyProcess(b.child.pid), 'gms-identity-mark')).toBe(true);
      expect(isSameProcess({ pid: b.child.pid as number, start: `${processStartTime(b.child.pid as number)}-earlier` }, 'gms-identity-mark')).toBe(false);
    } finally {
      a.child.kill('SIGKILL');
      b.child.kill('SIGKILL');
      await Promise.all([a.exited, b.exited]);
    }
    expect(identifyProcess(a.child.pid)).toBeUndefined();
    expect(isSameProcess({ pid: a.child.pid as number, start: 'x' }, 'gms-identity-mark')).toBe(false);
  });

  it.skipIf(process.platform === 'win32')('the ps reading (macOS, BSDs): start time to the second and the full command line, stable for one process', async () => {
    const a = sleeper('gms-ps-mark');
    try {
      await commandLineOf(a.child.pid as number, 'gms-ps-mark');
      const first = ps(a.child.pid as number);
      expect(first?.start).toMatch(/^[A-Z][a-z]{2} [A-Z][a-z]{2} \d{1,2} \d\d:\d\d:\d\d \d{4}$/);
      expect(first?.command).toContain('setInterval');
      expect(first?.command).toContain('gms-ps-mark');
      expect(ps(a.child.pid as number)).toEqual(first);
    } finally {
      a.child.kill('SIGKILL');
      await a.exited;
    }
    expect(ps(a.child.pid as number)).toBeUndefined();
  });
});
