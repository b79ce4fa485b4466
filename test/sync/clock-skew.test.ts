/**
 * A machine whose clock is hours off the server's, constantly (not a jump): the server stamps each
 * episode's `created_at` on its own clock, we stamp our sends on ours (pace.ts CLOCK_OFFSET).
 * End to end over loopback with the test server; the server's queue and the run share one fake
 * clock (fake-clock.ts), the run reading it `offsetMs` off.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { LOCK_FILE } from '../../src/lib/state/lock.js';
import { everyPart, loadState } from '../../src/lib/state/state.js';
import { backwardStepMs, STEP_BACK_MIN_MS } from '../../src/lib/sync/clock-jump.js';
import { clockOffsetOf, lastMovement, MAX_SKEW_MS, nextPace, provenAheadMs, skewOf } from '../../src/lib/sync/pace.js';
import { Ledger } from '../../src/lib/sync/ledger.js';
import { runSync } from '../../src/lib/sync/sync.js';
import type { SyncOptions } from '../../src/lib/sync/types.js';
import { seededUuids } from '../support/busy-group.js';
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

const HOUR = 3_600_000;
const adds = () => server.calls.filter((c) => c.tool === 'add_memory').length;
const listings = () => server.calls.filter((c) => c.tool === 'get_episodes').length;

/** The server's queue on a fake clock; the run reads it `offsetMs` off (its own clock), and sleeps by advancing it. */
function skewedTime(offsetMs: number): { time: Pick<SyncOptions, 'now' | 'sleep' | 'clockMark'>; clock: FakeClock; serverSetBack: (ms: number) => void } {
  const clock = new FakeClock();
  const boot = (clock.t = Date.now());
  let offset = offsetMs;
  let setBack = 0;
  server.setOptions({ clock, episodeUuid: seededUuids(1) });
  server.events.on('call', () => void clock.advance(1));
  // The system's uptime runs with real time, whatever either wall clock says (clock-jump.ts).
  const clockMark = () => ({ uptimeMs: clock.now() + setBack - boot + HOUR, bootId: 'boot-1' });
  /** The server's clock set back by `ms` (NTP on the server); ours reads the same as before. */
  const serverSetBack = (ms: number) => {
    clock.t -= ms;
    setBack += ms;
    offset += ms;
  };
  return { time: { now: () => clock.now() + offset, sleep: (ms) => clock.advance(ms), clockMark }, clock, serverSetBack };
}

