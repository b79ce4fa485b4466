/**
 * A note caught while it is being saved (sync/mid-write.ts MID_WRITE): a save that truncates the
 * file before writing it leaves it empty for a moment, one that moves it aside first leaves no file,
 * and a run that looked then retracted or deleted the note's episodes (its knowledge gone from the
 * graph, facts included, until a later run sent it all again). Over loopback with the test server; the run's clock and its wait are the test's, and the
 * wait is where the "editor" finishes its save.
 */
import { renameSync, rmSync, statSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runSync } from '../../src/lib/sync/sync.js';
import { goneMidWriteWait, MID_WRITE_SETTLE_MS, midWriteWait } from '../../src/lib/sync/mid-write.js';
import type { GraphitiTestServer } from '../support/graphiti-server.js';
import { learning, type Sandbox } from '../support/sandbox.js';
import { useServerAndSandbox } from '../helpers/use-server-and-sandbox.js';

let server: GraphitiTestServer;
let box: Sandbox;
useServerAndSandbox((s, b) => {
  server = s;
  box = b;
});

const calls = (tool: string) => server.calls.filter((c) => c.tool === tool).length;
const TEXT = learning('Alpha', 'Alpha knows the deploy runs from the release branch.');

/** A confirmed note, and a clock that stands at its file's mtime (the run's `now`). */
async function confirmedNote() {
  const file = box.pai('LEARNING/SYSTEM/alpha.md', TEXT);
  const config = box.config();
  let clock = Date.now();
  await runSync(config, { now: () => clock });
  await server.whenIdle();
  clock += 60_000;
  expect(await runSync(config, { now: () => clock })).toMatchObject({ confirmed: 1 });
  const uuid = server.episodes()[0]?.uuid;
  expect(uuid).toBeDefined();
  /** Empties the file as a save does first, `agoMs` before the clock. */
  const empty = (agoMs: number) => {
    truncateSync(file, 0);
    const t = (clock - agoMs) / 1000;
    utimesSync(file, t, t);
  };
  return { file, config, uuid, empty, now: () => clock, advance: (ms: number) => (clock += ms) };
}

type Note = Awaited<ReturnType<typeof confirmedNote>>;

/** The run's wait, in which the save finishes (`text` written back), and the waits it was asked for. */
function finishingSave(n: Note, text: string) {
  const waits: number[] = [];
  const sleep = async (ms: number) => {
    waits.push(ms);
    n.advance(ms);
    writeFileSync(n.file, text);
  };
  return { waits, sleep };
}

/** Nothing retracted or deleted, nothing sent again: the note's episode is still the one confirmed. */
function expectKept(n: Note): void {
  expect(calls('delete_episode')).toBe(0);
  expect(calls('add_memory')).toBe(1);
  expect(server.episodes().map((e) => e.uuid)).toEqual([n.uuid]);
}

describe('a note caught mid-write (MID_WRITE)', () => {
  it('emptied by a save that is still writing: read again once settled, nothing retracted, nothing sent again', async () => {
    const n = await confirmedNote();
    n.empty(5);
    const save = finishingSave(n, TEXT); // the save's second half: the same text back
    const summary = await runSync(n.config, { now: n.now, sleep: save.sleep });
    await server.whenIdle();
    expect(save.waits).toEqual([MID_WRITE_SETTLE_MS - 5]);
    expect(summary).toMatchObject({ skipped: 0, unchanged: 1, confirmed: 1 });
    expectKept(n);
  });

  it('emptied and written with an edit meanwhile: the edit is sent as the next version, the old one stays until it is confirmed', async () => {
    const n = await confirmedNote();
    n.empty(0);
    const summary = await runSync(n.config, { now: n.now, sleep: finishingSave(n, learning('Alpha', 'Alpha knows the deploy runs from the main branch now.')).sleep });
    expect(summary).toMatchObject({ updated: 1, skipped: 0 });
    expect(calls('delete_episode')).toBe(0); // make before break (0.28.2): the old version stays until the new one is seen
    await server.whenIdle();
    n.advance(60_000);
    expect(await runSync(n.config, { now: n.now })).toMatchObject({ confirmed: 1, skipped: 0 });
    expect(server.episodes().map((e) => e.content)).toEqual([expect.stringContaining('main branch now')]);
  });

  it('emptied for good: still empty once settled, so the note is retracted as an empty note is', async () => {
    const n = await confirmedNote();
    n.empty(0);
    const summary = await runSync(n.config, { now: n.now, sleep: async (ms) => void n.advance(ms) });
    expect(summary).toMatchObject({ skipped: 1 });
    expect(calls('delete_episode')).toBe(1);
    expect(server.episodes()).toEqual([]);
  });

  it('emptied longer ago than the settle time (or, by its mtime, in the future: a clock set back since): retracted without a wait', async () => {
    for (const agoMs of [MID_WRITE_SETTLE_MS, -3_600_000]) {
      const n = await confirmedNote();
      n.empty(agoMs);
      let waited = false;
      expect(await runSync(n.config, { now: n.now, sleep: async () => void (waited = true) })).toMatchObject({ skipped: 1 });
      expect(waited).toBe(false);
      expect(server.episodes().filter((e) => e.uuid === n.uuid)).toEqual([]);
    }
  });

  it('a new empty file (nothing of it in the graph) is skipped without a wait', async () => {
    const config = box.config();
    const file = box.pai('LEARNING/SYSTEM/blank.md', '');
    let waited = false;
    expect(await runSync(config, { sleep: async () => void (waited = true) })).toMatchObject({ skipped: 1 });
    expect(waited).toBe(false);
    expect(statSync(file).size).toBe(0);
  });
});

