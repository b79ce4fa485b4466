/**
 * One memory on two machines through a synced Claude config folder (Dropbox, Syncthing, iCloud, a
 * dotfiles checkout of ~/.claude): origin.json and the memory folders are the same on both, each
 * machine has its own state folder. Both are then one owner (util/origin.ts: the origin follows the
 * memory), and the graph must follow the memory: one episode per note with its newest text, a
 * machine whose copy of the folder lags behind touches nothing, and no run re-sends what the other
 * sent (no ping-pong). Probed end to end on the loopback test server.
 */
import { cpSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { partsHeldAsCopy } from '../../src/lib/sync/copy-hold.js';
import { originQuestion, originStanding } from '../../src/lib/sync/origin-choice.js';
import { loadState } from '../../src/lib/state/state.js';
import type { GraphitiTestServer } from '../support/graphiti-server.js';
import { makeSandbox, type Sandbox } from '../support/sandbox.js';
import { useServerAndSandbox } from '../helpers/use-server-and-sandbox.js';
import { graphOf, note, syncSettled } from '../helpers/two-machines.js';

let server: GraphitiTestServer;
let a: Sandbox;
const extraBoxes: Sandbox[] = [];
useServerAndSandbox((s, b) => {
  server = s;
  a = b;
});
afterEach(() => {
  for (const b of extraBoxes.splice(0)) b.cleanup();
  settingsOf.clear();
});

/** The same checkout path on both machines, so the same Claude Code project folder. */
const PROJECT = '-home-me-app';
const writes = () => server.calls.filter((c) => c.tool === 'add_memory' || c.tool === 'delete_episode').length;
const graph = () => graphOf(server);

/** Settings per sandbox (the machine ids of the second case). */
const settingsOf = new Map<Sandbox, Record<string, string>>();

/** Runs until nothing is waiting. */
const sync = (box: Sandbox) => syncSettled(server, () => box.config(settingsOf.get(box)));

/** The folder sync: B's ~/.claude becomes A's (origin.json and memory), B's state stays its own. */
function folderSync(from: Sandbox, to: Sandbox): void {
  rmSync(to.path('claude'), { recursive: true, force: true });
  cpSync(from.path('claude'), to.path('claude'), { recursive: true, preserveTimestamps: true });
}

describe('a Claude config folder synced between two machines (one origin, one memory, a state each)', () => {
  it('the graph follows the memory: nothing sent twice for good, a lagging copy touches nothing, edits and deletions from either machine land once', async () => {
    const b = makeSandbox(server.url);
    extraBoxes.push(b);
    await syncedFolder(b);
  });

  it('the same with a machine id each (origin.json made on A, a state folder made on B): silent, nothing held, nothing sent again (sync/copy-hold.ts)', async () => {
    const b = makeSandbox(server.url);
    extraBoxes.push(b);
    settingsOf.set(a, { MADEINOZ_KNOWLEDGE_MACHINE_ID: 'machine-a' });
    settingsOf.set(b, { MADEINOZ_KNOWLEDGE_MACHINE_ID: 'machine-b' });
    await syncedFolder(b);
    for (const box of [a, b]) expect(partsHeldAsCopy((await loadState(box.config(settingsOf.get(box)).stateDir, { readOnly: true })).state)).toEqual([]);
    // Nothing is asked: no question for status, sync or the session.
    expect(originQuestion(await originStanding(b.config(settingsOf.get(b))))).toBeUndefined();
  });
});

/** The scenario both cases run: A starts, B meets the synced folder, edits and deletions go both ways. */
async function syncedFolder(b: Sandbox): Promise<void> {
  a.auto(PROJECT, 'one.md', note('One', 'One, first text.'));
  a.auto(PROJECT, 'two.md', note('Two', 'Two, first text.'));
  await sync(a);
  expect(graph()).toEqual(['One: One, first text.', 'Two: Two, first text.']);

  // B meets the synced folder with a state of its own: the notes are already there, nothing is sent.
  folderSync(a, b);
  let before = writes();
  await sync(b);
  expect(writes()).toBe(before);

  // A edits; B syncs before its copy of the folder has the edit: B neither brings its older text back nor deletes A's.
  a.auto(PROJECT, 'one.md', note('One', 'One, edited on A.'));
  await sync(a);
  before = writes();
  await sync(b);
  expect(writes()).toBe(before);
  expect(graph()).toEqual(['One: One, edited on A.', 'Two: Two, first text.']);

  // The edit arrives on B; then both go on: one episode per note, and no run sends again.
  folderSync(a, b);
  await sync(b);
  await sync(a);
  expect(graph()).toEqual(['One: One, edited on A.', 'Two: Two, first text.']);
  before = writes();
  await sync(a);
  await sync(b);
  expect(writes()).toBe(before);

  // B edits and deletes (the folder carries both to A): the graph follows, once.
  b.auto(PROJECT, 'two.md', note('Two', 'Two, edited on B.'));
  await sync(b);
  folderSync(b, a);
  await sync(a);
  expect(graph()).toEqual(['One: One, edited on A.', 'Two: Two, edited on B.']);
  rmSync(join(b.path('claude', 'projects', PROJECT, 'memory'), 'one.md'));
  await sync(b);
  folderSync(b, a);
  await sync(a);
  expect(graph()).toEqual(['Two: Two, edited on B.']);
  before = writes();
  await sync(a);
  await sync(b);
  expect(writes()).toBe(before);
}
