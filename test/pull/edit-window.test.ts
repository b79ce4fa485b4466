/**
 * An edit on a break-before-make server (graphiti-core 0.29.3 – 0.31.1: `delete_episode` also takes
 * the facts the episode created first, so the sync deletes the old version before the new one is
 * processed, docs/semantics.md). In that window the graph holds no version of the note at all. A
 * pull on another machine then must not take the note for deleted elsewhere: its untouched copy and
 * its MEMORY.md line stay (held: state/pulled.ts `PulledNote.missingSince`) until the absence has
 * lasted the group's patience (sync/pace.ts `patienceMs`). A real deletion still reaches the
 * machine, after that window.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatPullReport } from '../../src/commands/pull-report.js';
import { GraphitiClient } from '../../src/lib/graphiti/graphiti.js';
import { readPulled } from '../../src/lib/state/pulled.js';
import { loadState } from '../../src/lib/state/state.js';
import { paceOf, patienceMs, skewOf } from '../../src/lib/sync/pace.js';
import { runSync } from '../../src/lib/sync/sync.js';
import { pyIsoNow } from '../support/graphiti/records.js';
import { usePullMachines } from '../helpers/use-pull-machines.js';
import { link, topic, type Machine } from './homes.js';

const machines = usePullMachines();
const MIN = 60_000;
const RULES = { MADEINOZ_KNOWLEDGE_SERVER_RULES: '0.29.3' };
const ORIGINAL = topic('Build', 'The build uses Bun.');
const EDIT = topic('Build', 'The build uses Bun 2.');

const index = (m: Machine) => {
  const file = join(m.memoryDir, 'MEMORY.md');
  return existsSync(file) ? readFileSync(file, 'utf8') : '';
};
const noteEpisodes = () => machines.server.episodes('main').filter((e) => e.content.includes('The build uses Bun'));

/** Two linked machines on a break-before-make server; A's note pulled on B. */
async function pulledOnB(): Promise<{ a: Machine; b: Machine; fileB: string }> {
  await machines.restartWith({ deleteMode: 'cascade', mainParams: true });
  const a = machines.make('laptop', undefined, RULES);
  const b = machines.make('desktop/src', undefined, RULES);
  await link(a, b);
  a.write('build.md', ORIGINAL);
  await a.sync();
  const first = await b.pull();
  const fileB = join(b.memoryDir, 'build.md');
  expect(first.written.map((w) => w.file)).toEqual([fileB]);
  expect(index(b)).toContain('build.md');
  return { a, b, fileB };
}

