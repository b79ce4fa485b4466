/**
 * The ledger's two ways to journal (sync/ledger.ts): `journal` resolves once its entries are on
 * disk; `journalSoon` queues them for the next group commit and `flush` waits for them. What is
 * on disk is read back the way the next run reads it (loadState replays the journal).
 */
import { unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createEmptyState, loadState, type FileRecord, type SyncState } from '../../src/lib/state/state.js';
import { Ledger } from '../../src/lib/sync/ledger.js';
import { acquireLock, lockFilePath } from '../../src/lib/state/lock.js';
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

/**
 * LOCK_PROVEN_AT_WRITE: a run stopped (SIGSTOP, Ctrl-Z, a laptop's lid: the process only) while it
 * holds the state lock loses it to a waiting run once its heartbeat has not moved for the stale age.
 * Continued, it handles what arrived meanwhile (an add_memory reply) before its heartbeat timer can
 * find the lock gone: the timer is not what may stand between it and the state the new holder is
 * writing. Here its heartbeat never runs (heartbeatMs 0): only the write's own look can tell.
 */
describe('a run whose lock was taken over while it was stopped (LOCK_PROVEN_AT_WRITE)', () => {
  async function takenOverWhileStopped() {
    const stopped = await acquireLock(dir, { heartbeatMs: 0, label: 'stopped worker' });
    const state = (await loadState(dir)).state;
    const ledger = new Ledger(dir, state, Date.now, stopped, false);
    const a = record('a');
    a.episodes[0]!.sentAt = '2026-01-01T00:00:00.000Z';
    state.files.a = a;
    await ledger.save();
    // The waiting run judged the stopped one's lock stale and took it over (state/lock.ts takeOver), then confirmed the part.
    unlinkSync(lockFilePath(dir));
    const waiting = await acquireLock(dir, { heartbeatMs: 0, label: 'cli sync' });
    const theirs = (await loadState(dir)).state;
    const ledgerB = new Ledger(dir, theirs, Date.now, waiting, false);
    theirs.files.a!.episodes[0]!.uuid = 'episode-1';
    await ledgerB.journal([theirs.files.a!]);
    await ledgerB.close();
    return { stopped, waiting, state, ledger, a };
  }

  it('the reply it handles on waking is not journaled over the new holder\'s record', async () => {
    const { waiting, ledger, a } = await takenOverWhileStopped();
    a.episodes[0]!.queuedAt = '2026-01-01T00:00:01.000Z';
    ledger.journalSoon([a]);
    await expect(ledger.flush()).rejects.toThrow(/Lost the state lock/);
    await ledger.close();
    expect((await onDisk(dir)).files.a?.episodes[0]?.uuid).toBe('episode-1');
    await waiting.release();
  });

  it('the next part it would send is not marked in flight (its add_memory never goes out)', async () => {
    const { waiting, state, ledger } = await takenOverWhileStopped();
    const b = record('b');
    b.episodes[0]!.sentAt = '2026-01-01T00:00:02.000Z';
    state.files.b = b;
    await expect(ledger.journal([b])).rejects.toThrow(/Lost the state lock/);
    await ledger.close();
    const disk = await onDisk(dir);
    expect(disk.files.b).toBeUndefined();
    expect(disk.files.a?.episodes[0]?.uuid).toBe('episode-1');
    await waiting.release();
  });
});
