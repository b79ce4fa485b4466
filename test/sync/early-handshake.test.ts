/**
 * The MCP handshake started during the plan (sync/early-handshake.ts): only when the scan shows
 * the run may go online; a run with nothing to do never connects; a server that cannot be reached
 * fails the run the same way as before and loses nothing.
 */
import { utimesSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { MemorySource, ScannedFile, ScanResult } from '../../src/lib/memory/types.js';
import { createEmptyState, type FileRecord, type SyncState } from '../../src/lib/state/state.js';
import { mayNeedServer } from '../../src/lib/sync/early-handshake.js';
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

function scanned(relPath: string, mtimeMs = 1, size = 10, source = 'pai'): ScannedFile {
  return { source, kind: 'pai', relPath, absPath: `/m/${relPath}`, mtimeMs, size } as ScannedFile;
}

function withRecords(...files: ScannedFile[]): SyncState {
  const state = createEmptyState();
  for (const f of files) {
    const id = `${f.source}:${f.relPath}`;
    state.files[id] = { id, source: f.source, relPath: f.relPath, mtimeMs: f.mtimeMs, size: f.size, status: 'confirmed', episodes: [], superseded: [] } as unknown as FileRecord;
  }
  return state;
}

const sources = [{ name: 'pai' }, { name: 'auto-memory' }] as MemorySource[];
const scan = (...files: ScannedFile[]): ScanResult => ({ files, problems: [] });
const judge = (state: SyncState, result: ScanResult, extra: { force?: boolean; stateNeedsServer?: boolean; sources?: MemorySource[] } = {}) =>
  mayNeedServer({ state, scan: result, sources: extra.sources ?? sources, force: extra.force ?? false, stateNeedsServer: extra.stateNeedsServer ?? false });

describe('the early handshake (sync/early-handshake.ts)', () => {
  it('is started for a new, changed or deleted file, --force or work in the state; not when every file is as recorded', () => {
    const a = scanned('a.md');
    const b = scanned('b.md');
    expect(judge(withRecords(a, b), scan(a, b))).toBe(false);
    expect(judge(withRecords(a), scan(a, b))).toBe(true); // b is new
    expect(judge(withRecords(a, b), scan(a, { ...b, mtimeMs: 2 }))).toBe(true); // b changed
    expect(judge(withRecords(a, b), scan(a, { ...b, size: 11 }))).toBe(true);
    expect(judge(withRecords(a, b), scan(a))).toBe(true); // b is gone
    expect(judge(withRecords(a, scanned('c.md', 1, 10, 'auto-memory')), scan(a), { sources: [{ name: 'pai' }] as MemorySource[] })).toBe(false); // another source's file is not gone
    expect(judge(withRecords(a, b), scan(a, b), { force: true })).toBe(true);
    expect(judge(withRecords(a, b), scan(a, b), { stateNeedsServer: true })).toBe(true);
    expect(judge(createEmptyState(), scan())).toBe(false); // nothing at all
  });

  it('a run with nothing to do sends no request; a touched file costs at most the handshake, and nothing is sent', async () => {
    const path = box.pai('LEARNING/SYSTEM/a.md', learning('Alpha', 'A.'));
    await runSync(box.config(), { waitMs: 5000 });
    await server.whenIdle();
    await runSync(box.config());
    server.clearLogs();

    const idle = await runSync(box.config());
    expect(idle).toMatchObject({ unchanged: 1, confirmed: 1, serverReachable: true });
    expect(server.http).toHaveLength(0);

    const later = new Date(Date.now() + 60_000);
    utimesSync(path, later, later);
    const touched = await runSync(box.config());
    expect(touched).toMatchObject({ unchanged: 1, confirmed: 1 });
    expect(server.calls.filter((c) => c.tool === 'add_memory')).toHaveLength(0);
    expect(server.http.every((h) => h.rpcMethod !== 'tools/call')).toBe(true);
  });

  it('a server that cannot be reached fails the run as before (named, work kept pending); the next run sends each file once', async () => {
    box.pai('LEARNING/SYSTEM/a.md', learning('Alpha', 'A.'));
    box.pai('LEARNING/SYSTEM/b.md', learning('Beta', 'B.'));
    const url = server.url;
    await server.stop();
    const down = await runSync(box.config({ MADEINOZ_KNOWLEDGE_RETRIES: '0' }));
    expect(down).toMatchObject({ serverReachable: false, pending: 2, added: 2 });
    expect(down.serverError).toContain(new URL(url).host);
    await server.start();
    const up = await runSync(box.config(), { waitMs: 5000 });
    expect(up).toMatchObject({ serverReachable: true, confirmed: 2, pending: 0 });
    expect(server.calls.filter((c) => c.tool === 'add_memory')).toHaveLength(2);
  });
});
