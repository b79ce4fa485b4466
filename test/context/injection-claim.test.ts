import { mkdtempSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CLAIM_WINDOW_MS, claimInjection } from '../../src/lib/context/injection-claim.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'gms-claim-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('one injection per session start (settings hooks + plugin)', () => {
  it('the first copy claims, a parallel copy of the same session start does not and learns who did', () => {
    expect(claimInjection(dir, 's1', 'startup', 'plugin')).toEqual({ claimed: true });
    expect(claimInjection(dir, 's1', 'startup', 'settings hooks')).toEqual({ claimed: false, by: 'plugin' });
    // Another session, or another event of the session, is its own claim.
    expect(claimInjection(dir, 's2', 'startup', 'plugin')).toEqual({ claimed: true });
    expect(claimInjection(dir, 's1', 'clear', 'plugin')).toEqual({ claimed: true });
  });

  it('a later event of the same session (compaction keeps the id) is claimed afresh', () => {
    expect(claimInjection(dir, 's1', 'compact', 'plugin')).toEqual({ claimed: true });
    const old = (Date.now() - CLAIM_WINDOW_MS - 1000) / 1000;
    utimesSync(join(dir, 'sessions', 's1-compact'), old, old);
    expect(claimInjection(dir, 's1', 'compact', 'settings hooks')).toEqual({ claimed: true });
    expect(claimInjection(dir, 's1', 'compact', 'plugin')).toEqual({ claimed: false, by: 'settings hooks' });
  });

  it('without a session id every copy injects (nothing to share)', () => {
    expect(claimInjection(dir, undefined, 'startup', 'plugin')).toEqual({ claimed: true });
    expect(claimInjection(dir, undefined, 'startup', 'plugin')).toEqual({ claimed: true });
  });
});