describe('pull: a note with no version in the graph for a while (an edit on a break-before-make server)', () => {
  it('an edit elsewhere, pulled while the old version is deleted and the new one still queued: the copy and its MEMORY.md line stay; the edit arrives once processed', async () => {
    const { a, b, fileB } = await pulledOnB();
    machines.server.pauseProcessing();
    a.write('build.md', EDIT);
    await runSync(a.config(), { waitMs: 0 });
    // The window: the old version deleted, the new one not processed yet.
    expect(noteEpisodes()).toEqual([]);
    const during = await b.pull();
    expect(during.removed).toEqual([]);
    expect(during.keptDeletedElsewhere).toEqual([]);
    expect(during.absent).toEqual([fileB]);
    expect(formatPullReport(during)).toContain('waiting  1 note(s) here with no version in the graph right now: kept');
    expect(readFileSync(fileB, 'utf8')).toContain('The build uses Bun.');
    expect(index(b)).toContain('build.md');
    // Still pull's copy: held, not forgotten (the sync does not take it for B's own note).
    expect((await readPulled(b.config().stateDir)).notes[fileB]?.missingSince).toBeDefined();
    machines.server.resumeProcessing();
    await machines.server.whenIdle();
    await a.sync();
    const after = await b.pull();
    expect(after.written.map((w) => w.file)).toEqual([fileB]);
    expect(readFileSync(fileB, 'utf8')).toContain('The build uses Bun 2.');
    expect(index(b)).toContain('build.md');
    expect((await readPulled(b.config().stateDir)).notes[fileB]?.missingSince).toBeUndefined();
    // B's sync sends nothing of it (a pulled copy), and the graph holds the note once.
    await b.sync();
    expect(noteEpisodes()).toHaveLength(1);
  });

  it('a real deletion elsewhere still reaches this machine: held while the absence is younger than the patience, removed with its MEMORY.md line after it', async () => {
    const { a, b, fileB } = await pulledOnB();
    rmSync(join(a.memoryDir, 'build.md'));
    await a.sync();
    expect(noteEpisodes()).toEqual([]);
    const t0 = Date.now();
    const seen = await b.pull({ now: () => t0 });
    expect(seen.removed).toEqual([]);
    expect(existsSync(fileB)).toBe(true);
    // Again, before the window has passed: still held (the absence counts from the first pull that saw it).
    const early = await b.pull({ now: () => t0 + MIN });
    expect(early.removed).toEqual([]);
    expect(existsSync(fileB)).toBe(true);
    // B never sent to this group: no pace learned, so the patience is the configured maximum (30 min).
    const late = await b.pull({ now: () => t0 + 31 * MIN });
    expect(late.removed).toEqual([fileB]);
    expect(existsSync(fileB)).toBe(false);
    expect(index(b)).not.toContain('build.md');
    expect((await readPulled(b.config().stateDir)).notes[fileB]).toBeUndefined();
  });

  it('the patience is the one the sync learned of the group here (its own notes sent there): a deletion is judged after it, not after the configured maximum', async () => {
    const { a, b, fileB } = await pulledOnB();
    b.write('own.md', topic('Own', 'Only on B.'));
    await b.sync();
    const { state } = await loadState(b.config().stateDir, { readOnly: true });
    const patience = patienceMs(paceOf(state, (await readPulled(b.config().stateDir)).notes[fileB]?.group ?? ''), b.config().confirmMaxAgeMs);
    expect(patience).toBeLessThan(b.config().confirmMaxAgeMs);
    // The note deleted elsewhere: its episode taken out of the graph (as another machine's sync or pull does).
    const graphiti = new GraphitiClient(a.config());
    try {
      for (const e of noteEpisodes()) await graphiti.deleteEpisode(e.uuid, 'main');
    } finally {
      await graphiti.close();
    }
    expect(noteEpisodes()).toEqual([]);
    const t0 = Date.now();
    expect((await b.pull({ now: () => t0 })).removed).toEqual([]);
    expect((await b.pull({ now: () => t0 + patience - 1 })).removed).toEqual([]);
    expect((await b.pull({ now: () => t0 + patience })).removed).toEqual([fileB]);
    expect(existsSync(join(b.memoryDir, 'own.md'))).toBe(true);
  });

  it('an absence while the group\'s queue keeps moving (a batch of edits elsewhere still being processed, one after the other) is held past the patience: counted from the last movement, and at most the configured maximum', async () => {
    const { a, b, fileB } = await pulledOnB();
    b.write('own.md', topic('Own', 'Only on B.'));
    await b.sync();
    const { state } = await loadState(b.config().stateDir, { readOnly: true });
    const patience = patienceMs(paceOf(state, 'main'), b.config().confirmMaxAgeMs);
    expect(patience).toBeLessThan(b.config().confirmMaxAgeMs / 4);
    // The note's version deleted (an edit elsewhere: its new version behind others in the queue).
    const graphiti = new GraphitiClient(a.config());
    try {
      for (const e of noteEpisodes()) await graphiti.deleteEpisode(e.uuid, 'main');
    } finally {
      await graphiti.close();
    }
    const t0 = Date.now();
    expect((await b.pull({ now: () => t0 })).absent).toEqual([fileB]);
    // The queue moves: another episode of the group starts processing just before the patience is over.
    const moved = t0 + patience - 1_000;
    machines.server.seedEpisode({ name: 'next in the batch', content: 'Kestrel caches builds.', created_at: pyIsoNow(moved) });
    const atPatience = await b.pull({ now: () => t0 + patience });
    expect([atPatience.removed, atPatience.absent]).toEqual([[], [fileB]]);
    expect(existsSync(fileB)).toBe(true);
    expect(index(b)).toContain('build.md');
    // The start on this machine's clock: the server's clock as this machine's sync measured it (pace.ts skewOf).
    const movedHere = moved - skewOf(paceOf(state, 'main'));
    expect((await b.pull({ now: () => movedHere + patience - 1 })).removed).toEqual([]);
    // Quiet for the patience since: a deletion.
    expect((await b.pull({ now: () => movedHere + patience })).removed).toEqual([fileB]);
    expect(index(b)).not.toContain('build.md');
  });

  it('a queue that never stops moving holds an absence for the configured maximum at most', async () => {
    const { a, b, fileB } = await pulledOnB();
    rmSync(join(a.memoryDir, 'build.md'));
    await a.sync();
    const t0 = Date.now();
    expect((await b.pull({ now: () => t0 })).absent).toEqual([fileB]);
    const max = b.config().confirmMaxAgeMs;
    // Something starts processing in the group right before each look.
    machines.server.seedEpisode({ name: 'busy 1', content: 'Kestrel caches builds.', created_at: pyIsoNow(t0 + max - 2) });
    expect((await b.pull({ now: () => t0 + max - 1 })).removed).toEqual([]);
    machines.server.seedEpisode({ name: 'busy 2', content: 'Osprey signs builds.', created_at: pyIsoNow(t0 + max - 1) });
    expect((await b.pull({ now: () => t0 + max })).removed).toEqual([fileB]);
  });

  it('deleted elsewhere while the copy here was changed: kept, and reported only once the absence has lasted the patience', async () => {
    const { a, b, fileB } = await pulledOnB();
    rmSync(join(a.memoryDir, 'build.md'));
    await a.sync();
    b.write('build.md', topic('Build', 'The build uses Bun, changed on B.'));
    const t0 = Date.now();
    const seen = await b.pull({ now: () => t0 });
    expect(seen.keptDeletedElsewhere).toEqual([]);
    const late = await b.pull({ now: () => t0 + 31 * MIN });
    expect(late.keptDeletedElsewhere).toEqual([fileB]);
    expect(existsSync(fileB)).toBe(true);
  });
});
