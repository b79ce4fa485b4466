/**
 * `sync --wait` lists when the answer can have changed (issue 27), end to end over loopback with
 * the test server processing one episode at a time: a slow server gets a few listings for a
 * whole batch, not one every few hundred milliseconds.
 */
import { describe, expect, it, vi } from 'vitest';
import { sampleCap } from '../../src/lib/sync/pace.js';
import { runSync } from '../../src/lib/sync/sync.js';
import type { SyncOptions } from '../../src/lib/sync/types.js';
import { copiesByMarker, fillWithForeignEpisodes, seededUuids } from '../support/busy-group.js';
import { FakeClock } from '../support/fake-clock.js';
import type { GraphitiTestServer } from '../support/graphiti-server.js';
import { learning, type Sandbox } from '../support/sandbox.js';
import { useServerAndSandbox } from '../helpers/use-server-and-sandbox.js';

let server: GraphitiTestServer;
let box: Sandbox;

useServerAndSandbox((s, b) => {
  server = s;
  box = b;
});

const listings = () => server.calls.filter((c) => c.tool === 'get_episodes').length;

/** A loopback round trip to the test server, on the fake clock (`simulatedTime`). */
const REPLY_MS = 1;

/**
 * The run's clock and the server's queue on one fake clock: `sync --wait` sleeps by advancing it
 * (SyncOptions `sleep`), and the server processes what falls due meanwhile. A wait of a minute
 * plays out in well under a second, the same however busy the machine is.
 *
 * Every answer of the server takes REPLY_MS of that clock, as a loopback round trip does: on a
 * clock that stood still while the run sent, a whole batch went out in one millisecond, where a
 * real run's send stamps are spread over its round trips. Before send orders (sync/send-order.ts)
 * the schedule, which counts the parts sent after the head a sample shows (schedule.ts
 * `behindHead`), then took every unseen part for processed and listed the group in full at once;
 * several sends to a millisecond still happen here (`concurrency` at a time), which the cases at
 * concurrency 4 and 64 below are about.
 *
 * Episode uuids (the group's listing order, what a pace sample shows) come from `seed`
 * (busy-group.ts `seededUuids`): `uuid` is for the test's own seeded episodes.
 */
function simulatedTime(seed = 1): { time: Pick<SyncOptions, 'now' | 'sleep'>; uuid: () => string } {
  const clock = new FakeClock();
  clock.t = Date.now();
  const uuid = seededUuids(seed);
  server.setOptions({ clock, episodeUuid: uuid });
  server.events.on('call', () => void clock.advance(REPLY_MS));
  return { time: { now: () => clock.now(), sleep: (ms) => clock.advance(ms) }, uuid };
}
const adds = () => server.calls.filter((c) => c.tool === 'add_memory').length;

describe('the hooks\' worker in a long session', () => {
  it('many small edits while the group does not move: listings back off instead of one every run', async () => {
    for (let i = 0; i < 3; i++) box.pai(`LEARNING/SYSTEM/s${i}.md`, learning(`S${i}`, `Body ${i}.`));
    const config = box.config();
    let clock = Date.now();
    const now = () => clock;
    await runSync(config, { now });
    await server.whenIdle();
    clock += 5_000;
    expect(await runSync(config, { now })).toMatchObject({ confirmed: 3 });
    // The server stops moving (a long backlog of other clients); the session edits a note every
    // turn, and each turn's Stop hook runs a sync: 60 turns, 5 s apart.
    server.pauseProcessing();
    const before = listings();
    for (let turn = 0; turn < 60; turn++) {
      clock += 5_000;
      box.pai('LEARNING/SYSTEM/s0.md', learning('S0', `Edit ${turn}.`));
      await runSync(config, { now });
    }
    expect(adds()).toBe(3 + 60);
    expect(listings() - before).toBeLessThanOrEqual(12); // not 60
    server.resumeProcessing();
    await server.whenIdle();
    let confirmedAfter = 0;
    for (let run = 1; run <= 8 && confirmedAfter === 0; run++) {
      clock += 60_000;
      const s = await runSync(config, { now });
      if (s.confirmed === 3 && s.queued === 0) confirmedAfter = run;
    }
    expect(confirmedAfter).toBeGreaterThan(0);
  });
});

