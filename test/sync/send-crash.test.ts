/**
 * Crash safety of the send phase's journaling (sync/send.ts, sync/ledger.ts). A "crash" is the
 * state directory as it is at one chosen moment, copied aside (what a SIGKILL leaves on disk);
 * from then on the crashed run reaches the server no more. The next run starts from the copy, as
 * a new process would. Whatever the moment, every file ends in the graph exactly once and no
 * add_memory is sent twice:
 * - between a part's in-flight write and its add_memory (journaled, never sent);
 * - after the add_memory's reply, before the reply is journaled (sent, still in flight on disk);
 * - in the middle of a coalesced batch (a torn last line: the batch's entries are lost).
 * Also: at every add_memory the part is already in flight on disk.
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { GraphitiClient, type AddMemoryInput } from '../../src/lib/graphiti/graphiti.js';
import { McpNetworkError } from '../../src/lib/mcp/errors.js';
import { LOCK_FILE } from '../../src/lib/state/lock.js';
import { JournalAppender, everyPart, journalPath, loadState, type JournalEntry, type SyncState } from '../../src/lib/state/state.js';
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

afterEach(() => {
  vi.restoreAllMocks();
});

const FILES = 12;
/** Small parts, so that some files are sent in several parts. */
const SETTINGS = { MADEINOZ_KNOWLEDGE_CONCURRENCY: '3', MADEINOZ_KNOWLEDGE_MAX_EPISODE_CHARS: '500' };

function writeNotes(): void {
  for (let i = 0; i < FILES; i++) {
    const long = i % 3 === 0 ? `\n\n## More\n\n${'A longer paragraph about this learning, to split. '.repeat(12)}` : '';
    box.pai(`LEARNING/SYSTEM/f${i}.md`, learning(`File ${i}`, `Body ${i}.${long}`));
  }
}

const stateDir = () => box.env.MADEINOZ_KNOWLEDGE_STATE_DIR as string;

/** What a SIGKILL would leave: the state directory as it is now (without the dead run's lock). */
function copyState(): string {
  const to = mkdtempSync(join(tmpdir(), 'gms-crash-'));
  cpSync(stateDir(), to, { recursive: true, filter: (src) => !src.endsWith(LOCK_FILE) });
  return to;
}

async function onDisk(dir: string): Promise<SyncState> {
  return (await loadState(dir, { readOnly: true })).state;
}

const sends = () => server.calls.filter((c) => c.tool === 'add_memory').map((c) => String((c.args as { source_description?: unknown }).source_description));

/** The run after the crash, from the copy, until everything is confirmed; then what the graph and the server saw. */
async function recoverFrom(dir: string) {
  await server.whenIdle();
  // Parts journaled in flight but never sent are re-sent once the group has been quiet this long.
  const config = box.config({ ...SETTINGS, MADEINOZ_KNOWLEDGE_STATE_DIR: dir, MADEINOZ_KNOWLEDGE_CONFIRM_MAX_AGE: '300' });
  const summary = await runSync(config, { waitMs: 20_000 });
  await server.whenIdle();
  const settled = await runSync(config);
  return { summary, settled };
}

function expectExactlyOnce(parts: number): void {
  const perMarker = new Map<string, number>();
  for (const d of sends()) perMarker.set(d, (perMarker.get(d) ?? 0) + 1);
  for (const [marker, n] of perMarker) expect(n, `add_memory for ${marker}`).toBe(1);
  expect(perMarker.size).toBe(parts);
  const stored = server.episodes('main');
  expect(stored).toHaveLength(parts);
  expect(new Set(stored.map((e) => e.source_description)).size).toBe(parts);
}

/** A run whose add_memory goes through `around`; after `crash()` nothing more reaches the server. */
function crashingClient(around: (input: AddMemoryInput, send: () => Promise<{ queued: true; message: string }>, call: number) => Promise<{ queued: true; message: string }>) {
  const graphiti = new GraphitiClient(box.config(SETTINGS));
  const real = graphiti.addMemory.bind(graphiti);
  let calls = 0;
  const state = { crashed: false };
  graphiti.addMemory = async (input, signal) => {
    if (state.crashed) throw new McpNetworkError('connect ECONNREFUSED (the process is gone)', 'ECONNREFUSED');
    return around(input, () => real(input, signal), ++calls);
  };
  return { graphiti, state };
}

async function partsIn(dir: string): Promise<number> {
  return everyPart(await onDisk(dir)).length;
}