describe('a note a save moved aside (MID_WRITE)', () => {
  /** A confirmed note, gone from its folder by `remove`, the clock at the folder's change `agoMs` later. */
  async function goneNote(remove: (file: string) => void, agoMs = 5) {
    const n = await confirmedNote();
    remove(n.file);
    const folderChanged = statSync(dirname(n.file)).mtimeMs;
    n.advance(folderChanged + agoMs - n.now());
    return n;
  }

  it("moved aside and written anew (vim's backup by rename): looked for again once settled, nothing deleted, nothing sent again", async () => {
    const n = await goneNote((file) => renameSync(file, `${file}~`));
    const save = finishingSave(n, TEXT);
    const summary = await runSync(n.config, { now: n.now, sleep: save.sleep });
    await server.whenIdle();
    expect(save.waits).toEqual([MID_WRITE_SETTLE_MS - 5]);
    expect(summary).toMatchObject({ deleted: 0, unchanged: 1, confirmed: 1 });
    expectKept(n);
  });

  it('deleted for good: still gone once settled, so its episodes are deleted', async () => {
    const n = await goneNote((file) => rmSync(file));
    const summary = await runSync(n.config, { now: n.now, sleep: async (ms) => void n.advance(ms) });
    expect(summary).toMatchObject({ deleted: 1 });
    expect(calls('delete_episode')).toBe(1);
    expect(server.episodes()).toEqual([]);
  });

  it('deleted while its folder has been still for longer than the settle time: deleted without a wait', async () => {
    const n = await goneNote((file) => rmSync(file), MID_WRITE_SETTLE_MS);
    let waited = false;
    expect(await runSync(n.config, { now: n.now, sleep: async () => void (waited = true) })).toMatchObject({ deleted: 1 });
    expect(waited).toBe(false);
    expect(calls('delete_episode')).toBe(1);
  });
});

describe('midWriteWait (the rule)', () => {
  const at = { scannedSize: 120, bytes: 120, mtimeMs: 1_000_000, now: 1_000_000, hasEpisodes: true };
  it('a file whose size changed between the scan and the read waits the whole settle time; one read as scanned does not', () => {
    expect(midWriteWait({ ...at, bytes: 60 })).toBe(MID_WRITE_SETTLE_MS);
    expect(midWriteWait({ ...at, bytes: 0 })).toBe(MID_WRITE_SETTLE_MS);
    expect(midWriteWait(at)).toBeUndefined();
  });
  it('an empty read of a note with episodes waits out the rest of the settle time from its mtime, either side of now', () => {
    const empty = { ...at, bytes: 0, scannedSize: 0 };
    expect(midWriteWait({ ...empty, now: at.mtimeMs + 300 })).toBe(MID_WRITE_SETTLE_MS - 300);
    expect(midWriteWait({ ...empty, now: at.mtimeMs - 300 })).toBe(MID_WRITE_SETTLE_MS - 300);
    expect(midWriteWait({ ...empty, now: at.mtimeMs + MID_WRITE_SETTLE_MS })).toBeUndefined();
    expect(midWriteWait({ ...empty, hasEpisodes: false })).toBeUndefined();
  });
  it("a note gone from the scan waits out the rest of the settle time from its folder's change; a folder gone too, or still for longer, does not", () => {
    expect(goneMidWriteWait(1_000_000, 1_000_400)).toBe(MID_WRITE_SETTLE_MS - 400);
    expect(goneMidWriteWait(1_000_000, 1_000_000 + MID_WRITE_SETTLE_MS)).toBeUndefined();
    expect(goneMidWriteWait(undefined, 1_000_000)).toBeUndefined();
  });
});
