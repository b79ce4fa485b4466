/**
 * When the watch (every 5 minutes) and the hooks' worker (every minute) pull: measured from the
 * last pull's stamp on the pulled ledger, under a clock that jumps (a suspended laptop, a VM
 * resumed with a clock set ahead, then put right by NTP).
 */
import { utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pullDue } from '../../src/lib/pull/pull.js';
import { PULLED_FILE } from '../../src/lib/state/pulled.js';
import { useTempDir } from '../helpers/use-temp-dir.js';

let dir: string;
useTempDir('gms-pull-due-', (d) => (dir = d));

const EVERY = 5 * 60_000;

function pulledAt(ms: number): void {
  const file = join(dir, PULLED_FILE);
  writeFileSync(file, '{}');
  utimesSync(file, ms / 1000, ms / 1000);
}

describe('pullDue', () => {
  const now = Date.parse('2026-12-06T03:00:00Z');

  it('never pulled: due; pulled a minute ago: not due; pulled longer ago than the period (or the clock jumped forward): due', () => {
    expect(pullDue(dir, now, EVERY)).toBe(true);
    pulledAt(now - 60_000);
    expect(pullDue(dir, now, EVERY)).toBe(false);
    pulledAt(now - EVERY);
    expect(pullDue(dir, now, EVERY)).toBe(true);
    pulledAt(now - 9 * 3_600_000);
    expect(pullDue(dir, now, EVERY)).toBe(true);
  });

  it('the last pull stamped by a clock that was ahead (now set back by a day): due at once, not a day later', () => {
    pulledAt(now + 24 * 3_600_000);
    expect(pullDue(dir, now, EVERY)).toBe(true);
  });

  it('a stamp a few seconds ahead (the state folder on a file server with its own clock) is a pull just made, not one due on every pass', () => {
    pulledAt(now + 3_000);
    expect(pullDue(dir, now, EVERY)).toBe(false);
  });
});
