import { existsSync } from 'node:fs';
import { mkdir, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ScannedFile } from '../../src/lib/memory/types.js';
import {
  StateConflictError,
  STATE_VERSION,
  JournalAppender,
  journalPath,
  createEmptyState,
  fileRecordId,
  loadState,
  saveState,
  statePath,
  type EpisodeRef,
  type FileRecord,
  type JournalEntry,
  type SyncState,
} from '../../src/lib/state/state.js';
import { fileIdOf } from '../../src/lib/memory/hash.js';
import { startChild } from '../helpers/child-process.js';
import { srcUrl } from '../support/paths.js';
import { useTempDir } from '../helpers/use-temp-dir.js';

let dir: string;
useTempDir('gms-state-', (d) => (dir = d));

function scanned(relPath: string, patch: Partial<ScannedFile> = {}): ScannedFile {
  return { source: 'pai', kind: 'pai', relPath, absPath: `/x/${relPath}`, mtimeMs: 1000, size: 10, ...patch };
}

/** A new `pending` record for a scanned file. */
function createFileRecord(file: ScannedFile, now: string = new Date().toISOString()): FileRecord {
  return {
    id: fileRecordId(file.source, file.relPath),
    source: file.source,
    kind: file.kind,
    relPath: file.relPath,
    ...(file.project === undefined ? {} : { project: file.project }),
    fileId: fileIdOf(file.source, file.relPath),
    mtimeMs: file.mtimeMs,
    size: file.size,
    status: 'pending',
    episodes: [],
    superseded: [],
    attempts: 0,
    firstSeenAt: now,
    updatedAt: now,
  };
}

async function appendJournal(stateDir: string, state: SyncState, entries: JournalEntry[]): Promise<void> {
  const appender = new JournalAppender(stateDir);
  try {
    await appender.append(state, entries);
  } finally {
    await appender.close();
  }
}

function episode(n: number): EpisodeRef {
  return { marker: `gms:abc:${n}`, name: `Note ${n}`, groupId: 'main', part: n, parts: 2, resends: 0 };
}

function stateWith(records: FileRecord[]): SyncState {
  const state = createEmptyState();
  for (const r of records) state.files[r.id] = r;
  return state;
}