describe('crash safety of the send journal', () => {
  it('every part is in flight on disk when its add_memory goes out', async () => {
    writeNotes();
    const missing: string[] = [];
    const { graphiti } = crashingClient(async (input, send) => {
      const ref = everyPart(await onDisk(stateDir())).find((r) => input.sourceDescription.includes(r.marker));
      if (ref?.sentAt === undefined) missing.push(input.sourceDescription);
      return send();
    });
    const summary = await runSync(box.config(SETTINGS), { graphiti });
    await graphiti.close();
    expect(missing).toEqual([]);
    expect(summary.pending).toBe(0);
    expect(sends().length).toBeGreaterThan(FILES); // some files went in several parts
  });

  it('a crash between the in-flight write and the add_memory: the next run sends that part once, nothing twice', async () => {
    writeNotes();
    let crashDir: string | undefined;
    const { graphiti, state } = crashingClient(async (input, send, call) => {
      if (call === 5) {
        crashDir = copyState();
        state.crashed = true;
        throw new McpNetworkError('connect ECONNREFUSED (the process is gone)', 'ECONNREFUSED');
      }
      return send();
    });
    await runSync(box.config(SETTINGS), { graphiti }).catch(() => undefined);
    await graphiti.close();
    const dir = crashDir as string;
    const crashed = everyPart(await onDisk(dir));
    const marker = crashed.find((r) => r.sentAt !== undefined && r.queuedAt === undefined && !sends().some((d) => d.includes(r.marker)))?.marker;
    expect(marker, 'a part journaled in flight that never reached the server').toBeDefined();
    const parts = await partsIn(dir);
    const { settled } = await recoverFrom(dir);
    expect(settled).toMatchObject({ pending: 0, queued: 0, failed: 0, confirmed: FILES });
    expectExactlyOnce(parts);
  });

  it('a crash after the add_memory replied, before the reply is journaled: the next run confirms it by its marker, nothing twice', async () => {
    writeNotes();
    let crashDir: string | undefined;
    let answered: string | undefined;
    const { graphiti, state } = crashingClient(async (input, send, call) => {
      const reply = await send();
      if (call === 6) {
        answered = input.sourceDescription;
        crashDir = copyState();
        state.crashed = true;
      }
      return reply;
    });
    await runSync(box.config(SETTINGS), { graphiti }).catch(() => undefined);
    await graphiti.close();
    const dir = crashDir as string;
    const ref = everyPart(await onDisk(dir)).find((r) => answered?.includes(r.marker) === true);
    expect(ref?.sentAt, 'in flight on disk').toBeDefined();
    expect(ref?.queuedAt, 'its reply was not on disk yet').toBeUndefined();
    const parts = await partsIn(dir);
    const { settled } = await recoverFrom(dir);
    expect(settled).toMatchObject({ pending: 0, queued: 0, failed: 0, confirmed: FILES });
    expectExactlyOnce(parts);
  });

  it('a crash in the middle of a coalesced batch (a torn last line): the next run loses nothing and sends nothing twice', async () => {
    writeNotes();
    let crashDir: string | undefined;
    let sentBefore = 0;
    const realAppend = JournalAppender.prototype.append;
    const appendSpy = vi.spyOn(JournalAppender.prototype, 'append');
    const { graphiti, state } = crashingClient(async (_input, send) => send());
    appendSpy.mockImplementation(async function (this: JournalAppender, s: SyncState, entries: JournalEntry[]) {
      if (!state.crashed && crashDir === undefined && entries.length >= 2 && sends().length >= 4) {
        // The kill comes while this batch is written: its first line whole, the second cut short.
        const lines = entries.map((e) => JSON.stringify(e));
        const path = journalPath(stateDir(), s.generation ?? 0);
        writeFileSync(path, `${existsSync(path) ? readFileSync(path, 'utf8') : ''}${lines[0]}\n${(lines[1] as string).slice(0, 40)}`);
        sentBefore = sends().length;
        crashDir = copyState();
        state.crashed = true;
        throw new Error('killed mid-write');
      }
      return realAppend.call(this, s, entries);
    });
    await runSync(box.config(SETTINGS), { graphiti }).catch(() => undefined);
    await graphiti.close();
    appendSpy.mockRestore();
    expect(crashDir, 'a batch of two or more entries was written').toBeDefined();
    const dir = crashDir as string;
    expect(sentBefore).toBeGreaterThan(0);
    const parts = await partsIn(dir);
    const { settled } = await recoverFrom(dir);
    expect(settled).toMatchObject({ pending: 0, queued: 0, failed: 0, confirmed: FILES });
    expectExactlyOnce(parts);
  });
});
