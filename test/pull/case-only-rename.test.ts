/**
 * A note renamed by case alone (`Note.md` → `note.md`) where a machine keeps its memory on a
 * case-insensitive disk (macOS, Windows): there both names open one file, and removing either
 * removes it. This kernel mounts no such file system, so the disk is simulated: node:fs and
 * node:fs/promises fold names under the folders in `disk.roots` (test/support/folding-disk.ts), for
 * the code under test and for this file alike.
 *
 * - Pulled (pull.ts ONE_FILE_TWO_SPELLINGS): the old name's "removal" removed the one file, and the
 *   next pull took the note for deleted here and deleted it from the graph, for every machine.
 * - A pulled copy renamed here: the old name still opened the file, so pull never passed the rename
 *   on, and the graph held the note under both names (the other machine got a second file).
 * - Renamed here (plan.ts, a signed note's rename is a deletion and an add): a run within a second of
 *   the rename looked for the old name again (MID_WRITE) and found it, the new name's file, so the
 *   note was kept under both names and sent twice.
 */
import { linkSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { runSync } from '../../src/lib/sync/sync.js';
import { loadState } from '../../src/lib/state/state.js';
import { listedAs, otherSpelling, sameFile } from '../../src/lib/util/file-identity.js';
import type { FoldingDisk } from '../support/folding-disk.js';
import { makeTempDirSync } from '../support/temp-dir.js';
import { usePullMachines } from '../helpers/use-pull-machines.js';
import { formatPullReport } from '../../src/commands/pull-report.js';
import { link, topic, type Machine } from './homes.js';

const disk = vi.hoisted((): FoldingDisk => ({ roots: [] }));
vi.mock('node:fs', async (importOriginal) => {
  const { foldingFs } = await import('../support/folding-disk.js');
  return foldingFs(await importOriginal<typeof import('node:fs')>(), disk);
});
vi.mock('node:fs/promises', async (importOriginal) => {
  const { foldingFsPromises } = await import('../support/folding-disk.js');
  return foldingFsPromises(await vi.importActual<typeof import('node:fs')>('node:fs'), await importOriginal<typeof import('node:fs/promises')>(), disk);
});

const machines = usePullMachines();
const BODY = 'The deploy runs on Fridays.';
const TEXT = topic('Deploys', BODY);

/** The memory files of a machine besides MEMORY.md, as its disk lists them, each with whether it holds the note. */
const notesOf = (m: Machine) => readdirSync(m.memoryDir).filter((n) => n !== 'MEMORY.md').map((n) => [n, readFileSync(join(m.memoryDir, n), 'utf8').includes(BODY)]);
const indexOf = (m: Machine) => readFileSync(join(m.memoryDir, 'MEMORY.md'), 'utf8');
const adds = () => machines.server.calls.filter((c) => c.tool === 'add_memory').length;
const episodeNames = () => machines.server.episodes('main').map((e) => e.name);

/** Runs `body` with `root` on the folding disk. */
async function folding<T>(root: string, body: () => Promise<T>): Promise<T> {
  disk.roots.push(root);
  try {
    return await body();
  } finally {
    disk.roots.length = 0;
  }
}

describe('the simulated disk folds names (the premise of the tests below)', () => {
  it('one file under two spellings on it, two files off it; sameFile, listedAs and otherSpelling tell them apart', async () => {
    const { dir, cleanup } = makeTempDirSync('gms-fold-');
    try {
      const on = join(dir, 'on');
      const off = join(dir, 'off');
      mkdirSync(on);
      mkdirSync(off);
      for (const d of [on, off]) writeFileSync(join(d, 'Note.md'), 'x');
      await folding(on, async () => {
        writeFileSync(join(on, 'note.md'), 'y');
        writeFileSync(join(off, 'note.md'), 'y');
        expect(readdirSync(on)).toEqual(['Note.md']);
        expect(readdirSync(off).sort()).toEqual(['Note.md', 'note.md']);
        expect(await sameFile(join(on, 'Note.md'), join(on, 'NOTE.md'))).toBe(true);
        expect(await sameFile(join(off, 'Note.md'), join(off, 'note.md'))).toBe(false);
        expect([await listedAs(join(on, 'Note.md')), await listedAs(join(on, 'note.md'))]).toEqual([true, false]);
        expect(await otherSpelling(join(on, 'Note.md'), [join(on, 'Note.md'), join(on, 'note.md')])).toBe(join(on, 'note.md'));
        expect(await otherSpelling(join(off, 'Note.md'), [join(off, 'note.md')])).toBeUndefined();
        // Two entries of one file (hard links): removing one name leaves the file, so neither is the other's spelling.
        linkSync(join(off, 'Note.md'), join(off, 'Hard.md'));
        expect(await sameFile(join(off, 'Note.md'), join(off, 'Hard.md'))).toBe(true);
        expect(await otherSpelling(join(off, 'Note.md'), [join(off, 'Hard.md')])).toBeUndefined();
        // A case-only rename renames the entry in place.
        renameSync(join(on, 'Note.md'), join(on, 'note.md'));
        expect(readdirSync(on)).toEqual(['note.md']);
      });
    } finally {
      cleanup();
    }
  });
});

describe('pull: a note renamed by case alone on another machine, onto a case-insensitive disk', () => {
  /** Two linked machines, the second on the folding disk, with the first's note `from` pulled and synced on the second. */
  async function pulledCopy(from: string, text = TEXT): Promise<[Machine, Machine]> {
    const [a, b] = await machines.pair();
    disk.roots.push(b.box.root);
    a.write(from, text);
    await a.sync();
    await b.pull();
    await b.sync();
    expect(notesOf(b)).toEqual([[from, true]]);
    return [a, b];
  }

  /** More rounds on both machines write, remove, delete and send nothing, and leave `name` on each, once in the graph. */
  async function settled(a: Machine, b: Machine, name: string, body = BODY) {
    const sent = adds();
    for (const m of [b, a, b]) {
      expect(await m.pull()).toMatchObject({ written: [], removed: [], copies: [], respelt: [], deletedInGraph: 0 });
      await m.sync();
    }
    expect(adds()).toBe(sent);
    for (const m of [a, b]) expect(readdirSync(m.memoryDir).filter((n) => n !== 'MEMORY.md').map((n) => [n, readFileSync(join(m.memoryDir, n), 'utf8').includes(body)])).toEqual([[name, true]]);
    expect(episodeNames()).toEqual(['Deploys']);
  }

  for (const [from, to, how] of [
    ['Note.md', 'note.md', 'by case'],
    ['cafe\u0301.md', 'caf\u00e9.md', 'by Unicode form (NFD to NFC)'],
  ] as const) {
    it(`renamed ${how}: the one file takes the new spelling and stays, one file on each machine, one note in the graph`, async () => {
      try {
        const [a, b] = await pulledCopy(from);
        renameSync(join(a.memoryDir, from), join(a.memoryDir, to));
        await a.sync();
        const pulled = await b.pull();
        expect(pulled).toMatchObject({ removed: [], copies: [], respelt: [{ from: join(b.memoryDir, from), to: join(b.memoryDir, to) }] });
        expect(notesOf(b)).toEqual([[to, true]]);
        expect(indexOf(b)).toContain(`](${encodeURIComponent(to)})`);
        expect(indexOf(b)).not.toContain(`](${encodeURIComponent(from)})`);
        await b.sync();
        await settled(a, b, to);
      } finally {
        disk.roots.length = 0;
      }
    });
  }

  it('renamed by case and edited together: the one file takes the new spelling and the new text, no conflict', async () => {
    try {
      const [a, b] = await pulledCopy('Note.md');
      const edited = 'The deploy runs on Thursdays now.';
      renameSync(join(a.memoryDir, 'Note.md'), join(a.memoryDir, 'note.md'));
      a.write('note.md', topic('Deploys', edited));
      await a.sync();
      expect(await b.pull()).toMatchObject({ removed: [], copies: [], written: [{ file: join(b.memoryDir, 'note.md') }] });
      await b.sync();
      await settled(a, b, 'note.md', edited);
    } finally {
      disk.roots.length = 0;
    }
  });

  it('a pulled copy renamed by case here: the rename reaches the graph as on any disk, one note there, not one under each name', async () => {
    try {
      const [a, b] = await pulledCopy('Note.md');
      renameSync(join(b.memoryDir, 'Note.md'), join(b.memoryDir, 'note.md'));
      await b.sync();
      // The old name opens the file still, but is gone from the folder: a deletion here, passed on.
      expect(await b.pull()).toMatchObject({ deletedInGraph: 1, written: [], copies: [] });
      await b.sync();
      expect(episodeNames()).toEqual(['Deploys']);
      expect(machines.server.episodes('main').map((e) => e.source_description?.includes('/note.md'))).toEqual([true]);
      await a.pull();
      expect(readFileSync(join(a.memoryDir, 'note.md'), 'utf8')).toContain(BODY);
      expect(notesOf(b)).toEqual([['note.md', true]]);
    } finally {
      disk.roots.length = 0;
    }
  });

  it('control, a case-sensitive disk: the old name is removed and the new one written, as before', async () => {
    const [a, b] = await machines.pair();
    a.write('Note.md', TEXT);
    await a.sync();
    await b.pull();
    await b.sync();
    renameSync(join(a.memoryDir, 'Note.md'), join(a.memoryDir, 'note.md'));
    await a.sync();
    expect(await b.pull()).toMatchObject({ removed: [join(b.memoryDir, 'Note.md')], written: [{ file: join(b.memoryDir, 'note.md') }] });
    expect(notesOf(b)).toEqual([['note.md', true]]);
  });
});

describe('sync: a note renamed by case alone here, on a case-insensitive disk', () => {
  /** A confirmed note, renamed by case; the run's clock stands `agoMs` after the folder's change. */
  async function renamedByCase(m: Machine, agoMs: number) {
    m.write('Note.md', TEXT);
    await m.sync();
    renameSync(join(m.memoryDir, 'Note.md'), join(m.memoryDir, 'note.md'));
    expect(readdirSync(m.memoryDir).filter((n) => n !== 'MEMORY.md')).toEqual(['note.md']);
    const changed = statSync(m.memoryDir).mtimeMs;
    let clock = changed + agoMs;
    return { now: () => clock, sleep: async (ms: number) => void (clock += ms) };
  }
  const records = async (m: Machine) => Object.values((await loadState(m.config().stateDir, { readOnly: true })).state.files).map((r) => r.relPath);

  it('signed (its path is in its tag), synced within a second of the rename: the old name is deleted, the new one sent, once', async () => {
    const m = machines.make('laptop');
    await link(m);
    await folding(m.box.root, async () => {
      const clock = await renamedByCase(m, 5);
      const summary = await runSync(m.config(), clock);
      expect(summary).toMatchObject({ deleted: 1, added: 1 });
      expect((await records(m)).map((p) => p.split('/').pop())).toEqual(['note.md']);
      await m.sync();
      expect(episodeNames()).toEqual(['Deploys']);
    });
  });

  it('unsigned: one rename, nothing sent again (a guard: it held before)', async () => {
    const m = machines.make('laptop');
    await folding(m.box.root, async () => {
      const clock = await renamedByCase(m, 5);
      const sent = adds();
      expect(await runSync(m.config(), clock)).toMatchObject({ renamed: 1, added: 0, deleted: 0 });
      expect(adds()).toBe(sent);
      expect((await records(m)).map((p) => p.split('/').pop())).toEqual(['note.md']);
    });
  });
});

/** A writes `Note.md` and `note.md`; B, on the folding disk (its root stays there until the test's `finally`), pulls them. */
async function twoNamesOneHere() {
  const [a, b] = await machines.pair();
  disk.roots.push(b.box.root);
  try {
    a.write('Note.md', topic('Deploys', BODY));
    a.write('note.md', topic('Backups', 'Backups run nightly at two.'));
    await a.sync();
    return { a, b, pulled: await b.pull() };
  } catch (error) {
    disk.roots.length = 0;
    throw error;
  }
}

describe('pull: two notes whose names differ only in case, onto a case-insensitive disk (SAME_NAME_HERE)', () => {
  it('the second cannot have its name here: written beside the first as a copy named for what it is (not "both changed"), with the step; nothing removed or sent, and it stays so', async () => {
    const { a, b, pulled } = await twoNamesOneHere();
    try {
      // Whichever is written first keeps the name; the other is the copy.
      expect(pulled.copies).toEqual([expect.objectContaining({ why: 'same-name-here' })]);
      const { file, copy } = pulled.copies[0] as { file: string; copy: string };
      expect([join(b.memoryDir, 'Note.md'), join(b.memoryDir, 'note.md')]).toContain(file);
      const texts = [readFileSync(file, 'utf8'), readFileSync(copy, 'utf8')];
      expect(texts.filter((t) => t.includes(BODY))).toHaveLength(1);
      expect(texts.filter((t) => t.includes('Backups run nightly at two.'))).toHaveLength(1);
      const said = formatPullReport(pulled);
      expect(said).toContain('differ only in case');
      expect(said).toContain('rename one of them');
      await b.sync();
      const sent = adds();
      for (const m of [b, a, b]) {
        expect(await m.pull()).toMatchObject({ written: [], removed: [], copies: [], deletedInGraph: 0 });
        await m.sync();
      }
      expect(adds()).toBe(sent);
      expect(episodeNames().sort()).toEqual(['Backups', 'Deploys']);
    } finally {
      disk.roots.length = 0;
    }
  });

  it('the copy is listed in MEMORY.md as the note it is (a session here knows of it), once; the line goes when the person removes the copy', async () => {
    const { b, pulled } = await twoNamesOneHere();
    try {
      const { file, copy } = pulled.copies[0] as { file: string; copy: string };
      const titleOf = (path: string) => (readFileSync(path, 'utf8').includes(BODY) ? 'Deploys' : 'Backups');
      const lines = indexOf(b).split('\n').filter((l) => l !== '');
      // Both notes, each once: the one under its name and the copy under the copy's name.
      expect(lines).toHaveLength(2);
      // The kept note's line names it as this disk spells it (the spelling written first), the same name folded.
      const linksTo = (l: string, path: string) => l.toLowerCase().includes(`](${encodeURIComponent(basename(path)).toLowerCase()})`);
      expect(lines.filter((l) => l.startsWith(`- [${titleOf(file)}]`) && linksTo(l, file))).toHaveLength(1);
      expect(lines.filter((l) => l.includes(`[${titleOf(copy)}](${encodeURIComponent(basename(copy))})`))).toHaveLength(1);
      for (let round = 0; round < 2; round++) {
        await b.sync();
        await b.pull();
      }
      expect(indexOf(b).split('\n').filter((l) => l !== '')).toEqual(lines);

      // The person removes the copy: its line goes; the note kept under its name stays listed.
      rmSync(copy);
      await b.pull();
      const after = indexOf(b).split('\n').filter((l) => l !== '');
      expect(after.some((l) => l.includes(`(${encodeURIComponent(basename(copy))})`))).toBe(false);
      expect(after.filter((l) => linksTo(l, file))).toHaveLength(1);
    } finally {
      disk.roots.length = 0;
    }
  });
});