describe('loadState / saveState', () => {
  it('a missing file gives a fresh empty state', async () => {
    const loaded = await loadState(dir);
    expect(loaded.fresh).toBe(true);
    expect(loaded.recovered).toBeUndefined();
    expect(loaded.state.tool).toBe('graphiti-memory-sync');
    expect(loaded.state.version).toBe(STATE_VERSION);
    expect(Object.keys(loaded.state.files)).toEqual([]);
    expect(Object.getPrototypeOf(loaded.state.files)).toBeNull();
    expect(loaded.state.orphans).toEqual([]);
  });

  it('round-trips every field, with mode 0600 and a 0700 state dir', async () => {
    const stateDir = join(dir, 'nested', 'state');
    const record = createFileRecord(scanned('LEARNING/SYSTEM/2026-01/a.md'), '2026-01-01T00:00:00.000Z');
    Object.assign(record, {
      hash: 'sha256:ff',
      status: 'queued',
      episodes: [episode(1), { ...episode(2), uuid: 'u-2', sentAt: '2026-01-01T00:00:01.000Z' }],
      superseded: [episode(0)],
      attempts: 2,
      lastError: 'boom',
      redactions: 1,
      warnings: ['w'],
      queuedAt: '2026-01-01T00:00:02.000Z',
    });
    const auto = createFileRecord(scanned('-home-me-repo/memory/x.md', { source: 'auto-memory', kind: 'auto-memory', project: '-home-me-repo' }));
    const state = stateWith([record, auto]);
    state.orphans.push(episode(9));
    state.lastRun = { startedAt: 'a', finishedAt: 'b', summary: { added: 1 } };
    await saveState(stateDir, state);
    expect((await stat(statePath(stateDir))).mode & 0o777).toBe(0o600);
    expect((await stat(stateDir)).mode & 0o777).toBe(0o700);
    const loaded = await loadState(stateDir);
    expect(loaded.fresh).toBe(false);
    expect(loaded.recovered).toBeUndefined();
    expect(JSON.parse(JSON.stringify(loaded.state))).toEqual(JSON.parse(JSON.stringify(state)));
    expect(loaded.state.files[auto.id]?.project).toBe('-home-me-repo');
  });

  it('handles relPaths like __proto__.md and constructor as plain keys', async () => {
    const names = ['__proto__.md', 'constructor', '__proto__', 'toString', 'hasOwnProperty.md'];
    const records = names.map((n) => createFileRecord(scanned(n)));
    // A record whose id is literally "__proto__" (not producible by our id scheme, but must not break loading).
    const weird = { ...createFileRecord(scanned('w.md')), id: '__proto__' };
    const state = stateWith([...records, weird]);
    expect(Object.keys(state.files)).toHaveLength(6);
    await saveState(dir, state);
    const text = await readFile(statePath(dir), 'utf8');
    expect(text).toContain('"__proto__":{');
    const loaded = await loadState(dir);
    expect(loaded.recovered).toBeUndefined();
    expect(Object.keys(loaded.state.files).sort()).toEqual(['__proto__', ...names.map((n) => `pai:${n}`)].sort());
    expect(loaded.state.files['pai:__proto__.md']?.relPath).toBe('__proto__.md');
    expect(Object.hasOwn(loaded.state.files, '__proto__')).toBe(true);
    expect(loaded.state.files['__proto__']?.relPath).toBe('w.md');
    // Nothing leaked onto Object.prototype.
    expect(({} as Record<string, unknown>).relPath).toBeUndefined();
    expect(loaded.state.files['pai:constructor']?.relPath).toBe('constructor');
    const empty = createEmptyState().files;
    expect(empty['constructor']).toBeUndefined();
    expect(empty['toString']).toBeUndefined();
    expect(empty['__proto__']).toBeUndefined();
    expect('hasOwnProperty' in empty).toBe(false);
  });

  it('keeps fields it does not know (written by a later build of the same version)', async () => {
    const record = { ...createFileRecord(scanned('a.md')), futureField: { x: 1 } };
    const state = { ...createEmptyState(), futureTop: 'kept', files: Object.assign(Object.create(null) as Record<string, FileRecord>, { [record.id]: record }) };
    await saveState(dir, state as SyncState);
    const loaded = await loadState(dir);
    const again = JSON.parse(JSON.stringify(loaded.state)) as Record<string, unknown> & { files: Record<string, Record<string, unknown>> };
    expect(again.futureTop).toBe('kept');
    expect(again.files['pai:a.md']?.futureField).toEqual({ x: 1 });
  });

  const corruptCases: Array<[string, string | Buffer, RegExp]> = [
    ['truncated JSON', '{"tool":"graphiti-memory-sync","version":1,"createdAt":"x","updatedAt":"x","files":{"pai:a.md":{"id":"pai:a.md","sou', /invalid JSON/],
    ['garbage bytes', Buffer.from([0xff, 0xfe, 0x00, 0x13, 0x37, 0x80, 0x81]), /invalid JSON/],
    ['an empty file', '', /empty file/],
    ['a JSON array', '[1,2,3]', /not a JSON object/],
    ['no tool field', '{"files":{}}', /schema mismatch/],
    ['a wrong field type', JSON.stringify({ ...createEmptyState(), orphans: 'nope' }), /schema mismatch at \.orphans/],
    ['a bad record', JSON.stringify({ ...createEmptyState(), files: { 'pai:a.md': { id: 'pai:a.md', status: 'weird' } } }), /schema mismatch at \.files\.pai:a\.md/],
    ['a record under the wrong key', JSON.stringify({ ...createEmptyState(), files: { 'pai:b.md': createFileRecord(scanned('a.md')) } }), /does not match its key/],
    ['an older version number', JSON.stringify({ ...createEmptyState(), version: 0 }), /schema mismatch at \.version/],
  ];
  for (const [name, content, reason] of corruptCases) {
    it(`moves ${name} aside and returns a fresh, recovered state`, async () => {
      await writeFile(statePath(dir), content);
      const loaded = await loadState(dir);
      expect(loaded.fresh).toBe(true);
      expect(loaded.recovered?.reason).toMatch(reason);
      const corruptPath = loaded.recovered?.corruptPath ?? '';
      expect(corruptPath.startsWith(`${statePath(dir)}.corrupt-`)).toBe(true);
      // Kept byte for byte, never deleted.
      expect(Buffer.compare(await readFile(corruptPath), Buffer.from(content))).toBe(0);
      expect(existsSync(statePath(dir))).toBe(false);
      expect(Object.keys(loaded.state.files)).toEqual([]);
      // The next save/load cycle is clean.
      await saveState(dir, loaded.state);
      const next = await loadState(dir);
      expect(next.recovered).toBeUndefined();
      expect(next.fresh).toBe(false);
    });
  }

  it('never overwrites an earlier corrupt copy', async () => {
    await writeFile(statePath(dir), 'first');
    const a = await loadState(dir);
    await writeFile(statePath(dir), 'second');
    const b = await loadState(dir);
    expect(a.recovered?.corruptPath).not.toBe(b.recovered?.corruptPath);
    expect(await readFile(a.recovered?.corruptPath ?? '', 'utf8')).toBe('first');
    expect(await readFile(b.recovered?.corruptPath ?? '', 'utf8')).toBe('second');
  });

  it("refuses another tool's file and leaves it untouched", async () => {
    const text = JSON.stringify({ tool: 'some-other-sync', version: 1, files: {} });
    await writeFile(statePath(dir), text);
    const error = await loadState(dir).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StateConflictError);
    expect((error as StateConflictError).kind).toBe('foreign');
    expect((error as StateConflictError).foundTool).toBe('some-other-sync');
    expect((error as Error).message).toContain('some-other-sync');
    expect(await readFile(statePath(dir), 'utf8')).toBe(text);
    expect(await readdir(dir)).toEqual(['state.json']);
  });

  it('refuses a newer format version and leaves the file untouched', async () => {
    const newer = STATE_VERSION + 1;
    const text = JSON.stringify({ tool: 'graphiti-memory-sync', version: newer, whatever: true });
    await writeFile(statePath(dir), text);
    const error = await loadState(dir).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StateConflictError);
    expect((error as StateConflictError).kind).toBe('newer');
    expect((error as StateConflictError).foundVersion).toBe(newer);
    expect((error as Error).message).toMatch(new RegExp(`version ${newer}\\b.*upgrade graphiti-memory-sync`));
    expect(await readFile(statePath(dir), 'utf8')).toBe(text);
  });

  it('throws (and moves nothing) when the state path cannot be read', async () => {
    await mkdir(statePath(dir));
    await expect(loadState(dir)).rejects.toMatchObject({ code: 'EISDIR' });
    expect(await readdir(dir)).toEqual(['state.json']);
  });

  it('survives SIGKILL in the middle of a save loop: state.json always parses', async () => {
    const script = `
      import { saveState, createEmptyState } from ${JSON.stringify(srcUrl('src/lib/state/state.ts'))};
      const stateDir = process.argv[2];
      const state = createEmptyState();
      for (let i = 0; i < 3000; i++) {
        const relPath = 'LEARNING/' + i + '.md';
        const r = { id: 'pai:' + relPath, source: 'pai', kind: 'pai', relPath, fileId: 'f' + i, mtimeMs: i, size: i, status: 'pending',
          episodes: [], superseded: [], attempts: 0, firstSeenAt: 'T', updatedAt: 'T' };
        state.files[r.id] = r;
      }
      for (let n = 0; ; n++) {
        for (const r of Object.values(state.files)) r.attempts = n;
        await saveState(stateDir, state);
        if (n === 3) console.log('saving'); // from here on the parent kills us at a random point
      }
    `;
    for (let round = 0; round < 3; round++) {
      const child = await startChild(dir, `saver${round}`, script, [dir]);
      expect(await child.nextLine()).toBe('saving');
      child.proc.kill('SIGKILL');
      expect((await child.exited).signal).toBe('SIGKILL');
      const loaded = await loadState(dir);
      expect(loaded.recovered).toBeUndefined();
      expect(loaded.fresh).toBe(false);
      expect(Object.keys(loaded.state.files)).toHaveLength(3000);
      // Temp files of the killed writer are cleaned up by the load.
      expect((await readdir(dir)).filter((n) => n.endsWith('.tmp'))).toEqual([]);
    }
  });

  it('is cheap enough to save after every episode (5000 records)', async () => {
    const state = createEmptyState();
    for (let i = 0; i < 5000; i++) {
      const r = createFileRecord(scanned(`LEARNING/ALGORITHM/2026-01/2026-01-04-103000_LEARNING_low-rating-${i}.md`));
      r.episodes = [episode(1), episode(2)];
      r.hash = 'sha256:'.padEnd(71, 'a');
      state.files[r.id] = r;
    }
    await saveState(dir, state); // warm-up
    const started = performance.now();
    for (let i = 0; i < 5; i++) await saveState(dir, state);
    const perSave = (performance.now() - started) / 5;
    // Generous bound (CI machines vary); typically well under 50 ms.
    expect(perSave).toBeLessThan(500);
  });
});

