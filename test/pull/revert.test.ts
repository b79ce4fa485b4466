/**
 * A pulled note edited here, sent, and then reverted to the pulled text before the next pull
 * (issue 42, exploratory QA). Sending the edit made it the note's newest version in the graph, and
 * the other machine gives way to it at its next pull (its own older copy leaves the graph). The
 * reverted file is then this machine's own version of the note (state/pulled.ts `sentOverPulled`),
 * not an untouched pulled copy whose versions are retracted: the graph holds the note exactly once
 * afterwards, and both machines keep it, whatever the order.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseMarker } from '../../src/lib/memory/episode.js';
import { runSync } from '../../src/lib/sync/sync.js';
import { usePullMachines } from '../helpers/use-pull-machines.js';
import { claudeProjectKey } from '../../src/lib/util/claude-project-key.js';
import { link, topic, type Machine } from './homes.js';

const machines = usePullMachines();
const { make, pair } = machines;

const read = (file: string) => readFileSync(file, 'utf8');
/** Each episode as [the origin that sent it, its last line]. */
const graph = () => machines.server.episodes('main').map((e) => [parseMarker(e.source_description)?.origin, e.content.split('\n').at(-1)]);
const originOf = (m: Machine) => m.config().origin;
const ORIGINAL = topic('Build', 'The build uses Bun.');
const EDIT = topic('Build', 'The build uses Bun 2.');

/** Each note file of a machine's memory folder (its conflict copies included) as its last line. */
function onDisk(m: Machine): string[] {
  return readdirSync(m.memoryDir).filter((f) => f !== 'MEMORY.md').sort().map((f) => read(join(m.memoryDir, f)).trimEnd().split('\n').filter((l) => l.trim() !== '' && !l.startsWith('<!--')).at(-1) ?? '');
}

/** A writes the note and sends it, B pulls it. */
async function pulledOnB(): Promise<{ a: Machine; b: Machine; fileA: string; fileB: string }> {
  const [a, b] = await pair();
  const fileA = a.write('build.md', ORIGINAL);
  await sync(a);
  await pull(b);
  return { a, b, fileA, fileB: join(b.memoryDir, 'build.md') };
}

/** A writes the note, B pulls it (and syncs: skipped), B edits it and sends the edit. */
async function editedOnB(): Promise<{ a: Machine; b: Machine; fileA: string; fileB: string; pulledText: string }> {
  const { a, b, fileA, fileB } = await pulledOnB();
  const pulledText = read(fileB);
  await sync(b);
  b.write('build.md', EDIT);
  await sync(b);
  return { a, b, fileA, fileB, pulledText };
}

/**
 * Once both machines have settled: the note once in the graph, as B's version of the original text;
 * A's note holds that text, and B's file is the pulled text it was reverted to.
 */
async function endsOnceOnBoth({ a, b, fileA, fileB, pulledText }: { a: Machine; b: Machine; fileA: string; fileB: string; pulledText: string }): Promise<void> {
  await settle(a, b);
  expect(graph()).toEqual([[originOf(b), 'The build uses Bun.']]);
  expect(read(fileA)).toContain('The build uses Bun.\n');
  expect(read(fileB)).toBe(pulledText);
}

/**
 * Runs one step of machine `m`, and checks it deleted no episode of another machine's (the
 * episodes' origins are read before the step: a deleted one is no longer listed).
 */
async function on<T>(m: Machine, step: (m: Machine) => Promise<T>): Promise<T> {
  const origins = new Map(machines.server.episodes().map((e) => [e.uuid, parseMarker(e.source_description)?.origin]));
  const from = machines.server.calls.length;
  const out = await step(m);
  const deleted = machines.server.calls.slice(from).filter((c) => c.tool === 'delete_episode').map((c) => origins.get(String(c.args.uuid)));
  expect(deleted.filter((o) => o !== originOf(m))).toEqual([]);
  return out;
}
const pull = (m: Machine) => on(m, (x) => x.pull());
const sync = (m: Machine) => on(m, (x) => x.sync());

