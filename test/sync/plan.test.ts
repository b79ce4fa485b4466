/**
 * The planning phase without a server: files on disk + state → a Plan, the state untouched until
 * applyPlan. Renames are settled inside the plan (no "added" undone into "renamed").
 */
import { renameSync, rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { scanSources } from '../../src/lib/memory/scan.js';
import { resolveSources } from '../../src/lib/memory/sources.js';
import { createEmptyState, type SyncState } from '../../src/lib/state/state.js';
import { applyPlan, planRun } from '../../src/lib/sync/plan.js';
import { learning, makeSandbox, type Sandbox } from '../support/sandbox.js';

let sb: Sandbox | undefined;
afterEach(() => sb?.cleanup());

async function plan(sandbox: Sandbox, state: SyncState) {
  const config = sandbox.config();
  const sources = resolveSources(config);
  const scan = await scanSources(sources, { exclude: [], maxFileBytes: config.maxFileBytes });
  return planRun({ config, state, scan, sources, force: false, nowIso: '2026-01-01T00:00:00.000Z' });
}

describe('planRun', () => {
  it('a new file: one add, its drafts outgoing, and the state untouched until applyPlan', async () => {
    sb = makeSandbox('http://127.0.0.1:9/mcp');
    sb.pai('LEARNING/a.md', learning('Alpha', 'First note.'));
    const state = createEmptyState();
    const p = await plan(sb, state);
    expect(p.actions).toEqual([{ id: 'pai:LEARNING/a.md', action: 'add' }]);
    expect(p.counts).toMatchObject({ added: 1, updated: 0, renamed: 0, deleted: 0, unchanged: 0 });
    expect([...p.outgoing.keys()]).toEqual(['pai:LEARNING/a.md']);
    expect(Object.keys(state.files)).toEqual([]);
    applyPlan(state, p);
    expect(state.files['pai:LEARNING/a.md']).toMatchObject({ status: 'pending', episodes: [expect.objectContaining({ part: 1, parts: 1 })] });
    // Planned again before anything was sent: the outbox (same record, bodies rebuilt, sent again).
    const again = await plan(sb, state);
    expect(again.actions).toEqual([{ id: 'pai:LEARNING/a.md', action: 'send' }]);
    // Counted once all the same: as resumed (left unsent), neither new nor unchanged.
    expect(again.counts).toMatchObject({ added: 0, updated: 0, unchanged: 0, resumed: 1 });
    // Once every part went out, the same file is unchanged and not even read.
    for (const ref of state.files['pai:LEARNING/a.md']?.episodes ?? []) ref.sentAt = 'T';
    const sent = await plan(sb, state);
    expect(sent.counts.unchanged).toBe(1);
    expect(sent.actions).toEqual([]);
    expect(sent.changed).toBe(false);
  });

  it('a moved file is one rename: the record keeps its episodes, nothing is added, sent or retired', async () => {
    sb = makeSandbox('http://127.0.0.1:9/mcp');
    const old = sb.pai('LEARNING/a.md', learning('Alpha', 'Same content.'));
    const state = createEmptyState();
    applyPlan(state, await plan(sb, state));
    const record = state.files['pai:LEARNING/a.md'];
    for (const ref of record?.episodes ?? []) Object.assign(ref, { uuid: 'u1', sentAt: 'T', queuedAt: 'T', confirmedAt: 'T' });
    if (record !== undefined) record.status = 'confirmed';
    renameSync(old, sb.path('pai', 'MEMORY', 'LEARNING', 'b.md'));

    const p = await plan(sb, state);
    expect(p.actions).toEqual([{ id: 'pai:LEARNING/b.md', action: 'rename' }]);
    expect(p.counts).toMatchObject({ added: 0, renamed: 1, deleted: 0 });
    expect(p.outgoing.size).toBe(0);
    expect(p.retire).toEqual([]);
    expect(p.drop).toEqual(['pai:LEARNING/a.md']);
    applyPlan(state, p);
    expect(Object.keys(state.files)).toEqual(['pai:LEARNING/b.md']);
    expect(state.files['pai:LEARNING/b.md']).toMatchObject({ status: 'confirmed', fileId: record?.fileId, episodes: [expect.objectContaining({ uuid: 'u1', marker: record?.episodes[0]?.marker })] });
  });

  it('a file moved before its version was sent: the rest goes out from the new name under the markers its parts carry', async () => {
    sb = makeSandbox('http://127.0.0.1:9/mcp');
    const old = sb.pai('LEARNING/a.md', learning('Alpha', 'Written while the server was down.'));
    const state = createEmptyState();
    applyPlan(state, await plan(sb, state)); // pending: nothing sent yet (the server was down)
    const parts = state.files['pai:LEARNING/a.md']?.episodes.map((ref) => ref.marker) ?? [];
    expect(parts).toHaveLength(1);
    renameSync(old, sb.path('pai', 'MEMORY', 'LEARNING', 'b.md'));

    // The run that sees the move: one rename, and the part's body built under its own marker (the
    // file id kept across the rename), not the new name's, which no part carries.
    const moved = await plan(sb, state);
    expect(moved.actions).toEqual([{ id: 'pai:LEARNING/b.md', action: 'rename' }]);
    expect([...(moved.outgoing.get('pai:LEARNING/b.md')?.drafts.keys() ?? [])]).toEqual(parts);
    applyPlan(state, moved);
    expect(state.files['pai:LEARNING/b.md']?.episodes.map((ref) => ref.marker)).toEqual(parts);

    // Still unsent at the next run (that run's server was down too): the outbox, under the same markers.
    const resumed = await plan(sb, state);
    expect(resumed.actions).toEqual([{ id: 'pai:LEARNING/b.md', action: 'send' }]);
    expect([...(resumed.outgoing.get('pai:LEARNING/b.md')?.drafts.keys() ?? [])]).toEqual(parts);
  });

  it('a deleted file: its parts are retired; an unreadable or missing source folder deletes nothing', async () => {
    sb = makeSandbox('http://127.0.0.1:9/mcp');
    const file = sb.pai('LEARNING/a.md', learning('Alpha', 'Going away.'));
    const state = createEmptyState();
    applyPlan(state, await plan(sb, state));
    const parts = state.files['pai:LEARNING/a.md']?.episodes ?? [];
    rmSync(file);
    const p = await plan(sb, state);
    expect(p.actions).toEqual([{ id: 'pai:LEARNING/a.md', action: 'delete' }]);
    expect(p.retire).toEqual(parts);
    rmSync(sb.path('pai'), { recursive: true });
    const gone = await plan(sb, state);
    expect(gone.actions).toEqual([]);
    expect(gone.drop).toEqual([]);
  });
});