describe('a machine whose clock is hours off the server\'s', () => {
  for (const offset of [0, -5 * HOUR, 5 * HOUR]) {
    it(`sync --wait, our clock ${offset / HOUR} h off the server's: 20 notes at 150 ms each confirmed within the wait, once each`, async () => {
      const { time } = skewedTime(offset);
      server.setOptions({ processingDelayMs: 150 });
      const config = box.config({ MADEINOZ_KNOWLEDGE_CONCURRENCY: '4' });
      box.pai('LEARNING/SYSTEM/first.md', learning('First', 'The first note.'));
      expect(await runSync(config, { waitMs: 60_000, ...time })).toMatchObject({ confirmed: 1, queued: 0 });
      for (let i = 0; i < 20; i++) box.pai(`LEARNING/SYSTEM/w${i}.md`, learning(`W${i}`, `Body ${i}.`));
      const before = listings();
      const summary = await runSync(config, { waitMs: 60_000, ...time });
      expect(summary).toMatchObject({ confirmed: 21, queued: 0, resent: 0 });
      expect(adds()).toBe(21);
      // As many looks as on a clock that is right (2 here): not one, then the wait's end.
      expect(listings() - before).toBeLessThanOrEqual(4);
    });
  }

  it('the server ahead is learnt from our own episodes\' stamps (SERVER_AHEAD_PROVEN), and forgotten when our clock jumps forward (NTP put it right)', async () => {
    const { time, clock } = skewedTime(-5 * HOUR);
    server.setOptions({ processingDelayMs: 150 });
    const config = box.config();
    box.pai('LEARNING/SYSTEM/a.md', learning('Alpha', 'Alpha body.'));
    expect(await runSync(config, { waitMs: 60_000, ...time })).toMatchObject({ confirmed: 1, queued: 0 });
    const learnt = (await loadState(config.stateDir)).state.groups?.main ?? {};
    expect(provenAheadMs(learnt)).toBeGreaterThan(5 * HOUR - 60_000);
    expect(provenAheadMs(learnt)).toBeLessThanOrEqual(5 * HOUR);
    expect(skewOf(learnt)).toBe(0); // the drop judgement's reading is not moved by it
    // NTP sets our clock right: the uptime shows the wall clock jumped (clock-jump.ts); a run with nothing to send or see.
    const right = { ...time, now: () => clock.now() };
    await runSync(config, right);
    expect(provenAheadMs((await loadState(config.stateDir)).state.groups?.main ?? {})).toBe(0);
    box.pai('LEARNING/SYSTEM/b.md', learning('Beta', 'Beta body.'));
    expect(await runSync(config, { waitMs: 60_000, ...right })).toMatchObject({ confirmed: 2, queued: 0, resent: 0 });
    expect(provenAheadMs((await loadState(config.stateDir)).state.groups?.main ?? {})).toBeLessThan(60_000);
    expect(adds()).toBe(2);
  });

  it('the server\'s clock, hours ahead, is put right while an edit waits behind a backlog that keeps moving: the offset learnt before is stale, and no part is taken for dropped; sent once', async () => {
    const { time, clock, serverSetBack } = skewedTime(-5 * HOUR);
    server.setOptions({ processingDelayMs: 150 });
    const config = box.config();
    box.pai('LEARNING/SYSTEM/a.md', learning('Alpha', 'Alpha body.'));
    box.pai('LEARNING/SYSTEM/b.md', learning('Beta', 'Beta body.'));
    expect(await runSync(config, { waitMs: 60_000, ...time })).toMatchObject({ confirmed: 2, queued: 0 });
    expect(clockOffsetOf((await loadState(config.stateDir)).state.groups?.main ?? {})).toBeGreaterThan(4 * HOUR);
    serverSetBack(5 * HOUR);
    server.pauseProcessing(); // the edit waits behind another client's backlog
    box.pai('LEARNING/SYSTEM/a.md', learning('Alpha', 'Alpha body, edited.'));
    expect(await runSync(config, time)).toMatchObject({ updated: 1, queued: 1 });
    let resent = 0;
    for (let minute = 1; minute <= 45; minute++) {
      await clock.advance(60_000);
      server.seedEpisode({ name: `Backlog ${minute}`, content: 'x', source_description: 'other client', created_at: new Date(clock.now()).toISOString(), group_id: 'main' });
      resent += (await runSync(config, time)).resent;
    }
    expect(resent).toBe(0);
    server.resumeProcessing();
    let last = await runSync(config, time);
    for (let minute = 1; minute <= 10 && last.queued > 0; minute++) {
      await clock.advance(60_000);
      last = await runSync(config, time);
      resent += last.resent;
    }
    expect(last).toMatchObject({ confirmed: 2, queued: 0 });
    expect(resent).toBe(0);
    expect(adds()).toBe(3); // two notes, one edit
    expect(server.episodes('main').filter((e) => e.name === 'Alpha')).toHaveLength(1);
  });

  it('a proven bound that a newer sighting contradicts (the server\'s clock put right since) is dropped: the offset is not trusted stale', () => {
    const now = 1_800_000_000_000;
    const listing = (created: number) => ({ episodes: [{ uuid: 'u', name: 'n', content: '', created_at: new Date(created).toISOString(), source: 'text', source_description: '', group_id: 'g' }], complete: true, requests: 1, listed: 1 });
    const sighting = (queuedAt: number, created: number) => ({ queuedAt, sentAt: queuedAt - 5, repliedAt: queuedAt, episode: listing(created).episodes[0] as never });
    // The server five hours ahead: an episode queued a second ago started half a second ago, on its clock.
    const ahead = nextPace({ previous: {}, listing: listing(now + 5 * HOUR - 500), now, sightings: [sighting(now - 1_000, now + 5 * HOUR - 500)], stillWaiting: 0, progress: true });
    expect(provenAheadMs(ahead)).toBe(5 * HOUR - 500);
    expect(clockOffsetOf(ahead)).toBe(5 * HOUR - 500);
    // Its clock is put right: the next episode started 2 s after we handed it over, on a clock that agrees with ours.
    const later = now + 10 * 60_000;
    const right = nextPace({ previous: ahead, listing: listing(later - 3_000), now: later, sightings: [sighting(later - 5_000, later - 3_000)], stillWaiting: 0, progress: true });
    expect(provenAheadMs(right)).toBeLessThanOrEqual(0);
    expect(clockOffsetOf(right)).toBe(0);
    // A bound the newer sighting agrees with stays.
    const still = nextPace({ previous: ahead, listing: listing(later + 5 * HOUR - 200), now: later, sightings: [sighting(later - 1_000, later + 5 * HOUR - 200)], stillWaiting: 0, progress: true });
    expect(provenAheadMs(still)).toBe(5 * HOUR - 200);
  });

  it('our clock stepped forward by less than MAX_SKEW_MS (no CLOCK_JUMPED_FORWARD): a proven bound kept since over-corrects the waits by at most the step, and the drop judgement\'s movement reads none of it', () => {
    const now = 1_800_000_000_000;
    const listing = (created: number) => ({ episodes: [{ uuid: 'u', name: 'n', content: '', created_at: new Date(created).toISOString(), source: 'text', source_description: '', group_id: 'g' }], complete: true, requests: 1, listed: 1 });
    const sighting = (queuedAt: number, created: number) => ({ queuedAt, sentAt: queuedAt - 5, repliedAt: queuedAt, episode: listing(created).episodes[0] as never });
    // The server a minute ahead, proven.
    const ahead = nextPace({ previous: {}, listing: listing(now + 60_000 - 500), now, sightings: [sighting(now - 1_000, now + 60_000 - 500)], stillWaiting: 0, progress: true });
    expect(provenAheadMs(ahead)).toBe(59_500);
    // Our clock steps 90 s forward (below MAX_SKEW_MS: nothing forgotten): the server is now 30 s behind.
    // The next episode of ours waited 100 s behind a backlog: too long for its sighting to contradict the bound.
    const step = 90_000;
    const later = now + 10 * 60_000;
    const queued = later - 120_000;
    const wait = 100_000;
    const created = queued + (60_000 - step) + wait;
    const stale = nextPace({ previous: ahead, listing: listing(created), now: later, sightings: [sighting(queued, created)], stillWaiting: 0, progress: true });
    expect(provenAheadMs(stale)).toBe(59_500);
    // The wait reads short, by less than the step (within the skew the model allows anyway), never below zero.
    const read = stale.waitsMs?.at(-1) as number;
    expect(wait - read).toBeGreaterThan(0);
    expect(wait - read).toBeLessThanOrEqual(step);
    expect(wait - read).toBeLessThan(MAX_SKEW_MS);
    // When the group last moved, which the drop judgement counts its quiet from, is read without the bound.
    expect(lastMovement(stale, listing(created), later)).toBe(lastMovement({ ...stale, aheadBoundsMs: [] }, listing(created), later));
  });
});


