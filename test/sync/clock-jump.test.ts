/**
 * A wall clock put right forward while a part waits in Graphiti's queue (sync/clock-jump.ts
 * CLOCK_JUMPED_FORWARD): the part looked hours old to the next run, which sent it again while the
 * first copy still waited; both were processed (one extra extraction, a copy deleted later). The
 * run's wall clock and the system's uptime are the test's (`now`, `clockMark`).
 */
import { describe, expect, it } from 'vitest';
import { runSync } from '../../src/lib/sync/sync.js';
import { forwardJumpMs, sinceAfterJump, type ClockMark } from '../../src/lib/sync/clock-jump.js';
import { MAX_SKEW_MS } from '../../src/lib/sync/pace.js';
import type { GraphitiTestServer } from '../support/graphiti-server.js';
import { learning, type Sandbox } from '../support/sandbox.js';
import { useServerAndSandbox } from '../helpers/use-server-and-sandbox.js';

let server: GraphitiTestServer;
let box: Sandbox;
useServerAndSandbox((s, b) => {
  server = s;
  box = b;
});

const HOUR = 3_600_000;
const adds = () => server.calls.filter((c) => c.tool === 'add_memory').length;

/** A note sent while the server's queue is busy (nothing processed), on a wall clock and an uptime the test moves. */
async function sentWhileBusy() {
  const times = { wall: Date.now(), uptime: 5 * HOUR, bootId: 'boot-1' };
  const clock = { now: () => times.wall, clockMark: (): ClockMark => ({ uptimeMs: times.uptime, bootId: times.bootId }) };
  box.pai('LEARNING/SYSTEM/a.md', learning('Alpha', 'Alpha knows the deploy runs on Fridays.'));
  server.pauseProcessing(); // a backlog ahead of it
  const config = box.config();
  expect(await runSync(config, clock)).toMatchObject({ added: 1, queued: 1 });
  return { times, clock, config };
}

describe('a part waiting in the queue when the wall clock jumps forward (CLOCK_JUMPED_FORWARD)', () => {
  it('three hours on the wall clock, one minute of uptime: not sent again; confirmed once the queue reaches it', async () => {
    const { times, clock, config } = await sentWhileBusy();
    times.wall += 3 * HOUR;
    times.uptime += 60_000;
    expect(await runSync(config, clock)).toMatchObject({ resent: 0 });
    expect(adds()).toBe(1);
    server.resumeProcessing();
    await server.whenIdle();
    times.wall += 1_000;
    times.uptime += 1_000;
    expect(await runSync(config, clock)).toMatchObject({ confirmed: 1, resent: 0, duplicatesRemoved: 0 });
    expect(adds()).toBe(1);
    expect(server.episodes('main')).toHaveLength(1);
  });

  it('still judged from then on: a part the server dropped is sent again once the queue has been quiet for its patience after the jump', async () => {
    const { times, clock, config } = await sentWhileBusy();
    times.wall += 3 * HOUR;
    times.uptime += 60_000;
    expect(await runSync(config, clock)).toMatchObject({ resent: 0 });
    // Thirty-one minutes later, on both clocks (the default patience of a group never seen moving is 30 minutes).
    times.wall += 31 * 60_000;
    times.uptime += 31 * 60_000;
    expect(await runSync(config, clock)).toMatchObject({ resent: 1 });
  });

  it('control: three hours really passed (the uptime moved as far): the stalled part is sent again, as before', async () => {
    const { times, clock, config } = await sentWhileBusy();
    times.wall += 3 * HOUR;
    times.uptime += 3 * HOUR;
    expect(await runSync(config, clock)).toMatchObject({ resent: 1 });
  });

  it('another boot says nothing of the clock: judged as before', async () => {
    const { times, clock, config } = await sentWhileBusy();
    times.wall += 3 * HOUR;
    times.uptime = 60_000;
    times.bootId = 'boot-2';
    expect(await runSync(config, clock)).toMatchObject({ resent: 1 });
  });
});

describe('forwardJumpMs (the rule)', () => {
  const last = { startedAt: 1_000_000_000, clock: { uptimeMs: 50_000_000, bootId: 'b' } };
  it('the wall clock moved further than the uptime by more than MAX_SKEW_MS: that much; within it, or behind: none', () => {
    expect(forwardJumpMs(last, { startedAt: last.startedAt + HOUR + 60_000, clock: { uptimeMs: 50_060_000, bootId: 'b' } })).toBe(HOUR);
    expect(forwardJumpMs(last, { startedAt: last.startedAt + MAX_SKEW_MS + 60_000, clock: { uptimeMs: 50_060_000, bootId: 'b' } })).toBe(0);
    expect(forwardJumpMs(last, { startedAt: last.startedAt - HOUR, clock: { uptimeMs: 50_060_000, bootId: 'b' } })).toBe(0);
  });
  it('another boot (its id, or an uptime smaller than recorded), or no mark from the last run: none', () => {
    const later = { startedAt: last.startedAt + 3 * HOUR, clock: { uptimeMs: 50_060_000, bootId: 'c' } };
    expect(forwardJumpMs(last, later)).toBe(0);
    expect(forwardJumpMs({ ...last, clock: { uptimeMs: 50_000_000 } }, { startedAt: later.startedAt, clock: { uptimeMs: 10_000 } })).toBe(0);
    expect(forwardJumpMs({ startedAt: last.startedAt }, later)).toBe(0);
    expect(forwardJumpMs(undefined, later)).toBe(0);
  });
});

describe('sinceAfterJump (ABSENCE_AFTER_JUMP, the rule)', () => {
  const start = Date.parse('2026-01-01T12:00:00.000Z');
  it('an absence started before the jump keeps the real time it lasted: moved forward by the jump, never past this run\'s start', () => {
    expect(sinceAfterJump('2026-01-01T08:50:00.000Z', 3 * HOUR, start)).toBe('2026-01-01T11:50:00.000Z');
    expect(sinceAfterJump('2026-01-01T09:30:00.000Z', 3 * HOUR, start)).toBe('2026-01-01T12:00:00.000Z');
  });
  it('no jump, a start not in the past, or one that cannot be read: unchanged', () => {
    expect(sinceAfterJump('2026-01-01T08:50:00.000Z', 0, start)).toBe('2026-01-01T08:50:00.000Z');
    expect(sinceAfterJump('2026-01-01T12:30:00.000Z', 3 * HOUR, start)).toBe('2026-01-01T12:30:00.000Z');
    expect(sinceAfterJump('not a time', 3 * HOUR, start)).toBe('not a time');
  });
});
