/**
 * A shared, busy group (issue 10): Graphiti's default group holds everyone's episodes, so ours are
 * a few among tens of thousands, listed in uuid order with no paging. End to end over loopback with
 * the test server; runs are a minute apart on an injected clock, as hooks or watch would run them.
 */
import { describe, expect, it } from 'vitest';
import { loadState } from '../../src/lib/state/state.js';
import { runSync } from '../../src/lib/sync/sync.js';
import { copiesByMarker, fillWithForeignEpisodes } from '../support/busy-group.js';
import type { GraphitiTestServer } from '../support/graphiti-server.js';
import { learning, type Sandbox } from '../support/sandbox.js';
import { useServerAndSandbox } from '../helpers/use-server-and-sandbox.js';

let server: GraphitiTestServer;
let box: Sandbox;

useServerAndSandbox((s, b) => {
  server = s;
  box = b;
});

const adds = () => server.calls.filter((c) => c.tool === 'add_memory');
const listings = () => server.calls.filter((c) => c.tool === 'get_episodes');

describe('a shared group holding thousands of other episodes', () => {
  it('30,000 foreign episodes and 20 % silent drops: every file confirmed exactly once within a few runs', async () => {
    fillWithForeignEpisodes(server, 30_000);
    const files = 20;
    for (let i = 0; i < files; i++) box.pai(`LEARNING/SYSTEM/2026-05/note-${i}.md`, learning(`Note ${i}`, `Body of note ${i}.`));
    server.setOptions({ faults: { dropRate: 0.2, seed: 7 } });
    const config = box.config({ MADEINOZ_KNOWLEDGE_CONCURRENCY: '2', MADEINOZ_KNOWLEDGE_MAX_RESENDS: '6' });
    let clock = Date.now();
    const now = () => clock;

    const runs: Array<{ confirmed: number; resent: number; listing: { requests: number; episodes: number; samples: number } }> = [];
    for (let run = 0; run < 8; run++) {
      const summary = await runSync(config, { now });
      await server.whenIdle();
      runs.push({ confirmed: summary.confirmed, resent: summary.resent, listing: summary.listing });
      if (summary.confirmed === files) break;
      clock += 60_000;
    }
    expect(runs.at(-1)?.confirmed).toBe(files);
    expect(runs.length).toBeLessThanOrEqual(6);
    // Some were dropped and re-sent (the faults really bit) ...
    expect(server.failures.length).toBeGreaterThan(0);
    expect(runs.reduce((n, r) => n + r.resent, 0)).toBe(server.failures.length);
    // ... and in the end each file has exactly one episode, and nobody else's was touched.
    const ours = copiesByMarker(server);
    expect(ours.size).toBe(files);
    expect([...ours.values()].every((n) => n === 1)).toBe(true);
    expect(server.episodes('main').length).toBe(30_000 + files);
    expect(server.calls.filter((c) => c.tool === 'delete_episode')).toHaveLength(0);
    // The first run (no state yet: was it lost?) lists the group of unknown size in full at once
    // (not 200 → 800 → 3,200 → 12,800 → 51,200, issue 27); later runs list it in one request.
    expect(runs[0]?.listing.requests).toBe(1);
    for (const r of runs.slice(1)) expect(r.listing.requests).toBeLessThanOrEqual(1);
    const { state } = await loadState(box.env.MADEINOZ_KNOWLEDGE_STATE_DIR as string);
    expect(state.groups?.main?.size).toBe(30_000 + files);

    // Once everything is confirmed, a run lists nothing at all.
    const before = listings().length;
    clock += 60_000;
    const idle = await runSync(config, { now });
    expect(idle.listing).toEqual({ requests: 0, episodes: 0, samples: 0 });
    expect(listings().length).toBe(before);
  });

  it('a dropped last episode is re-sent within a few runs on a fast server, judged from how the group moves', async () => {
    server.setOptions({ processingDelayMs: 15 }); // a queue forms, so the group's pace can be measured
    for (let i = 0; i < 4; i++) box.pai(`LEARNING/SYSTEM/n${i}.md`, learning(`N${i}`, `Body ${i}.`));
    const config = box.config({ MADEINOZ_KNOWLEDGE_CONCURRENCY: '1' }); // CONFIRM_MAX_AGE stays at its 30 minutes
    let clock = Date.now();
    const now = () => clock;
    await runSync(config, { now });
    await server.whenIdle();
    clock += 60_000;
    box.pai('LEARNING/SYSTEM/tail.md', learning('Tail', 'The last note of the queue.'));
    server.failNext('drop', 1); // the tail is accepted, then lost: no later episode of ours follows it
    expect(await runSync(config, { now })).toMatchObject({ confirmed: 4, queued: 1 });
    await server.whenIdle();
    let resentAfter = 0;
    for (let run = 1; run <= 4; run++) {
      clock += 60_000;
      const s = await runSync(config, { now });
      await server.whenIdle();
      if (s.resent > 0) {
        resentAfter = run;
        break;
      }
    }
    expect(resentAfter).toBe(1); // one minute, not thirty
    clock += 60_000;
    expect(await runSync(config, { now })).toMatchObject({ confirmed: 5, queued: 0 });
    expect(adds()).toHaveLength(6);
    expect([...copiesByMarker(server).values()]).toEqual([1, 1, 1, 1, 1]);
  });

  it('a queue that keeps moving behind other clients is waited for, however long it takes', async () => {
    server.setOptions({ processingDelayMs: 15 });
    for (let i = 0; i < 4; i++) box.pai(`LEARNING/SYSTEM/m${i}.md`, learning(`M${i}`, `Body ${i}.`));
    const config = box.config({ MADEINOZ_KNOWLEDGE_CONCURRENCY: '1' });
    let clock = Date.now();
    const now = () => clock;
    await runSync(config, { now });
    await server.whenIdle();
    clock += 60_000;
    await runSync(config, { now }); // confirms, and learns the group's pace
    // A new note waits behind a long backlog of other clients' episodes that keeps moving.
    server.pauseProcessing();
    box.pai('LEARNING/SYSTEM/late.md', learning('Late', 'Waits behind everyone.'));
    await runSync(config, { now });
    for (let minute = 1; minute <= 40; minute++) {
      clock += 60_000;
      // Every minute the server starts another client's episode (its clock runs with ours here).
      server.seedEpisode({ name: `Backlog ${minute}`, content: 'x', source_description: 'other client', created_at: new Date(clock - 1000).toISOString(), group_id: 'main' });
      const s = await runSync(config, { now });
      expect(s.resent).toBe(0);
    }
    server.resumeProcessing();
    await server.whenIdle();
    // Listing backed off while nothing of ours appeared (at most five minutes apart), so the
    // confirmation comes within a few runs.
    let confirmedAfter = 0;
    for (let run = 1; run <= 6 && confirmedAfter === 0; run++) {
      clock += 60_000;
      const s = await runSync(config, { now });
      expect(s.resent).toBe(0);
      if (s.confirmed === 5) confirmedAfter = run;
    }
    expect(confirmedAfter).toBeGreaterThan(0);
    expect(adds()).toHaveLength(5);
  });
});
