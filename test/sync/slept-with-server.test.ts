/**
 * A laptop closed while a part waits in the queue of a Graphiti server on the laptop itself (`server
 * start`, or any server on a loopback address): the server's queue slept with it
 * (clock-jump.ts SLEPT_WITH_THE_SERVER). The wall clock and the uptime (CLOCK_BOOTTIME) both count the
 * sleep, so CLOCK_JUMPED_FORWARD sees nothing; the queue looked quiet for hours and the part was sent
 * again at the first run after waking, while the first copy was still in the queue that had just woken
 * up: both processed (an extra extraction, a copy deleted later). The system's awake time
 * (CLOCK_MONOTONIC on Linux) does not count the sleep. The run's clocks are the test's (`now`, `clockMark`).
 */
import { describe, expect, it } from 'vitest';
import { runSync } from '../../src/lib/sync/sync.js';
import { loadState } from '../../src/lib/state/state.js';
import { serverOnThisMachine, sleptMs, type ClockMark } from '../../src/lib/sync/clock-jump.js';
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

/** A note sent to the server on this machine (the test server, on 127.0.0.1) while its queue is busy, on clocks the test moves. */
async function sentWhileBusy() {
  const times = { wall: Date.now(), uptime: 5 * HOUR, awake: 4 * HOUR, bootId: 'boot-1' };
  const clock = { now: () => times.wall, clockMark: (): ClockMark => ({ uptimeMs: times.uptime, awakeMs: times.awake, bootId: times.bootId }) };
  box.pai('LEARNING/SYSTEM/a.md', learning('Alpha', 'Alpha knows the deploy runs on Fridays.'));
  server.pauseProcessing(); // a backlog ahead of it
  const config = box.config();
  expect(await runSync(config, clock)).toMatchObject({ added: 1, queued: 1 });
  return { times, clock, config };
}

/** The laptop asleep for `ms`: the wall clock and the uptime count it, the awake time does not. */
function sleep(times: { wall: number; uptime: number; awake: number }, ms: number, awakeMs = 0): void {
  times.wall += ms + awakeMs;
  times.uptime += ms + awakeMs;
  times.awake += awakeMs;
}

describe('a part waiting in the queue of a server on this machine when the laptop sleeps (SLEPT_WITH_THE_SERVER)', () => {
  it('three hours asleep, a minute awake: not sent again; confirmed once the woken queue reaches it', async () => {
    const { times, clock, config } = await sentWhileBusy();
    sleep(times, 3 * HOUR, 60_000);
    expect(await runSync(config, clock)).toMatchObject({ resent: 0 });
    expect(adds()).toBe(1);
    server.resumeProcessing();
    await server.whenIdle();
    sleep(times, 0, 1_000);
    expect(await runSync(config, clock)).toMatchObject({ confirmed: 1, resent: 0, duplicatesRemoved: 0 });
    expect(adds()).toBe(1);
    expect(server.episodes('main')).toHaveLength(1);
  });

  it('still judged from waking on: a part the server dropped is sent again once the queue has been quiet for its patience while awake', async () => {
    const { times, clock, config } = await sentWhileBusy();
    sleep(times, 3 * HOUR, 60_000);
    expect(await runSync(config, clock)).toMatchObject({ resent: 0 });
    // Thirty-one minutes awake (the default patience of a group never seen moving is 30 minutes).
    sleep(times, 0, 31 * 60_000);
    expect(await runSync(config, clock)).toMatchObject({ resent: 1 });
    expect(adds()).toBe(2);
  });

  it('control: three hours awake (no sleep): the stalled part is sent again, as before', async () => {
    const { times, clock, config } = await sentWhileBusy();
    sleep(times, 0, 3 * HOUR);
    expect(await runSync(config, clock)).toMatchObject({ resent: 1 });
  });

  it('control: a mark without the awake time (a run of an older build, a system that does not tell it): judged as before', async () => {
    const { times, config } = await sentWhileBusy();
    const noAwake = { now: () => times.wall, clockMark: (): ClockMark => ({ uptimeMs: times.uptime, bootId: times.bootId }) };
    sleep(times, 3 * HOUR, 60_000);
    expect(await runSync(config, noAwake)).toMatchObject({ resent: 1 });
  });
});

