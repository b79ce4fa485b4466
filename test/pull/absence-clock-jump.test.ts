/**
 * A wall clock put right forward while pull times an absence (sync/clock-jump.ts
 * ABSENCE_AFTER_JUMP): a note with no version in the graph is held as an edit in flight until the
 * absence has lasted the group's patience (sync/pace.ts ABSENCE_SETTLED), counted on the wall clock
 * from `missingSince`. A jump of three hours made the next pull take it for deleted at once, though
 * a minute had passed: the copy and its MEMORY.md line removed while the other machine's edit could
 * still be in the queue. The pull's wall clock and the system's uptime are the test's (`now`, `clockMark`).
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readPulled } from '../../src/lib/state/pulled.js';
import type { ClockMark } from '../../src/lib/sync/clock-jump.js';
import { usePullMachines } from '../helpers/use-pull-machines.js';
import { link, topic, type Machine } from './homes.js';

const machines = usePullMachines();
const MIN = 60_000;
const HOUR = 60 * MIN;
const RULES = { MADEINOZ_KNOWLEDGE_SERVER_RULES: '0.29.3' };

const index = (m: Machine) => {
  const file = join(m.memoryDir, 'MEMORY.md');
  return existsSync(file) ? readFileSync(file, 'utf8') : '';
};

/**
 * Two linked machines on a break-before-make server (an absence is held for the patience); A's note
 * pulled on B, then deleted on A; B's first pull after that sees it absent, on clocks the test moves.
 */
async function absentOnB() {
  await machines.restartWith({ deleteMode: 'cascade', mainParams: true });
  const a = machines.make('laptop', undefined, RULES);
  const b = machines.make('desktop/src', undefined, RULES);
  await link(a, b);
  a.write('build.md', topic('Build', 'The build uses Bun.'));
  await a.sync();
  const times = { wall: Date.now(), uptime: 5 * HOUR, bootId: 'boot-1' };
  const clock = { now: () => times.wall, clockMark: (): ClockMark => ({ uptimeMs: times.uptime, bootId: times.bootId }) };
  const fileB = join(b.memoryDir, 'build.md');
  expect((await b.pull(clock)).written.map((w) => w.file)).toEqual([fileB]);
  rmSync(join(a.memoryDir, 'build.md'));
  await a.sync();
  expect(machines.server.episodes('main').filter((e) => e.content.includes('The build uses Bun'))).toEqual([]);
  times.wall += MIN;
  times.uptime += MIN;
  expect((await b.pull(clock)).absent).toEqual([fileB]);
  return { b, fileB, times, clock };
}

/** Moves both clocks as time passing does. */
function pass(times: { wall: number; uptime: number }, ms: number): void {
  times.wall += ms;
  times.uptime += ms;
}

describe('pull: an absence timed across a forward jump of the wall clock (ABSENCE_AFTER_JUMP)', () => {
  it('three hours on the wall clock, one minute of uptime: the copy and its MEMORY.md line stay; removed once the patience has really passed', async () => {
    const { b, fileB, times, clock } = await absentOnB();
    times.wall += 3 * HOUR;
    times.uptime += MIN;
    const after = await b.pull(clock);
    expect([after.removed, after.absent]).toEqual([[], [fileB]]);
    expect(existsSync(fileB)).toBe(true);
    expect(index(b)).toContain('build.md');
    // The absence kept the real time it had lasted (the minute of uptime), on the clock after the jump.
    expect(Date.parse((await readPulled(b.config().stateDir)).notes[fileB]?.missingSince ?? '')).toBe(times.wall - MIN);
    // B never sent to this group: the patience is the configured maximum (30 min) of real time.
    pass(times, 28 * MIN);
    expect((await b.pull(clock)).removed).toEqual([]);
    pass(times, 1 * MIN);
    expect((await b.pull(clock)).removed).toEqual([fileB]);
    expect(index(b)).not.toContain('build.md');
  });

  it('control: three hours really passed (the uptime moved as far): removed, as before', async () => {
    const { b, fileB, times, clock } = await absentOnB();
    pass(times, 3 * HOUR);
    expect((await b.pull(clock)).removed).toEqual([fileB]);
    expect(existsSync(fileB)).toBe(false);
  });

  it('control: another boot says nothing of the clock: judged on the wall clock, as before', async () => {
    const { b, fileB, times, clock } = await absentOnB();
    times.wall += 3 * HOUR;
    times.uptime = MIN;
    times.bootId = 'boot-2';
    expect((await b.pull(clock)).removed).toEqual([fileB]);
  });

  it('control: a jump within what a clock may be off (two minutes) is time passing', async () => {
    const { b, fileB, times, clock } = await absentOnB();
    pass(times, 29 * MIN);
    times.wall += 2 * MIN; // 31 min on the wall clock, 29 of uptime since the absence was first seen
    expect((await b.pull(clock)).removed).toEqual([fileB]);
  });
});