describe('ids', () => {
  it('fileIdOf is stable, short and distinguishes source from path', () => {
    expect(fileIdOf('pai', 'a.md')).toBe(fileIdOf('pai', 'a.md'));
    expect(fileIdOf('pai', 'a.md')).toMatch(/^[0-9a-f]{16}$/);
    expect(fileIdOf('pai', 'xa.md')).not.toBe(fileIdOf('paix', 'a.md'));
  });
});

describe('journal', () => {
  it('replays appended records on top of the snapshot and ignores a torn last line', async () => {
    const a = createFileRecord(scanned('a.md'));
    const state = stateWith([a]);
    await saveState(dir, state);
    const updated = { ...a, status: 'queued' as const, episodes: [episode(1)] };
    const b = createFileRecord(scanned('b.md'));
    await appendJournal(dir, state, [
      { k: 'file', id: a.id, record: updated },
      { k: 'file', id: b.id, record: b },
      { k: 'orphans', orphans: [episode(7)] },
    ]);
    const { appendFile } = await import('node:fs/promises');
    await appendFile(journalPath(dir, state.generation ?? 0), '{"k":"file","id":"pai:c.md","rec');
    const loaded = await loadState(dir);
    expect(loaded.journalEntries).toBe(3);
    expect(loaded.state.files[a.id]?.status).toBe('queued');
    expect(Object.keys(loaded.state.files).sort()).toEqual([a.id, b.id]);
    expect(loaded.state.orphans).toHaveLength(1);
    // The next snapshot folds the journal in and removes it.
    await saveState(dir, loaded.state);
    expect((await readdir(dir)).filter((n) => n.includes('journal'))).toEqual([]);
    expect((await loadState(dir)).state.files[a.id]?.status).toBe('queued');
  });

  it('never replays the journal of a lost or damaged snapshot into a fresh state', async () => {
    const a = createFileRecord(scanned('a.md'));
    const state = stateWith([a]);
    await saveState(dir, state);
    await appendJournal(dir, state, [{ k: 'file', id: 'pai:ghost.md', record: { ...createFileRecord(scanned('ghost.md')) } }]);
    await writeFile(statePath(dir), '{"tool":"graphiti-memory-sync","vers');
    const recovered = await loadState(dir);
    expect(recovered.recovered).toBeDefined();
    expect(Object.keys(recovered.state.files)).toEqual([]);
    expect((await readdir(dir)).some((n) => n.includes('journal') && n.includes('.corrupt-'))).toBe(true);
    await saveState(dir, recovered.state);
    expect(Object.keys((await loadState(dir)).state.files)).toEqual([]);

    // Missing snapshot with a journal lying around: the journal is discarded.
    await rm(statePath(dir));
    await appendJournal(dir, createEmptyState(), [{ k: 'file', id: 'pai:ghost.md', record: createFileRecord(scanned('ghost.md')) }]);
    const fresh = await loadState(dir);
    expect(fresh.fresh).toBe(true);
    expect(Object.keys(fresh.state.files)).toEqual([]);
    expect((await readdir(dir)).filter((n) => n.endsWith('.jsonl'))).toEqual([]);
  });
});
