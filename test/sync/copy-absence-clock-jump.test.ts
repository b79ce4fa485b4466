/**
 * A copied home's look across a forward jump of the wall clock (sync/clock-jump.ts
 * ABSENCE_AFTER_JUMP). The copy (sync/copy-hold.ts DELETED_ON_PURPOSE) takes an empty group for
 * cleared only once the absence has settled (sync/pace.ts ABSENCE_SETTLED), since the old machine's
 * edit on a break-before-make server leaves the group without the note until its new version is
 * processed. That wait ran on the wall clock (`goneSeen.since`): a jump of three hours made the next
 * look take the edit in flight for a clear, and the copy's own text of the note never came back
 * beside the edit. The copy's wall clock and uptime are the test's (`now`, `clockMark`); the old
 * machine runs on the real clock.
 */
import { cpSync, rmSync } from 'node:fs';
import { describe, expect, it, onTestFinished } from 'vitest';
import { runSync } from '../../src/lib/sync/sync.js';
import { loadState, saveState } from '../../src/lib/state/state.js';
import type { ClockMark } from '../../src/lib/sync/clock-jump.js';
import type { GraphitiTestServer } from '../support/graphiti-server.js';
import { makeSandbox, type Sandbox } from '../support/sandbox.js';
import { useServerAndSandbox } from '../helpers/use-server-and-sandbox.js';
import { graphOf, note, syncSettled } from '../helpers/two-machines.js';

let server: GraphitiTestServer;
let a: Sandbox;
useServerAndSandbox((s, b) => {
  server = s;
  a = b;
});

const MIN = 60_000;
const HOUR = 60 * MIN;
const PROJECT = '-home-me-app';
// The old machine deletes the old version before the new one is processed (break-before-make).
const configA = () => a.config({ MADEINOZ_KNOWLEDGE_MACHINE_ID: 'machine-a', MADEINOZ_KNOWLEDGE_SERVER_RULES: '0.29.3' });

/** The copy's state: its next run looks at the group (COPY_WATCH due), nothing else changed. */
async function lookDue(stateDir: string): Promise<void> {
  const { state } = await loadState(stateDir);
  if (state.copyWatch !== undefined) state.copyWatch.at = new Date(0).toISOString();
  await saveState(stateDir, state);
}

/** A home with one note copied to machine B (state folder included), taken up there; the old machine then edits the note while the server's queue is held. */
async function copyWhileTheOldMachineEdits() {
  const b = makeSandbox(server.url);
  onTestFinished(() => b.cleanup());
  const configB = () => b.config({ MADEINOZ_KNOWLEDGE_MACHINE_ID: 'machine-b' });
  a.auto(PROJECT, 'one.md', note('One', 'One, first text.'));
  await syncSettled(server, configA);
  rmSync(b.path('claude'), { recursive: true, force: true });
  cpSync(a.path('claude'), b.path('claude'), { recursive: true, preserveTimestamps: true });
  cpSync(a.path('state'), b.path('state'), { recursive: true, preserveTimestamps: true });
  const times = { wall: Date.now(), uptime: 5 * HOUR, bootId: 'boot-1' };
  const clock = { now: () => times.wall, clockMark: (): ClockMark => ({ uptimeMs: times.uptime, bootId: times.bootId }) };
  const lookB = async () => {
    await lookDue(configB().stateDir);
    return runSync(configB(), clock);
  };
  await lookB();
  // The old machine's edit: its old version deleted, the new one held in the queue: the group is empty.
  server.pauseProcessing();
  a.auto(PROJECT, 'one.md', note('One', 'One, edited on A.'));
  await runSync(configA(), { waitMs: 0 });
  expect(graphOf(server)).toEqual([]);
  times.wall += MIN;
  times.uptime += MIN;
  await lookB();
  // The copy's one note's current part.
  const part = async () => Object.values((await loadState(configB().stateDir, { readOnly: true })).state.files)[0]?.episodes[0];
  expect((await part())?.goneSeen?.how).toBe('cleared');
  return { times, lookB, part };
}

describe('a copy timing an absence across a forward jump of the wall clock (ABSENCE_AFTER_JUMP)', () => {
  it('three hours on the wall clock, two seconds of uptime: the empty group is not taken for cleared; the old machine\'s edit arrives and the copy\'s text is sent again beside it', async () => {
    const { times, lookB, part } = await copyWhileTheOldMachineEdits();
    // Less real time than the group's patience (at least MIN_PATIENCE_MS, 10 s; learnt from the old machine's syncs).
    times.wall += 3 * HOUR;
    times.uptime += 2_000;
    await lookB();
    expect(await part()).toMatchObject({ goneSeen: { how: 'cleared' } });
    expect((await part())?.deletedElsewhere).toBeUndefined();
    server.resumeProcessing();
    await server.whenIdle();
    expect(graphOf(server)).toEqual(['One: One, edited on A.']);
    times.wall += 11 * MIN;
    times.uptime += 11 * MIN;
    await lookB();
    await server.whenIdle();
    expect(graphOf(server)).toEqual(['One: One, edited on A.', 'One: One, first text.']);
  });

  it('control: three hours really passed with the group empty (the uptime moved as far): left deleted, as a clear', async () => {
    const { times, lookB, part } = await copyWhileTheOldMachineEdits();
    times.wall += 3 * HOUR;
    times.uptime += 3 * HOUR;
    await lookB();
    expect((await part())?.deletedElsewhere).toBeDefined();
    server.resumeProcessing();
  });

  it('control: another boot says nothing of the clock: judged on the wall clock, as before', async () => {
    const { times, lookB, part } = await copyWhileTheOldMachineEdits();
    times.wall += 3 * HOUR;
    times.uptime = MIN;
    times.bootId = 'boot-2';
    await lookB();
    expect((await part())?.deletedElsewhere).toBeDefined();
    server.resumeProcessing();
  });
});
