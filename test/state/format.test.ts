/**
 * The state folder's formats across versions of this tool (state/format.ts): what an upgrade
 * reads of the state an older build wrote, and what this build does with files a newer build
 * wrote (a downgrade, or two installs of different ages sharing the folder).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileIdOf } from '../../src/lib/memory/hash.js';
import { PULLED_FILE, readPulled, writePulled, emptyLedger } from '../../src/lib/state/pulled.js';
import { journalPath, loadState, saveState, statePath, StateConflictError, STATE_VERSION, type EpisodeRef, type FileRecord } from '../../src/lib/state/state.js';
import { futureFormat, HELD_STATE_VERSION } from '../../src/lib/state/format.js';
import { keepAsOurs } from '../../src/lib/sync/copy-hold.js';
import { useTempDir } from '../helpers/use-temp-dir.js';

let dir: string;
useTempDir('gms-format-', (d) => (dir = d));

const part = (n: number, patch: Partial<EpisodeRef> = {}): EpisodeRef => ({
  marker: `[gms:${fileIdOf('auto-memory', '-p/memory/a.md')}:0123456789ab:${n}/2:m-0123456789]`,
  name: `A (part ${n}/2)`,
  groupId: 'main',
  part: n,
  parts: 2,
  resends: 0,
  ...patch,
});

function record(id: string, patch: Partial<FileRecord> = {}): FileRecord {
  const relPath = id.slice('auto-memory:'.length);
  return {
    id,
    source: 'auto-memory',
    kind: 'auto-memory',
    relPath,
    project: '-p',
    fileId: fileIdOf('auto-memory', relPath),
    hash: 'ab'.repeat(32),
    mtimeMs: 1000,
    size: 10,
    status: 'confirmed',
    episodes: [part(1, { uuid: 'u-1', confirmedAt: '2026-11-20T00:00:00.000Z' }), part(2, { uuid: 'u-2', sentAt: '2026-11-20T00:00:00.000Z' })],
    superseded: [part(1, { uuid: 'u-old', marker: '[gms:x:ffffffffffff:1/1]' })],
    attempts: 0,
    firstSeenAt: '2026-11-20T00:00:00.000Z',
    updatedAt: '2026-11-20T00:00:00.000Z',
    ...patch,
  };
}

function snapshot(version: number, files: FileRecord[], extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    tool: 'graphiti-memory-sync',
    version,
    createdAt: '2026-11-20T00:00:00.000Z',
    updatedAt: '2026-11-20T00:00:00.000Z',
    generation: 7,
    files: Object.fromEntries(files.map((f) => [f.id, f])),
    orphans: [part(1, { uuid: 'u-orphan' })],
    ...extra,
  });
}

const savedVersion = async (): Promise<unknown> => (JSON.parse(await readFile(statePath(dir), 'utf8')) as { version: unknown }).version;

describe('state.json across versions of the tool', () => {
  it('an upgrade reads the state the previous format wrote (version 1), journal included, with every part as it was, and writes it back in a format builds of format 1 refuse', async () => {
    const a = record('auto-memory:-p/memory/a.md');
    const b = record('auto-memory:-p/memory/b.md', { status: 'queued' });
    await writeFile(statePath(dir), snapshot(1, [a]));
    await writeFile(journalPath(dir, 7), `${JSON.stringify({ k: 'file', id: b.id, record: b })}\n`);

    const loaded = await loadState(dir);
    expect(loaded.recovered).toBeUndefined();
    expect(loaded.journalEntries).toBe(1);
    expect(loaded.state.version).toBe(STATE_VERSION);
    expect(JSON.parse(JSON.stringify(loaded.state.files))).toEqual({ [a.id]: a, [b.id]: b });
    expect(loaded.state.orphans).toEqual([part(1, { uuid: 'u-orphan' })]);

    await saveState(dir, loaded.state);
    // Every build of format 1 refuses a state whose version is above 1 (and says: upgrade), so a
    // downgrade cannot act on parts it would misread (origins, pulled copies, note tags).
    expect(await savedVersion()).toBeGreaterThan(1);
    expect(await savedVersion()).toBe(STATE_VERSION);
    const again = await loadState(dir);
    expect(JSON.parse(JSON.stringify(again.state.files))).toEqual({ [a.id]: a, [b.id]: b });
  });

  it('a newer format that declares itself compatible with this one is read, its unknown fields kept when written back', async () => {
    const a = { ...record('auto-memory:-p/memory/a.md'), laterField: { kept: true } };
    await writeFile(statePath(dir), snapshot(STATE_VERSION + 1, [a], { compatibleWith: STATE_VERSION, laterTop: 1 }));
    const loaded = await loadState(dir);
    expect(loaded.recovered).toBeUndefined();
    expect(Object.keys(loaded.state.files)).toEqual([a.id]);
    await saveState(dir, loaded.state);
    const written = JSON.parse(await readFile(statePath(dir), 'utf8')) as { laterTop: unknown; files: Record<string, { laterField?: unknown }> };
    expect(written.laterTop).toBe(1);
    expect(written.files[a.id]?.laterField).toEqual({ kept: true });
  });

  it('a newer format compatible only with builds newer than this one is refused, and left as it is', async () => {
    const text = snapshot(STATE_VERSION + 2, [record('auto-memory:-p/memory/a.md')], { compatibleWith: STATE_VERSION + 1 });
    await writeFile(statePath(dir), text);
    const error = await loadState(dir).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StateConflictError);
    expect(error).toMatchObject({ kind: 'newer', foundVersion: STATE_VERSION + 2 });
    expect((error as Error).message).toMatch(/upgrade graphiti-memory-sync/);
    expect(await readFile(statePath(dir), 'utf8')).toBe(text);
  });

  it('a journal entry of a kind this build does not know is refused, not skipped: the entries after it are not lost, nothing is moved or rewritten', async () => {
    const a = record('auto-memory:-p/memory/a.md');
    const b = record('auto-memory:-p/memory/b.md', { status: 'queued' });
    const state = snapshot(STATE_VERSION, [a]);
    const journal = [
      JSON.stringify({ k: 'file', id: a.id, record: { ...a, status: 'queued' } }),
      JSON.stringify({ k: 'parts-sent', ids: [a.id], at: '2026-12-01T00:00:00.000Z' }),
      JSON.stringify({ k: 'file', id: b.id, record: b }),
      '',
    ].join('\n');
    await writeFile(statePath(dir), state);
    await writeFile(journalPath(dir, 7), journal);

    const error = await loadState(dir).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StateConflictError);
    expect(error).toMatchObject({ kind: 'newer' });
    expect((error as Error).message).toMatch(/"parts-sent".*upgrade graphiti-memory-sync/);
    expect(await readFile(statePath(dir), 'utf8')).toBe(state);
    expect(await readFile(journalPath(dir, 7), 'utf8')).toBe(journal);
  });

  it('while a part is held as another machine\'s, the state is written in a format every build of format 2 refuses (a downgrade stops, it does not delete what is held); once nothing is held, as 2 again', async () => {
    const a = record('auto-memory:-p/memory/a.md');
    await writeFile(statePath(dir), snapshot(STATE_VERSION, [a]));
    const loaded = await loadState(dir);
    const old = loaded.state.files[a.id]?.superseded[0] as EpisodeRef;
    old.foreign = true;
    await saveState(dir, loaded.state);
    expect(await savedVersion()).toBe(HELD_STATE_VERSION);
    const raw = JSON.parse(await readFile(statePath(dir), 'utf8')) as Record<string, unknown>;
    expect(raw.compatibleWith).toBeUndefined();
    // What a build of format 2 does with it (its validate.ts: futureFormat against its STATE_VERSION, 2): refuse, and say upgrade.
    const refused = futureFormat({ path: statePath(dir), what: 'State file', version: raw.version, compatibleWith: raw.compatibleWith }, 2);
    expect(refused).toMatchObject({ kind: 'newer', foundVersion: HELD_STATE_VERSION });
    expect(refused?.message).toMatch(/upgrade graphiti-memory-sync/);

    // This build reads it back, mark and all.
    const again = await loadState(dir);
    expect(again.state.version).toBe(STATE_VERSION);
    expect(again.state.files[a.id]?.superseded[0]?.foreign).toBe(true);
    keepAsOurs(again.state);
    await saveState(dir, again.state);
    expect(await savedVersion()).toBe(STATE_VERSION);
  });

  it('a held state is written in a format the builds that wrote held states as 3 refuse (their copy rules would undo a deletion on purpose); this build still reads their held 3', async () => {
    const a = record('auto-memory:-p/memory/a.md');
    await writeFile(statePath(dir), snapshot(STATE_VERSION, [a]));
    const loaded = await loadState(dir);
    // The copy's look found the group cleared: its current part stays deleted, a mark builds before DELETED_ON_PURPOSE ignore (their COPY_WATCH sends it again).
    const current = loaded.state.files[a.id]?.episodes[0] as EpisodeRef;
    current.foreign = true;
    current.deletedElsewhere = '2026-12-01T00:00:00.000Z';
    await saveState(dir, loaded.state);
    const raw = JSON.parse(await readFile(statePath(dir), 'utf8')) as Record<string, unknown>;
    // What such a build (0538ecb's validate.ts and format.ts) does with the file: a held version 3 is its own; anything else is judged against its STATE_VERSION, 2.
    const readByHeld3Build = raw.version === 3 || futureFormat({ path: statePath(dir), what: 'State file', version: raw.version, compatibleWith: raw.compatibleWith }, 2) === undefined;
    expect(readByHeld3Build).toBe(false);
    expect(raw.compatibleWith).toBeUndefined();

    // A held state such a build wrote (version 3) is read by this one, marks and all, and written back in this build's held version.
    await writeFile(statePath(dir), JSON.stringify({ ...raw, version: 3 }));
    const again = await loadState(dir);
    expect(again.state.files[a.id]?.episodes[0]).toMatchObject({ foreign: true, deletedElsewhere: '2026-12-01T00:00:00.000Z' });
    await saveState(dir, again.state);
    expect(await savedVersion()).toBe(HELD_STATE_VERSION);
    // A 3 with nothing held was not written by that rule: refused as newer, as before.
    await writeFile(statePath(dir), snapshot(3, [a]));
    expect(await loadState(dir).catch((e: unknown) => e)).toMatchObject({ kind: 'newer', foundVersion: 3 });
  });

  it('a torn last journal line is still the end of the journal, not a newer format', async () => {
    const a = record('auto-memory:-p/memory/a.md');
    await writeFile(statePath(dir), snapshot(STATE_VERSION, [a]));
    await writeFile(journalPath(dir, 7), `${JSON.stringify({ k: 'file', id: a.id, record: { ...a, status: 'queued' } })}\n{"k":"fi`);
    const loaded = await loadState(dir);
    expect(loaded.journalEntries).toBe(1);
    expect(loaded.state.files[a.id]?.status).toBe('queued');
  });
});

describe('pulled.json across versions of the tool', () => {
  it('a ledger this build wrote is read back', async () => {
    const ledger = emptyLedger();
    ledger.notes['/m/a.md'] = { project: 'p', path: 'a.md', version: 2, hash: 'h', file: '/m/a.md', origin: 'm-other00000', redacted: false, pulledAt: '2026-12-01T00:00:00.000Z', group: 'main' };
    await writePulled(dir, ledger, undefined);
    expect((await readPulled(dir)).notes['/m/a.md']?.version).toBe(2);
  });

  it('a ledger a newer build wrote is refused (never read as empty, which would send every pulled copy as this machine\'s own), and left as it is', async () => {
    // A later layout: notes as a list. Read as "no ledger", every file pull wrote here would look like the person's own note.
    const text = `${JSON.stringify({ tool: 'graphiti-memory-sync', version: 2, notes: [{ file: '/m/a.md', hash: 'h' }], copies: [], held: {} })}\n`;
    await writeFile(join(dir, PULLED_FILE), text);
    const error = await readPulled(dir).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StateConflictError);
    expect(error).toMatchObject({ kind: 'newer', foundVersion: 2 });
    expect((error as Error).message).toMatch(/pull ledger .*upgrade graphiti-memory-sync/);
    expect(await readFile(join(dir, PULLED_FILE), 'utf8')).toBe(text);
  });
});
