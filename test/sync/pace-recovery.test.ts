/**
 * Pace estimates that recover (issue 24, item 5): a part left in flight by a killed run has only
 * the next run's start as its queuing time, so when it shows up it looks as if the server's clock
 * were a day behind. One such sighting must not blind the tail-drop judgement; nor may a clock set
 * back by hours, or the times a local server on that clock stamped (CLOCK_SET_BACK). End to end over
 * loopback with the test server; runs a minute apart on an injected clock, as hooks would run them.
 */
import { describe, expect, it } from 'vitest';
import { loadState, saveState } from '../../src/lib/state/state.js';
import { MAX_SKEW_MS, quietFrom, skewOf } from '../../src/lib/sync/pace.js';
import { runSync } from '../../src/lib/sync/sync.js';
import type { GraphitiTestServer } from '../support/graphiti-server.js';
import { learning, type Sandbox } from '../support/sandbox.js';
import { useServerAndSandbox } from '../helpers/use-server-and-sandbox.js';

let server: GraphitiTestServer;
let box: Sandbox;

useServerAndSandbox((s, b) => {
  server = s;
  box = b;
});

const DAY = 86_400_000;
const adds = () => server.calls.filter((c) => c.tool === 'add_memory');

describe('pace estimates that recover', () => {
  it('a late sighting followed by a dropped tail: the tail is still re-sent within a few runs', async () => {
    server.setOptions({ processingDelayMs: 15 }); // a queue forms, so the group's pace can be measured
    for (let i = 0; i < 4; i++) box.pai(`LEARNING/SYSTEM/n${i}.md`, learning(`N${i}`, `Body ${i}.`));
    const config = box.config({ MADEINOZ_KNOWLEDGE_CONCURRENCY: '1' }); // CONFIRM_MAX_AGE stays at its 30 minutes
    const stateDir = config.stateDir;
    let clock = Date.now();
    const now = () => clock;
    await runSync(config, { now });
    await server.whenIdle();
    clock += 60_000;
    expect(await runSync(config, { now })).toMatchObject({ confirmed: 4 }); // the group's pace is learnt

    // Yesterday a worker sent this note and was killed before the reply was journaled: the state
    // holds the part in flight (sent, no queuing time), and the server did store it, a day ago.
    box.pai('LEARNING/SYSTEM/late.md', learning('Late', 'Sent by a worker that was killed.'));
    server.failNext('drop', 1);
    await runSync(config, { now });
    await server.whenIdle();
    const { state } = await loadState(stateDir);
    const late = Object.values(state.files).find((r) => r.relPath.endsWith('late.md'))?.episodes[0];
    if (late === undefined) throw new Error('no record for late.md');
    late.sentAt = new Date(clock - DAY).toISOString();
    delete late.queuedAt;
    await saveState(stateDir, state);
    server.seedEpisode({ name: late.name, content: 'Sent by a worker that was killed.', source_description: `pai memory LEARNING ${late.marker}`, created_at: new Date(clock - DAY + 1_000).toISOString(), group_id: 'main' });

    // The next run sees it (queued "now", created a day before), and sends a tail that is dropped.
    clock += 60_000;
    box.pai('LEARNING/SYSTEM/tail.md', learning('Tail', 'The last note of the queue.'));
    server.failNext('drop', 1);
    expect(await runSync(config, { now })).toMatchObject({ confirmed: 5, queued: 1 });
    await server.whenIdle();
    const paced = (await loadState(stateDir)).state.groups?.main ?? {};
    expect(skewOf(paced)).toBeGreaterThan(-MAX_SKEW_MS); // the late sighting is left out as an outlier

    let resentAfter = 0;
    for (let run = 1; run <= 5 && resentAfter === 0; run++) {
      clock += 60_000;
      const s = await runSync(config, { now });
      await server.whenIdle();
      if (s.resent > 0) resentAfter = run;
    }
    expect(resentAfter).toBeGreaterThan(0);
    expect(resentAfter).toBeLessThanOrEqual(3);
    clock += 60_000;
    expect(await runSync(config, { now })).toMatchObject({ confirmed: 6, queued: 0 });
    expect(adds()).toHaveLength(4 + 1 + 2); // four notes, the late one once, the tail twice
  });

  it('the skew is bounded, and one far-off sample among others is left out', () => {
    expect(skewOf({ skewsMs: [-DAY] })).toBe(-MAX_SKEW_MS);
    expect(skewOf({ skewsMs: [-DAY, 40, 15, 300] })).toBe(0);
    expect(skewOf({ skewsMs: [-DAY, -1_500, -1_480, -900] })).toBe(-1_500);
    // Old samples leave the window: once enough new ones came, a run of bad ones is forgotten.
    expect(skewOf({ skewsMs: [-DAY, -DAY] })).toBe(-MAX_SKEW_MS);
  });
});

