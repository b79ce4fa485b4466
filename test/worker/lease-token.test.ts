/**
 * How the worker learns its lease's token (worker/spawn.ts leaseTokenFromStdin): on stdin when
 * this build's hook started it (TOKEN_ON_STDIN), and in the arguments when an older build's hook
 * did, during an update that replaced the files one by one (LEGACY_TOKEN_ARGUMENT). Without the
 * second, such a worker found the lease naming its own pid, took it for another worker's and left
 * the request undone.
 */
import { describe, expect, it } from 'vitest';
import { leaseTokenFromStdin, TOKEN_ON_STDIN_FLAG } from '../../src/lib/worker/spawn.js';

const noStdin = () => {
  throw new Error('stdin must not be read');
};

describe('the lease token a worker was handed', () => {
  it('on stdin with the flag (this build\'s hook)', () => {
    expect(leaseTokenFromStdin(['--cwd', '/p', '--reason', 'stop', TOKEN_ON_STDIN_FLAG], () => 'abc123\n')).toBe('abc123');
    expect(leaseTokenFromStdin(['--cwd', '/p', TOKEN_ON_STDIN_FLAG], () => '')).toBeUndefined();
  });

  it('in the arguments from an older build\'s hook (LEGACY_TOKEN_ARGUMENT), without reading stdin', () => {
    expect(leaseTokenFromStdin(['--cwd', '/p', '--lock-token', 'f00d', '--reason', 'stop'], noStdin)).toBe('f00d');
  });

  it('none when neither is given, or the argument has no value', () => {
    expect(leaseTokenFromStdin(['--cwd', '/p', '--reason', 'manual'], noStdin)).toBeUndefined();
    expect(leaseTokenFromStdin(['--cwd', '/p', '--lock-token'], noStdin)).toBeUndefined();
    expect(leaseTokenFromStdin(['--lock-token', '--reason', 'stop'], noStdin)).toBeUndefined();
  });
});
