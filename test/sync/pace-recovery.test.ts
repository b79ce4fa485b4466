/**
 * Pace estimates that recover (issue 24, item 5): a part left in flight by a killed run has only
 * the next run's start as its queuing time, so when it shows up it looks as if the server's clock
 * were a day behind. One such sighting must not blind the tail-drop judgement. End to end over
 * loopback with the test server; runs a minute apart on an injected clock, as hooks would run them.
 */
import { describe, expect, it } from 'vitest';
import { loadState, saveState } from '../../src/lib/state/state.js';
import { MAX_SKEW_MS, skewOf } from '../../src/lib/sync/pace.js';
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
