/**
 * `pull` under the transitions a person with several machines meets (issue 42, exploratory QA):
 * a checkout moved or cloned twice on one machine, a conflict left open while work goes on, a pull
 * interrupted halfway. Nothing lost, nothing doubled, a local edit never overwritten.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatPullReport } from '../../src/commands/pull-report.js';
import { GraphitiClient } from '../../src/lib/graphiti/graphiti.js';
import { ensureNoteKey, formatNoteKey, importNoteKey } from '../../src/lib/state/note-key.js';
import { claudeProjectKey } from '../../src/lib/util/claude-project-key.js';
import { usePullMachines } from '../helpers/use-pull-machines.js';
import { link, topic, type Machine } from './homes.js';
import { cli } from '../../src/lib/util/install-route.js';

const machines = usePullMachines();
const { make, pair } = machines;



const read = (file: string) => readFileSync(file, 'utf8');
const MIN = 60_000;
const T0 = Date.now();
/** A note saved `atMs` after the test began, on a machine whose clock is `skewMs` off (its mtime is the note's version). */
function writeAt(m: Machine, rel: string, content: string, atMs: number, skewMs = 0): string {
  const file = m.write(rel, content);
  const t = (T0 + atMs + skewMs) / 1000;
  utimesSync(file, t, t);
  return file;
}
const adds = () => machines.server.calls.filter((c) => c.tool === 'add_memory').length;
const deletes = () => machines.server.calls.filter((c) => c.tool === 'delete_episode').length;

/** Tells Claude Code on `m` about these checkouts (its .claude.json), as opening a session in each does. */
function knownProjects(m: Machine, ...roots: string[]): void {
  writeFileSync(join(m.box.path('claude'), '.claude.json'), JSON.stringify({ projects: Object.fromEntries(roots.map((r) => [r, {}])) }));
}