/**
 * Our clock `ahead`, Alpha sent and confirmed; NTP sets it right (the uptime runs on); the server's
 * processing paused (Beta will wait its turn behind another client's backlog) and Beta written.
 */
async function aheadThenSetRight(ahead: number) {
  const times = { wall: Date.now() + ahead, uptime: 5 * HOUR };
  const clock = { now: () => times.wall, clockMark: () => ({ uptimeMs: times.uptime, bootId: 'boot-1' }) };
  const step = (ms: number) => {
    times.wall += ms;
    times.uptime += ms;
  };
  const config = box.config();
  box.pai('LEARNING/SYSTEM/a.md', learning('Alpha', 'Alpha body.'));
  await runSync(config, clock);
  await server.whenIdle();
  step(1_000);
  expect(await runSync(config, clock)).toMatchObject({ confirmed: 1, queued: 0 });
  times.wall -= ahead;
  step(1_000);
  server.pauseProcessing();
  box.pai('LEARNING/SYSTEM/b.md', learning('Beta', 'Beta body.'));
  return { clock, step, config };
}

describe('a step back shorter than the time to the next look, which FIFO_ON_OUR_CLOCK leaves (STAMPS_AFTER_STEP_BACK)', () => {
  for (const [ahead, label] of [[60_000, 'a minute'], [5 * HOUR, 'five hours']] as const) it(`our clock ran ${label} ahead, NTP set it back; a note sent right after waits in the queue: not taken for dropped behind the note sent before the step, sent once`, async () => {
    const { clock, step, config } = await aheadThenSetRight(ahead);
    expect(await runSync(config, clock)).toMatchObject({ added: 1, queued: 1 });
    step(62_000); // the next look: Alpha's stamp, a minute ahead then, is in the past now (five hours ahead: still ahead, FIFO_ON_OUR_CLOCK)
    expect(await runSync(config, clock)).toMatchObject({ resent: 0, queued: 1 });
    server.resumeProcessing();
    await server.whenIdle();
    step(2_000);
    expect(await runSync(config, clock)).toMatchObject({ confirmed: 2, queued: 0 });
    expect(adds()).toBe(2);
  });

  it('a step back is told by the uptime: not below STEP_BACK_MIN_MS, not across boots, not when the wall clock kept pace', () => {
    const t = 1_800_000_000_000;
    const last = { startedAt: t, clock: { uptimeMs: 10 * HOUR, bootId: 'b' } };
    expect(backwardStepMs(last, { startedAt: t + 60_000 - 30_000, clock: { uptimeMs: 10 * HOUR + 60_000, bootId: 'b' } })).toBe(30_000);
    expect(backwardStepMs(last, { startedAt: t + 60_000, clock: { uptimeMs: 10 * HOUR + 60_000, bootId: 'b' } })).toBe(0);
    expect(backwardStepMs(last, { startedAt: t + 60_000 - STEP_BACK_MIN_MS, clock: { uptimeMs: 10 * HOUR + 60_000, bootId: 'b' } })).toBe(0);
    expect(backwardStepMs(last, { startedAt: t - HOUR, clock: { uptimeMs: 10 * HOUR + 60_000, bootId: 'other' } })).toBe(0);
    expect(backwardStepMs(last, { startedAt: t - HOUR, clock: { uptimeMs: 60_000, bootId: 'b' } })).toBe(0);
    expect(backwardStepMs({ startedAt: t }, { startedAt: t - HOUR, clock: { uptimeMs: 60_000 } })).toBe(0);
  });
});

