/**
 * Two clones of one repository on one machine (issue 42): one project identity, two memory folders
 * (Claude Code keeps one per checkout path). An edit in one clone reaches the other's memory on the
 * next pull, as it reaches another machine: no echo (the copy is not sent back as a new edit),
 * nothing doubled in the graph, both edits kept when both clones changed the note.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { claudeProjectKey } from '../../src/lib/util/claude-project-key.js';
import { usePullMachines } from '../helpers/use-pull-machines.js';
import { topic, type Machine } from './homes.js';

const machines = usePullMachines();
const { pair } = machines;
const read = (file: string) => readFileSync(file, 'utf8');
const adds = () => machines.server.calls.filter((c) => c.tool === 'add_memory').length;
const lastLines = () => machines.server.episodes('main').map((e) => e.content.split('\n').at(-1) ?? '').sort();

/** A second clone of the repository on `m` (another remote spelling of the same repository), known to Claude Code. */
function secondClone(m: Machine): { root: string; memoryDir: string; write: (rel: string, content: string) => string } {
  const root = join(m.box.root, 'review', 'app');
  execFileSync('git', ['init', '-q', root]);
  execFileSync('git', ['-C', root, 'remote', 'add', 'origin', 'https://github.com/me/app']);
  writeFileSync(join(m.box.path('claude'), '.claude.json'), JSON.stringify({ projects: { [m.repo]: {}, [root]: {} } }));
  const key = claudeProjectKey(root);
  return { root, memoryDir: join(m.box.path('claude'), 'projects', key, 'memory'), write: (rel, content) => m.box.auto(key, rel, content) };
}