describe('pull: transitions between machines', () => {
  it('a checkout moved on B (Claude Code keeps a new memory folder for the new path): the notes come into the new folder; nothing leaves the graph, nothing is removed on A', async () => {
    const [a, b] = await pair();
    const one = a.write('one.md', topic('One', 'First note.'));
    const two = a.write('two.md', topic('Two', 'Second note.'));
    await a.sync();
    await a.pull();
    await b.pull();
    const moved = join(b.box.root, 'work', 'app');
    mkdirSync(join(b.box.root, 'work'));
    renameSync(b.repo, moved);
    knownProjects(b, b.repo, moved);
    // A session at the new path writes a note there: the new memory folder exists.
    b.box.auto(claudeProjectKey(moved), 'fresh.md', topic('Fresh', 'Written after the move.'));
    await b.sync();
    const sent = adds();
    const r = await b.pull();
    expect(r.deletedInGraph).toBe(0);
    expect(deletes()).toBe(0);
    const newFolder = join(b.box.path('claude'), 'projects', claudeProjectKey(moved), 'memory');
    expect(r.written.map((w) => w.file).sort()).toEqual([join(newFolder, 'one.md'), join(newFolder, 'two.md')]);
    // The copies in the old folder are still pull's: the sync sends neither those nor the new ones.
    await b.sync();
    expect(adds()).toBe(sent);
    const onA = await a.pull();
    expect(onA.removed).toEqual([]);
    expect([existsSync(one), existsSync(two)]).toEqual([true, true]);
    expect(machines.server.episodes('main').filter((e) => /First note|Second note/.test(e.content))).toHaveLength(2);
  });

  it('two clones of one repository on B, sessions in each in turn: neither takes the other\'s copies for deletions; nothing doubled', async () => {
    const [a, b] = await pair();
    const one = a.write('one.md', topic('One', 'First note.'));
    a.write('two.md', topic('Two', 'Second note.'));
    await a.sync();
    await a.pull();
    const second = join(b.box.root, 'review', 'app');
    execFileSync('git', ['init', '-q', second]);
    execFileSync('git', ['-C', second, 'remote', 'add', 'origin', 'https://github.com/me/app']);
    knownProjects(b, b.repo, second);
    await b.pull({ projectDirs: [b.repo] });
    b.box.auto(claudeProjectKey(second), 'review.md', topic('Review', 'Reviews happen in the second clone.'));
    await b.sync();
    const sent = adds();
    const inSecond = await b.pull({ projectDirs: [second] });
    expect(inSecond.deletedInGraph).toBe(0);
    const back = await b.pull({ projectDirs: [b.repo] });
    expect(back.deletedInGraph).toBe(0);
    expect(back.written).toEqual([]);
    expect(back.copies).toEqual([]);
    await b.sync();
    expect(adds()).toBe(sent);
    expect(deletes()).toBe(0);
    expect((await a.pull()).removed).toEqual([]);
    expect(existsSync(one)).toBe(true);
  });

  it('a note changed here and not yet sent, kept beside the newer version: the sync that follows does not take the copy for merged; the other machine keeps its edit and gets this one beside it', async () => {
    const [a, b] = await pair();
    const fileA = a.write('notes.md', topic('Notes', 'First.'));
    await a.sync();
    await b.pull();
    const fileB = b.write('notes.md', topic('Notes', 'Second, from B.'));
    await b.sync();
    a.write('notes.md', topic('Notes', 'First, and an unsent edit on A.'));
    const onA = await a.pull();
    expect(onA.copies.map((c) => c.why)).toEqual(['both-changed']);
    await a.sync(); // the hooks' next sync, before anyone merged
    const onB = await b.pull();
    expect(onB.written).toEqual([]);
    expect(read(fileB)).toContain('Second, from B.');
    expect(onB.copies).toEqual([expect.objectContaining({ file: fileB, why: 'both-changed' })]);
    expect(read(onB.copies[0]?.copy ?? '')).toContain('unsent edit on A');
    expect(read(fileA)).toContain('unsent edit on A');
    // Merged on A and the copy deleted: the merge replaces B's version there, with no new conflict.
    rmSync(onA.copies[0]?.copy ?? '');
    a.write('notes.md', topic('Notes', 'Second, from B, and the edit on A.'));
    await a.sync();
    const merged = await b.pull();
    expect(merged.copies).toEqual([]);
    expect(read(fileB)).toContain('Second, from B, and the edit on A.');
  });

  it('changed on both machines and both sent: while the copy is open, a further edit on either side is not taken for a merge; neither machine loses its version', async () => {
    const [a, b] = await pair();
    const fileA = a.write('deploy.md', topic('Deploy', 'Deploys go through Argo CD.'));
    await a.sync();
    await b.pull();
    a.write('deploy.md', topic('Deploy', 'Deploys go through Argo CD, never on Fridays.'));
    await a.sync();
    const fileB = b.write('deploy.md', topic('Deploy', 'Deploys go through Flux now.'));
    await b.sync();
    expect((await a.pull()).copies).toHaveLength(1);
    expect((await b.pull()).copies).toHaveLength(1);
    await b.pull(); // B's version is the newer: it remembers it is in the graph
    // B goes on writing in its note, the conflict not looked at yet.
    b.write('deploy.md', topic('Deploy', 'Deploys go through Flux now. Staging first.'));
    await b.sync();
    const onA = await a.pull();
    expect(read(fileA)).toContain('never on Fridays');
    expect(onA.written).toEqual([]);
    expect(read(onA.copies[0]?.copy ?? '')).toContain('Staging first.');
    // And the other way round.
    a.write('deploy.md', topic('Deploy', 'Deploys go through Argo CD, never on Fridays, never at night.'));
    await a.sync();
    const onB = await b.pull();
    expect(onB.written).toEqual([]);
    expect(read(fileB)).toContain('Staging first.');
    expect(read(onB.copies[0]?.copy ?? '')).toContain('never at night');
  });

  it.each([
    { at: 'while it deletes in the graph', stop: 'delete' as const },
    { at: 'after its first note (the index cannot be written)', stop: 'index' as const },
  ])('a pull interrupted $at: the sync that follows sends none of the notes it wrote, the next pull takes them as its own; nothing doubled, nothing lost', async ({ stop }) => {
    const [a, b] = await pair();
    a.write('one.md', topic('One', 'First note.'));
    a.write('two.md', topic('Two', 'Second note.'));
    await a.sync();
    await a.pull();
    await b.pull();
    rmSync(join(b.memoryDir, 'two.md')); // deleted on B: the next pull takes it out of the graph
    const three = a.write('three.md', topic('Three', 'Third note.'));
    const four = a.write('four.md', topic('Four', 'Fourth note.'));
    await a.sync();
    const graphiti = new GraphitiClient(b.config());
    const index = join(b.memoryDir, 'MEMORY.md');
    try {
      if (stop === 'delete') graphiti.deleteEpisode = () => Promise.reject(new Error('killed'));
      else {
        rmSync(index);
        mkdirSync(join(index, 'x'), { recursive: true });
      }
      await expect(b.pull({ graphiti })).rejects.toThrow();
    } finally {
      await graphiti.close();
    }
    const written = [three, four].map((f) => join(b.memoryDir, f.slice(a.memoryDir.length + 1))).filter((f) => existsSync(f));
    expect(written.length).toBeGreaterThan(0);
    const journal = join(b.config().stateDir, 'pulled.writing.jsonl');
    expect(statSync(journal).mode & 0o777).toBe(0o600);
    if (stop === 'index') rmSync(index, { recursive: true });
    const sent = adds();
    await b.sync(); // the worker syncs before it pulls
    expect(adds()).toBe(sent);
    const again = await b.pull();
    expect(again.copies).toEqual([]);
    expect(again.deletedInGraph).toBe(1);
    expect(again.written.length + written.length).toBe(2);
    expect(existsSync(journal)).toBe(false);
    await b.sync();
    expect(adds()).toBe(sent);
    const onA = await a.pull();
    expect([onA.written, onA.copies]).toEqual([[], []]);
    expect(onA.removed).toEqual([join(a.memoryDir, 'two.md')]);
    expect(machines.server.episodes('main').map((e) => e.content.split('\n').at(-1)).sort()).toEqual(['First note.', 'Fourth note.', 'Third note.']);
  });

  it('a pulled (redacted) note to which a real secret was added here is never replaced by a redacted version: the value is nowhere else', async () => {
    const [a, b] = await pair();
    const first = 'ghp_' + 'R8x2Lq9ZtY4mN7vB3kW1sD6fH0jP5cA2eG8u';
    const added = 'glpat-' + 'Xk3vQ9mZ2pL7wR4tN8yB';
    const fileA = a.write('tokens.md', topic('Tokens', `The deploy token is ${first} for the staging bot.`));
    await a.sync();
    await b.pull();
    const fileB = join(b.memoryDir, 'tokens.md');
    const pulled = read(fileB);
    expect(pulled).toContain('[REDACTED:');
    b.write('tokens.md', pulled.replace('for the staging bot.', `for the staging bot.\n\nThe GitLab token is ${added} for the mirror.`));
    await b.sync();
    expect(machines.server.episodes('main').some((e) => e.content.includes(added))).toBe(false);
    // A merges B's addition (as A sees it: redacted) into its note and deletes the copy.
    const onA = await a.pull();
    expect(onA.copies.map((c) => c.why)).toEqual(['redacted']);
    const copy = read(onA.copies[0]?.copy ?? '');
    const addition = copy.split('\n').find((l) => l.startsWith('The GitLab token is')) ?? '';
    expect(addition).toContain('[REDACTED:');
    rmSync(onA.copies[0]?.copy ?? '');
    a.write('tokens.md', topic('Tokens', `The deploy token is ${first} for the staging bot.\n\n${addition}`));
    await a.sync();
    const onB = await b.pull();
    expect(read(fileB)).toContain(added);
    expect(onB.written).toEqual([]);
    expect(onB.copies).toEqual([expect.objectContaining({ file: fileB, why: 'redacted' })]);
    expect(read(fileA)).toContain(first);
  });

  it('a note holding a <private> block here is never replaced by a version from elsewhere (it cannot hold the block): that version goes beside', async () => {
    const [a, b] = await pair();
    const fileA = a.write('door.md', topic('Door', 'The office opens at 8.\n\n<private>The door code is 4711.</private>'));
    await a.sync();
    expect(machines.server.episodes('main').some((e) => e.content.includes('4711'))).toBe(false);
    await b.pull();
    const fileB = join(b.memoryDir, 'door.md');
    b.write('door.md', read(fileB).replace('The office opens at 8.', 'The office opens at 8, at 9 on Fridays.'));
    await b.sync();
    const onA = await a.pull();
    expect(read(fileA)).toContain('The door code is 4711.');
    expect(onA.written).toEqual([]);
    expect(onA.copies).toEqual([expect.objectContaining({ file: fileA })]);
    expect(read(onA.copies[0]?.copy ?? '')).toContain('at 9 on Fridays');
  });

  it('a machine with a key of its own (link run there instead of link --import): nothing is written, and the report says how to link it; once imported, the notes come', async () => {
    const a = make('laptop');
    const b = make('desktop/src');
    ensureNoteKey(a.config().stateDir);
    ensureNoteKey(b.config().stateDir);
    a.write('build.md', topic('Build', 'The build uses Bun.'));
    await a.sync();
    const r = await b.pull();
    expect([r.written, r.unverified, r.fromOthers]).toEqual([[], 1, 0]);
    expect(formatPullReport(r)).toContain(`\`${cli()} link --import --replace\` here`);
    await importNoteKey(b.config().stateDir, formatNoteKey(ensureNoteKey(a.config().stateDir).key), { replace: true });
    const linked = await b.pull();
    expect(linked.written.map((w) => w.file)).toEqual([join(b.memoryDir, 'build.md')]);
    expect(formatPullReport(linked)).not.toContain('link --import');
  });

  it('notes deleted on both machines at once are forgotten: a later deletion here is passed on, not taken for a lost folder', async () => {
    const [a, b] = await pair();
    for (const n of ['x', 'y', 'z']) a.write(`${n}.md`, topic(n.toUpperCase(), `Note ${n}.`));
    await a.sync();
    await a.pull();
    await b.pull();
    for (const n of ['x', 'y']) {
      rmSync(join(a.memoryDir, `${n}.md`));
      rmSync(join(b.memoryDir, `${n}.md`));
    }
    await a.sync();
    await b.sync();
    await b.pull();
    rmSync(join(b.memoryDir, 'z.md'));
    await b.sync();
    const r = await b.pull();
    expect(r.notDeleted).toEqual([]);
    expect(r.deletedInGraph).toBe(1);
    expect((await a.pull()).removed).toEqual([join(a.memoryDir, 'z.md')]);
  });

  it('a conflict copy edited here (merging in the copy) is never written over by the next version from that machine: that one goes to a copy of its own', async () => {
    const [a, b] = await pair();
    a.write('d.md', topic('D', 'Base.'));
    await a.sync();
    await b.pull();
    a.write('d.md', topic('D', 'Edited on A.'));
    await a.sync();
    const fileB = b.write('d.md', topic('D', 'Edited on B.'));
    await b.sync();
    const first = (await b.pull()).copies[0]?.copy ?? '';
    writeFileSync(first, read(first).replace('Edited on A.', 'Edited on A. Edited on B. (merging by hand, in the copy)'));
    a.write('d.md', topic('D', 'Edited on A again.'));
    await a.sync();
    const r = await b.pull();
    expect(read(first)).toContain('merging by hand, in the copy');
    expect(r.copies).toHaveLength(1);
    expect(r.copies[0]?.copy).not.toBe(first);
    expect(read(r.copies[0]?.copy ?? '')).toContain('Edited on A again.');
    expect(read(fileB)).toContain('Edited on B.');
    // A third version from A replaces its own untouched copy, not the edited one.
    a.write('d.md', topic('D', 'Edited on A a third time.'));
    await a.sync();
    const again = await b.pull();
    expect(again.copies.map((c) => c.copy)).toEqual([r.copies[0]?.copy]);
    expect(read(first)).toContain('merging by hand, in the copy');
  });

  it('a note renamed on A reaches B as a rename, and an edit of it on B does not bring the old name back on A; one note in the graph', async () => {
    const [a, b] = await pair();
    const old = a.write('build.md', topic('Build', 'The build uses Bun.'));
    await a.sync();
    await a.pull();
    await b.pull();
    renameSync(old, join(a.memoryDir, 'ci.md'));
    await a.sync();
    const onB = await b.pull();
    expect(onB.removed).toEqual([join(b.memoryDir, 'build.md')]);
    expect(onB.written.map((w) => w.file)).toEqual([join(b.memoryDir, 'ci.md')]);
    expect(read(join(b.memoryDir, 'MEMORY.md'))).toBe('- [Build](ci.md) — about Build\n');
    b.write('ci.md', topic('Build', 'The build uses Bun 2.'));
    await b.sync();
    await a.pull();
    expect(readdirSync(a.memoryDir).filter((f) => f !== 'MEMORY.md')).toEqual(['ci.md']);
    expect(read(join(a.memoryDir, 'ci.md'))).toContain('Bun 2.');
    await a.sync();
    await machines.server.whenIdle();
    expect(machines.server.episodes('main').map((e) => e.content.split('\n').at(-1))).toEqual(['The build uses Bun 2.']);
  });

  it.each([
    { label: '10 minutes behind', skew: -10 * MIN },
    { label: '10 minutes ahead', skew: 10 * MIN },
  ])('A\'s clock $label: edits made in turn flow both ways (never taken for older), concurrent ones are kept on both sides', async ({ skew }) => {
    const [a, b] = await pair();
    const fileA = writeAt(a, 'n.md', topic('N', 'One, by A.'), 0, skew);
    await a.sync();
    await a.pull();
    await b.pull();
    const fileB = join(b.memoryDir, 'n.md');
    for (const [i, m] of [b, a, b, a].entries()) {
      const text = `Edit ${i}, in turn.`;
      writeAt(m, 'n.md', topic('N', text), (i + 1) * 1000, m === a ? skew : 0);
      await m.sync();
      const other = m === a ? b : a;
      const r = await other.pull();
      expect([r.written.length, r.copies.length]).toEqual([1, 0]);
      expect(read(other === a ? fileA : fileB)).toContain(text);
    }
    writeAt(b, 'n.md', topic('N', 'Concurrent, on B.'), 10_000);
    await b.sync();
    writeAt(a, 'n.md', topic('N', 'Concurrent, on A.'), 11_000, skew);
    await a.sync();
    const onA = await a.pull();
    const onB = await b.pull();
    expect([read(fileA), read(fileB)]).toEqual([expect.stringContaining('Concurrent, on A.'), expect.stringContaining('Concurrent, on B.')]);
    expect(read(onA.copies[0]?.copy ?? '')).toContain('Concurrent, on B.');
    expect(read(onB.copies[0]?.copy ?? '')).toContain('Concurrent, on A.');
  });

  it.each([
    { order: 'edited on B and sent, then deleted on A', edit: 'b' as const, first: 'edit' as const },
    { order: 'deleted on A, then edited on B', edit: 'b' as const, first: 'delete' as const },
    { order: 'edited on A and sent, then deleted on B', edit: 'a' as const, first: 'edit' as const },
    { order: 'deleted on B (and passed on), then edited on A', edit: 'a' as const, first: 'delete' as const },
  ])('deleted on one machine while edited on the other ($order): the edit survives on both, once in the graph', async ({ edit, first }) => {
    const [a, b] = await pair();
    a.write('n.md', topic('N', 'The first version.'));
    await a.sync();
    await a.pull();
    await b.pull();
    const editor = edit === 'a' ? a : b;
    const deleter = edit === 'a' ? b : a;
    const doEdit = async () => {
      editor.write('n.md', topic('N', 'The edit.'));
      await editor.sync();
    };
    const doDelete = async () => {
      rmSync(join(deleter.memoryDir, 'n.md'));
      await deleter.sync();
      if (deleter === b) await b.pull(); // a pulled copy's deletion reaches the graph through pull
    };
    if (first === 'edit') {
      await doEdit();
      await doDelete();
    } else {
      await doDelete();
      await doEdit();
    }
    for (let round = 0; round < 2; round++) for (const m of [a, b]) {
      await m.pull();
      await m.sync();
    }
    for (const m of [a, b]) expect(read(join(m.memoryDir, 'n.md'))).toContain('The edit.');
    await machines.server.whenIdle();
    expect(machines.server.episodes('main').map((e) => e.content.split('\n').at(-1))).toEqual(['The edit.']);
  });

  it('a machine offline for a week: its edit made offline and the week\'s edits, deletions and new notes elsewhere all come through; nothing lost', async () => {
    const [a, b] = await pair();
    const c = make('cloud');
    await link(a, c);
    const WEEK = 7 * 24 * 60 * MIN;
    writeAt(a, 'keep.md', topic('Keep', 'Keep, first.'), -WEEK - 3000);
    writeAt(a, 'gone.md', topic('Gone', 'Gone soon.'), -WEEK - 2000);
    writeAt(a, 'both.md', topic('Both', 'Both, first.'), -WEEK - 1000);
    await a.sync();
    await a.pull();
    await b.pull();
    await c.pull();
    // C goes offline: its edit and its new note wait; its pull fails.
    await machines.server.stop({ keepState: true });
    writeAt(c, 'both.md', topic('Both', 'Both, edited on C offline.'), -WEEK + 1000);
    writeAt(c, 'offline.md', topic('Offline', 'Written on C offline.'), -WEEK + 2000);
    await expect(c.pull()).rejects.toThrow();
    await machines.server.start();
    // The week elsewhere.
    writeAt(a, 'keep.md', topic('Keep', 'Keep, edited on A.'), -3 * 24 * 60 * MIN);
    rmSync(join(a.memoryDir, 'gone.md'));
    writeAt(a, 'both.md', topic('Both', 'Both, edited on A.'), -2 * 24 * 60 * MIN);
    writeAt(a, 'new.md', topic('New', 'New on A.'), -24 * 60 * MIN);
    await a.sync();
    await b.pull();
    // C is back: the worker syncs, then pulls.
    await c.sync();
    const onC = await c.pull();
    expect(onC.written.map((w) => w.file).sort()).toEqual(['keep.md', 'new.md'].map((f) => join(c.memoryDir, f)));
    expect(onC.removed).toEqual([join(c.memoryDir, 'gone.md')]);
    expect(read(join(c.memoryDir, 'both.md'))).toContain('edited on C offline');
    expect(read(onC.copies[0]?.copy ?? '')).toContain('Both, edited on A.');
    const onA = await a.pull();
    expect(onA.written.map((w) => w.file)).toEqual([join(a.memoryDir, 'offline.md')]);
    expect(read(join(a.memoryDir, 'both.md'))).toContain('Both, edited on A.');
    expect(read(onA.copies[0]?.copy ?? '')).toContain('edited on C offline');
    expect((await b.pull()).written.map((w) => w.file)).toEqual([join(b.memoryDir, 'offline.md')]);
  });

  it('a clock 10 minutes behind, several edits in a row on top of a pulled note: each is newer than the last (the other machine gets the last one), and an edit built on an earlier one is not taken for built on the last', async () => {
    const [a, b] = await pair();
    writeAt(b, 'n.md', topic('N', 'From B.'), 0);
    await b.sync();
    await a.pull();
    const fileA = join(a.memoryDir, 'n.md');
    const fileB = join(b.memoryDir, 'n.md');
    writeAt(a, 'n.md', topic('N', 'First edit on A.'), 1000, -10 * MIN);
    await a.sync();
    expect((await b.pull()).written.map((w) => w.file)).toEqual([fileB]);
    writeAt(a, 'n.md', topic('N', 'Second edit on A.'), 2000, -10 * MIN);
    await a.sync();
    expect((await b.pull()).written.map((w) => w.file)).toEqual([fileB]);
    expect(read(fileB)).toContain('Second edit on A.');
    // B edits on top of the second; A makes a third edit meanwhile: a conflict on A, not an overwrite.
    writeAt(a, 'n.md', topic('N', 'Third edit on A.'), 3000, -10 * MIN);
    await a.sync();
    writeAt(b, 'n.md', topic('N', 'Second edit on A, and B\'s.'), 3500);
    await b.sync();
    const onA = await a.pull();
    expect(read(fileA)).toContain('Third edit on A.');
    expect(read(onA.copies[0]?.copy ?? '')).toContain('and B\'s.');
  });
});