/** Both machines pull and sync, twice in turn: they agree, and nothing is left to do. */
async function settle(a: Machine, b: Machine): Promise<void> {
  for (const m of [a, b, a, b]) {
    await pull(m);
    await sync(m);
  }
}

describe('pull: a pulled note edited, sent, then reverted', () => {
  it('reverted before the next pull, after the other machine gave way to the edit: the reverted text is this machine\'s own version, in the graph once; both machines keep the note', async () => {
    const { a, b, fileA, fileB, pulledText } = await editedOnB();
    // A takes B's edit and its own older copy leaves the graph.
    expect((await pull(a)).written.map((w) => w.file)).toEqual([fileA]);
    await sync(a);
    expect(graph()).toEqual([[originOf(b), 'The build uses Bun 2.']]);
    // B reverts to the exact text it pulled, before its next pull: it was taken for an untouched
    // pulled copy and B's edit retracted, leaving no version in the graph (and the next pulls then
    // removed the untouched copies on both machines).
    b.write('build.md', pulledText);
    await sync(b);
    expect(graph()).toEqual([[originOf(b), 'The build uses Bun.']]);
    await settle(a, b);
    expect(graph()).toEqual([[originOf(b), 'The build uses Bun.']]);
    expect([existsSync(fileA), existsSync(fileB)]).toEqual([true, true]);
    expect(read(fileA)).toContain('The build uses Bun.\n');
    expect(read(fileB)).toBe(pulledText);
  });

  it('reverted, then pulled before the sync: the pull changes nothing, the sync sends it as this machine\'s own version; once in the graph', async () => {
    const { a, b, fileA, fileB, pulledText } = await editedOnB();
    await pull(a);
    await sync(a);
    b.write('build.md', pulledText);
    const r = await pull(b);
    expect([r.written, r.copies, r.removed]).toEqual([[], [], []]);
    await sync(b);
    await endsOnceOnBoth({ a, b, fileA, fileB, pulledText });
  });

  it('two clones on one machine: edited and sent in the second, taken by the first (its own copy leaves), reverted in the second: once in the graph, in both clones', async () => {
    const m = make('laptop');
    await link(m);
    const second = join(m.box.root, 'review', 'app');
    execFileSync('git', ['init', '-q', second]);
    execFileSync('git', ['-C', second, 'remote', 'add', 'origin', 'https://github.com/me/app']);
    writeFileSync(join(m.box.path('claude'), '.claude.json'), JSON.stringify({ projects: { [m.repo]: {}, [second]: {} } }));
    const secondDir = join(m.box.path('claude'), 'projects', claudeProjectKey(second), 'memory');
    const first = m.write('build.md', ORIGINAL);
    await sync(m);
    expect((await pull(m)).written.map((w) => w.file)).toEqual([join(secondDir, 'build.md')]);
    await sync(m);
    const pulledText = read(join(secondDir, 'build.md'));
    m.box.auto(claudeProjectKey(second), 'build.md', EDIT);
    await sync(m);
    expect((await pull(m)).written.map((w) => w.file)).toEqual([first]);
    await sync(m);
    expect(graph().map(([, line]) => line)).toEqual(['The build uses Bun 2.']);
    m.box.auto(claudeProjectKey(second), 'build.md', pulledText);
    await sync(m);
    for (let round = 0; round < 2; round++) {
      await pull(m);
      await sync(m);
    }
    expect(graph().map(([, line]) => line)).toEqual(['The build uses Bun.']);
    expect(read(first)).toContain('The build uses Bun.\n');
    expect(read(join(secondDir, 'build.md'))).toBe(pulledText);
  });

  it.each([
    ['the other machine pulls first', 'a-first'],
    ['this machine pulls first (it sees the other copy of the text still there)', 'b-first'],
  ])('reverted before the other machine pulled the edit, %s: one copy stays, this machine\'s (the other machine may be giving way to the edit already); both keep the note', async (_, order) => {
    const { a, b, fileA, fileB, pulledText } = await editedOnB();
    b.write('build.md', pulledText);
    await sync(b);
    // Both copies of the text are in the graph now: A's, and B's own version built on it.
    expect(graph().map(([, line]) => line)).toEqual(['The build uses Bun.', 'The build uses Bun.']);
    const [first, second] = order === 'a-first' ? [a, b] : [b, a];
    await pull(first);
    await pull(second);
    await sync(first);
    await sync(second);
    await endsOnceOnBoth({ a, b, fileA, fileB, pulledText });
  });

  it('the other machine\'s file is in the restored form (the same bytes as the revert): it still takes the reverted version for the edit\'s successor, not for its own text; one copy stays', async () => {
    const { a, b, fileA, fileB } = await pulledOnB();
    // A's note takes the restored form (as `pull --all` leaves it), sent as A's version; B takes it.
    a.write('build.md', read(fileB));
    await sync(a);
    await pull(b);
    await sync(b);
    const pulledText = read(fileB);
    b.write('build.md', EDIT);
    await sync(b);
    b.write('build.md', pulledText);
    await sync(b);
    await settle(a, b);
    expect(graph()).toEqual([[originOf(b), 'The build uses Bun.']]);
    expect([existsSync(fileA), existsSync(fileB)]).toEqual([true, true]);
    expect(read(fileB)).toBe(pulledText);
  });

  it('reverted after this machine\'s next pull (which took the edit for its own version): sent as its own version; once in the graph, on both machines', async () => {
    const { a, b, fileA, fileB, pulledText } = await editedOnB();
    await pull(a);
    await sync(a);
    await pull(b);
    b.write('build.md', pulledText);
    await sync(b);
    expect(graph()).toEqual([[originOf(b), 'The build uses Bun.']]);
    await endsOnceOnBoth({ a, b, fileA, fileB, pulledText });
  });

  it('the server dropped the edit, reverted before it was sent again: the note ends in the graph once; both machines keep it', async () => {
    const { a, b, fileA, fileB } = await pulledOnB();
    const pulledText = read(fileB);
    await sync(b);
    b.write('build.md', EDIT);
    machines.server.failNext('drop');
    await on(b, (m) => runSync(m.config(), { waitMs: 0 }));
    await machines.server.whenIdle();
    expect(graph()).toEqual([[originOf(a), 'The build uses Bun.']]);
    b.write('build.md', pulledText);
    await sync(b);
    await endsOnceOnBoth({ a, b, fileA, fileB, pulledText });
  });

  it('edited again while the server was down, then reverted (the other machine gave way to the first edit): once in the graph, on both machines', async () => {
    const { a, b, fileA, fileB, pulledText } = await editedOnB();
    await pull(a);
    await sync(a);
    await machines.server.stop({ keepState: true });
    b.write('build.md', topic('Build', 'The build uses Bun 3.'));
    await on(b, (m) => runSync(m.config(), { waitMs: 0 }));
    await machines.server.start();
    b.write('build.md', pulledText);
    await sync(b);
    await endsOnceOnBoth({ a, b, fileA, fileB, pulledText });
  });

  it.each([
    ['before it pulled the edit', false],
    ['on top of the edit it pulled', true],
  ])('edited on the other machine meanwhile (%s): nothing lost; each text in the graph once, both on each machine', async (_, pulledFirst) => {
    const { a, b, pulledText } = await editedOnB();
    if (pulledFirst) {
      await pull(a);
      await sync(a);
    }
    a.write('build.md', topic('Build', 'The build uses Bun 3.'));
    await sync(a);
    b.write('build.md', pulledText);
    await sync(b);
    await settle(a, b);
    // Both changed since they last agreed (B's change a revert): each keeps its own in place, the other beside it.
    expect(graph().map(([, line]) => line).sort()).toEqual(['The build uses Bun 3.', 'The build uses Bun.']);
    expect(onDisk(a)).toEqual(['The build uses Bun.', 'The build uses Bun 3.']);
    expect(onDisk(b)).toEqual(['The build uses Bun 3.', 'The build uses Bun.']);
  });
});
