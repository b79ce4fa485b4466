/**
 * A pull killed between the writes of one note (issue 42): the note file, its `MEMORY.md` line
 * (memory-index.ts) and the ledger (state/pulled.ts) are three files, written one after the other.
 * A kill at any step leaves no note without its index line after the next pull, no index line of a
 * note pull removed, nothing sent again by the sync, nothing doubled.
 *
 * The kill is a failure injected into the atomic write of the named file (util/fs-atomic.ts): the
 * pull stops there with nothing after it written, as a killed process leaves it (the ledger is
 * written only at the end, and the journal of writes is fsynced before each file).
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { usePullMachines } from '../helpers/use-pull-machines.js';
import { topic } from './homes.js';

const kill: { at: ((path: string) => boolean) | undefined } = { at: undefined };
vi.mock('../../src/lib/util/fs-atomic.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/lib/util/fs-atomic.js')>();
  const writeFileAtomic: typeof real.writeFileAtomic = async (path, data, options) => {
    if (kill.at?.(String(path)) === true) {
      kill.at = undefined;
      throw new Error(`killed before writing ${String(path)}`);
    }
    return real.writeFileAtomic(path, data, options);
  };
  return { ...real, writeFileAtomic };
});

const failUnlink: { of: string | undefined } = { of: undefined };
vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs/promises')>();
  const unlink: typeof real.unlink = async (path) => {
    if (failUnlink.of !== undefined && String(path).endsWith(failUnlink.of)) throw Object.assign(new Error(`EACCES: permission denied, unlink '${String(path)}'`), { code: 'EACCES' });
    return real.unlink(path);
  };
  return { ...real, unlink, default: { ...real, unlink } };
});

const machines = usePullMachines();
const { pair } = machines;
const read = (file: string) => readFileSync(file, 'utf8');
const adds = () => machines.server.calls.filter((c) => c.tool === 'add_memory').length;
const linesOf = (memoryDir: string) => (existsSync(join(memoryDir, 'MEMORY.md')) ? read(join(memoryDir, 'MEMORY.md')).split('\n').filter((l) => l !== '') : []);

describe('pull: killed between the writes of one note', () => {
  it.each([
    { step: 'before the note file (its write journaled)', at: (p: string) => p.endsWith('/two.md') },
    { step: 'after the note file, before its index line', at: (p: string) => p.endsWith('/MEMORY.md') },
    { step: 'after the index line, before the ledger', at: (p: string) => p.endsWith('/pulled.json') },
  ])('a new note, killed $step: after the next pull it is there and listed once in MEMORY.md; the sync sends nothing', async ({ at }) => {
    const [a, b] = await pair();
    a.write('one.md', topic('One', 'First note.'));
    await a.sync();
    await b.pull();
    a.write('two.md', topic('Two', 'Second note.'));
    await a.sync();
    kill.at = at;
    await expect(b.pull()).rejects.toThrow(/killed/);
    expect(kill.at).toBeUndefined();
    const sent = adds();
    await b.sync(); // the worker syncs before it pulls
    await b.pull();
    expect(read(join(b.memoryDir, 'two.md'))).toContain('Second note.');
    expect(linesOf(b.memoryDir)).toEqual(['- [One](one.md) — about One', '- [Two](two.md) — about Two']);
    await b.sync();
    expect(adds()).toBe(sent);
    expect((await b.pull()).written).toEqual([]);
    expect(linesOf(b.memoryDir)).toHaveLength(2);
  });

  /** Machine a writes two notes, b pulls them, then a deletes `two.md` and syncs: b (returned) is to remove its copy at its next pull. */
  async function twoNotesPulledThenOneDeletedElsewhere() {
    const [a, b] = await pair();
    a.write('one.md', topic('One', 'First note.'));
    a.write('two.md', topic('Two', 'Second note.'));
    await a.sync();
    await b.pull();
    rmSync(join(a.memoryDir, 'two.md'));
    await a.sync();
    return b;
  }

  it.each([
    { step: 'before its index line goes', at: (p: string) => p.endsWith('/MEMORY.md') },
    { step: 'before the ledger', at: (p: string) => p.endsWith('/pulled.json') },
  ])('a note deleted elsewhere, its untouched copy removed here, killed $step: after the next pull neither the file nor its line is left', async ({ at }) => {
    const b = await twoNotesPulledThenOneDeletedElsewhere();
    kill.at = at;
    await expect(b.pull()).rejects.toThrow(/killed/);
    await b.pull();
    expect(existsSync(join(b.memoryDir, 'two.md'))).toBe(false);
    expect(linesOf(b.memoryDir)).toEqual(['- [One](one.md) — about One']);
  });

  it('a note deleted elsewhere whose copy here cannot be removed (no permission): still pull\'s, so the sync does not send it as this machine\'s own; removed once it can be', async () => {
    const b = await twoNotesPulledThenOneDeletedElsewhere();
    failUnlink.of = '/two.md';
    try {
      expect((await b.pull()).removed).toEqual([]);
      const sent = adds();
      await b.sync();
      expect(adds()).toBe(sent);
    } finally {
      failUnlink.of = undefined;
    }
    expect((await b.pull()).removed).toEqual([join(b.memoryDir, 'two.md')]);
    expect(existsSync(join(b.memoryDir, 'two.md'))).toBe(false);
    expect(linesOf(b.memoryDir)).toEqual(['- [One](one.md) — about One']);
  });
});