describe('a run after a step back killed before its end (STAMPS_AFTER_STEP_BACK, once)', () => {
  for (const [ahead, label] of [[60_000, 'a minute'], [5 * HOUR, 'five hours']] as const) it(`our clock ran ${label} ahead, NTP set it back; the run after the step sends a note and is killed: the next run does not move the stamps made since the step, nor those moved already; sent once`, async () => {
    const { clock, step, config } = await aheadThenSetRight(ahead);
    // The run after the step is killed just before its last snapshot (Beta's send and reply journaled): what a SIGKILL leaves on disk.
    const killedAt = mkdtempSync(join(tmpdir(), 'gms-step-kill-'));
    const realSave = Ledger.prototype.save;
    let killed = 0;
    const save = vi.spyOn(Ledger.prototype, 'save').mockImplementation(async function (this: Ledger) {
      await this.flush();
      killed++;
      rmSync(killedAt, { recursive: true, force: true });
      cpSync(config.stateDir, killedAt, { recursive: true, filter: (src) => !src.endsWith(LOCK_FILE) });
      return realSave.call(this);
    });
    try {
      expect(await runSync(config, clock)).toMatchObject({ added: 1 });
    } finally {
      save.mockRestore();
    }
    expect(killed).toBeGreaterThan(0);
    const beta = everyPart((await loadState(killedAt, { readOnly: true })).state).find((r) => r.queuedAt !== undefined && r.uuid === undefined);
    expect(beta?.queuedAt, 'Beta replied, on disk').toBeDefined();
    // Where each stamp stands once the run after the step has moved it, on the clock as it is now (the run not killed).
    const stamps = async (dir: string) => everyPart((await loadState(dir, { readOnly: true })).state).map((r) => [r.sentAt, r.queuedAt, r.sendOrder]);
    const right = await stamps(config.stateDir);
    const revived = { ...config, stateDir: killedAt };
    try {
      step(62_000); // the next look, from what the kill left
      expect(await runSync(revived, clock)).toMatchObject({ resent: 0, queued: 1 });
      // The step is told once: what the killed run had moved, and Beta's send after the step, stay where they are.
      expect(await stamps(killedAt)).toEqual(right);
      server.resumeProcessing();
      await server.whenIdle();
      step(2_000);
      expect(await runSync(revived, clock)).toMatchObject({ confirmed: 2, queued: 0 });
      expect(adds()).toBe(2);
    } finally {
      rmSync(killedAt, { recursive: true, force: true });
    }
  });
});