describe('a `sync --wait` suspended inside its wait, the server on this machine (SLEPT_WITH_THE_SERVER in the wait)', () => {
  /** A run that sends a note while the server's queue is busy and waits for it; its first sleep inside the wait is `first`, every later one passes awake. */
  async function waitingRun(first: (times: { wall: number; uptime: number; awake: number }, ms: number) => void) {
    const times = { wall: Date.now(), uptime: 5 * HOUR, awake: 4 * HOUR, bootId: 'boot-1' };
    const clockMark = (): ClockMark => ({ uptimeMs: times.uptime, awakeMs: times.awake, bootId: times.bootId });
    box.pai('LEARNING/SYSTEM/a.md', learning('Alpha', 'Alpha knows the deploy runs on Fridays.'));
    server.pauseProcessing();
    let sleeps = 0;
    const config = box.config();
    const summary = await runSync(config, {
      now: () => times.wall,
      clockMark,
      waitMs: 60_000,
      sleep: async (ms) => {
        if (sleeps++ === 0) first(times, ms);
        else sleep(times, 0, ms);
      },
    });
    return { summary, sleeps, config, clockMark };
  }

  it('the lid closed for three hours in the wait: the part still queued is not sent again', async () => {
    const { summary, sleeps } = await waitingRun((times, ms) => sleep(times, 3 * HOUR, ms));
    expect(sleeps).toBeGreaterThan(0);
    expect(summary).toMatchObject({ resent: 0 });
    expect(adds()).toBe(1);
    server.resumeProcessing();
    await server.whenIdle();
    expect(server.episodes('main')).toHaveLength(1);
  });

  it('the sleep told in the wait is told once: the next run measures no sleep since that run\'s mark', async () => {
    const { config, clockMark } = await waitingRun((times, ms) => sleep(times, 3 * HOUR, ms));
    const { state } = await loadState(config.stateDir, { readOnly: true });
    expect(sleptMs(state.lastRun?.clock, clockMark())).toBe(0);
  });

  it('control: three hours awake in the wait (a hung wait, no sleep): the stalled part is sent again, as before', async () => {
    const { summary } = await waitingRun((times, ms) => sleep(times, 0, 3 * HOUR + ms));
    expect(summary).toMatchObject({ resent: 1 });
    expect(adds()).toBe(2);
  });
});

describe('sleptMs (the rule)', () => {
  const last = { uptimeMs: 50_000_000, awakeMs: 40_000_000, bootId: 'b' };
  it('the uptime moved further than the awake time by more than MAX_SKEW_MS: that much; within it: none', () => {
    expect(sleptMs(last, { uptimeMs: last.uptimeMs + HOUR + 60_000, awakeMs: last.awakeMs + 60_000, bootId: 'b' })).toBe(HOUR);
    expect(sleptMs(last, { uptimeMs: last.uptimeMs + MAX_SKEW_MS + 60_000, awakeMs: last.awakeMs + 60_000, bootId: 'b' })).toBe(0);
  });
  it('another boot, a mark without the awake time, or none: none', () => {
    expect(sleptMs(last, { uptimeMs: last.uptimeMs + 2 * HOUR, awakeMs: last.awakeMs + 60_000, bootId: 'c' })).toBe(0);
    expect(sleptMs({ uptimeMs: last.uptimeMs }, { uptimeMs: last.uptimeMs + 2 * HOUR, awakeMs: last.awakeMs + 60_000 })).toBe(0);
    expect(sleptMs(last, { uptimeMs: last.uptimeMs + 2 * HOUR })).toBe(0);
    expect(sleptMs(undefined, { uptimeMs: last.uptimeMs + 2 * HOUR, awakeMs: last.awakeMs })).toBe(0);
    expect(sleptMs({ uptimeMs: 10, awakeMs: 10 }, { uptimeMs: 5, awakeMs: 1 })).toBe(0);
  });
});

describe('serverOnThisMachine (whose queue sleeps with the laptop)', () => {
  it('a loopback address: yes; any other host: no (its queue works on while the laptop sleeps)', () => {
    for (const url of ['http://127.0.0.1:8000/mcp', 'http://localhost:8000/mcp/', 'http://[::1]:8000/mcp', 'http://127.0.0.2:9/mcp']) expect(serverOnThisMachine(url), url).toBe(true);
    for (const url of ['https://graphiti.example.com/mcp', 'http://192.168.1.20:8000/mcp', 'http://10.0.0.5:8000/mcp', 'not a url']) expect(serverOnThisMachine(url), url).toBe(false);
  });
});
