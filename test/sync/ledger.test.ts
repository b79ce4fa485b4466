/**
 * The ledger's two ways to journal (sync/ledger.ts): `journal` resolves once its entries are on
 * disk; `journalSoon` queues them for the next group commit and `flush` waits for them. What is
 * on disk is read back the way the next run reads it (loadState replays the journal).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createEmptyState, loadState, type FileRecord, type SyncState } from '../../src/lib/state/state.js';
import { Ledger } from '../../src/lib/sync/ledger.js';
import { useTempDir } from '../helpers/use-temp-dir.js';

let dir: string;
useTempDir('gms-ledger-', (d) => (dir = d));

function record(id: string, marker = `[gms:${id}:0123456789ab:1/1]`): FileRecord {
  return { id, source: 'pai', kind: 'pai', relPath: `${id}.md`, fileId: id, mtimeMs: 0, size: 0, status: 'pending', episodes: [{ marker, name: id, groupId: 'g', part: 1, parts: 1, resends: 0 }], superseded: [], attempts: 0, firstSeenAt: '', updatedAt: '' } as unknown as FileRecord;
}

async function onDisk(stateDir: string): Promise<SyncState> {
  return (await loadState(stateDir, { readOnly: true })).state;
}

describe('the ledger (sync/ledger.ts)', () => {
  it('journal is on disk when it resolves; journalSoon is on disk after flush', async () => {
    const state = createEmptyState();
    const ledger = new Ledger(dir, state, Date.now, undefined, false);
    await ledger.save(); // a journal counts only after a snapshot
    const a = record('a');
    state.files.a = a;
    await ledger.journal([a]);
    expect(Object.keys((await onDisk(dir)).files)).toEqual(['a']);

    const b = record('b');
    b.episodes[0]!.sentAt = '2026-01-01T00:00:00.000Z';
    state.files.b = b;
    ledger.journalSoon([b]);
    await ledger.flush();
    expect((await onDisk(dir)).files.b?.episodes[0]?.sentAt).toBe('2026-01-01T00:00:00.000Z');
    await ledger.close();
  });

  it('entries queued while a batch is written share the next one, and every caller is answered', async () => {
    const state = createEmptyState();
    const ledger = new Ledger(dir, state, Date.now, undefined, false);
    await ledger.save();
    const records = Array.from({ length: 20 }, (_, i) => record(`r${i}`));
    for (const r of records) state.files[r.id] = r;
    const waits = records.map((r, i) => (i % 2 === 0 ? ledger.journal([r]) : (ledger.journalSoon([r]), Promise.resolve())));
    await Promise.all(waits);
    await ledger.flush();
    expect(Object.keys((await onDisk(dir)).files).sort()).toEqual(records.map((r) => r.id).sort());
    await ledger.close();
  });

  it('after a failed write nothing more is journaled: journal and flush report it (a torn line would hide every later entry)', async () => {
    const notADir = join(dir, 'file');
    writeFileSync(notADir, 'x');
    const state = createEmptyState();
    const ledger = new Ledger(join(notADir, 'state'), state, Date.now, undefined, false);
    ledger.journalSoon([record('a')]);
    await expect(ledger.flush()).rejects.toThrow();
    await expect(ledger.journal([record('b')])).rejects.toThrow();
    await ledger.close();
  });

  it('a dry run writes nothing', async () => {
    const ledger = new Ledger(dir, createEmptyState(), Date.now, undefined, true);
    ledger.journalSoon([record('a')]);
    await ledger.journal([record('b')]);
    await ledger.flush();
    expect((await loadState(dir, { readOnly: true })).fresh).toBe(true);
  });
});