const HOUR = 3_600_000;
const MINUTE = 60_000;

/** Runs a minute apart (`advance` moves the clock `now` reads) until one re-sends; the minute it did (0: none in `minutes`). */
async function minuteOfResend(config: ReturnType<Sandbox['config']>, now: () => number, advance: () => void, minutes: number): Promise<number> {
  for (let m = 1; m <= minutes; m++) {
    advance();
    const summary = await runSync(config, { now });
    await server.whenIdle();
    if (summary.resent > 0) return m;
  }
  return 0;
}

describe('a clock set back or running ahead (CLOCK_SET_BACK)', () => {
  it('quietFrom: a time within a skew of now counts as it is (or now); one further ahead counts from when our clock first saw it, again from now once it moves', () => {
    const now = 1_800_000_000_000;
    expect(quietFrom(now - 5_000, now, undefined)).toEqual({ from: now - 5_000 });
    expect(quietFrom(now + MAX_SKEW_MS, now, undefined)).toEqual({ from: now });
    const ahead = { newest: now + 5 * HOUR, seenAt: now };
    expect(quietFrom(now + 5 * HOUR, now, undefined)).toEqual({ from: now, ahead });
    expect(quietFrom(now + 5 * HOUR, now + 10 * MINUTE, ahead)).toEqual({ from: now, ahead });
    expect(quietFrom(now + 5 * HOUR + 1, now + 10 * MINUTE, ahead)).toEqual({ from: now + 10 * MINUTE, ahead: { newest: now + 5 * HOUR + 1, seenAt: now + 10 * MINUTE } });
    // Seen "later" than now (the clock set back once more): from now.
    expect(quietFrom(now + 5 * HOUR, now - HOUR, ahead)).toEqual({ from: now - HOUR, ahead: { newest: now + 5 * HOUR, seenAt: now - HOUR } });
  });


  it('the part was queued while our clock ran hours ahead, and the server dropped it; NTP set the clock back: re-sent within the patience, not once the clock caught up', async () => {
    box.pai('LEARNING/SYSTEM/a.md', learning('Alpha', 'Alpha body.'));
    const config = box.config(); // CONFIRM_MAX_AGE at its 30 minutes: the patience of a group not yet seen moving
    let clock = Date.now() + 5 * HOUR;
    server.failNext('drop', 1);
    expect(await runSync(config, { now: () => clock })).toMatchObject({ queued: 1 });
    await server.whenIdle();
    clock = Date.now();
    const minute = await minuteOfResend(config, () => clock, () => void (clock += MINUTE), 45);
    expect(minute).toBeGreaterThan(0);
    expect(minute).toBeLessThanOrEqual(36); // 30 minutes of patience, then the next look (at most 5 minutes on)
    clock += MINUTE;
    await runSync(config, { now: () => clock });
    await server.whenIdle();
    clock += MINUTE;
    expect(await runSync(config, { now: () => clock })).toMatchObject({ confirmed: 1, queued: 0 });
    expect(adds()).toHaveLength(2);
  });

  it('a local server on the same clock started episodes hours "ahead" (before the clock was set back); a part queued since is dropped: re-sent within the patience', async () => {
    let clock = Date.now();
    server.seedEpisode({ name: 'Other', content: 'x', source_description: 'other client', created_at: new Date(clock + 5 * HOUR).toISOString(), group_id: 'main' });
    box.pai('LEARNING/SYSTEM/a.md', learning('Alpha', 'Alpha body.'));
    const config = box.config();
    server.failNext('drop', 1);
    expect(await runSync(config, { now: () => clock })).toMatchObject({ queued: 1 });
    await server.whenIdle();
    const minute = await minuteOfResend(config, () => clock, () => void (clock += MINUTE), 45);
    expect(minute).toBeGreaterThan(0);
    expect(minute).toBeLessThanOrEqual(36);
  });

  it('notes confirmed while our clock ran hours ahead; NTP set it back; an edit sent now waits in the queue: not taken for dropped by the parts sent "later", sent once (FIFO_ON_OUR_CLOCK)', async () => {
    // Found by the team-month exploration on real Graphiti 0.31.2: the edit was sent again at once,
    // twice ("evidence fifo"), and the group kept two copies of the note.
    box.pai('LEARNING/SYSTEM/a.md', learning('Alpha', 'Alpha body.'));
    box.pai('LEARNING/SYSTEM/b.md', learning('Beta', 'Beta body.'));
    const config = box.config();
    let clock = Date.now() + 5 * HOUR;
    await runSync(config, { now: () => clock });
    await server.whenIdle();
    expect(await runSync(config, { now: () => clock })).toMatchObject({ confirmed: 2, queued: 0 });
    clock = Date.now();
    server.pauseProcessing(); // the edit waits its turn behind another client's backlog
    box.pai('LEARNING/SYSTEM/a.md', learning('Alpha', 'Alpha body, edited.'));
    expect(await runSync(config, { now: () => clock })).toMatchObject({ updated: 1, queued: 1 });
    // A look a second later, well within the group's patience (at least 10 s): the edit is simply not processed yet.
    clock += 1_000;
    expect(await runSync(config, { now: () => clock })).toMatchObject({ resent: 0, queued: 1 });
    server.resumeProcessing();
    await server.whenIdle();
    let last = await runSync(config, { now: () => clock });
    let resent = last.resent;
    for (let i = 0; i < 30 && last.queued > 0; i++) {
      clock += 2_000;
      last = await runSync(config, { now: () => clock });
      resent += last.resent;
    }
    expect(last).toMatchObject({ confirmed: 2, queued: 0 });
    expect(resent).toBe(0);
    expect(adds().filter((c) => c.args.name === 'Alpha')).toHaveLength(2); // the note, then its edit: once each
    expect(server.episodes('main').filter((e) => e.name === 'Alpha')).toHaveLength(1);
  });

  it('a group that keeps moving while its times lie ahead (a server whose clock runs 10 minutes ahead): no part behind the movement is taken for dropped', async () => {
    let clock = Date.now();
    box.pai('LEARNING/SYSTEM/a.md', learning('Alpha', 'Alpha body.'));
    const config = box.config();
    server.pauseProcessing(); // ours waits behind the others' backlog
    expect(await runSync(config, { now: () => clock })).toMatchObject({ queued: 1 });
    let resent = 0;
    for (let minute = 1; minute <= 45; minute++) {
      clock += MINUTE;
      server.seedEpisode({ name: `Backlog ${minute}`, content: 'x', source_description: 'other client', created_at: new Date(clock + 10 * MINUTE).toISOString(), group_id: 'main' });
      resent += (await runSync(config, { now: () => clock })).resent;
    }
    expect(resent).toBe(0);
    server.resumeProcessing();
    await server.whenIdle();
    let confirmed = 0;
    for (let minute = 1; minute <= 10 && confirmed === 0; minute++) {
      clock += MINUTE;
      confirmed = (await runSync(config, { now: () => clock })).confirmed;
    }
    expect(confirmed).toBe(1);
    expect(adds()).toHaveLength(1);
  });
});
