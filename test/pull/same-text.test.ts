/**
 * One note saved with the same text on two machines (issue 42): each machine sent it as its own
 * before either pulled (written twice by hand, a memory folder copied with its mtimes, a `pull --to`
 * copy moved in by hand and synced before the project was pulled). Pull takes the file for the other
 * machine's version (no conflict copy of itself), and the graph must end with the note once: the
 * copy processed first stays (it created the facts), the other machine's own copy leaves, and no
 * machine ever deletes an episode of another.
 */
import { readdirSync, rmSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseMarker } from '../../src/lib/memory/episode.js';
import { runSync } from '../../src/lib/sync/sync.js';
import { usePullMachines } from '../helpers/use-pull-machines.js';
import { link, topic, type Machine } from './homes.js';

const machines = usePullMachines();
const { make, pair } = machines;

const T0 = Date.now() - 60 * 60_000;
/** A note saved `atMs` after T0 (its mtime is the note's version). */
function writeAt(m: Machine, rel: string, content: string, atMs: number): string {
  const file = m.write(rel, content);
  const t = (T0 + atMs) / 1000;
  utimesSync(file, t, t);
  return file;
}
const episodes = () => machines.server.episodes('main');
const originOf = (m: Machine) => m.config().origin;
/** The origins whose episodes a delete_episode call named (every episode ever stored is still in `byUuid`). */
function deletedOrigins(byUuid: Map<string, string>): string[] {
  return machines.server.calls.filter((c) => c.tool === 'delete_episode').map((c) => byUuid.get(String(c.args.uuid)) ?? '?');
}
function originsByUuid(): Map<string, string> {
  return new Map(episodes().map((e) => [e.uuid, parseMarker(e.source_description)?.origin ?? '']));
}

describe('pull: one note with the same text on two machines', () => {
  it.each([
    ['saved on A first, on B a minute later', 0, 60_000],
    ['saved on B first, on A a minute later', 60_000, 0],
    ['copied with its mtime (one version number on both)', 0, 0],
  ])('%s, both sent before a pull: after both pull and sync, the graph holds the note once, the copy processed first; neither deletes the other\'s', async (_, atA, atB) => {
    const [a, b] = await pair();
    const text = topic('Build', 'The build uses Bun and runs in CI on every push.');
    writeAt(a, 'build.md', text, atA);
    writeAt(b, 'build.md', text, atB);
    await a.sync();
    await b.sync();
    expect(episodes().map((e) => parseMarker(e.source_description)?.origin)).toEqual([originOf(a), originOf(b)]);
    const byUuid = originsByUuid();
    for (const m of [a, b, a, b]) {
      const r = await m.pull();
      expect([r.written, r.copies]).toEqual([[], []]);
      await m.sync();
    }
    expect(episodes().map((e) => parseMarker(e.source_description)?.origin)).toEqual([originOf(a)]);
    expect(deletedOrigins(byUuid)).toEqual([originOf(b)]);
    // A's state lost: the copy that stays is adopted as A's again, never taken for B's and retracted.
    for (const f of readdirSync(a.config().stateDir)) if (f.startsWith('state.')) rmSync(join(a.config().stateDir, f));
    await a.sync();
    await a.pull();
    await a.sync();
    expect(episodes().map((e) => parseMarker(e.source_description)?.origin)).toEqual([originOf(a)]);
    // Still one note: an edit on B (whose copy left) reaches A, and the graph holds the edit once.
    b.write('build.md', topic('Build', 'The build uses Bun 2.'));
    await b.sync();
    expect((await a.pull()).written).toHaveLength(1);
    await a.sync();
    expect(episodes().map((e) => [parseMarker(e.source_description)?.origin, e.content.split('\n').at(-1)])).toEqual([[originOf(b), 'The build uses Bun 2.']]);
  });

  it('three machines, saved alike in turn (the newest version sent first): one copy stays, the one processed first; each machine deletes only its own', async () => {
    const a = make('laptop');
    const b = make('desktop/src');
    const c = make('office');
    await link(a, b, c);
    const text = topic('Build', 'The build uses Bun and runs in CI on every push.');
    writeAt(c, 'build.md', text, 120_000);
    writeAt(a, 'build.md', text, 0);
    writeAt(b, 'build.md', text, 60_000);
    for (const m of [c, a, b]) await m.sync();
    const byUuid = originsByUuid();
    for (let round = 0; round < 2; round++) {
      for (const m of [a, b, c]) {
        const r = await m.pull();
        expect([r.written, r.copies]).toEqual([[], []]);
        await m.sync();
      }
    }
    expect(episodes().map((e) => parseMarker(e.source_description)?.origin)).toEqual([originOf(c)]);
    expect(deletedOrigins(byUuid).sort()).toEqual([originOf(a), originOf(b)].sort());
  });

  it('the state lost after the pull that gave way, before the sync: the copy that gives way still leaves, and only it', async () => {
    const [a, b] = await pair();
    const text = topic('Build', 'The build uses Bun and runs in CI on every push.');
    writeAt(a, 'build.md', text, 0);
    writeAt(b, 'build.md', text, 60_000);
    // (A note of B's own besides: the rebuild lists the groups of the notes it finds in the graph.)
    b.write('own.md', topic('Own', 'Only on B.'));
    await a.sync();
    await b.sync();
    const byUuid = originsByUuid();
    await b.pull();
    for (const f of readdirSync(b.config().stateDir)) if (f.startsWith('state.')) rmSync(join(b.config().stateDir, f));
    await b.sync();
    expect(episodes().filter((e) => e.content.includes('The build uses Bun')).map((e) => parseMarker(e.source_description)?.origin)).toEqual([originOf(a)]);
    expect(deletedOrigins(byUuid)).toEqual([originOf(b)]);
    expect(episodes().filter((e) => e.content.includes('Only on B.'))).toHaveLength(1);
  });

  it('pulled while this machine\'s own copy is still queued: it gives way to the listed one, whatever the versions; the other machine keeps its own', async () => {
    const [a, b] = await pair();
    const text = topic('Build', 'The build uses Bun and runs in CI on every push.');
    writeAt(a, 'build.md', text, 0);
    await a.sync();
    // B saved it later (the higher version), sent it, and pulls before the server processed it.
    writeAt(b, 'build.md', text, 60_000);
    machines.server.pauseProcessing();
    await runSync(b.config(), { waitMs: 0 });
    expect((await b.pull()).written).toEqual([]);
    machines.server.resumeProcessing();
    await machines.server.whenIdle();
    const byUuid = originsByUuid();
    for (const m of [a, b, a, b]) {
      await m.pull();
      await m.sync();
    }
    expect(episodes().map((e) => parseMarker(e.source_description)?.origin)).toEqual([originOf(a)]);
    expect(deletedOrigins(byUuid)).toEqual([originOf(b)]);
  });
});
