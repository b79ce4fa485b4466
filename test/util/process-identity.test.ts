/**
 * A process is named by its pid and its start time, read from /proc on Linux and from `ps` on
 * macOS and the BSDs. Both readings are checked here (the `ps` one with this machine's ps, which
 * takes the same options): the same process reads the same, another process with the same
 * command line does not, and a gone process reads as nothing.
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { identifyProcess, isSameProcess, processStartTime, ps } from '../../src/lib/util/process-identity.js';
import { otherUser } from '../support/other-user.js';
import { runningIdentity, spawnNode } from '../support/spawned.js';

function sleeper(mark: string) {
  const child = spawnNode('setInterval(() => {}, 1000)', [mark]);
  const exited = new Promise((r) => child.once('exit', r));
  return { child, exited };
}

describe('process identity', () => {
  it('the same process has the same identity; a second one with the same command line does not; a gone one has none', async () => {
    const a = sleeper('gms-identity-mark');
    const b = sleeper('gms-identity-mark');
    try {
      // Once each runs (test/support/spawned.ts: the line it writes as it starts).
      await runningIdentity(a.child, 'gms-identity-mark');
      await runningIdentity(b.child, 'gms-identity-mark');
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
      await runningIdentity(a.child, 'gms-ps-mark');
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
  // OWNED_BY_US: a record naming another local user's process (forged: it could only come from a
  // state folder someone else wrote) is not ours, though its pid, start time and command line match.
  const user = otherUser();
  it.skipIf('skip' in user)(`a process of another local user is never ours, whatever its record says (OWNED_BY_US)${'skip' in user ? ` (skipped: ${user.skip})` : ''}`, async () => {
    const other = user as { uid: number; gid: number };
    const theirs = spawn('setpriv', [`--reuid=${other.uid}`, `--regid=${other.gid}`, '--clear-groups', process.execPath, '-e', "process.stdout.write('running\\n'); setInterval(() => {}, 1000)", 'server run'], { cwd: '/', env: { PATH: process.env.PATH ?? '/usr/bin:/bin' }, stdio: ['ignore', 'pipe', 'ignore'] });
    const exited = new Promise((r) => theirs.once('exit', r));
    const ours = sleeper('server run');
    try {
      const recorded = await runningIdentity(theirs, 'server run');
      expect(isSameProcess(recorded, 'server run')).toBe(false);
      // Control: our own process with the same command line is ours.
      expect(isSameProcess(await runningIdentity(ours.child, 'server run'), 'server run')).toBe(true);
    } finally {
      theirs.kill('SIGKILL');
      ours.child.kill('SIGKILL');
      await Promise.all([exited, ours.exited]);
    }
  });
});