describe('sync --wait on a slow server', () => {
  it('20 notes at 150 ms each: a few listings for the batch, every note confirmed once', async () => {
    const { time } = simulatedTime();
    server.setOptions({ processingDelayMs: 150 });
    for (let i = 0; i < 20; i++) box.pai(`LEARNING/SYSTEM/w${i}.md`, learning(`W${i}`, `Body ${i}.`));
    const summary = await runSync(box.config({ MADEINOZ_KNOWLEDGE_CONCURRENCY: '4' }), { waitMs: 60_000, ...time });
    expect(summary).toMatchObject({ confirmed: 20, queued: 0, resent: 0 });
    expect(adds()).toBe(20);
    // One listing before sending (a new state: was it lost?), then a few while 3 s of processing
    // go by; a clock doubling from 50 ms to 2 s would have listed about ten times.
    expect(listings()).toBeLessThanOrEqual(6);
  });

  it('a dropped tail is still found while waiting, and re-sent', async () => {
    // Simulated time: the drop is judged only after the group has shown no movement for several
    // times its pace (at least 10 s), which on real time took about 18 s of the test's wait.
    const { time } = simulatedTime();
    server.setOptions({ processingDelayMs: 30 });
    for (let i = 0; i < 6; i++) box.pai(`LEARNING/SYSTEM/d${i}.md`, learning(`D${i}`, `Body ${i}.`));
    const config = box.config({ MADEINOZ_KNOWLEDGE_CONCURRENCY: '1', MADEINOZ_KNOWLEDGE_CONFIRM_MAX_AGE: '20000' });
    await runSync(config, { waitMs: 60_000, ...time }); // learns the group's pace
    box.pai('LEARNING/SYSTEM/tail.md', learning('Tail', 'The last note of the queue.'));
    server.failNext('drop', 1);
    const summary = await runSync(config, { waitMs: 60_000, ...time });
    expect(summary).toMatchObject({ confirmed: 7, queued: 0, resent: 1 });
    expect(adds()).toBe(6 + 2);
  });
});

