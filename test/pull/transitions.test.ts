/**
 * `pull` under the transitions a person with several machines meets (issue 42, exploratory QA):
 * a checkout moved or cloned twice on one machine, a conflict left open while work goes on, a pull
 * interrupted halfway. Nothing lost, nothing doubled, a local edit never overwritten.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { claudeProjectKey } from '../../src/lib/util/claude-project-key.js';
import { startGraphitiServer, type GraphitiTestServer } from '../support/graphiti-server.js';
import { link, machine, topic, type Machine } from './homes.js';

let server: GraphitiTestServer;
const machines: Machine[] = [];
beforeEach(async () => {
  server = await startGraphitiServer({ processingDelayMs: 0 });
});
afterEach(async () => {
  await server.close();
  for (const m of machines.splice(0)) m.box.cleanup();
});

function make(place: string): Machine {
  const m = machine(server, place);
  machines.push(m);
  return m;
}

async function pair(): Promise<[Machine, Machine]> {
  const a = make('laptop');
  const b = make('desktop/src');
  await link(a, b);
  return [a, b];
}

const read = (file: string) => readFileSync(file, 'utf8');
const adds = () => server.calls.filter((c) => c.tool === 'add_memory').length;
const deletes = () => server.calls.filter((c) => c.tool === 'delete_episode').length;

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
    expect(server.episodes('main').filter((e) => /First note|Second note/.test(e.content))).toHaveLength(2);
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
});
