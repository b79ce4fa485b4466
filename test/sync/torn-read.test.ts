/**
 * A note read while an editor writes it in place (sync/mid-write.ts STABLE_READ): the save keeps
 * the file's size (the same length of text, or a text written over the old one without
 * truncating), so neither the scan's size nor the read's length shows it, and what was read is the
 * new text's first half over the old one's second half. Sent, that torn text was extracted as
 * knowledge and pulled by the person's other machines until the next run replaced it.
 *
 * The editor is simulated at the file system's seams (node:fs `read` and `fstat`, reached through
 * syncBuiltinESMExports): it goes on writing at a chosen point of the reader's work, as a writer
 * descheduled there would. The run's settle wait is the test's (no sleeps).
 */
import fs, { openSync, closeSync, statSync, utimesSync, writeSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { afterEach, describe, expect, it } from 'vitest';
import { runSync } from '../../src/lib/sync/sync.js';
import { MID_WRITE_ROUNDS, MID_WRITE_SETTLE_MS } from '../../src/lib/sync/mid-write.js';
import type { GraphitiTestServer } from '../support/graphiti-server.js';
import { learning, type Sandbox } from '../support/sandbox.js';
import { useServerAndSandbox } from '../helpers/use-server-and-sandbox.js';

let server: GraphitiTestServer;
let box: Sandbox;
useServerAndSandbox((s, b) => {
  server = s;
  box = b;
});

const OLD = learning('Alpha', 'Alpha knows the deploy runs from the release branch on Fridays.');
const NEW = learning('Alpha', 'Alpha knows the deploy runs from the staging branch on Mondays.');
/** Where the save's first write ends: between the two words that changed. */
const HALF = NEW.indexOf(' branch');
/** What a reader sees between the save's two writes: the new text's first half over the old one's second. */
const TORN = NEW.slice(0, HALF) + OLD.slice(HALF);
const tornSent = () => bodies().some((b) => b.includes('staging branch on Fridays'));

const bodies = () => server.calls.filter((c) => c.tool === 'add_memory').map((c) => String(c.args.episode_body));

/** Writes `text` into the file at `at` without truncating it, as an editor saving in place does. */
function writeInPlace(file: string, text: string, at: number): void {
  const fd = openSync(file, 'r+');
  try {
    writeSync(fd, text, at);
  } finally {
    closeSync(fd);
  }
}

let undo: Array<() => void> = [];
afterEach(() => {
  for (const u of undo.splice(0).reverse()) u();
});

/** Wraps a callback function of node:fs for the rest of the test. */
function wrap(name: 'read' | 'fstat', around: (real: (...args: unknown[]) => unknown, args: unknown[]) => unknown): void {
  const real = fs[name] as unknown as (...args: unknown[]) => unknown;
  (fs as unknown as Record<string, unknown>)[name] = (...args: unknown[]) => around(real, args);
  syncBuiltinESMExports();
  undo.push(() => {
    (fs as unknown as Record<string, unknown>)[name] = real;
    syncBuiltinESMExports();
  });
}

/** The file descriptors open on `file` now (this process's): how the seams know the note's reads. */
function opensOf(file: string): (fd: unknown) => boolean {
  return (fd) => {
    if (typeof fd !== 'number') return false;
    try {
      return fs.readlinkSync(`/proc/self/fd/${fd}`) === file;
    } catch {
      return false;
    }
  };
}

/** A confirmed note holding OLD, then the first half of an in-place save of NEW (the file is TORN, its size unchanged). */
async function noteMidSave() {
  const file = box.pai('LEARNING/SYSTEM/alpha.md', OLD);
  const config = box.config();
  let clock = Date.now();
  const now = () => clock;
  await runSync(config, { now });
  await server.whenIdle();
  clock += 60_000;
  expect(await runSync(config, { now })).toMatchObject({ confirmed: 1 });
  expect(NEW.length).toBe(OLD.length);
  expect(TORN).toContain('staging branch on Fridays');
  writeInPlace(file, NEW.slice(0, HALF), 0);
  const torn = statSync(file);
  expect(torn.size).toBe(OLD.length);
  return { file, config, now, advance: (ms: number) => (clock += ms), tornMtime: torn.mtime };
}

/** The save's second half. */
const finishSave = (file: string) => writeInPlace(file, NEW.slice(HALF), HALF);

describe('a note read while it is written in place (STABLE_READ)', () => {
  it('the save goes on between the two reads, the stat unchanged (timestamps of a coarse clock): read again once settled; the torn text is never sent', async () => {
    const n = await noteMidSave();
    const isNote = opensOf(n.file);
    // A disk whose clock did not tick between the save's writes: fstat shows the torn file's stat throughout.
    const first = new Map<number, unknown>();
    wrap('fstat', (real, [fd, ...rest]) => {
      const callback = rest.at(-1) as (e: unknown, st?: unknown) => void;
      if (!isNote(fd)) return real(fd, ...rest);
      return real(fd, ...rest.slice(0, -1), (e: unknown, st: unknown) => {
        if (!first.has(fd as number)) first.set(fd as number, st);
        callback(e, first.get(fd as number));
      });
    });
    let reads = 0;
    wrap('read', (real, args) => {
      if (isNote(args[0]) && ++reads === 2) finishSave(n.file); // descheduled until the reader's second read
      return real(...args);
    });
    const waits: number[] = [];
    const summary = await runSync(n.config, { now: n.now, sleep: async (ms) => void (waits.push(ms), n.advance(ms)) });
    expect(tornSent()).toBe(false);
    expect(waits).toEqual([MID_WRITE_SETTLE_MS]);
    expect(summary).toMatchObject({ updated: 1 });
    expect(bodies()).toHaveLength(2);
    expect(bodies()[1]).toContain('staging branch on Mondays');
  });

  it('the save goes on after both reads returned the same torn text, before the reader looks at the file again (its mtime moved): read again once settled', async () => {
    const n = await noteMidSave();
    const isNote = opensOf(n.file);
    let stats = 0;
    wrap('fstat', (real, [fd, ...rest]) => {
      if (isNote(fd) && ++stats === 2) {
        finishSave(n.file);
        const later = new Date(n.tornMtime.getTime() + 5);
        utimesSync(n.file, later, later);
      }
      return real(fd, ...rest);
    });
    const waits: number[] = [];
    const summary = await runSync(n.config, { now: n.now, sleep: async (ms) => void (waits.push(ms), n.advance(ms)) });
    expect(tornSent()).toBe(false);
    expect(waits).toEqual([MID_WRITE_SETTLE_MS]);
    expect(summary).toMatchObject({ updated: 1 });
    expect(bodies()[1]).toContain('staging branch on Mondays');
  });

  it('a note that is still being written after every settle wait is left for the next run: nothing sent, its confirmed version kept', async () => {
    const n = await noteMidSave();
    const isNote = opensOf(n.file);
    let reads = 0;
    // Every second read finds the text changed again (a writer that never stops).
    wrap('read', (real, args) => {
      if (isNote(args[0]) && ++reads % 2 === 0) writeInPlace(n.file, reads % 4 === 0 ? NEW.slice(0, HALF) : OLD.slice(0, HALF), 0);
      return real(...args);
    });
    const waits: number[] = [];
    const summary = await runSync(n.config, { now: n.now, sleep: async (ms) => void (waits.push(ms), n.advance(ms)) });
    expect(waits).toEqual(Array.from({ length: MID_WRITE_ROUNDS }, () => MID_WRITE_SETTLE_MS));
    expect(bodies()).toHaveLength(1);
    expect(server.calls.filter((c) => c.tool === 'delete_episode')).toHaveLength(0);
    expect(summary).toMatchObject({ updated: 0, deleted: 0 });
    // The writer stops: the next run sends the finished note.
    undo.splice(0).reverse().forEach((u) => u());
    finishSave(n.file);
    writeInPlace(n.file, NEW.slice(0, HALF), 0);
    n.advance(60_000);
    expect(await runSync(n.config, { now: n.now })).toMatchObject({ updated: 1 });
    expect(bodies()[1]).toContain('staging branch on Mondays');
  });
});
