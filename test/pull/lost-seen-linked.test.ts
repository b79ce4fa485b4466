/**
 * LOST_SEEN_IN_PASSING (sync/force-look.ts) and a deletion made on purpose on a linked machine: the
 * absence of a note pull knows is pull's to judge. The hook worker syncs before it pulls, and a Stop
 * pulls nothing, so a sync that lists the group (a new note to confirm) meets the absence before any
 * pull has: told as lost, the session named `sync --force`, which sent the note back to both machines.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runSync } from '../../src/lib/sync/sync.js';
import { usePullMachines } from '../helpers/use-pull-machines.js';
import { topic } from './homes.js';

const machines = usePullMachines();

describe('LOST_SEEN_IN_PASSING and a linked machine', () => {
  it('a note deleted on purpose on the linked machine is not told lost by the next sync that lists its group', async () => {
    await machines.restartWith({ deleteMode: 'detach', mainParams: true, graphPerGroup: true });
    const [a, b] = await machines.pair();
    a.write('build.md', topic('Build', 'The build uses Bun.'));
    a.write('lint.md', topic('Lint', 'The lint runs on push.'));
    await a.sync();
    const fileB = join(b.memoryDir, 'build.md');
    expect((await b.pull()).written.map((w) => w.file)).toContain(fileB);
    await a.pull();
    rmSync(fileB);
    expect((await b.pull()).deletedInGraph).toBe(1);
    await machines.server.whenIdle();
    // A's Stop pass: a new note, sent and confirmed; no pull has run on A since (pull runs at session start, after the sync).
    a.write('test.md', topic('Tests', 'The tests run in parallel.'));
    const stop = await runSync(a.config(), { waitMs: 5000 });
    // On f9b9c1d: "1 note lost in group main", and the step it names, run now, undid the deletion on both machines.
    expect(stop.lostSeen).toBeUndefined();
    // A's next pull carries the deletion out (after the group's patience).
    const t0 = Date.now();
    const removed = [...(await a.pull({ now: () => t0 })).removed, ...(await a.pull({ now: () => t0 + a.config().confirmMaxAgeMs + 60_000 })).removed];
    expect(removed).toEqual([join(a.memoryDir, 'build.md')]);
    // B gets the new note, not the deleted one back.
    expect((await b.pull()).written.map((w) => w.file)).toEqual([join(b.memoryDir, 'test.md')]);
  });
});
