/**
 * Notes held for a project not opened on this machine (issue 42): kept in the ledger while the note
 * is in the graph, and counted by `status`. A held note deleted on its machine, or its project opened
 * here, is no longer held: `status` does not go on counting it.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatPullReport } from '../../src/commands/pull-report.js';
import { readPulled } from '../../src/lib/state/pulled.js';
import { claudeProjectKey } from '../../src/lib/util/claude-project-key.js';
import { usePullMachines } from '../helpers/use-pull-machines.js';
import { link, topic } from './homes.js';

const machines = usePullMachines();
const { make } = machines;

describe('pull: held notes', () => {
  it('are reported one line per project, naming three notes and counting the rest: every pull reports them all again, so 40 notes were 40 lines each time', async () => {
    const a = make('laptop');
    const b = make('desktop', 'git@github.com:me/other.git');
    await link(a, b);
    for (let i = 0; i < 40; i += 1) a.write(`n${String(i).padStart(2, '0')}.md`, topic(`Note ${i}`, `Fact number ${i}.`));
    await a.sync();
    const r = await b.pull();
    expect(r.held).toHaveLength(40);
    const held = formatPullReport(r).split('\n').filter((l) => l.startsWith('held'));
    const project = r.held[0]?.project as string;
    expect(held).toEqual([`held     40 notes of project ${project} (not opened on this machine yet): n00.md, n01.md, n02.md and 37 more`]);
    expect(formatPullReport(r)).toContain('0 pulled, 0 new conflict(s), 0 open, 0 removed, 40 held.');
    rmSync(join(a.memoryDir, 'n00.md'));
    for (let i = 2; i < 40; i += 1) rmSync(join(a.memoryDir, `n${String(i).padStart(2, '0')}.md`));
    await a.sync();
    expect(formatPullReport(await b.pull()).split('\n').filter((l) => l.startsWith('held'))).toEqual([`held     n01.md of project ${project} (not opened on this machine yet)`]);
  });


  it('a held note deleted on its machine is no longer held; nor one whose project was opened here', async () => {
    const a = make('laptop');
    const b = make('desktop', 'git@github.com:me/other.git');
    await link(a, b);
    a.write('gone.md', topic('Gone', 'Deleted soon.'));
    a.write('stays.md', topic('Stays', 'Comes in when the project is opened.'));
    await a.sync();
    expect((await b.pull()).held.map((h) => h.path).sort()).toEqual(['gone.md', 'stays.md']);
    expect(Object.keys((await readPulled(b.config().stateDir)).held)).toHaveLength(2);
    rmSync(join(a.memoryDir, 'gone.md'));
    await a.sync();
    expect((await b.pull()).held.map((h) => h.path)).toEqual(['stays.md']);
    expect(Object.values((await readPulled(b.config().stateDir)).held).map((h) => h.path)).toEqual(['stays.md']);
    // The project is opened here, its note already in place (copied by hand from `pull --to`): adopted, not held.
    const to = join(b.box.root, 'held');
    const written = (await b.pull({ to })).held[0]?.written ?? '';
    const app = join(b.box.root, 'code', 'app');
    execFileSync('git', ['init', '-q', app]);
    execFileSync('git', ['-C', app, 'remote', 'add', 'origin', 'git@github.com:me/app.git']);
    writeFileSync(join(b.box.path('claude'), '.claude.json'), JSON.stringify({ projects: { [b.repo]: {}, [app]: {} } }));
    b.box.auto(claudeProjectKey(app), 'stays.md', readFileSync(written, 'utf8'));
    const opened = await b.pull();
    expect([opened.held, opened.written]).toEqual([[], []]);
    expect((await readPulled(b.config().stateDir)).held).toEqual({});
  });
});