describe('pull: two clones of one repository on one machine', () => {
  it('an edit in either clone reaches the other on the next pull, and the other machine; nothing is sent back, nothing doubled', async () => {
    const [a, b] = await pair();
    const two = secondClone(b);
    const first = b.write('n.md', topic('N', 'Written in the first clone.'));
    await b.sync();
    const r = await b.pull();
    const copy = join(two.memoryDir, 'n.md');
    expect(r.written.map((w) => w.file)).toEqual([copy]);
    expect(read(copy)).toContain('Written in the first clone.');
    expect(read(join(two.memoryDir, 'MEMORY.md'))).toBe('- [N](n.md) — about N\n');
    const sent = adds();
    await b.sync();
    expect(adds()).toBe(sent); // the second clone's copy is not an edit of its own
    expect((await b.pull()).written).toEqual([]);
    // Edited in the second clone: the first one follows, and so does A.
    two.write('n.md', topic('N', 'Edited in the second clone.'));
    await b.sync();
    const back = await b.pull();
    expect(back.written.map((w) => w.file)).toEqual([first]);
    expect(back.copies).toEqual([]);
    expect(read(first)).toContain('Edited in the second clone.');
    await b.sync();
    await machines.server.whenIdle();
    expect(lastLines()).toEqual(['Edited in the second clone.']);
    expect((await a.pull()).written.map((w) => w.file)).toEqual([join(a.memoryDir, 'n.md')]);
    expect(read(join(a.memoryDir, 'n.md'))).toContain('Edited in the second clone.');
    // And an edit on A reaches both clones.
    a.write('n.md', topic('N', 'Edited on A.'));
    await a.sync();
    expect((await b.pull()).written.map((w) => w.file).sort()).toEqual([first, copy].sort());
    await b.sync();
    await machines.server.whenIdle();
    expect(lastLines()).toEqual(['Edited on A.']);
  });

  it('edited in both clones before a pull: both versions kept in each clone, neither lost; nothing doubled once merged', async () => {
    const [, b] = await pair();
    const two = secondClone(b);
    const first = b.write('n.md', topic('N', 'Base.'));
    await b.sync();
    await b.pull();
    b.write('n.md', topic('N', 'Base, edited in the first clone.'));
    two.write('n.md', topic('N', 'Base, edited in the second clone.'));
    await b.sync();
    const r = await b.pull();
    expect(r.written).toEqual([]);
    expect(read(first)).toContain('edited in the first clone');
    expect(read(join(two.memoryDir, 'n.md'))).toContain('edited in the second clone');
    const copies = new Map(r.copies.map((c) => [c.file, read(c.copy)]));
    expect(copies.get(first)).toContain('edited in the second clone');
    expect(copies.get(join(two.memoryDir, 'n.md'))).toContain('edited in the first clone');
    const sent = adds();
    await b.sync();
    expect(adds()).toBe(sent);
    // Merged in the first clone, both copies deleted: the merge reaches the second clone, no new conflict.
    for (const c of r.copies) rmSync(c.copy);
    b.write('n.md', topic('N', 'Base, edited in both clones.'));
    await b.sync();
    const merged = await b.pull();
    expect(merged.copies).toEqual([]);
    expect(read(join(two.memoryDir, 'n.md'))).toContain('edited in both clones');
    await b.sync();
    await machines.server.whenIdle();
    expect(lastLines()).toEqual(['Base, edited in both clones.']);
  });

  it('deleted in one clone: the untouched copy in the other goes too, and on the other machine', async () => {
    const [a, b] = await pair();
    const two = secondClone(b);
    b.write('n.md', topic('N', 'Soon gone.'));
    b.write('keep.md', topic('Keep', 'Stays.'));
    await b.sync();
    await b.pull();
    await a.pull();
    rmSync(join(b.memoryDir, 'n.md'));
    await b.sync();
    const r = await b.pull();
    expect(r.removed).toEqual([join(two.memoryDir, 'n.md')]);
    expect(read(join(two.memoryDir, 'MEMORY.md'))).toBe('- [Keep](keep.md) — about Keep\n');
    expect((await a.pull()).removed).toEqual([join(a.memoryDir, 'n.md')]);
    expect(existsSync(join(two.memoryDir, 'keep.md'))).toBe(true);
  });

  it('the copy deleted in the clone that did not write the note: the note goes in the first clone too, and on the other machine; it does not come back', async () => {
    const [a, b] = await pair();
    const two = secondClone(b);
    const first = b.write('n.md', topic('N', 'Soon gone.'));
    b.write('keep.md', topic('Keep', 'Stays.'));
    await b.sync();
    await b.pull();
    await a.pull();
    rmSync(join(two.memoryDir, 'n.md'));
    await b.sync();
    const r = await b.pull();
    expect(r.deletedInGraph).toBe(1);
    for (let round = 0; round < 2; round++) {
      await b.sync();
      await b.pull();
    }
    expect([existsSync(first), existsSync(join(two.memoryDir, 'n.md'))]).toEqual([false, false]);
    expect((await a.pull()).removed).toEqual([join(a.memoryDir, 'n.md')]);
    await b.sync();
    await machines.server.whenIdle();
    expect(lastLines()).toEqual(['Stays.']);
  });

  it('the same note saved with the same text in both clones before a pull (or written by each before this version): one note, no conflict copy; one episode from the sync after the pull on', async () => {
    const [, b] = await pair();
    const two = secondClone(b);
    const text = topic('N', 'Written the same in both clones.');
    const first = b.write('n.md', text);
    two.write('n.md', text);
    await b.sync();
    await machines.server.whenIdle();
    expect(lastLines()).toEqual(['Written the same in both clones.', 'Written the same in both clones.']);
    const r = await b.pull();
    expect([r.copies, r.written]).toEqual([[], []]);
    expect([read(first), read(join(two.memoryDir, 'n.md'))]).toEqual([text, text]);
    // The copy processed first stays; the other clone's leaves with the next sync.
    await b.sync();
    await machines.server.whenIdle();
    expect(lastLines()).toEqual(['Written the same in both clones.']);
    expect((await b.pull()).written).toEqual([]);
    // An edit in either reaches the other; from then on the note is one episode.
    two.write('n.md', topic('N', 'Then edited in the second clone.'));
    await b.sync();
    expect((await b.pull()).written.map((w) => w.file)).toEqual([first]);
    await b.sync();
    await machines.server.whenIdle();
    expect(lastLines()).toEqual(['Then edited in the second clone.']);
  });
});