describe('sync --wait in a busy group', () => {
  const FOREIGN = 3_000;
  /** max_episodes of each get_episodes since `from` (a call index). */
  const looks = (from: number) => server.calls.slice(from).flatMap((c) => (c.tool === 'get_episodes' ? [Number((c.args as { max_episodes?: number }).max_episodes)] : []));

  /**
   * A batch of 60 into a group of 3,000 at 100 ms each (simulated time, uuids from `seed`), after 4
   * notes that teach the group's size and a first pace: the batch run's looks (max_episodes each),
   * every note confirmed once. `reorder`: the server takes the batch's add_memory calls in groups of
   * that many as they arrive, each group queued in reverse (test/support/graphiti/in-flight-order.ts).
   */
  async function batchInBusyGroup(seed: number, concurrency: number, reorder?: number): Promise<number[]> {
    return (await batchRun(seed, concurrency, reorder)).caps;
  }

  /** `batchInBusyGroup`, and how long after the server processed the batch's last note the run ended (simulated ms). */
  async function batchRun(seed: number, concurrency: number, reorder?: number): Promise<{ caps: number[]; lateMs: number }> {
    // Simulated time, the group's uuids from a seed: what each sample shows is the same every run.
    const { time, uuid } = simulatedTime(seed);
    fillWithForeignEpisodes(server, FOREIGN, 'main', uuid);
    server.setOptions({ processingDelayMs: 100 });
    const config = box.config({ MADEINOZ_KNOWLEDGE_CONCURRENCY: String(concurrency) });
    for (let i = 0; i < 4; i++) box.pai(`LEARNING/SYSTEM/p${i}.md`, learning(`P${i}`, `Body ${i}.`));
    expect(await runSync(config, { waitMs: 60_000, ...time })).toMatchObject({ confirmed: 4, queued: 0 }); // learns the group's size and a first pace
    for (let i = 0; i < 60; i++) box.pai(`LEARNING/SYSTEM/b${i}.md`, learning(`B${i}`, `Body of the batch note ${i}.`));
    if (reorder !== undefined) server.reorderInFlight(reorder, 60);
    const from = server.calls.length;
    expect(await runSync(config, { waitMs: 60_000, ...time })).toMatchObject({ confirmed: 64, queued: 0, resent: 0 });
    expect(adds()).toBe(64);
    expect([...copiesByMarker(server).values()].every((n) => n === 1)).toBe(true);
    expect(copiesByMarker(server).size).toBe(64);
    const lastProcessed = Math.max(...server.processed.map((p) => p.at));
    return { caps: looks(from), lateMs: time.now!() - lastProcessed };
  }
  const fullListings = (caps: number[]) => caps.filter((max) => max > FOREIGN).length;

  it('the waits are pace samples of a tenth of the group; one full listing at the end confirms; nothing twice', async () => {
    const caps = await batchInBusyGroup(1, 4);
    const sample = sampleCap(FOREIGN + 4);
    expect(caps.filter((max) => max === sample).length).toBeGreaterThanOrEqual(1);
    expect(fullListings(caps)).toBeLessThanOrEqual(2);
  });

  // Parts sent in the head's millisecond but after it are still ahead of the worker (sync/send-order.ts):
  // counted as processed, the end looked reached and the group was listed in full before it.
  it('four sends at once, several to a millisecond: the one full listing comes at the end (by the millisecond: two in most runs)', async () => {
    expect(fullListings(await batchInBusyGroup(3, 4))).toBe(1);
  });

  it('sixty-four sends at once, dozens to a millisecond: at most two full listings (by the millisecond: three, every run seen)', async () => {
    expect(fullListings(await batchInBusyGroup(2, 64))).toBeLessThanOrEqual(2);
  });

  // Requests in flight together reach the queue in any order (sync/send-order.ts PROVEN_ORDER): here
  // every sixteen sent at once are queued in reverse. Taken in the order handed off, the parts sent
  // before a sample's head counted as processed while most of them were still ahead of it (the end
  // looked reached: a full listing for nothing), and a span between two of them counted the parts
  // handed off between them, which ran elsewhere in the queue.
  it.each([1, 2, 3])('sixteen sends at once, each sixteen queued in reverse (uuids of seed %i): one full listing, within a few processing times of the end; nothing lost or doubled', async (seed) => {
    const { caps, lateMs } = await batchRun(seed, 16, 16);
    expect(fullListings(caps)).toBe(1);
    // Fifteen processing times at most (by the order handed off: 2 to 7.6 s, the pace misread).
    expect(lateMs).toBeLessThanOrEqual(15 * 100);
  });

  /** A batch of 40 whose last note the server loses the first time, in a group of 3,000 (simulated time: 44 notes at 100 ms, then the drop is judged). */
  async function droppedTailAfterSamples(): Promise<void> {
    const { time, uuid } = simulatedTime();
    fillWithForeignEpisodes(server, FOREIGN, 'main', uuid);
    server.setOptions({ processingDelayMs: 100 });
    const config = box.config({ MADEINOZ_KNOWLEDGE_CONCURRENCY: '1', MADEINOZ_KNOWLEDGE_CONFIRM_MAX_AGE: '20000' });
    for (let i = 0; i < 4; i++) box.pai(`LEARNING/SYSTEM/p${i}.md`, learning(`P${i}`, `Body ${i}.`));
    await runSync(config, { waitMs: 60_000, ...time });
    // The batch's last note (sent last: names sort) is lost by the server the first time.
    for (let i = 0; i < 40; i++) box.pai(`LEARNING/SYSTEM/b${String(i).padStart(2, '0')}.md`, learning(`B${String(i).padStart(2, '0')}`, `Body of the batch note ${i}.`));
    server.setOptions({ faults: { dropNames: ['B39'] } });
    const from = server.calls.length;
    const summary = await runSync(config, { waitMs: 60_000, ...time });
    expect(summary).toMatchObject({ confirmed: 44, queued: 0, resent: 1 });
    expect(looks(from).some((max) => max === sampleCap(FOREIGN + 4))).toBe(true);
    expect(adds()).toBe(4 + 40 + 1);
    expect([...copiesByMarker(server).values()].every((n) => n === 1)).toBe(true);
  }

  it('a dropped tail is still found after the pace samples, and re-sent once', droppedTailAfterSamples);

  it('the same on a machine too busy to list quickly (every look 1.5 s of its time): the wait runs on the run\'s clock', async () => {
    // A loaded machine: between any two readings of its clock 1.5 s go by. The listing budget and
    // the time a look held the server's worker are the run's clock's (listing.ts `stopwatch`).
    const real = performance.now.bind(performance);
    let lag = 0;
    const busy = vi.spyOn(performance, 'now').mockImplementation(() => real() + (lag += 1_500));
    try {
      await droppedTailAfterSamples();
    } finally {
      busy.mockRestore();
    }
  });

  it('runs a minute apart (the hooks): the run after the send lists in full once and confirms everything, no sample', async () => {
    fillWithForeignEpisodes(server, FOREIGN);
    const config = box.config();
    for (let i = 0; i < 20; i++) box.pai(`LEARNING/SYSTEM/h${i}.md`, learning(`H${i}`, `Body ${i}.`));
    let clock = Date.now();
    const now = () => clock;
    await runSync(config, { now });
    await server.whenIdle();
    clock += 60_000;
    const from = server.calls.length;
    expect(await runSync(config, { now })).toMatchObject({ confirmed: 20, queued: 0 });
    expect(looks(from)).toHaveLength(1);
    expect(looks(from)[0]).toBeGreaterThan(FOREIGN);
  });
});
