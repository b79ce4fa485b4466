/**
 * `sync --wait` lists when the answer can have changed (issue 27), end to end over loopback with
 * the test server processing one episode at a time: a slow server gets a few listings for a
 * whole batch, not one every few hundred milliseconds.
 */
import { describe, expect, it } from 'vitest';
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

const listings = () => server.calls.filter((c) => c.tool === 'get_episodes').length;
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
    server.setOptions({ processingDelayMs: 150 });
    for (let i = 0; i < 20; i++) box.pai(`LEARNING/SYSTEM/w${i}.md`, learning(`W${i}`, `Body ${i}.`));
    const summary = await runSync(box.config({ MADEINOZ_KNOWLEDGE_CONCURRENCY: '4' }), { waitMs: 60_000 });
    expect(summary).toMatchObject({ confirmed: 20, queued: 0, resent: 0 });
    expect(adds()).toBe(20);
    // One listing before sending (a new state: was it lost?), then a few while 3 s of processing
    // go by; a clock doubling from 50 ms to 2 s would have listed about ten times.
    expect(listings()).toBeLessThanOrEqual(6);
  });

  it('a dropped tail is still found while waiting, and re-sent', async () => {
    server.setOptions({ processingDelayMs: 30 });
    for (let i = 0; i < 6; i++) box.pai(`LEARNING/SYSTEM/d${i}.md`, learning(`D${i}`, `Body ${i}.`));
    const config = box.config({ MADEINOZ_KNOWLEDGE_CONCURRENCY: '1', MADEINOZ_KNOWLEDGE_CONFIRM_MAX_AGE: '20000' });
    await runSync(config, { waitMs: 60_000 }); // learns the group's pace
    box.pai('LEARNING/SYSTEM/tail.md', learning('Tail', 'The last note of the queue.'));
    server.failNext('drop', 1);
    const summary = await runSync(config, { waitMs: 60_000 });
    expect(summary).toMatchObject({ confirmed: 7, queued: 0, resent: 1 });
    expect(adds()).toBe(6 + 2);
  });
});
